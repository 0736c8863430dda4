import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Named leases between the processes sharing one store (docs/decisions/100): the feed owner (feeds,
 * the demo fleet and its backfill run in the one process holding `feeds`). A lease is held by `owner`
 * until `lease_until` (epoch ms); a holder renews it, anyone may take it once it has lapsed.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'process_leases',
      columns: `
        name text primary key
        owner text
        lease_until bigint not null
        acquired_at bigint
        updated_at bigint not null`,
    },
  ]);
}
