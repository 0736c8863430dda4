import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * The resource_infra ingest lock (docs/decisions/057): one row per lock name, held by one ingest at a
 * time until its lease lapses; a second ingest is refused (ingest_in_progress) while it is held and
 * takes it over once the holder stopped renewing it.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'infra_ingest_lock',
      columns: `
        name text primary key
        owner text
        lease_until bigint not null
        acquired_at bigint not null
        holder text`,
    },
  ]);
}
