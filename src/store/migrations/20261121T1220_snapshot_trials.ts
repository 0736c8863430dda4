import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'harbor_snapshot_trials',
      columns: `
        agent_id text primary key references agents.agent_id on delete cascade
        vessel_ref text not null
        imo bigint
        mmsi bigint
        vsl_id text
        granted_at bigint not null
        expires_at bigint not null
        revoked_at bigint`,
    },
    {
      name: 'harbor_trial_failures',
      columns: `
        id autoincrement
        agent_id text not null references agents.agent_id on delete cascade
        code text not null
        at bigint not null`,
      indexes: `
        harbor_trial_failures_agent_at (agent_id, at)`,
    },
  ]);
}
