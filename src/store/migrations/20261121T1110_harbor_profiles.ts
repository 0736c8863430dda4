import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'harbor_operator_requests',
      columns: `
        request_id text primary key
        agent_id text not null references agents.agent_id on delete cascade
        category text not null
        subject text not null
        body text not null
        requested_scopes text not null
        state text not null
        public_response text
        internal_note text
        granted_scopes text not null
        created_at bigint not null
        updated_at bigint not null
        responded_at bigint`,
      indexes: `
        harbor_operator_requests_agent (agent_id, created_at, request_id)
        harbor_operator_requests_state (state, created_at)`,
    },
    {
      name: 'harbor_profiles',
      columns: `
        agent_id text primary key references agents.agent_id on delete cascade
        display_name text not null
        summary text not null
        capabilities text not null
        offers text not null
        needs text not null
        is_public integer not null
        created_at bigint not null
        updated_at bigint not null`,
      indexes: `
        harbor_profiles_public (is_public, created_at, agent_id)`,
    },
  ]);
}
