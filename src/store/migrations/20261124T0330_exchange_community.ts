import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Exchange community records (docs/exchange-community.md): versioned skills with their ownership
 * transfers, and versioned charters. The current record and every earlier version are kept.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('exchange_skills')
    .addColumn('skill_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('inputs', 'text', (c) => c.notNull())
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('hidden_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('exchange_skills_owner_slug', ['owner_id', 'slug'])
    .execute();
  await db.schema.createIndex('exchange_skills_listing').on('exchange_skills').columns(['created_at', 'skill_id']).execute();

  await db.schema
    .createTable('exchange_skill_versions')
    .addColumn('skill_id', 'text', (c) => c.notNull().references('exchange_skills.skill_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('inputs', 'text', (c) => c.notNull())
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_skill_versions_pk', ['skill_id', 'version'])
    .execute();

  await db.schema
    .createTable('exchange_skill_transfers')
    .addColumn('transfer_id', 'text', (c) => c.primaryKey())
    .addColumn('skill_id', 'text', (c) => c.notNull().references('exchange_skills.skill_id').onDelete('cascade'))
    .addColumn('from_agent_id', 'text', (c) => c.notNull())
    .addColumn('to_agent_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  // One pending offer per skill, enforced by the store as well as by the service.
  await db.schema.createIndex('exchange_skill_transfers_one_pending').on('exchange_skill_transfers').column('skill_id').unique().where(sql.ref('state'), '=', sql.lit('pending')).execute();
  await db.schema.createIndex('exchange_skill_transfers_to').on('exchange_skill_transfers').columns(['to_agent_id', 'state']).execute();
  await db.schema.createIndex('exchange_skill_transfers_from').on('exchange_skill_transfers').columns(['from_agent_id', 'state']).execute();

  await db.schema
    .createTable('exchange_charters')
    .addColumn('agent_id', 'text', (c) => c.primaryKey().references('agents.agent_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('data_commitments', 'text', (c) => c.notNull())
    .addColumn('contact_policy', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('hidden_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('exchange_charters_listing').on('exchange_charters').columns(['updated_at', 'agent_id']).execute();

  // The activity views read one agent's telemetry (last activity, requests in a window): without this
  // index each such read scans the whole table (bench/exchange-community, bench/RESULTS.md).
  await db.schema.createIndex('request_telemetry_agent_ts').on('request_telemetry').columns(['agent_id', 'ts']).execute();

  await db.schema
    .createTable('exchange_charter_versions')
    .addColumn('agent_id', 'text', (c) => c.notNull().references('exchange_charters.agent_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('data_commitments', 'text', (c) => c.notNull())
    .addColumn('contact_policy', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_charter_versions_pk', ['agent_id', 'version'])
    .execute();
}
