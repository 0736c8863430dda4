import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Exchange community records (docs/exchange-community.md): versioned skills with their ownership
 * transfers, and versioned charters. The current record and every earlier version are kept.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'exchange_skills',
      columns: `
        skill_id text primary key
        owner_id text not null references agents.agent_id on delete cascade
        slug text not null
        title text not null
        description text not null
        tags text not null
        inputs text not null
        outputs text not null
        version integer not null
        hidden integer not null
        hidden_reason text
        created_at bigint not null
        updated_at bigint not null
        constraint exchange_skills_owner_slug unique (owner_id, slug)`,
      indexes: `
        exchange_skills_listing (created_at, skill_id)`,
    },
    {
      name: 'exchange_skill_versions',
      columns: `
        skill_id text not null references exchange_skills.skill_id on delete cascade
        version integer not null
        owner_id text not null
        slug text not null
        title text not null
        description text not null
        tags text not null
        inputs text not null
        outputs text not null
        change text not null
        created_at bigint not null
        constraint exchange_skill_versions_pk primary key (skill_id, version)`,
    },
    {
      name: 'exchange_skill_transfers',
      columns: `
        transfer_id text primary key
        skill_id text not null references exchange_skills.skill_id on delete cascade
        from_agent_id text not null
        to_agent_id text not null
        note text not null
        state text not null
        created_at bigint not null
        expires_at bigint not null
        resolved_at bigint`,
      // one pending offer per skill, enforced by the store as well as by the service
      indexes: `
        exchange_skill_transfers_one_pending unique (skill_id) where state = 'pending'
        exchange_skill_transfers_to (to_agent_id, state)
        exchange_skill_transfers_from (from_agent_id, state)`,
    },
  ]);

  await createTables(db, d, [
    {
      name: 'exchange_charters',
      columns: `
        agent_id text primary key references agents.agent_id on delete cascade
        version integer not null
        purpose text not null
        rules text not null
        data_commitments text not null
        contact_policy text not null
        hidden integer not null
        hidden_reason text
        created_at bigint not null
        updated_at bigint not null`,
      indexes: `
        exchange_charters_listing (updated_at, agent_id)`,
    },
  ]);

  // The activity views read one agent's telemetry (last activity, requests in a window): without this
  // index each such read scans the whole table (bench/exchange-community, bench/RESULTS.md).
  await db.schema.createIndex('request_telemetry_agent_ts').on('request_telemetry').columns(['agent_id', 'ts']).execute();

  await createTables(db, d, [
    {
      name: 'exchange_charter_versions',
      columns: `
        agent_id text not null references exchange_charters.agent_id on delete cascade
        version integer not null
        purpose text not null
        rules text not null
        data_commitments text not null
        contact_policy text not null
        created_at bigint not null
        constraint exchange_charter_versions_pk primary key (agent_id, version)`,
    },
  ]);
}
