import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('harbor_help_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('selected_response_id', 'text')
    .addColumn('selected_helper_id', 'text')
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('hidden_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('selected_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_help_requests_listing').on('harbor_help_requests').columns(['state', 'visibility', 'hidden', 'created_at', 'request_id']).execute();
  await db.schema.createIndex('harbor_help_requests_author').on('harbor_help_requests').columns(['author_id', 'created_at']).execute();
  await db.schema.createIndex('harbor_help_requests_activity').on('harbor_help_requests').column('last_activity_at').execute();

  await db.schema
    .createTable('harbor_help_responses')
    .addColumn('response_id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('harbor_help_requests.request_id').onDelete('cascade'))
    .addColumn('helper_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_help_responses_thread').on('harbor_help_responses').columns(['request_id', 'created_at', 'response_id']).execute();
  await db.schema.createIndex('harbor_help_responses_one_answer').on('harbor_help_responses').columns(['request_id', 'helper_id']).unique().where(sql.ref('kind'), '=', sql.lit('answer')).execute();

  await db.schema
    .createTable('harbor_help_reports')
    .addColumn('report_id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().references('harbor_help_requests.request_id').onDelete('cascade'))
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('response_id', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('harbor_help_reports_once', ['request_id', 'reporter_id'])
    .execute();
  await db.schema.createIndex('harbor_help_reports_created').on('harbor_help_reports').columns(['created_at', 'report_id']).execute();

  // No foreign key to the request: ratings outlive the request's content (docs/harbor-help.md, retention).
  await db.schema
    .createTable('harbor_help_feedback')
    .addColumn('feedback_id', 'text', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('from_agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('to_agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('from_role', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('harbor_help_feedback_once', ['request_id', 'from_agent_id'])
    .execute();
  await db.schema.createIndex('harbor_help_feedback_received').on('harbor_help_feedback').columns(['to_agent_id', 'hidden']).execute();
}
