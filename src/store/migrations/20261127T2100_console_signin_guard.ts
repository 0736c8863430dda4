import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Console sign-in lockout per key with backoff, and the browsers the operator signed in from
 * (docs/decisions/106). A guard row counts the failed sign-ins of one key (a client address, or a
 * known browser's device cookie), hashed; `locked_until` (epoch ms) is set once the failures reach
 * the threshold. A device row is a device cookie's token, hashed, valid until `expires_at`.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'console_signin_guard',
      columns: `
        key_hash text primary key
        kind text not null
        label text not null
        failures integer not null
        first_failure_at bigint not null
        locked_until bigint
        updated_at bigint not null`,
    },
    {
      name: 'console_devices',
      columns: `
        token_hash text primary key
        created_at bigint not null
        last_signin_at bigint not null
        expires_at bigint not null`,
    },
  ]);
}
