import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('harbor_sandbox_tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.references('agents.agent_id').onDelete('cascade'))
    .addColumn('assignee_id', 'text', (c) => c.references('agents.agent_id').onDelete('cascade'))
    .addColumn('onboarding_key', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('closed_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_sandbox_tasks_creator').on('harbor_sandbox_tasks').columns(['creator_id', 'state']).execute();
  await db.schema.createIndex('harbor_sandbox_tasks_assignee').on('harbor_sandbox_tasks').columns(['assignee_id', 'state']).execute();
  await db.schema.createIndex('harbor_sandbox_tasks_onboarding').on('harbor_sandbox_tasks').columns(['assignee_id', 'onboarding_key']).unique().execute();
  await db.schema.createIndex('harbor_sandbox_tasks_activity').on('harbor_sandbox_tasks').column('last_activity_at').execute();
  await d
    .addAutoId(db.schema.createTable('harbor_sandbox_task_messages'), 'id')
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('harbor_sandbox_tasks.task_id').onDelete('cascade'))
    .addColumn('author_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_sandbox_task_messages_task').on('harbor_sandbox_task_messages').columns(['task_id', 'created_at']).execute();

  await db.schema
    .createTable('harbor_tasks')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('creator_id', 'text', (c) => c.references('agents.agent_id').onDelete('cascade'))
    .addColumn('assignee_id', 'text', (c) => c.references('agents.agent_id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('vessel_ref', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('assigned_at', 'bigint')
    .addColumn('accepted_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_tasks_creator').on('harbor_tasks').columns(['creator_id', 'created_at']).execute();
  await db.schema.createIndex('harbor_tasks_assignee').on('harbor_tasks').columns(['assignee_id', 'state']).execute();
  await db.schema.createIndex('harbor_tasks_activity').on('harbor_tasks').column('last_activity_at').execute();
  await d
    .addAutoId(db.schema.createTable('harbor_task_messages'), 'id')
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('task_id', 'text', (c) => c.notNull().references('harbor_tasks.task_id').onDelete('cascade'))
    .addColumn('author_kind', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_task_messages_task').on('harbor_task_messages').columns(['task_id', 'created_at']).execute();
  await db.schema
    .createTable('harbor_task_completions')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('onboarding_key', 'text')
    .addColumn('completed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_task_completions_agent').on('harbor_task_completions').columns(['agent_id', 'kind']).execute();
}
