import type { CatalogView } from '../catalog/catalog.js';
import { entryHeading, type CatalogEntry } from '../catalog/types.js';
import { AppError } from '../platform/errors.js';

/** `/v1/vessels/{vsl_id}/positions` → a pattern matching any value of the path parameters. */
export const pathPattern = (path: string) => new RegExp('^' + path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '/?$');

/** The catalog entry as a planned operation's refusal publishes it (data.operation). */
export function plannedOperationData(entry: CatalogEntry) {
  return {
    ...entryHeading(entry),
    cost: entry.cost,
    stability: entry.stability,
    scopes: [...entry.scopes],
    summary: entry.summary,
    status: 'planned' as const,
  };
}

/**
 * Tells a catalogued but unimplemented operation from a typo: `find(method, pathname)` answers the
 * operation_planned refusal (501, not retryable) with the catalog entry, or null when nothing planned
 * matches. Closed operations are never planned here (they are implemented or unknown).
 */
export function plannedOperations(view: CatalogView) {
  const patterns = view.planned.filter((e) => e.discovery !== 'closed').map((entry) => ({ entry, pattern: pathPattern(entry.path) }));
  return {
    find(method: string, pathname: string): { error: AppError; data: { operation: ReturnType<typeof plannedOperationData> } } | null {
      const wanted = method === 'HEAD' ? 'GET' : method;
      const hit = patterns.find((p) => p.entry.method === wanted && p.pattern.test(pathname));
      if (!hit) return null;
      const { entry } = hit;
      return {
        error: new AppError(
          'operation_planned',
          `${entry.method} ${entry.path} (${entry.operationId}) is catalogued but not implemented on this service yet; see data.operation and /v1/capabilities for what is available`,
        ),
        data: { operation: plannedOperationData(entry) },
      };
    },
  };
}
