import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Feedback tickets and the overrides accepted corrections become (with a version counter other
 * processes watch, like port_import_version), the agent workspace (documents, the per-agent event inbox
 * and its sequence counter), and operator grants of the vessel services (docs/feedback.md, docs/workspace.md).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'feedback_tickets',
      columns: `
        ticket_id text primary key
        agent_id text not null
        kind text not null
        subject_kind text not null
        subject_ref text not null
        title text not null
        body text not null
        evidence text not null
        changes text not null
        state text not null
        public_response text
        internal_note text
        created_at bigint not null
        updated_at bigint not null`,
      indexes: `
        feedback_tickets_agent (agent_id, created_at)
        feedback_tickets_state (state, created_at)`,
    },
    {
      name: 'data_overrides',
      columns: `
        override_id text primary key
        ticket_id text not null
        target_kind text not null
        target_key text not null
        field text not null
        value text not null
        provenance text not null
        applied_at bigint not null
        reverted_at bigint`,
      indexes: `
        data_overrides_target (target_kind, target_key)
        data_overrides_ticket (ticket_id)`,
    },
    {
      name: 'data_override_version',
      columns: `
        id integer primary key
        version bigint not null`,
    },
  ]);
  await db.insertInto('data_override_version').values({ id: 1, version: 0 }).execute();

  await createTables(db, d, [
    {
      name: 'workspace_documents',
      columns: `
        agent_id text not null
        name text not null
        media_type text not null
        content text not null
        size_bytes integer not null
        revision integer not null
        etag text not null
        created_at bigint not null
        updated_at bigint not null
        constraint workspace_documents_pk primary key (agent_id, name)`,
    },
    {
      name: 'workspace_events',
      columns: `
        agent_id text not null
        seq bigint not null
        event_id text not null unique
        kind text not null
        payload text not null
        created_at bigint not null
        acked_at bigint
        constraint workspace_events_pk primary key (agent_id, seq)`,
      indexes: `
        workspace_events_created (created_at)`,
    },
    {
      name: 'workspace_event_counters',
      columns: `
        agent_id text primary key
        last_seq bigint not null`,
    },
    {
      name: 'vessel_service_grants',
      columns: `
        grant_id text primary key
        agent_id text not null
        vessel_ref text not null
        imo integer
        mmsi integer
        vsl_id text
        granted_at bigint not null
        expires_at bigint not null
        revoked_at bigint`,
      indexes: `
        vessel_service_grants_agent (agent_id, expires_at)`,
    },
  ]);
}
