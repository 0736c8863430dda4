import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * The exchange core (docs/exchange.md): claims with their evidence, votes on claims and bounty
 * submissions, bounties with escrowed reputation, and the append-only reputation ledger.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('exchange_claims')
    .addColumn('claim_id', 'text', (c) => c.primaryKey())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_ref', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('score', 'integer', (c) => c.notNull())
    .addColumn('up_weight', 'integer', (c) => c.notNull())
    .addColumn('down_weight', 'integer', (c) => c.notNull())
    .addColumn('voters', 'integer', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('decidable_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema.createIndex('exchange_claims_listing').on('exchange_claims').columns(['hidden', 'created_at', 'claim_id']).execute();
  await db.schema.createIndex('exchange_claims_state').on('exchange_claims').columns(['state', 'hidden', 'created_at', 'claim_id']).execute();
  await db.schema.createIndex('exchange_claims_author').on('exchange_claims').columns(['author_id', 'hidden', 'created_at', 'claim_id']).execute();
  await db.schema.createIndex('exchange_claims_subject').on('exchange_claims').columns(['subject_kind', 'subject_ref', 'hidden', 'created_at', 'claim_id']).execute();
  await db.schema.createIndex('exchange_claims_kind').on('exchange_claims').columns(['kind', 'hidden', 'created_at', 'claim_id']).execute();
  await db.schema.createIndex('exchange_claims_due').on('exchange_claims').columns(['state', 'due_at']).execute();

  await db.schema
    .createTable('exchange_votes')
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('voter_id', 'text', (c) => c.notNull())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_votes_pk', ['target_kind', 'target_id', 'voter_id'])
    .execute();
  await db.schema.createIndex('exchange_votes_voter').on('exchange_votes').columns(['voter_id', 'created_at']).execute();

  await db.schema
    .createTable('exchange_bounties')
    .addColumn('bounty_id', 'text', (c) => c.primaryKey())
    .addColumn('poster_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('subject_kind', 'text')
    .addColumn('subject_ref', 'text')
    .addColumn('reward', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claimant_id', 'text')
    .addColumn('claimed_at', 'bigint')
    .addColumn('claim_expires_at', 'bigint')
    .addColumn('submission_text', 'text')
    .addColumn('submission_evidence', 'text')
    .addColumn('submission_claim_id', 'text')
    .addColumn('submitted_at', 'bigint')
    .addColumn('refused_claimants', 'text', (c) => c.notNull())
    .addColumn('settled_by', 'text')
    .addColumn('settled_note', 'text')
    .addColumn('settled_at', 'bigint')
    .addColumn('hidden', 'integer', (c) => c.notNull())
    .addColumn('deadline_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('exchange_bounties_listing').on('exchange_bounties').columns(['state', 'hidden', 'created_at', 'bounty_id']).execute();
  await db.schema.createIndex('exchange_bounties_poster').on('exchange_bounties').columns(['poster_id', 'created_at']).execute();
  await db.schema.createIndex('exchange_bounties_deadline').on('exchange_bounties').columns(['state', 'deadline_at']).execute();

  await db.schema
    .createTable('exchange_reputation')
    .addColumn('entry_id', 'text', (c) => c.primaryKey())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('requested', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('capped', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('exchange_reputation_agent').on('exchange_reputation').columns(['agent_id', 'created_at', 'entry_id']).execute();
  await db.schema.createIndex('exchange_reputation_time').on('exchange_reputation').columns(['created_at', 'agent_id']).execute();
}
