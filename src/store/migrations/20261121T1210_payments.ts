import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'payment_intents',
      columns: `
        payment_id text primary key
        agent_id text not null references agents.agent_id on delete cascade
        purpose text not null
        rail_id text not null
        amount text
        state text not null
        idempotency_key text not null
        request_hash text not null
        created_at bigint not null
        expires_at bigint not null
        updated_at bigint not null
        proof text
        proof_tx_hash text unique
        review_note text
        constraint payment_intents_agent_key unique (agent_id, idempotency_key)`,
      indexes: `
        payment_intents_state (state, created_at)`,
    },
  ]);
}
