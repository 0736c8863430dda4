import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Source rows imported by `bosun import ports` (one per World Port Index number or LOCODE), laid over
 * the shipped port table's sources, and a counter every import that records rows bumps in the same
 * transaction: processes rebuild their table when it moved (docs/decisions/026).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_import_rows',
      columns: `
        kind text not null
        key text not null
        row text not null
        source_file text not null
        line integer not null
        imported_at bigint not null
        constraint port_import_rows_pk primary key (kind, key)`,
    },
    {
      name: 'port_import_version',
      columns: `
        id integer primary key
        version bigint not null`,
    },
  ]);
  await db.insertInto('port_import_version').values({ id: 1, version: 0 }).execute();
}
