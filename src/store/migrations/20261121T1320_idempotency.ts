import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'idempotency_records',
      columns: `
        caller text not null
        idem_key text not null
        fingerprint text not null
        state text not null
        response text
        created_at bigint not null
        expires_at bigint not null
        constraint idempotency_records_pk primary key (caller, idem_key)`,
      indexes: `
        idempotency_records_expires (expires_at)`,
    },
  ]);
}
