import type { Kysely } from 'kysely';

/**
 * The resource_infra ingest lock (docs/decisions/057): one row per lock name, held by one ingest at a
 * time until its lease lapses; a second ingest is refused (ingest_in_progress) while it is held and
 * takes it over once the holder stopped renewing it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('infra_ingest_lock')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text')
    .execute();
}
