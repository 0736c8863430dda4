import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('idempotency_records')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['caller', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_records_expires').on('idempotency_records').column('expires_at').execute();
}
