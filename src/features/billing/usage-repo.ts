import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import type { UsageLedgerTable } from '../../store/schema.js';

/** A ledger line's counts as the meter sums them (the store adds updated_at). */
export type UsageRow = Omit<UsageLedgerTable, 'updated_at' | 'failed_calls'> & { failed_calls: number };

/** Per-operation totals of one caller (or of everyone) over days from `since` on. */
export interface UsageTotal {
  operation_id: string;
  day: string;
  calls: number;
  charged_calls: number;
  cost_milli: number;
}

export interface AccountTotal {
  caller_kind: string;
  agent_id: string;
  calls: number;
  charged_calls: number;
  cost_milli: number;
}

// 10 columns a row: keeps each statement under SQLite's bound-parameter ceiling
const UPSERT_CHUNK = 100;

export function createUsageRepo(db: Db) {
  return {
    /** Adds each row's counts to its (agent, day, operation, caller kind) ledger line. */
    async addBatch(rows: readonly UsageRow[], now: number): Promise<void> {
      for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
        await db
          .insertInto('usage_ledger')
          .values(rows.slice(i, i + UPSERT_CHUNK).map((r) => ({ ...r, updated_at: now })))
          .onConflict((oc) =>
            oc.columns(['agent_id', 'day', 'operation_id', 'caller_kind']).doUpdateSet({
              calls: sql`usage_ledger.calls + excluded.calls`,
              charged_calls: sql`usage_ledger.charged_calls + excluded.charged_calls`,
              cost_milli: sql`usage_ledger.cost_milli + excluded.cost_milli`,
              failed_calls: sql`usage_ledger.failed_calls + excluded.failed_calls`,
              last_call_at: sql`case when usage_ledger.last_call_at is null or excluded.last_call_at > usage_ledger.last_call_at then excluded.last_call_at else usage_ledger.last_call_at end`,
              updated_at: sql`excluded.updated_at`,
            }),
          )
          .execute();
      }
    },

    /** One agent's ledger lines from day `since` (YYYY-MM-DD) on. */
    async agentLines(agentId: string, since: string): Promise<UsageTotal[]> {
      const rows = await db
        .selectFrom('usage_ledger')
        .select(['operation_id', 'day', 'calls', 'charged_calls', 'cost_milli'])
        .where('caller_kind', '=', 'agent')
        .where('agent_id', '=', agentId)
        .where('day', '>=', since)
        .execute();
      return rows.map(numeric);
    },

    /** Everyone's lines from `since` on, summed per caller kind, operation and day. */
    async allLines(since: string): Promise<Array<UsageTotal & { caller_kind: string }>> {
      const rows = await db
        .selectFrom('usage_ledger')
        .select((eb) => [
          'caller_kind',
          'operation_id',
          'day',
          eb.fn.sum<string | number>('calls').as('calls'),
          eb.fn.sum<string | number>('charged_calls').as('charged_calls'),
          eb.fn.sum<string | number>('cost_milli').as('cost_milli'),
        ])
        .where('day', '>=', since)
        .groupBy(['caller_kind', 'operation_id', 'day'])
        .execute();
      return rows.map((r) => ({ caller_kind: r.caller_kind, ...numeric(r) }));
    },

    /** Distinct agents with calls from `since` on. */
    async distinctAgents(since: string): Promise<number> {
      const row = await db
        .selectFrom('usage_ledger')
        .select((eb) => eb.fn.count<string | number>('agent_id').distinct().as('n'))
        .where('caller_kind', '=', 'agent')
        .where('day', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Totals per account (caller kind + agent) from `since` on, ordered by account, after `after`. */
    async accounts(since: string, options: { after: { callerKind: string; agentId: string } | null; agentId?: string; limit: number }): Promise<AccountTotal[]> {
      let q = db
        .selectFrom('usage_ledger')
        .select((eb) => [
          'caller_kind',
          'agent_id',
          eb.fn.sum<string | number>('calls').as('calls'),
          eb.fn.sum<string | number>('charged_calls').as('charged_calls'),
          eb.fn.sum<string | number>('cost_milli').as('cost_milli'),
        ])
        .where('day', '>=', since)
        .groupBy(['caller_kind', 'agent_id'])
        .orderBy('caller_kind')
        .orderBy('agent_id')
        .limit(options.limit);
      if (options.agentId !== undefined) q = q.where('caller_kind', '=', 'agent').where('agent_id', '=', options.agentId);
      const after = options.after;
      if (after) q = q.where((eb) => eb.or([eb('caller_kind', '>', after.callerKind), eb.and([eb('caller_kind', '=', after.callerKind), eb('agent_id', '>', after.agentId)])]));
      const rows = await q.execute();
      return rows.map((r) => ({ caller_kind: r.caller_kind, agent_id: r.agent_id, calls: Number(r.calls), charged_calls: Number(r.charged_calls), cost_milli: Number(r.cost_milli) }));
    },

    /** Per-operation totals of the given accounts from `since` on. */
    async accountOperations(since: string, agentIds: readonly string[]): Promise<Array<{ caller_kind: string; agent_id: string; operation_id: string; calls: number; cost_milli: number }>> {
      if (agentIds.length === 0) return [];
      const rows = await db
        .selectFrom('usage_ledger')
        .select((eb) => ['caller_kind', 'agent_id', 'operation_id', eb.fn.sum<string | number>('calls').as('calls'), eb.fn.sum<string | number>('cost_milli').as('cost_milli')])
        .where('day', '>=', since)
        .where('agent_id', 'in', [...agentIds])
        .groupBy(['caller_kind', 'agent_id', 'operation_id'])
        .execute();
      return rows.map((r) => ({ caller_kind: r.caller_kind, agent_id: r.agent_id, operation_id: r.operation_id, calls: Number(r.calls), cost_milli: Number(r.cost_milli) }));
    },

    /** Deletes ledger lines of days before `day`; returns how many. */
    async deleteBefore(day: string): Promise<number> {
      const r = await db.deleteFrom('usage_ledger').where('day', '<', day).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type UsageRepo = ReturnType<typeof createUsageRepo>;

const numeric = (r: { operation_id: string; day: string; calls: number | string; charged_calls: number | string; cost_milli: number | string }): UsageTotal => ({
  operation_id: r.operation_id,
  day: r.day,
  calls: Number(r.calls),
  charged_calls: Number(r.charged_calls),
  cost_milli: Number(r.cost_milli),
});
