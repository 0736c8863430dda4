import type { Selectable } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborSandboxTaskMessagesTable, HarborSandboxTasksTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';
import { createTaskUpkeep } from './task-upkeep.js';

export type SandboxTaskRow = HarborSandboxTasksTable;
export type SandboxMessageRow = Selectable<HarborSandboxTaskMessagesTable>;

export function createSandboxTasksRepo(db: Db) {
  return {
    ...createTaskUpkeep(db, { tasks: 'harbor_sandbox_tasks', messages: 'harbor_sandbox_task_messages' }),
    async insert(row: SandboxTaskRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_sandbox_tasks').values(row).execute();
    },
    /** Inserts an onboarding task unless the agent already has one with this key (concurrent first calls race here). */
    async insertOnboarding(row: SandboxTaskRow): Promise<boolean> {
      const result = await db
        .insertInto('harbor_sandbox_tasks')
        .values(row)
        .onConflict((oc) => oc.columns(['assignee_id', 'onboarding_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async findById(taskId: string): Promise<SandboxTaskRow | undefined> {
      return db.selectFrom('harbor_sandbox_tasks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    },
    async onboardingOf(agentId: string): Promise<SandboxTaskRow[]> {
      return db.selectFrom('harbor_sandbox_tasks').selectAll().where('assignee_id', '=', agentId).where('onboarding_key', 'is not', null).execute();
    },
    /** Tasks the agent created or is assigned, newest first, after `after` when given. */
    async listForParticipant(agentId: string, limit: number, after?: ListPosition): Promise<SandboxTaskRow[]> {
      let q = db
        .selectFrom('harbor_sandbox_tasks')
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
    /** Open agent-created (non-onboarding) tasks this agent created. */
    async countOpenCreatedBy(agentId: string, trx: Executor = db): Promise<number> {
      const row = await trx
        .selectFrom('harbor_sandbox_tasks')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('state', '=', 'open')
        .where('onboarding_key', 'is', null)
        .where('creator_id', '=', agentId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** Moves a task out of `fromState`; false when another call changed it first. */
    async transition(taskId: string, fromState: string, patch: Partial<SandboxTaskRow>, trx: Executor = db): Promise<boolean> {
      const result = await trx.updateTable('harbor_sandbox_tasks').set(patch).where('task_id', '=', taskId).where('state', '=', fromState).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async insertMessage(row: Omit<SandboxMessageRow, 'id'>, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_sandbox_task_messages').values(row).execute();
    },
    /** The newest `limit` messages of a task, returned oldest first. */
    async recentMessages(taskId: string, limit: number): Promise<SandboxMessageRow[]> {
      const rows = await db.selectFrom('harbor_sandbox_task_messages').selectAll().where('task_id', '=', taskId).orderBy('id', 'desc').limit(limit).execute();
      return rows.reverse();
    },
  };
}
export type SandboxTasksRepo = ReturnType<typeof createSandboxTasksRepo>;
