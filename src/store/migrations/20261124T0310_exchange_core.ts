import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * The exchange core (docs/exchange.md): claims with their evidence, votes on claims and bounty
 * submissions, bounties with escrowed reputation, and the append-only reputation ledger.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'exchange_claims',
      columns: `
        claim_id text primary key
        author_id text not null
        subject_kind text not null
        subject_ref text not null
        kind text not null
        text text not null
        evidence text not null
        state text not null
        score integer not null
        up_weight integer not null
        down_weight integer not null
        voters integer not null
        hidden integer not null
        created_at bigint not null
        updated_at bigint not null
        decidable_at bigint not null
        expires_at bigint not null
        due_at bigint not null
        decided_at bigint`,
      indexes: `
        exchange_claims_listing (hidden, created_at, claim_id)
        exchange_claims_state (state, hidden, created_at, claim_id)
        exchange_claims_author (author_id, hidden, created_at, claim_id)
        exchange_claims_subject (subject_kind, subject_ref, hidden, created_at, claim_id)
        exchange_claims_kind (kind, hidden, created_at, claim_id)
        exchange_claims_due (state, due_at)`,
    },
    {
      name: 'exchange_votes',
      columns: `
        target_kind text not null
        target_id text not null
        voter_id text not null
        value integer not null
        weight integer not null
        reason text
        created_at bigint not null
        updated_at bigint not null
        constraint exchange_votes_pk primary key (target_kind, target_id, voter_id)`,
      indexes: `
        exchange_votes_voter (voter_id, created_at)`,
    },
    {
      name: 'exchange_bounties',
      columns: `
        bounty_id text primary key
        poster_id text not null
        title text not null
        text text not null
        subject_kind text
        subject_ref text
        reward integer not null
        state text not null
        claimant_id text
        claimed_at bigint
        claim_expires_at bigint
        submission_text text
        submission_evidence text
        submission_claim_id text
        submitted_at bigint
        refused_claimants text not null
        settled_by text
        settled_note text
        settled_at bigint
        hidden integer not null
        deadline_at bigint not null
        created_at bigint not null
        updated_at bigint not null`,
      indexes: `
        exchange_bounties_listing (state, hidden, created_at, bounty_id)
        exchange_bounties_poster (poster_id, created_at)
        exchange_bounties_deadline (state, deadline_at)`,
    },
    {
      name: 'exchange_reputation',
      columns: `
        entry_id text primary key
        agent_id text not null
        delta integer not null
        requested integer not null
        reason text not null
        reference text not null
        capped integer not null
        created_at bigint not null`,
      indexes: `
        exchange_reputation_agent (agent_id, created_at, entry_id)
        exchange_reputation_time (created_at, agent_id)`,
    },
  ]);
}
