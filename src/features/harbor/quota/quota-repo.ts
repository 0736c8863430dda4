import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';

export function createQuotaRepo(db: Db) {
  return {
    async record(row: { agent_id: string; operation: string; is_create: number; at: number }, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_action_ledger').values(row).execute();
    },
    /** Count and oldest time of an agent's recorded actions since `since` (creates only when asked). */
    async window(agentId: string, since: number, createsOnly: boolean, trx: Executor = db): Promise<{ count: number; oldest: number | null }> {
      let q = trx
        .selectFrom('harbor_action_ledger')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('at').as('oldest')])
        .where('agent_id', '=', agentId)
        .where('at', '>', since);
      if (createsOnly) q = q.where('is_create', '=', 1);
      const row = await q.executeTakeFirstOrThrow();
      return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
    },
    async deleteOlderThan(cutoff: number): Promise<number> {
      const result = await db.deleteFrom('harbor_action_ledger').where('at', '<=', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type QuotaRepo = ReturnType<typeof createQuotaRepo>;
