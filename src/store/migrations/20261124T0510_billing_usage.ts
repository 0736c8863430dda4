import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * The usage ledger (docs/billing.md): calls and charged cost per caller, operation and UTC day, cost in
 * integer milli-units so sums are exact. Rows are upserted in batches by the usage meter.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'usage_ledger',
      columns: `
        day text not null
        caller_kind text not null
        agent_id text not null
        operation_id text not null
        calls bigint not null
        charged_calls bigint not null
        cost_milli bigint not null
        updated_at bigint not null
        constraint usage_ledger_pk primary key (agent_id, day, operation_id, caller_kind)`,
      indexes: `
        usage_ledger_day (day, agent_id)`,
    },
  ]);
}
