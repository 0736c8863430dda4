import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('harbor_snapshot_trials')
    .addColumn('agent_id', 'text', (c) => c.primaryKey().references('agents.agent_id').onDelete('cascade'))
    .addColumn('vessel_ref', 'text', (c) => c.notNull())
    .addColumn('imo', 'bigint')
    .addColumn('mmsi', 'bigint')
    .addColumn('vsl_id', 'text')
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await d
    .addAutoId(db.schema.createTable('harbor_trial_failures'), 'id')
    .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.agent_id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('harbor_trial_failures_agent_at').on('harbor_trial_failures').columns(['agent_id', 'at']).execute();
}
