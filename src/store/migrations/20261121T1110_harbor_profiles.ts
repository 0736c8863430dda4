import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('harbor_operator_requests')
    .addColumn('request_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('requested_scopes', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('public_response', 'text')
    .addColumn('internal_note', 'text')
    .addColumn('granted_scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('responded_at', 'bigint')
    .execute();
  await db.schema.createIndex('harbor_operator_requests_agent').on('harbor_operator_requests').columns(['agent_id', 'created_at', 'request_id']).execute();
  await db.schema.createIndex('harbor_operator_requests_state').on('harbor_operator_requests').columns(['state', 'created_at']).execute();
  await db.schema
    .createTable('harbor_profiles')
    .addColumn('agent_id', 'text', (c) => c.primaryKey().references('agents.agent_id').onDelete('cascade'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('offers', 'text', (c) => c.notNull())
    .addColumn('needs', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_profiles_public').on('harbor_profiles').columns(['is_public', 'created_at', 'agent_id']).execute();
}
