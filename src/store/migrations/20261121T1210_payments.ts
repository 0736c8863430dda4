import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('payment_intents')
    .addColumn('payment_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('rail_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('proof', 'text')
    .addColumn('proof_tx_hash', 'text', (c) => c.unique())
    .addColumn('review_note', 'text')
    .addUniqueConstraint('payment_intents_agent_key', ['agent_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('payment_intents_state').on('payment_intents').columns(['state', 'created_at']).execute();
}
