import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';

/** The two task stores: production tasks and sandbox tasks, each a task table with its message table. */
export type TaskTables = { tasks: 'harbor_tasks'; messages: 'harbor_task_messages' } | { tasks: 'harbor_sandbox_tasks'; messages: 'harbor_sandbox_task_messages' };

/** The agent's part in a task (the assignee's, when an agent is both); null when it takes no part. */
export function participantRole(task: { creator_id: string | null; assignee_id: string | null }, agentId: string): 'creator' | 'assignee' | null {
  if (task.assignee_id === agentId) return 'assignee';
  if (task.creator_id === agentId) return 'creator';
  return null;
}

/** What both task stores do the same way, whatever their rows hold: activity, message counts, clean-up. */
export function createTaskUpkeep(db: Db, tables: TaskTables) {
  return {
    async touch(taskId: string, at: number, trx: Executor = db): Promise<void> {
      await trx.updateTable(tables.tasks).set({ updated_at: at, last_activity_at: at }).where('task_id', '=', taskId).execute();
    },
    async countMessages(taskId: string): Promise<number> {
      const row = await db
        .selectFrom(tables.messages)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('task_id', '=', taskId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** Deletes tasks, with their messages, whose last activity is at or before `cutoff`. */
    async deleteInactiveSince(cutoff: number): Promise<number> {
      const stale = db.selectFrom(tables.tasks).select('task_id').where('last_activity_at', '<=', cutoff);
      await db.deleteFrom(tables.messages).where('task_id', 'in', stale).execute();
      const result = await db.deleteFrom(tables.tasks).where('last_activity_at', '<=', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
