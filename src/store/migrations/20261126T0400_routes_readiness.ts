import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Readiness snapshots of the routes section (docs/routes-readiness.md, decision 068): one row each time
 * readiness is computed (a request, at most one a minute) or the periodic job runs; `checks` is JSON.
 */
export async function up(db: Kysely<any>, dialect: DialectHelpers): Promise<void> {
  await dialect
    .addAutoId(db.schema.createTable('route_readiness_snapshots'), 'id')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('ready', 'integer', (c) => c.notNull())
    .addColumn('passed', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('checks', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('route_readiness_snapshots_at').on('route_readiness_snapshots').column('at').execute();
}
