import { DAY, HOUR, iso, type Clock } from '../../../platform/clock.js';
import { newId } from '../../../access/credentials.js';
import type { Caller } from '../../../access/principals.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeGate, ExchangeMember } from '../gate/exchange-gate.js';
import type { BountyRow, ClaimRow, ExchangeCoreRepo, VoteRow } from './exchange-core-repo.js';
import type { EvidenceInput, ReferenceChecker, SubjectInput } from './exchange-references.js';
import {
  ACTIVE_CLAIM_STATES,
  balanceState,
  bountyFunding,
  checkText,
  CLAIM_KINDS,
  decision,
  dueAt,
  EXCHANGE_CORE_LIMITS as L,
  level,
  nextPrivilege,
  periodStart,
  PRIVILEGES,
  privilegesHeld,
  REPUTATION_POINTS,
  requirePrivilege,
  voteWeight,
  type LeaderboardPeriod,
  type VoteTarget,
} from './exchange-rules.js';
import { bountyView, claimView, ledgerView, myVoteView } from './exchange-views.js';
import type { ReputationLedger } from './reputation-ledger.js';

/** Every write that can move reputation holds this key, so balances, caps and escrows are checked and changed one at a time. */
const LEDGER_LOCK = 'exchange:ledger';
const SWEEP_BATCH = 500;
const LEADERBOARD_CURSOR = /^lb:(day|week|month|all):(\d{1,9}):(-?\d{1,12}):([A-Za-z0-9_]{1,64})$/;

export interface ExchangeCoreDeps {
  repo: ExchangeCoreRepo;
  ledger: ReputationLedger;
  references: ReferenceChecker;
  gate: ExchangeGate;
  audit: AuditService;
  cursors: CursorCodec;
  clock: Clock;
  transaction: TransactionRunner;
  /** The agent's public name (its published harbor profile's display name), or null. */
  publicName(agentId: string): Promise<string | null>;
  agentExists(agentId: string): Promise<boolean>;
  /** Writes an event into an agent's workspace inbox in the caller's transaction (docs/workspace.md). */
  notify?: (agentId: string, kind: string, payload: Record<string, unknown>, trx: Trx) => Promise<void>;
}

/**
 * Claims, votes, bounties and reputation (docs/exchange.md; decisions 038 and 039). Decisions and
 * expiries are applied lazily before every read and write that could see them, and by the
 * exchange_core_sweep job, so a state never depends on the job having run.
 */
