import type { Selectable } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborTaskMessagesTable, HarborTasksTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';
import { createTaskUpkeep } from './task-upkeep.js';

export type ProductionTaskRow = HarborTasksTable;
export type ProductionMessageRow = Selectable<HarborTaskMessagesTable>;

export function createProductionTasksRepo(db: Db) {
  return {
    ...createTaskUpkeep(db, { tasks: 'harbor_tasks', messages: 'harbor_task_messages' }),
    async insert(row: ProductionTaskRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_tasks').values(row).execute();
    },
    async findById(taskId: string): Promise<ProductionTaskRow | undefined> {
      return db.selectFrom('harbor_tasks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    },
    /** Tasks the agent created or is assigned, newest first, after `after` when given. */
    async listForParticipant(agentId: string, limit: number, after?: ListPosition): Promise<ProductionTaskRow[]> {
      let q = db
        .selectFrom('harbor_tasks')
        .selectAll()
        .where((eb) => eb.or([eb('creator_id', '=', agentId), eb('assignee_id', '=', agentId)]))
        .orderBy('created_at', 'desc')
        .orderBy('task_id', 'desc')
        .limit(limit);
      if (after) {
        q = q.where(olderThan('task_id', after));
      }
      return q.execute();
    },
    async listForOperator(filter: { state?: string; limit: number }): Promise<ProductionTaskRow[]> {
      let q = db.selectFrom('harbor_tasks').selectAll().orderBy('created_at', 'desc').orderBy('task_id', 'desc').limit(filter.limit);
      if (filter.state) q = q.where('state', '=', filter.state);
      return q.execute();
    },
    async countAcceptedBy(agentId: string, trx: Executor = db): Promise<number> {
      const row = await trx
        .selectFrom('harbor_tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('assignee_id', '=', agentId)
        .where('state', '=', 'accepted')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** Applies `patch` only while the task is still in one of `fromStates` (and with `assigneeId` when given). */
    async transition(taskId: string, fromStates: readonly string[], patch: Partial<ProductionTaskRow>, assigneeId?: string, trx: Executor = db): Promise<boolean> {
      let q = trx.updateTable('harbor_tasks').set(patch).where('task_id', '=', taskId).where('state', 'in', fromStates);
      if (assigneeId !== undefined) q = q.where('assignee_id', '=', assigneeId);
      const result = await q.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async insertMessage(row: Omit<ProductionMessageRow, 'id'>, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_task_messages').values(row).execute();
    },
    /** The newest `limit` messages of a task, returned oldest first. */
    async recentMessages(taskId: string, limit: number): Promise<ProductionMessageRow[]> {
      const rows = await db.selectFrom('harbor_task_messages').selectAll().where('task_id', '=', taskId).orderBy('id', 'desc').limit(limit).execute();
      return rows.reverse();
    },
  };
}
export type ProductionTasksRepo = ReturnType<typeof createProductionTasksRepo>;
