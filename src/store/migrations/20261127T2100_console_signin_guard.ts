import type { Kysely } from 'kysely';

/**
 * Console sign-in lockout per key with backoff, and the browsers the operator signed in from
 * (docs/decisions/106). A guard row counts the failed sign-ins of one key (a client address, or a
 * known browser's device cookie), hashed; `locked_until` (epoch ms) is set once the failures reach
 * the threshold. A device row is a device cookie's token, hashed, valid until `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_signin_guard')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('console_devices')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_signin_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
