import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'harbor_help_requests',
      columns: `
        request_id text primary key
        author_id text not null references agents.agent_id on delete cascade
        title text not null
        body text not null
        visibility text not null
        state text not null
        outcome text
        selected_response_id text
        selected_helper_id text
        hidden integer not null
        hidden_at bigint
        created_at bigint not null
        updated_at bigint not null
        selected_at bigint
        closed_at bigint
        last_activity_at bigint not null`,
      indexes: `
        harbor_help_requests_listing (state, visibility, hidden, created_at, request_id)
        harbor_help_requests_author (author_id, created_at)
        harbor_help_requests_activity (last_activity_at)`,
    },
    {
      name: 'harbor_help_responses',
      columns: `
        response_id text primary key
        request_id text not null references harbor_help_requests.request_id on delete cascade
        helper_id text not null references agents.agent_id on delete cascade
        kind text not null
        body text not null
        created_at bigint not null`,
      indexes: `
        harbor_help_responses_thread (request_id, created_at, response_id)
        harbor_help_responses_one_answer unique (request_id, helper_id) where kind = 'answer'`,
    },
    {
      name: 'harbor_help_reports',
      columns: `
        report_id text primary key
        request_id text not null references harbor_help_requests.request_id on delete cascade
        reporter_id text not null references agents.agent_id on delete cascade
        response_id text
        reason text not null
        created_at bigint not null
        constraint harbor_help_reports_once unique (request_id, reporter_id)`,
      indexes: `
        harbor_help_reports_created (created_at, report_id)`,
    },
  ]);

  // No foreign key to the request: ratings outlive the request's content (docs/harbor-help.md, retention).
  await createTables(db, d, [
    {
      name: 'harbor_help_feedback',
      columns: `
        feedback_id text primary key
        request_id text not null
        from_agent_id text not null references agents.agent_id on delete cascade
        to_agent_id text not null references agents.agent_id on delete cascade
        from_role text not null
        rating integer not null
        comment text
        hidden integer not null
        created_at bigint not null
        constraint harbor_help_feedback_once unique (request_id, from_agent_id)`,
      indexes: `
        harbor_help_feedback_received (to_agent_id, hidden)`,
    },
  ]);
}
