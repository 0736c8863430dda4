import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Feedback tickets and the overrides accepted corrections become (with a version counter other
 * processes watch, like port_import_version), the agent workspace (documents, the per-agent event inbox
 * and its sequence counter), and operator grants of the vessel services (docs/feedback.md, docs/workspace.md).
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('feedback_tickets')
    .addColumn('ticket_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_ref', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('public_response', 'text')
    .addColumn('internal_note', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_tickets_agent').on('feedback_tickets').columns(['agent_id', 'created_at']).execute();
  await db.schema.createIndex('feedback_tickets_state').on('feedback_tickets').columns(['state', 'created_at']).execute();

  await db.schema
    .createTable('data_overrides')
    .addColumn('override_id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_key', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('provenance', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'bigint', (c) => c.notNull())
    .addColumn('reverted_at', 'bigint')
    .execute();
  await db.schema.createIndex('data_overrides_target').on('data_overrides').columns(['target_kind', 'target_key']).execute();
  await db.schema.createIndex('data_overrides_ticket').on('data_overrides').column('ticket_id').execute();
  await db.schema
    .createTable('data_override_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('data_override_version').values({ id: 1, version: 0 }).execute();

  await db.schema
    .createTable('workspace_documents')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_documents_pk', ['agent_id', 'name'])
    .execute();

  await db.schema
    .createTable('workspace_events')
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('acked_at', 'bigint')
    .addPrimaryKeyConstraint('workspace_events_pk', ['agent_id', 'seq'])
    .execute();
  await db.schema.createIndex('workspace_events_created').on('workspace_events').column('created_at').execute();
  await db.schema
    .createTable('workspace_event_counters')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('vessel_service_grants')
    .addColumn('grant_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('vessel_ref', 'text', (c) => c.notNull())
    .addColumn('imo', 'integer')
    .addColumn('mmsi', 'integer')
    .addColumn('vsl_id', 'text')
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('vessel_service_grants_agent').on('vessel_service_grants').columns(['agent_id', 'expires_at']).execute();
}
