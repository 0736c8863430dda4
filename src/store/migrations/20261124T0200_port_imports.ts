import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Source rows imported by `bosun import ports` (one per World Port Index number or LOCODE), laid over
 * the shipped port table's sources, and a counter every import that records rows bumps in the same
 * transaction: processes rebuild their table when it moved (docs/decisions/026).
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('port_import_rows')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('row', 'text', (c) => c.notNull())
    .addColumn('source_file', 'text', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('port_import_rows_pk', ['kind', 'key'])
    .execute();
  await db.schema
    .createTable('port_import_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('port_import_version').values({ id: 1, version: 0 }).execute();
}
