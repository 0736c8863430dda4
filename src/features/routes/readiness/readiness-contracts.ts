import type { TObject, TSchema } from '@sinclair/typebox';
import type { CatalogView } from '../../../catalog/catalog.js';
import { round } from '../../../platform/stats.js';

/** The contract of the routes section as the catalog declares it: pure functions of the catalog. */

export const routesEntries = (catalog: CatalogView) => catalog.all.filter((e) => e.section === 'routes');
export const routesOperationIds = (catalog: CatalogView) => routesEntries(catalog).map((e) => e.operationId);

const typeOf = (s: TSchema): string => (typeof s.type === 'string' ? s.type : s.anyOf ? 'union' : 'any');

/** Every routes operation with what its route declares (a planned operation, without a route: nulls). */
export function contractRows(catalog: CatalogView) {
  const implemented = new Map(catalog.implemented.map((o) => [o.entry.operationId, o.route]));
  return routesEntries(catalog).map((entry) => {
    const route = implemented.get(entry.operationId);
    const query = route?.query as TObject | undefined;
    const required = new Set(query?.required ?? []);
    return {
      operation_id: entry.operationId,
      method: entry.method,
      path: entry.path,
      status: route ? ('implemented' as const) : ('planned' as const),
      access: entry.access,
      cost: entry.cost,
      stability: entry.stability,
      parameters: route ? Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, required: required.has(name), type: typeOf(schema as TSchema) })) : null,
      query_schema: route ? query !== undefined : null,
      response_schema: route ? route.response !== undefined : null,
      errors: route ? [...(route.errors ?? [])] : null,
      examples: route ? route.examples.length : null,
    };
  });
}
export type ContractRow = ReturnType<typeof contractRows>[number];

export function contractMatrixView(rows: ContractRow[], status: 'implemented' | 'planned' | undefined) {
  const listed = status ? rows.filter((r) => r.status === status) : rows;
  return {
    data: {
      section: 'routes' as const,
      counts: { operations: rows.length, implemented: rows.filter((r) => r.status === 'implemented').length, planned: rows.filter((r) => r.status === 'planned').length, listed: listed.length },
      operations: listed,
    },
  };
}

/** How many implemented operations declare each part of their contract, and the gaps of each. */
export function schemaCoverageFacts(rows: readonly ContractRow[]) {
  const implemented = rows.filter((r) => r.status === 'implemented');
  const gaps = implemented
    .map((r) => ({
      operation_id: r.operation_id,
      missing: [!r.query_schema && 'query_schema', !r.response_schema && 'response_schema', r.examples === 0 && 'examples', r.errors?.length === 0 && 'declared_errors'].filter(
        (m): m is string => typeof m === 'string',
      ),
    }))
    .filter((g) => g.missing.length > 0);
  const n = implemented.length;
  const shareOf = (count: number) => (n > 0 ? round(count / n) : null);
  const counted = (has: (r: ContractRow) => boolean) => {
    const count = implemented.filter(has).length;
    return { count, share: shareOf(count) };
  };
  return {
    operations: rows.length,
    implemented: n,
    planned: rows.length - n,
    implemented_share: rows.length ? round(n / rows.length) : null,
    with_query_schema: counted((r) => r.query_schema === true),
    with_response_schema: counted((r) => r.response_schema === true),
    with_examples: counted((r) => (r.examples ?? 0) > 0),
    with_declared_errors: counted((r) => (r.errors?.length ?? 0) > 0),
    complete: { count: n - gaps.length, share: shareOf(n - gaps.length) },
    gaps,
  };
}
