import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** Operator console sessions (docs/decisions/054): the cookie's token is stored hashed, with its CSRF token and lifetimes. */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
