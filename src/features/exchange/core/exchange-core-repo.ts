import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { Database, ExchangeBountiesTable, ExchangeClaimsTable, ExchangeReputationTable, ExchangeVotesTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import type { EventKind } from './exchange-rules.js';

export type ClaimRow = ExchangeClaimsTable;
export type VoteRow = ExchangeVotesTable;
export type BountyRow = ExchangeBountiesTable;
export type LedgerRow = ExchangeReputationTable;

export interface ClaimFilter {
  state?: string;
  subjectKind?: string;
  subjectRef?: string;
  authorId?: string;
  kind?: string;
}

const num = (v: unknown) => Number(v ?? 0);

/**
 * Rows strictly after `position` in a newest-first listing (created_at desc, then id desc), as a row
 * value comparison: SQLite and PostgreSQL both seek the (…, created_at, id) index with it, where the
 * equivalent OR of two comparisons made SQLite walk the index from the top.
 */
function olderThan<T extends keyof Database>(idColumn: string, position: ListPosition) {
  return (eb: ExpressionBuilder<Database, T>): Expression<SqlBool> => eb(eb.refTuple('created_at' as any, idColumn as any), '<', eb.tuple(position.createdAt, position.id));
}

const EVENT_TABLES = { port_call: 'port_calls', encounter: 'encounters', transit: 'transits' } as const;

/** The exchange core's store: claims, votes, bounties and the reputation ledger (the only Kysely code of the feature). */
export function createExchangeCoreRepo(db: Db) {
  return {
    // ── claims
    async insertClaim(row: ClaimRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('exchange_claims').values(row).execute();
    },
    /** Many claims in one statement per chunk (the benchmark's bulk load). */
    async insertClaims(rows: readonly ClaimRow[], ex: Executor = db): Promise<void> {
      for (let i = 0; i < rows.length; i += 400)
        await ex
          .insertInto('exchange_claims')
          .values(rows.slice(i, i + 400))
          .execute();
    },
    async findClaim(claimId: string, ex: Executor = db): Promise<ClaimRow | undefined> {
      return ex.selectFrom('exchange_claims').selectAll().where('claim_id', '=', claimId).executeTakeFirst();
    },
    /** Updates a claim only while it is still in `expectedState`. */
    async updateClaim(claimId: string, expectedState: string, patch: Partial<ClaimRow>, ex: Executor = db): Promise<boolean> {
      const result = await ex.updateTable('exchange_claims').set(patch).where('claim_id', '=', claimId).where('state', '=', expectedState).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setClaimHidden(claimId: string, hidden: boolean, ex: Executor = db): Promise<boolean> {
      const result = await ex
        .updateTable('exchange_claims')
        .set({ hidden: hidden ? 1 : 0 })
        .where('claim_id', '=', claimId)
        .where('hidden', '=', hidden ? 0 : 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    /** Visible claims, newest first, matching the filter, after `after`. */
    async listClaims(filter: ClaimFilter, limit: number, after?: ListPosition): Promise<ClaimRow[]> {
      let q = db.selectFrom('exchange_claims').selectAll().where('hidden', '=', 0);
      if (filter.state) q = q.where('state', '=', filter.state);
      if (filter.subjectKind) q = q.where('subject_kind', '=', filter.subjectKind);
      if (filter.subjectRef) q = q.where('subject_ref', '=', filter.subjectRef);
      if (filter.authorId) q = q.where('author_id', '=', filter.authorId);
      if (filter.kind) q = q.where('kind', '=', filter.kind);
      if (after) q = q.where(olderThan<'exchange_claims'>('claim_id', after));
      return q.orderBy('created_at', 'desc').orderBy('claim_id', 'desc').limit(limit).execute();
    },
    /** Active claims whose decision or expiry is due at `now` (due_at is kept by every vote). */
    async dueClaims(states: readonly string[], now: number, limit: number): Promise<ClaimRow[]> {
      return db.selectFrom('exchange_claims').selectAll().where('state', 'in', states).where('due_at', '<=', now).limit(limit).execute();
    },
    async claimsAuthoredSince(authorId: string, since: number, ex: Executor = db): Promise<{ count: number; oldest: number | null }> {
      const row = await ex
        .selectFrom('exchange_claims')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('author_id', '=', authorId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return { count: num(row.count), oldest: row.oldest === null ? null : num(row.oldest) };
    },
    /** Count of the author's claims per state (hidden ones included: the author's record). */
    async claimStateCounts(authorId: string): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('exchange_claims')
        .select((eb) => ['state', eb.fn.countAll<number | string>().as('count')])
        .where('author_id', '=', authorId)
        .groupBy('state')
        .execute();
      return new Map(rows.map((r) => [r.state, num(r.count)]));
    },
    async eventExists(kind: EventKind, id: number): Promise<boolean> {
      const row = await db.selectFrom(EVENT_TABLES[kind]).select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    // ── votes
    async findVote(targetKind: string, targetId: string, voterId: string, ex: Executor = db): Promise<VoteRow | undefined> {
      return ex.selectFrom('exchange_votes').selectAll().where('target_kind', '=', targetKind).where('target_id', '=', targetId).where('voter_id', '=', voterId).executeTakeFirst();
    },
    async insertVote(row: VoteRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('exchange_votes').values(row).execute();
    },
    async updateVote(row: VoteRow, ex: Executor = db): Promise<void> {
      await ex
        .updateTable('exchange_votes')
        .set({ value: row.value, weight: row.weight, reason: row.reason, updated_at: row.updated_at })
        .where('target_kind', '=', row.target_kind)
        .where('target_id', '=', row.target_id)
        .where('voter_id', '=', row.voter_id)
        .execute();
    },
    async votesOn(targetKind: string, targetId: string, ex: Executor = db): Promise<VoteRow[]> {
      return ex.selectFrom('exchange_votes').selectAll().where('target_kind', '=', targetKind).where('target_id', '=', targetId).orderBy('created_at').orderBy('voter_id').execute();
    },
    async deleteVotesOn(targetKind: string, targetId: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('exchange_votes').where('target_kind', '=', targetKind).where('target_id', '=', targetId).execute();
    },
    /** The voter's own votes on the given targets. */
    async myVotes(targetKind: string, targetIds: readonly string[], voterId: string): Promise<Map<string, VoteRow>> {
      if (targetIds.length === 0) return new Map();
      const rows = await db.selectFrom('exchange_votes').selectAll().where('target_kind', '=', targetKind).where('target_id', 'in', targetIds).where('voter_id', '=', voterId).execute();
      return new Map(rows.map((r) => [r.target_id, r]));
    },
    async votesCastSince(voterId: string, since: number, ex: Executor = db): Promise<{ count: number; oldest: number | null }> {
      const row = await ex
        .selectFrom('exchange_votes')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('voter_id', '=', voterId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return { count: num(row.count), oldest: row.oldest === null ? null : num(row.oldest) };
    },
    /** The voter's votes on decided claims: how many agreed with the outcome. */
    async voteAgreement(voterId: string): Promise<{ agreed: number; disagreed: number; pending: number }> {
      const rows = await db
        .selectFrom('exchange_votes as v')
        .innerJoin('exchange_claims as c', (join) => join.onRef('c.claim_id', '=', 'v.target_id'))
        .select((eb) => ['c.state', 'v.value', eb.fn.countAll<number | string>().as('count')])
        .where('v.target_kind', '=', 'claim')
        .where('v.voter_id', '=', voterId)
        .groupBy(['c.state', 'v.value'])
        .execute();
      let agreed = 0;
      let disagreed = 0;
      let pending = 0;
      for (const r of rows) {
        const n = num(r.count);
        if (r.state === 'accepted' || r.state === 'rejected') {
          if ((r.state === 'accepted') === Number(r.value) > 0) agreed += n;
          else disagreed += n;
        } else if (r.state !== 'expired') pending += n;
      }
      return { agreed, disagreed, pending };
    },

    // ── bounties
    async insertBounty(row: BountyRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('exchange_bounties').values(row).execute();
    },
    async findBounty(bountyId: string, ex: Executor = db): Promise<BountyRow | undefined> {
      return ex.selectFrom('exchange_bounties').selectAll().where('bounty_id', '=', bountyId).executeTakeFirst();
    },
    async updateBounty(bountyId: string, expectedState: string, patch: Partial<BountyRow>, ex: Executor = db): Promise<boolean> {
      const result = await ex.updateTable('exchange_bounties').set(patch).where('bounty_id', '=', bountyId).where('state', '=', expectedState).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setBountyHidden(bountyId: string, hidden: boolean): Promise<boolean> {
      const result = await db
        .updateTable('exchange_bounties')
        .set({ hidden: hidden ? 1 : 0 })
        .where('bounty_id', '=', bountyId)
        .where('hidden', '=', hidden ? 0 : 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async listBounties(filter: { state?: string; posterId?: string; claimantId?: string }, limit: number, after?: ListPosition): Promise<BountyRow[]> {
      let q = db.selectFrom('exchange_bounties').selectAll().where('hidden', '=', 0);
      if (filter.state) q = q.where('state', '=', filter.state);
      if (filter.posterId) q = q.where('poster_id', '=', filter.posterId);
      if (filter.claimantId) q = q.where('claimant_id', '=', filter.claimantId);
      if (after) q = q.where(olderThan<'exchange_bounties'>('bounty_id', after));
      return q.orderBy('created_at', 'desc').orderBy('bounty_id', 'desc').limit(limit).execute();
    },
    /** Bounties with a lapsed claim or a passed deadline at `now`. */
    async dueBounties(now: number, limit: number): Promise<BountyRow[]> {
      return db
        .selectFrom('exchange_bounties')
        .selectAll()
        .where((eb) => eb.or([eb.and([eb('state', 'in', ['open', 'claimed']), eb('deadline_at', '<=', now)]), eb.and([eb('state', '=', 'claimed'), eb('claim_expires_at', '<=', now)])]))
        .limit(limit)
        .execute();
    },
    async bountiesPostedSince(posterId: string, since: number, ex: Executor = db): Promise<{ count: number; oldest: number | null }> {
      const row = await ex
        .selectFrom('exchange_bounties')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('poster_id', '=', posterId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return { count: num(row.count), oldest: row.oldest === null ? null : num(row.oldest) };
    },
    /** Rewards of the poster's bounties by funding, reputation ones while unsettled, allowance ones unless returned (decision 117). */
    async bountyFundsHeld(posterId: string, ex: Executor = db): Promise<{ escrowed: number; allowanceUsed: number }> {
      const rows = await ex
        .selectFrom('exchange_bounties')
        .select((eb) => ['funding', 'state', eb.fn.sum<number | string | null>('reward').as('total')])
        .where('poster_id', '=', posterId)
        .where('state', 'in', ['open', 'claimed', 'submitted', 'rewarded'])
        .groupBy(['funding', 'state'])
        .execute();
      const sum = (keep: (r: { funding: string; state: string }) => boolean) => rows.filter(keep).reduce((s, r) => s + num(r.total), 0);
      return { escrowed: sum((r) => r.funding === 'reputation' && r.state !== 'rewarded'), allowanceUsed: sum((r) => r.funding === 'allowance') };
    },
    async bountiesRewardedTo(agentId: string): Promise<number> {
      const row = await db
        .selectFrom('exchange_bounties')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('claimant_id', '=', agentId)
        .where('state', '=', 'rewarded')
        .executeTakeFirstOrThrow();
      return num(row.count);
    },

    // ── reputation ledger
    async insertEntry(row: LedgerRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('exchange_reputation').values(row).execute();
    },
    async balance(agentId: string, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('exchange_reputation')
        .select((eb) => eb.fn.sum<number | string | null>('delta').as('total'))
        .where('agent_id', '=', agentId)
        .executeTakeFirstOrThrow();
      return num(row.total);
    },
    /** Sum of the capped gains credited to the agent since `since`. */
    async cappedGainsSince(agentId: string, reasons: readonly string[], since: number, ex: Executor = db): Promise<number> {
      const row = await ex
        .selectFrom('exchange_reputation')
        .select((eb) => eb.fn.sum<number | string | null>('delta').as('total'))
        .where('agent_id', '=', agentId)
        .where('reason', 'in', reasons)
        .where('created_at', '>=', since)
        .where('delta', '>', 0)
        .executeTakeFirstOrThrow();
      return num(row.total);
    },
    async entries(agentId: string, limit: number, after?: ListPosition): Promise<LedgerRow[]> {
      let q = db.selectFrom('exchange_reputation').selectAll().where('agent_id', '=', agentId);
      if (after) q = q.where(olderThan<'exchange_reputation'>('entry_id', after));
      return q.orderBy('created_at', 'desc').orderBy('entry_id', 'desc').limit(limit).execute();
    },
    /** The newest entry of a reason and reference for an agent (moderation reversal finds its penalty). */
    async lastEntry(agentId: string, reason: string, reference: string, ex: Executor = db): Promise<LedgerRow | undefined> {
      return ex
        .selectFrom('exchange_reputation')
        .selectAll()
        .where('agent_id', '=', agentId)
        .where('reason', '=', reason)
        .where('reference', '=', reference)
        .orderBy('created_at', 'desc')
        .orderBy('entry_id', 'desc')
        .executeTakeFirst();
    },
    /**
     * Agents by the sum of their entries since `since` (points desc, agent id asc), after the keyset
     * `after`; only agents with positive points.
     */
    async leaderboard(since: number, limit: number, after?: { points: number; agentId: string }): Promise<Array<{ agent_id: string; points: number }>> {
      const total = sql<number>`sum(delta)`;
      let q = db
        .selectFrom('exchange_reputation')
        .select(['agent_id', total.as('points')])
        .where('created_at', '>=', since)
        .groupBy('agent_id')
        .having(total, '>', 0);
      if (after) q = q.having((eb) => eb.or([eb(total, '<', after.points), eb.and([eb(total, '=', after.points), eb('agent_id', '>', after.agentId)])]));
      const rows = await q.orderBy(total, 'desc').orderBy('agent_id', 'asc').limit(limit).execute();
      return rows.map((r) => ({ agent_id: r.agent_id, points: num(r.points) }));
    },
  };
}

export type ExchangeCoreRepo = ReturnType<typeof createExchangeCoreRepo>;