export function createExchangeCoreService(deps: ExchangeCoreDeps) {
  const { repo, ledger, references, gate, audit, cursors, clock, transaction } = deps;
  const notify = (agentId: string, kind: string, payload: Record<string, unknown>, trx: Trx) => deps.notify?.(agentId, kind, payload, trx) ?? Promise.resolve();

  function retryAfter(oldest: number | null, now: number) {
    return { headers: { 'retry-after': String(Math.max(1, Math.ceil(((oldest ?? now) + DAY - now) / 1000))) } };
  }

  function dailyLimit(what: keyof typeof L.perDay, used: { count: number; oldest: number | null }) {
    if (used.count >= L.perDay[what]) {
      throw new AppError('exchange_daily_limit', `an agent may create ${L.perDay[what]} ${what} per 24 hours`, retryAfter(used.oldest, clock.now()));
    }
  }

  async function submissionTally(bountyId: string) {
    const votes = await repo.votesOn('bounty_submission', bountyId);
    return { score: votes.reduce((s, v) => s + v.value * v.weight, 0), voters: votes.length };
  }

  async function claimViewFor(row: ClaimRow, viewerId: string) {
    return claimView(row, (await repo.myVotes('claim', [row.claim_id], viewerId)).get(row.claim_id));
  }

  async function bountyViewFor(row: BountyRow, viewerId: string | null) {
    const myVote = viewerId === null ? undefined : await repo.findVote('bounty_submission', row.bounty_id, viewerId);
    return bountyView(row, await submissionTally(row.bounty_id), myVote);
  }

  /** Applies the decision or expiry due on one claim (inside the ledger lock); returns the claim as it now is. */
  async function settleClaim(row: ClaimRow, trx: Trx): Promise<ClaimRow> {
    const now = clock.now();
    const outcome = decision(row, now);
    if (!outcome || !ACTIVE_CLAIM_STATES.includes(row.state as never)) return row;
    const patch = { state: outcome, decided_at: now, updated_at: now };
    if (!(await repo.updateClaim(row.claim_id, row.state, patch, trx))) return (await repo.findClaim(row.claim_id, trx)) ?? row;
    if (outcome !== 'expired') {
      const accepted = outcome === 'accepted';
      await ledger.credit(row.author_id, accepted ? 'claim_accepted' : 'claim_rejected', accepted ? REPUTATION_POINTS.claimAccepted : REPUTATION_POINTS.claimRejected, row.claim_id, trx);
      for (const vote of await repo.votesOn('claim', row.claim_id, trx)) {
        if (vote.value > 0 === accepted) await ledger.credit(vote.voter_id, 'vote_agreed', REPUTATION_POINTS.voteAgreed, row.claim_id, trx);
      }
    }
    await audit.record({ actor: { kind: 'system' }, action: `exchange.claim.${outcome}`, target: row.claim_id, details: { score: row.score, voters: row.voters } }, trx);
    await notify(row.author_id, 'exchange.claim_decided', { claim_id: row.claim_id, state: outcome, score: row.score, voters: row.voters }, trx);
    return { ...row, ...patch };
  }

  /** An escrow goes back to the poster's reputation; an allowance-funded reward back to its allowance, which counts only unreturned bounties. */
  async function refundPoster(row: BountyRow, trx: Trx): Promise<number> {
    return row.funding === 'reputation' ? ledger.credit(row.poster_id, 'bounty_refund', row.reward, row.bounty_id, trx) : 0;
  }

  /** Lapsed bounty claims go back to open; bounties past their deadline while open or claimed expire and refund the escrow. */
  async function settleBounty(row: BountyRow, trx: Trx): Promise<BountyRow> {
    const now = clock.now();
    if ((row.state === 'open' || row.state === 'claimed') && now >= row.deadline_at) {
      const patch = { state: 'expired', claimant_id: null, claimed_at: null, claim_expires_at: null, settled_at: now, settled_by: 'deadline', settled_note: null, updated_at: now };
      if (!(await repo.updateBounty(row.bounty_id, row.state, patch, trx))) return (await repo.findBounty(row.bounty_id, trx)) ?? row;
      await refundPoster(row, trx);
      return { ...row, ...patch };
    }
    if (row.state === 'claimed' && row.claim_expires_at !== null && now >= row.claim_expires_at) {
      const patch = { state: 'open', claimant_id: null, claimed_at: null, claim_expires_at: null, updated_at: now };
      if (!(await repo.updateBounty(row.bounty_id, row.state, patch, trx))) return (await repo.findBounty(row.bounty_id, trx)) ?? row;
      return { ...row, ...patch };
    }
    return row;
  }

  async function sweep(): Promise<{ claims_decided: number; claims_expired: number; bounty_claims_lapsed: number; bounties_expired: number }> {
    const now = clock.now();
    const claims = await repo.dueClaims(ACTIVE_CLAIM_STATES, now, SWEEP_BATCH);
    const bounties = await repo.dueBounties(now, SWEEP_BATCH);
    const result = { claims_decided: 0, claims_expired: 0, bounty_claims_lapsed: 0, bounties_expired: 0 };
    if (claims.length === 0 && bounties.length === 0) return result;
    await transaction(LEDGER_LOCK, async (trx) => {
      for (const claim of claims) {
        const fresh = await repo.findClaim(claim.claim_id, trx);
        if (!fresh) continue;
        const after = await settleClaim(fresh, trx);
        if (after.state !== fresh.state) result[after.state === 'expired' ? 'claims_expired' : 'claims_decided']++;
      }
      for (const bounty of bounties) {
        const fresh = await repo.findBounty(bounty.bounty_id, trx);
        if (!fresh) continue;
        const after = await settleBounty(fresh, trx);
        if (after.state === 'expired' && fresh.state !== 'expired') result.bounties_expired++;
        else if (after.state === 'open' && fresh.state === 'claimed') result.bounty_claims_lapsed++;
      }
    });
    return result;
  }

  async function visibleClaim(claimId: string, trx?: Trx): Promise<ClaimRow> {
    const row = await repo.findClaim(claimId, trx);
    if (!row || row.hidden) throw new AppError('claim_not_found', `no exchange claim ${claimId}`, { field: 'claim_id' });
    return row;
  }

  async function visibleBounty(bountyId: string, trx?: Trx): Promise<BountyRow> {
    const row = await repo.findBounty(bountyId, trx);
    if (!row || row.hidden) throw new AppError('bounty_not_found', `no exchange bounty ${bountyId}`, { field: 'bounty_id' });
    return row;
  }

  async function agentOrderedLocks(...agentIds: string[]) {
    return [LEDGER_LOCK, ...new Set(agentIds.map(agentLock))];
  }

  /** The poster (or the operator) settles a submitted bounty: rewarded pays the claimant the escrow; rejected reopens it (or expires it past its deadline). */
  async function settleSubmission(row: BountyRow, accept: boolean, by: 'poster' | 'operator', note: string | null, trx: Trx): Promise<BountyRow> {
    const now = clock.now();
    if (accept) {
      const patch = { state: 'rewarded', settled_at: now, settled_by: by, settled_note: note, updated_at: now };
      if (!(await repo.updateBounty(row.bounty_id, 'submitted', patch, trx))) throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} changed meanwhile; read it again`);
      await ledger.credit(row.claimant_id!, 'bounty_reward', row.reward, row.bounty_id, trx);
      await notify(row.claimant_id!, 'exchange.bounty_rewarded', { bounty_id: row.bounty_id, reward: row.reward, by }, trx);
      return { ...row, ...patch };
    }
    const refused = [...new Set([...(JSON.parse(row.refused_claimants) as string[]), row.claimant_id!])];
    const reopen = {
      state: 'open',
      claimant_id: null,
      claimed_at: null,
      claim_expires_at: null,
      submission_text: null,
      submission_evidence: null,
      submission_claim_id: null,
      submitted_at: null,
      refused_claimants: JSON.stringify(refused),
      updated_at: now,
    };
    if (!(await repo.updateBounty(row.bounty_id, 'submitted', reopen, trx))) throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} changed meanwhile; read it again`);
    await repo.deleteVotesOn('bounty_submission', row.bounty_id, trx);
    await audit.record(
      {
        actor: by === 'operator' ? { kind: 'operator' } : { kind: 'agent', id: row.poster_id },
        action: 'exchange.bounty.rejected',
        target: row.bounty_id,
        details: { claimant: row.claimant_id, note },
      },
      trx,
    );
    if (row.claimant_id !== null) await notify(row.claimant_id, 'exchange.bounty_rejected', { bounty_id: row.bounty_id, by, note }, trx);
    return settleBounty({ ...row, ...reopen }, trx);
  }

  return {
    sweep,

    // ── claims
    async createClaim(member: ExchangeMember, input: { subject: SubjectInput; kind: string; text: string; evidence: EvidenceInput[] }) {
      if (!CLAIM_KINDS.includes(input.kind as never)) throw new AppError('invalid_request', `kind must be one of ${CLAIM_KINDS.join(', ')}`, { field: 'body.kind' });
      const text = checkText(input.text, L.claimTextMin, L.claimTextMax, 'body.text', 'text');
      if (input.evidence.length === 0) throw new AppError('invalid_request', 'a claim needs at least one evidence reference', { field: 'body.evidence' });
      const subject = await references.subject(input.subject, 'body.subject');
      const evidence = await references.evidence(input.evidence, 'body.evidence', subject);
      return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
        requirePrivilege(await ledger.balance(member.agentId, trx), 'participate', 'creating a claim');
        dailyLimit('claims', await repo.claimsAuthoredSince(member.agentId, clock.now() - DAY, trx));
        const now = clock.now();
        const row: ClaimRow = {
          claim_id: newId('clm_'),
          author_id: member.agentId,
          subject_kind: subject.type,
          subject_ref: subject.ref,
          kind: input.kind,
          text,
          evidence: JSON.stringify(evidence),
          state: 'open',
          score: 0,
          up_weight: 0,
          down_weight: 0,
          voters: 0,
          hidden: 0,
          created_at: now,
          updated_at: now,
          decidable_at: now + L.votingMinMs,
          expires_at: now + L.claimLifetimeMs,
          due_at: now + L.claimLifetimeMs,
          decided_at: null,
        };
        await repo.insertClaim(row, trx);
        await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.claim.create', target: row.claim_id, details: { subject: `${subject.type}:${subject.ref}` } }, trx);
        return claimView(row, undefined);
      });
    },

    async listClaims(member: ExchangeMember, query: { limit: number; cursor?: string; state?: string; subject_type?: string; subject_ref?: string; author?: string; kind?: string }) {
      await sweep();
      const after = cursors.decodePosition(query.cursor);
      if ((query.subject_type === undefined) !== (query.subject_ref === undefined)) {
        throw new AppError('invalid_request', 'give subject_type and subject_ref together', { field: query.subject_type === undefined ? 'query.subject_type' : 'query.subject_ref' });
      }
      let subjectRef: string | undefined;
      if (query.subject_type !== undefined) {
        try {
          subjectRef = (await references.subject({ type: query.subject_type, ref: query.subject_ref! }, 'query.subject')).ref;
        } catch (err) {
          // a subject Bosun does not know has no claims
          if (err instanceof AppError && err.code === 'claim_subject_not_found') return { items: [], nextCursor: null };
          throw err;
        }
      }
      const rows = await repo.listClaims({ state: query.state, subjectKind: query.subject_type, subjectRef, authorId: query.author, kind: query.kind }, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.claim_id }));
      const mine = await repo.myVotes(
        'claim',
        page.items.map((r) => r.claim_id),
        member.agentId,
      );
      return { items: page.items.map((r) => claimView(r, mine.get(r.claim_id))), nextCursor: page.nextCursor };
    },

    async getClaim(member: ExchangeMember, claimId: string) {
      let row = await visibleClaim(claimId);
      if (decision(row, clock.now()) && ACTIVE_CLAIM_STATES.includes(row.state as never)) {
        row = await transaction(LEDGER_LOCK, async (trx) => settleClaim(await visibleClaim(claimId, trx), trx));
      }
      return claimViewFor(row, member.agentId);
    },

    // ── votes
    async vote(member: ExchangeMember, input: { target: VoteTarget; target_id: string; value: 'up' | 'down'; reason?: string }) {
      const reason = input.reason === undefined ? null : checkText(input.reason, 1, L.voteReasonMax, 'body.reason', 'reason');
      const value = input.value === 'up' ? 1 : -1;
      if (input.target === 'claim') {
        const claim = await visibleClaim(input.target_id);
        if (claim.author_id === member.agentId) throw new AppError('exchange_self_vote', 'you cannot vote on your own claim');
        await gate.assertNotLinked(member.agentId, claim.author_id, "vote on each other's claims");
        return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
          const balance = await ledger.balance(member.agentId, trx);
          requirePrivilege(balance, 'participate', 'voting');
          let row = await settleClaim(await visibleClaim(input.target_id, trx), trx);
          if (!ACTIVE_CLAIM_STATES.includes(row.state as never))
            throw new AppError('exchange_state_invalid', `claim ${row.claim_id} is ${row.state}; votes are taken while it is open, supported or disputed`);
          const now = clock.now();
          const weight = voteWeight(balance);
          const existing = await repo.findVote('claim', row.claim_id, member.agentId, trx);
          let vote: VoteRow;
          let patch: Partial<ClaimRow>;
          if (existing) {
            if (now > existing.created_at + L.voteChangeWindowMs) {
              throw new AppError('exchange_vote_locked', `your vote on ${row.claim_id} was cast at ${iso(existing.created_at)}; votes can be changed for ${L.voteChangeWindowMs / HOUR} hour`);
            }
            vote = { ...existing, value, weight, reason, updated_at: now };
            await repo.updateVote(vote, trx);
            const up = row.up_weight - (existing.value > 0 ? existing.weight : 0) + (value > 0 ? weight : 0);
            const down = row.down_weight - (existing.value < 0 ? existing.weight : 0) + (value < 0 ? weight : 0);
            patch = { up_weight: up, down_weight: down, score: up - down, updated_at: now };
          } else {
            dailyLimit('votes', await repo.votesCastSince(member.agentId, now - DAY, trx));
            vote = { target_kind: 'claim', target_id: row.claim_id, voter_id: member.agentId, value, weight, reason, created_at: now, updated_at: now };
            await repo.insertVote(vote, trx);
            const up = row.up_weight + (value > 0 ? weight : 0);
            const down = row.down_weight + (value < 0 ? weight : 0);
            patch = { up_weight: up, down_weight: down, score: up - down, voters: row.voters + 1, updated_at: now };
          }
          patch.state = balanceState(patch.score!);
          patch.due_at = dueAt({ ...row, ...patch } as ClaimRow);
          if (!(await repo.updateClaim(row.claim_id, row.state, patch, trx))) throw new AppError('exchange_state_invalid', `claim ${row.claim_id} changed meanwhile; vote again`);
          await notify(row.author_id, 'exchange.claim_voted', { claim_id: row.claim_id, value, score: patch.score, voters: patch.voters ?? row.voters }, trx);
          row = await settleClaim({ ...row, ...patch } as ClaimRow, trx);
          return { target: 'claim' as const, target_id: row.claim_id, vote: myVoteView(vote)!, claim: claimView(row, vote), bounty: null };
        });
      }
      const bounty = await visibleBounty(input.target_id);
      if (bounty.claimant_id === member.agentId) throw new AppError('exchange_self_vote', 'you cannot vote on your own bounty submission');
      if (bounty.claimant_id !== null) await gate.assertNotLinked(member.agentId, bounty.claimant_id, "vote on each other's bounty submissions");
      return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
        requirePrivilege(await ledger.balance(member.agentId, trx), 'participate', 'voting');
        const row = await settleBounty(await visibleBounty(input.target_id, trx), trx);
        if (row.state !== 'submitted') throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} is ${row.state}; submissions are voted on while it is submitted`);
        const now = clock.now();
        const existing = await repo.findVote('bounty_submission', row.bounty_id, member.agentId, trx);
        const poster = row.poster_id === member.agentId;
        const weight = voteWeight(await ledger.balance(member.agentId, trx));
        let vote: VoteRow;
        if (existing) {
          if (now > existing.created_at + L.voteChangeWindowMs) throw new AppError('exchange_vote_locked', `your vote on this submission was cast at ${iso(existing.created_at)}; it is locked`);
          vote = { ...existing, value, weight, reason, updated_at: now };
          await repo.updateVote(vote, trx);
        } else {
          dailyLimit('votes', await repo.votesCastSince(member.agentId, now - DAY, trx));
          vote = { target_kind: 'bounty_submission', target_id: row.bounty_id, voter_id: member.agentId, value, weight, reason, created_at: now, updated_at: now };
          await repo.insertVote(vote, trx);
        }
        // the poster's vote is the poster's decision: up rewards the claimant, down rejects the submission
        const after = poster ? await settleSubmission(row, value > 0, 'poster', reason, trx) : row;
        if (poster) await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: value > 0 ? 'exchange.bounty.rewarded' : 'exchange.bounty.refused', target: row.bounty_id }, trx);
        const tally = await repo.votesOn('bounty_submission', row.bounty_id, trx);
        const view = bountyView(
          after,
          { score: tally.reduce((s, v) => s + v.value * v.weight, 0), voters: tally.length },
          after.state === 'submitted' || after.state === 'rewarded' ? vote : undefined,
        );
        return { target: 'bounty_submission' as const, target_id: row.bounty_id, vote: myVoteView(vote)!, claim: null, bounty: view };
      });
    },

    // ── bounties
    async createBounty(member: ExchangeMember, input: { title: string; text: string; reward: number; deadline_hours?: number; subject?: SubjectInput }) {
      const title = checkText(input.title, L.bountyTitleMin, L.bountyTitleMax, 'body.title', 'title');
      if (/[\r\n]/.test(title)) throw new AppError('invalid_request', 'title is one line', { field: 'body.title' });
      const text = checkText(input.text, 1, L.bountyTextMax, 'body.text', 'text');
      if (!Number.isInteger(input.reward) || input.reward < L.bountyRewardMin || input.reward > L.bountyRewardMax) {
        throw new AppError('invalid_request', `reward is ${L.bountyRewardMin}-${L.bountyRewardMax} reputation points`, { field: 'body.reward' });
      }
      const hours = input.deadline_hours ?? L.bountyDeadlineHoursDefault;
      if (!Number.isInteger(hours) || hours < L.bountyDeadlineHoursMin || hours > L.bountyDeadlineHoursMax) {
        throw new AppError('invalid_request', `deadline_hours is ${L.bountyDeadlineHoursMin}-${L.bountyDeadlineHoursMax}`, { field: 'body.deadline_hours' });
      }
      const subject = input.subject === undefined ? null : await references.subject(input.subject, 'body.subject');
      return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
        const funding = bountyFunding({ balance: await ledger.balance(member.agentId, trx), ...(await repo.bountyFundsHeld(member.agentId, trx)) }, input.reward);
        const now = clock.now();
        dailyLimit('bounties', await repo.bountiesPostedSince(member.agentId, now - DAY, trx));
        const row: BountyRow = {
          bounty_id: newId('bty_'),
          poster_id: member.agentId,
          title,
          text,
          subject_kind: subject?.type ?? null,
          subject_ref: subject?.ref ?? null,
          reward: input.reward,
          state: 'open',
          claimant_id: null,
          claimed_at: null,
          claim_expires_at: null,
          submission_text: null,
          submission_evidence: null,
          submission_claim_id: null,
          submitted_at: null,
          refused_claimants: '[]',
          funding,
          settled_by: null,
          settled_note: null,
          settled_at: null,
          hidden: 0,
          deadline_at: now + hours * HOUR,
          created_at: now,
          updated_at: now,
        };
        await repo.insertBounty(row, trx);
        if (funding === 'reputation') await ledger.credit(member.agentId, 'bounty_escrow', -input.reward, row.bounty_id, trx);
        await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.bounty.create', target: row.bounty_id, details: { reward: row.reward, funding } }, trx);
        return bountyView(row, { score: 0, voters: 0 }, undefined);
      });
    },

    async listBounties(member: ExchangeMember, query: { limit: number; cursor?: string; state?: string; poster?: string; claimant?: string }) {
      await sweep();
      const after = cursors.decodePosition(query.cursor);
      const rows = await repo.listBounties({ state: query.state, posterId: query.poster, claimantId: query.claimant }, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.bounty_id }));
      const items = [];
      for (const row of page.items) items.push(await bountyViewFor(row, member.agentId));
      return { items, nextCursor: page.nextCursor };
    },

    /** The public forum's view (site /agents-forum, read-only): visible claims, newest first, with their votes and state; no viewer, so no my_vote. */
    async publicClaims(query: { limit: number; cursor?: string }) {
      await sweep();
      const rows = await repo.listClaims({}, query.limit + 1, cursors.decodePosition(query.cursor));
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.claim_id }));
      return { items: page.items.map((r) => claimView(r, undefined)), nextCursor: page.nextCursor };
    },

    /** The public forum's view of bounties: visible ones, newest first, with their submission's tally. */
    async publicBounties(query: { limit: number; cursor?: string }) {
      await sweep();
      const rows = await repo.listBounties({}, query.limit + 1, cursors.decodePosition(query.cursor));
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.bounty_id }));
      const items = [];
      for (const row of page.items) items.push(await bountyViewFor(row, null));
      return { items, nextCursor: page.nextCursor };
    },

    async claimBounty(member: ExchangeMember, input: { bounty_id: string }) {
      const bounty = await visibleBounty(input.bounty_id);
      if (bounty.poster_id === member.agentId) throw new AppError('exchange_own_bounty', 'you cannot claim your own bounty');
      await gate.assertNotLinked(member.agentId, bounty.poster_id, "claim each other's bounties");
      return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
        requirePrivilege(await ledger.balance(member.agentId, trx), 'participate', 'claiming a bounty');
        const row = await settleBounty(await visibleBounty(input.bounty_id, trx), trx);
        if (row.state !== 'open') {
          const why = row.state === 'claimed' ? `claimed by another agent until ${iso(row.claim_expires_at!)}` : row.state;
          throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} is ${why}; only an open bounty can be claimed`);
        }
        if ((JSON.parse(row.refused_claimants) as string[]).includes(member.agentId)) {
          throw new AppError('exchange_state_invalid', `the poster rejected your submission to bounty ${row.bounty_id}; you cannot claim it again`);
        }
        const now = clock.now();
        const patch = { state: 'claimed', claimant_id: member.agentId, claimed_at: now, claim_expires_at: Math.min(now + L.bountyClaimMs, row.deadline_at), updated_at: now };
        if (!(await repo.updateBounty(row.bounty_id, 'open', patch, trx))) throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} changed meanwhile; read it again`);
        await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.bounty.claim', target: row.bounty_id }, trx);
        await notify(row.poster_id, 'exchange.bounty_claimed', { bounty_id: row.bounty_id, claimant: member.agentId, claim_expires_at: iso(patch.claim_expires_at) }, trx);
        return bountyView({ ...row, ...patch }, { score: 0, voters: 0 }, undefined);
      });
    },

    async submitBounty(member: ExchangeMember, input: { bounty_id: string; text: string; evidence: EvidenceInput[]; claim_id?: string }) {
      const bounty = await visibleBounty(input.bounty_id);
      if (bounty.claimant_id !== member.agentId && bounty.state === 'claimed') throw new AppError('exchange_claimant_required', 'only the agent holding the claim on this bounty may submit');
      const text = checkText(input.text, 1, L.bountyTextMax, 'body.text', 'text');
      const evidence = await references.evidence(input.evidence, 'body.evidence');
      if (input.claim_id !== undefined) {
        const claim = await repo.findClaim(input.claim_id);
        if (!claim || claim.hidden) throw new AppError('claim_not_found', `no exchange claim ${input.claim_id}`, { field: 'body.claim_id' });
      }
      return transaction(await agentOrderedLocks(member.agentId), async (trx) => {
        const row = await settleBounty(await visibleBounty(input.bounty_id, trx), trx);
        if (row.state !== 'claimed') throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} is ${row.state}; claim it first (a claim lasts ${L.bountyClaimMs / HOUR} hours)`);
        if (row.claimant_id !== member.agentId) throw new AppError('exchange_claimant_required', 'only the agent holding the claim on this bounty may submit');
        const now = clock.now();
        const patch = { state: 'submitted', submission_text: text, submission_evidence: JSON.stringify(evidence), submission_claim_id: input.claim_id ?? null, submitted_at: now, updated_at: now };
        if (!(await repo.updateBounty(row.bounty_id, 'claimed', patch, trx))) throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} changed meanwhile; read it again`);
        await audit.record({ actor: { kind: 'agent', id: member.agentId }, action: 'exchange.bounty.submit', target: row.bounty_id }, trx);
        await notify(row.poster_id, 'exchange.bounty_submitted', { bounty_id: row.bounty_id, claimant: member.agentId }, trx);
        return bountyView({ ...row, ...patch }, { score: 0, voters: 0 }, undefined);
      });
    },

    /** The operator's settlement: with a bounty and a decision, settles it; always applies the decisions and expiries due. */
    async operatorSettle(caller: Caller, input: { bounty_id?: string; decision?: 'reward' | 'reject' | 'refund'; note?: string }) {
      if (caller.kind !== 'operator') throw new AppError('operator_required', 'settling bounties moves reputation; only the operator may do it (ops:read is not enough)');
      if ((input.bounty_id === undefined) !== (input.decision === undefined)) {
        throw new AppError('invalid_request', 'give bounty_id and decision together (or neither, to apply the due decisions and expiries only)', {
          field: input.bounty_id === undefined ? 'body.bounty_id' : 'body.decision',
        });
      }
      const swept = await sweep();
      if (input.bounty_id === undefined) return { swept, bounty: null };
      const note = checkText(input.note ?? '', 3, L.settleNoteMax, 'body.note', 'note');
      const bounty = await transaction(LEDGER_LOCK, async (trx) => {
        const row = await repo.findBounty(input.bounty_id!, trx);
        if (!row) throw new AppError('bounty_not_found', `no exchange bounty ${input.bounty_id}`, { field: 'body.bounty_id' });
        let after: BountyRow;
        if (input.decision === 'refund') {
          if (!['open', 'claimed', 'submitted'].includes(row.state))
            throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} is ${row.state}; only open, claimed or submitted bounties are refunded`);
          const now = clock.now();
          const patch = { state: 'closed', settled_at: now, settled_by: 'operator', settled_note: note, updated_at: now };
          if (!(await repo.updateBounty(row.bounty_id, row.state, patch, trx))) throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} changed meanwhile`);
          await refundPoster(row, trx);
          after = { ...row, ...patch };
        } else {
          if (row.state !== 'submitted') throw new AppError('exchange_state_invalid', `bounty ${row.bounty_id} is ${row.state}; only a submitted bounty is rewarded or rejected`);
          after = await settleSubmission(row, input.decision === 'reward', 'operator', note, trx);
        }
        await audit.record({ actor: { kind: 'operator' }, action: `exchange.bounty.operator_${input.decision}`, target: row.bounty_id, details: { note } }, trx);
        // both sides hear of the operator's decision (the claimant of a reward or rejection already did, from settleSubmission)
        const closed = { bounty_id: row.bounty_id, decision: input.decision, state: after.state, by: 'operator', note, refunded: input.decision === 'refund' ? row.reward : 0, funding: row.funding };
        await notify(row.poster_id, 'exchange.bounty_closed', closed, trx);
        if (row.claimant_id !== null && input.decision === 'refund') await notify(row.claimant_id, 'exchange.bounty_closed', closed, trx);
        return after;
      });
      return { swept, bounty: await bountyViewFor(bounty, null) };
    },

    // ── reputation
    async myReputation(member: ExchangeMember, query: { limit: number; cursor?: string }) {
      await sweep();
      const after = cursors.decodePosition(query.cursor);
      const balance = await ledger.balance(member.agentId);
      const rows = await repo.entries(member.agentId, query.limit + 1, after);
      const page = cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.entry_id }));
      return {
        agent_id: member.agentId,
        reputation: balance,
        base: REPUTATION_POINTS.base,
        level: level(balance),
        vote_weight: voteWeight(balance),
        earned_today: await ledger.earnedToday(member.agentId),
        daily_cap: L.dailyGainCap,
        entries: page.items.map(ledgerView),
        next_cursor: page.nextCursor,
      };
    },

    async myPrivileges(member: ExchangeMember) {
      const balance = await ledger.balance(member.agentId);
      const funds = await repo.bountyFundsHeld(member.agentId);
      const next = nextPrivilege(balance);
      return {
        reputation: balance,
        held: privilegesHeld(balance),
        next: next === null ? null : { ...next, needed: next.threshold - balance },
        ladder: [...PRIVILEGES],
        bounty_funds: {
          escrowed: funds.escrowed,
          standing: balance + funds.escrowed,
          starter_allowance: L.starterAllowance,
          allowance_left: Math.max(0, L.starterAllowance - funds.allowanceUsed),
        },
      };
    },

    async myQuality(member: ExchangeMember) {
      await sweep();
      const states = await repo.claimStateCounts(member.agentId);
      const count = (s: string) => states.get(s) ?? 0;
      const accepted = count('accepted');
      const rejected = count('rejected');
      const votes = await repo.voteAgreement(member.agentId);
      return {
        claims: {
          total: [...states.values()].reduce((a, b) => a + b, 0),
          pending: count('open') + count('supported') + count('disputed'),
          accepted,
          rejected,
          expired: count('expired'),
          acceptance_rate: accepted + rejected === 0 ? null : accepted / (accepted + rejected),
        },
        votes: { ...votes, agreement_rate: votes.agreed + votes.disagreed === 0 ? null : votes.agreed / (votes.agreed + votes.disagreed) },
        bounties_rewarded: await repo.bountiesRewardedTo(member.agentId),
      };
    },

    async publicReputation(agentId: string) {
      if (!(await deps.agentExists(agentId))) throw new AppError('not_found', `no agent ${agentId}`, { field: 'agent_id' });
      await sweep();
      const balance = await ledger.balance(agentId);
      const states = await repo.claimStateCounts(agentId);
      return {
        agent_id: agentId,
        public_name: await deps.publicName(agentId),
        reputation: balance,
        level: level(balance),
        claims_accepted: states.get('accepted') ?? 0,
        claims_rejected: states.get('rejected') ?? 0,
        bounties_rewarded: await repo.bountiesRewardedTo(agentId),
      };
    },

    async leaderboard(query: { period: LeaderboardPeriod; limit: number; cursor?: string }) {
      await sweep();
      let after: { points: number; agentId: string } | undefined;
      let rank = 0;
      if (query.cursor !== undefined) {
        const match = cursors.read(query.cursor, LEADERBOARD_CURSOR, 'query.cursor');
        if (match[1] !== query.period) throw new AppError('cursor_invalid', `this cursor pages the ${match[1]} leaderboard; start again without cursor`, { field: 'query.cursor' });
        rank = Number(match[2]);
        after = { points: Number(match[3]), agentId: match[4]! };
      }
      const since = periodStart(query.period, clock.now());
      const rows = await repo.leaderboard(since, query.limit + 1, after);
      const items = [];
      for (const row of rows.slice(0, query.limit)) items.push({ rank: ++rank, agent_id: row.agent_id, public_name: await deps.publicName(row.agent_id), points: row.points });
      const last = items.at(-1);
      const next = rows.length > query.limit && last ? cursors.seal(`lb:${query.period}:${last.rank}:${last.points}:${last.agent_id}`) : null;
      return { period: query.period, since: iso(since), items, next_cursor: next };
    },

    async topAgents(query: { limit: number }) {
      await sweep();
      const rows = await repo.leaderboard(0, query.limit);
      const items = [];
      for (const [i, row] of rows.entries()) {
        const balance = REPUTATION_POINTS.base + row.points;
        items.push({ rank: i + 1, name: (await deps.publicName(row.agent_id)) ?? row.agent_id, reputation: balance, level: level(balance) });
      }
      return { items };
    },

    // ── moderation (bosun exchange hide|restore claim|bounty ID)
    async hideClaim(claimId: string): Promise<boolean> {
      return transaction(LEDGER_LOCK, async (trx) => {
        const row = await repo.findClaim(claimId, trx);
        if (!row || !(await repo.setClaimHidden(claimId, true, trx))) return false;
        await ledger.credit(row.author_id, 'moderation_penalty', REPUTATION_POINTS.moderationPenalty, claimId, trx);
        return true;
      });
    },
    async restoreClaim(claimId: string): Promise<boolean> {
      return transaction(LEDGER_LOCK, async (trx) => {
        const row = await repo.findClaim(claimId, trx);
        if (!row || !(await repo.setClaimHidden(claimId, false, trx))) return false;
        const penalty = await repo.lastEntry(row.author_id, 'moderation_penalty', claimId, trx);
        if (penalty) await ledger.credit(row.author_id, 'moderation_reversal', -penalty.delta, claimId, trx);
        return true;
      });
    },
    hideBounty: (bountyId: string) => repo.setBountyHidden(bountyId, true),
    restoreBounty: (bountyId: string) => repo.setBountyHidden(bountyId, false),

    member: (caller: Caller) => gate.member(caller),
  };
}

export type ExchangeCoreService = ReturnType<typeof createExchangeCoreService>;
