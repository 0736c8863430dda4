import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** Operator console sessions (docs/decisions/054): the cookie's token is stored hashed, with its CSRF token and lifetimes. */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'console_sessions',
      columns: `
        token_hash text primary key
        csrf text not null
        created_at bigint not null
        last_seen_at bigint not null
        expires_at bigint not null`,
    },
  ]);
}
