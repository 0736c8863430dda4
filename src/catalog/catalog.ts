import { CATALOG } from './entries.js';
import type { CatalogEntry, OperationContract, Section } from './types.js';

/** A catalog entry bound to its route: R is the published contract, or the full route definition for the HTTP layer. */
export interface ImplementedOperation<R extends OperationContract = OperationContract> {
  entry: CatalogEntry;
  route: R;
}

export interface CatalogView<R extends OperationContract = OperationContract> {
  all: readonly CatalogEntry[];
  implemented: readonly ImplementedOperation<R>[];
  /** Implemented operations of public discovery (OpenAPI, capabilities, examples, services): closed ones left out. */
  discoverable: readonly ImplementedOperation<R>[];
  planned: readonly CatalogEntry[];
  byOperationId: ReadonlyMap<string, CatalogEntry>;
  isImplemented(operationId: string): boolean;
  counts(): Array<{ section: Section; implemented: number; planned: number }>;
}

/** Joins the catalog with the feature routes; an entry with a bound handler is implemented. */
export function buildCatalogView<R extends OperationContract>(routes: readonly R[], entries: readonly CatalogEntry[] = CATALOG): CatalogView<R> {
  const byOperationId = new Map(entries.map((e) => [e.operationId, e]));
  const implemented: ImplementedOperation<R>[] = [];
  const seen = new Set<string>();
  for (const route of routes) {
    const entry = byOperationId.get(route.operationId);
    if (!entry) throw new Error(`route ${route.operationId} has no catalog entry`);
    if (seen.has(route.operationId)) throw new Error(`route ${route.operationId} is bound twice`);
    seen.add(route.operationId);
    implemented.push({ entry, route });
  }
  // the catalog's order, whatever order the areas bind their operations in
  const position = new Map(entries.map((e, i) => [e.operationId, i]));
  implemented.sort((a, b) => position.get(a.entry.operationId)! - position.get(b.entry.operationId)!);
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
