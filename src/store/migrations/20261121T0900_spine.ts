import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'agents',
      columns: `
        agent_id text primary key
        name text not null
        vendor text
        description text
        state text not null
        key_hash text not null unique
        key_prefix text not null
        created_at bigint not null
        sandbox_expires_at bigint
        trial_expires_at bigint
        revoked_at bigint
        key_rotated_at bigint
        registration_ip text`,
    },
    {
      name: 'agent_scopes',
      columns: `
        agent_id text not null references agents.agent_id on delete cascade
        scope text not null
        granted_by text not null
        granted_at bigint not null
        expires_at bigint
        constraint agent_scopes_pk primary key (agent_id, scope)`,
    },
    {
      name: 'operator_account',
      columns: `
        id integer primary key
        password_hash text not null
        updated_at bigint not null`,
    },
    {
      name: 'operator_tokens',
      columns: `
        token_hash text primary key
        token_prefix text not null
        label text not null
        created_at bigint not null
        revoked_at bigint`,
    },
    {
      name: 'audit_log',
      columns: `
        id autoincrement
        ts bigint not null
        actor_kind text not null
        actor_id text
        action text not null
        target text
        ip text
        details text not null`,
      indexes: `
        audit_log_ts (ts)`,
    },
    {
      name: 'request_telemetry',
      columns: `
        id autoincrement
        ts bigint not null
        operation_id text not null
        method text not null
        status integer not null
        latency_ms double precision not null
        cost_units double precision not null
        caller_kind text not null
        agent_id text
        error_code text
        freshness_seconds double precision`,
      indexes: `
        request_telemetry_ts (ts)`,
    },
  ]);
}
