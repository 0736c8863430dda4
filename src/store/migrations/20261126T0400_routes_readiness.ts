import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Readiness snapshots of the routes section (docs/routes-readiness.md, decision 068): one row each time
 * readiness is computed (a request, at most one a minute) or the periodic job runs; `checks` is JSON.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'route_readiness_snapshots',
      columns: `
        id autoincrement
        at bigint not null
        ready integer not null
        passed integer not null
        total integer not null
        origin text not null
        checks text not null`,
      indexes: `
        route_readiness_snapshots_at (at)`,
    },
  ]);
}
