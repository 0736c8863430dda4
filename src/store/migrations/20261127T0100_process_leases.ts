import type { Kysely } from 'kysely';

/**
 * Named leases between the processes sharing one store (docs/decisions/100): the feed owner (feeds,
 * the demo fleet and its backfill run in the one process holding `feeds`). A lease is held by `owner`
 * until `lease_until` (epoch ms); a holder renews it, anyone may take it once it has lapsed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('process_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
