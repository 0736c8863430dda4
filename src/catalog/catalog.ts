import type { RouteDefinition } from '../http/route.js';
import { CATALOG } from './entries.js';
import type { CatalogEntry, Section } from './types.js';

export interface ImplementedOperation {
  entry: CatalogEntry;
  route: RouteDefinition;
}

export interface CatalogView {
  all: readonly CatalogEntry[];
  implemented: readonly ImplementedOperation[];
  /** Implemented operations of public discovery (OpenAPI, capabilities, examples, services): closed ones left out. */
  discoverable: readonly ImplementedOperation[];
  planned: readonly CatalogEntry[];
  byOperationId: ReadonlyMap<string, CatalogEntry>;
  isImplemented(operationId: string): boolean;
  counts(): Array<{ section: Section; implemented: number; planned: number }>;
}

/** Joins the catalog with the feature routes; an entry with a bound handler is implemented. */
export function buildCatalogView(routes: readonly RouteDefinition[], entries: readonly CatalogEntry[] = CATALOG): CatalogView {
  const byOperationId = new Map(entries.map((e) => [e.operationId, e]));
  const implemented: ImplementedOperation[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    const entry = byOperationId.get(route.operationId);
    if (!entry) throw new Error(`route ${route.operationId} has no catalog entry`);
    if (seen.has(route.operationId)) throw new Error(`route ${route.operationId} is bound twice`);
    seen.add(route.operationId);
    implemented.push({ entry, route });
  }
  const planned = entries.filter((e) => !seen.has(e.operationId));
  return {
    all: entries,
    implemented,
    discoverable: implemented.filter((o) => o.entry.discovery !== 'closed'),
    planned,
    byOperationId,
    isImplemented: (id) => seen.has(id),
    counts() {
      const sections = [...new Set(entries.map((e) => e.section))];
      return sections.map((section) => ({
        section,
        implemented: implemented.filter((o) => o.entry.section === section).length,
        planned: planned.filter((e) => e.section === section).length,
      }));
    },
  };
}
