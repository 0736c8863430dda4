import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** Secrets generated once per store and shared by every process on it (the cursor signing key). */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'service_secrets',
      columns: `
        name text primary key
        secret text not null
        created_at bigint not null`,
    },
  ]);
}
