import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'harbor_sandbox_tasks',
      columns: `
        task_id text primary key
        creator_id text references agents.agent_id on delete cascade
        assignee_id text references agents.agent_id on delete cascade
        onboarding_key text
        title text not null
        description text not null
        state text not null
        closed_by text
        created_at bigint not null
        updated_at bigint not null
        closed_at bigint
        last_activity_at bigint not null`,
      indexes: `
        harbor_sandbox_tasks_creator (creator_id, state)
        harbor_sandbox_tasks_assignee (assignee_id, state)
        harbor_sandbox_tasks_onboarding unique (assignee_id, onboarding_key)
        harbor_sandbox_tasks_activity (last_activity_at)`,
    },
    {
      name: 'harbor_sandbox_task_messages',
      columns: `
        id autoincrement
        message_id text not null unique
        task_id text not null references harbor_sandbox_tasks.task_id on delete cascade
        author_id text
        body text not null
        created_at bigint not null`,
      indexes: `
        harbor_sandbox_task_messages_task (task_id, created_at)`,
    },
    {
      name: 'harbor_tasks',
      columns: `
        task_id text primary key
        creator_id text references agents.agent_id on delete cascade
        assignee_id text references agents.agent_id on delete set null
        title text not null
        description text not null
        vessel_ref text
        state text not null
        result text
        created_at bigint not null
        updated_at bigint not null
        assigned_at bigint
        accepted_at bigint
        closed_at bigint
        last_activity_at bigint not null`,
      indexes: `
        harbor_tasks_creator (creator_id, created_at)
        harbor_tasks_assignee (assignee_id, state)
        harbor_tasks_activity (last_activity_at)`,
    },
    {
      name: 'harbor_task_messages',
      columns: `
        id autoincrement
        message_id text not null unique
        task_id text not null references harbor_tasks.task_id on delete cascade
        author_kind text not null
        author_id text
        body text not null
        created_at bigint not null`,
      indexes: `
        harbor_task_messages_task (task_id, created_at)`,
    },
    {
      name: 'harbor_task_completions',
      columns: `
        task_id text primary key
        agent_id text not null references agents.agent_id on delete cascade
        kind text not null
        onboarding_key text
        completed_at bigint not null`,
      indexes: `
        harbor_task_completions_agent (agent_id, kind)`,
    },
  ]);
}
