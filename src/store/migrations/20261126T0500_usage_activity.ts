import { sql, type Kysely } from 'kysely';

/**
 * Per-agent activity moves from an index over every telemetry row to the usage ledger (decision 071):
 * the ledger line of (agent, day, operation, caller kind) also counts failed calls and keeps the time of
 * its last call, and the (agent_id, ts) index of request_telemetry — a random insert per request in a
 * B-tree keyed by agent — goes. Lines written before this migration take their last update as their
 * last call and count no failures (none were recorded per agent then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('usage_ledger')
    .addColumn('failed_calls', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('usage_ledger').addColumn('last_call_at', 'bigint').execute();
  await sql`update usage_ledger set last_call_at = updated_at`.execute(db);
  await db.schema.dropIndex('request_telemetry_agent_ts').execute();
}
