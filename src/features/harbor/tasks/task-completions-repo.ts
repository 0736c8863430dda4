import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborTaskCompletionsTable } from '../../../store/schema.js';

export type TaskCompletionKind = 'onboarding' | 'production';

export function createTaskCompletionsRepo(db: Db) {
  return {
    async record(row: HarborTaskCompletionsTable, trx: Executor = db): Promise<void> {
      await trx
        .insertInto('harbor_task_completions')
        .values(row)
        .onConflict((oc) => oc.column('task_id').doNothing())
        .execute();
    },
    async count(agentId: string, kind: TaskCompletionKind): Promise<number> {
      const row = await db
        .selectFrom('harbor_task_completions')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('agent_id', '=', agentId)
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async completedOnboardingKeys(agentId: string): Promise<Set<string>> {
      const rows = await db.selectFrom('harbor_task_completions').select('onboarding_key').where('agent_id', '=', agentId).where('kind', '=', 'onboarding').execute();
      return new Set(rows.map((r) => r.onboarding_key).filter((k): k is string => k !== null));
    },
  };
}
export type TaskCompletionsRepo = ReturnType<typeof createTaskCompletionsRepo>;
