import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * The usage ledger (docs/billing.md): calls and charged cost per caller, operation and UTC day, cost in
 * integer milli-units so sums are exact. Rows are upserted in batches by the usage meter.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('usage_ledger')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('caller_kind', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('calls', 'bigint', (c) => c.notNull())
    .addColumn('charged_calls', 'bigint', (c) => c.notNull())
    .addColumn('cost_milli', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_ledger_pk', ['agent_id', 'day', 'operation_id', 'caller_kind'])
    .execute();
  await db.schema.createIndex('usage_ledger_day').on('usage_ledger').columns(['day', 'agent_id']).execute();
}
