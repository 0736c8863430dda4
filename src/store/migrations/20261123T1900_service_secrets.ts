import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** Secrets generated once per store and shared by every process on it (the cursor signing key). */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('service_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
