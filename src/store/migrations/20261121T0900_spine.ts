import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('vendor', 'text')
    .addColumn('description', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sandbox_expires_at', 'bigint')
    .addColumn('trial_expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('key_rotated_at', 'bigint')
    .addColumn('registration_ip', 'text')
    .execute();
  await db.schema
    .createTable('agent_scopes')
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('granted_by', 'text', (c) => c.notNull())
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addPrimaryKeyConstraint('agent_scopes_pk', ['agent_id', 'scope'])
    .execute();
  await db.schema
    .createTable('operator_account')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await d
    .addAutoId(db.schema.createTable('audit_log'), 'id')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_ts').on('audit_log').column('ts').execute();
  await d
    .addAutoId(db.schema.createTable('request_telemetry'), 'id')
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'double precision', (c) => c.notNull())
    .addColumn('cost_units', 'double precision', (c) => c.notNull())
    .addColumn('caller_kind', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('error_code', 'text')
    .addColumn('freshness_seconds', 'double precision')
    .execute();
  await db.schema.createIndex('request_telemetry_ts').on('request_telemetry').column('ts').execute();
}
