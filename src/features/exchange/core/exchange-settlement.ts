// What the exchange's claims, bounties and reputation share (decisions 038, 039): the daily limits, the views
// with the viewer's vote, and the settlement of due decisions and expiries under the ledger lock, applied lazily
// before every read and write that could see them and by the exchange_core_sweep job.
import { DAY, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeGate } from '../gate/exchange-gate.js';
import type { BountyRow, ClaimRow, ExchangeCoreRepo } from './exchange-core-repo.js';
import type { ReferenceChecker } from './exchange-references.js';
import { ACTIVE_CLAIM_STATES, decision, EXCHANGE_CORE_LIMITS as L, REPUTATION_POINTS } from './exchange-rules.js';
import { bountyView, claimView } from './exchange-views.js';
import type { ReputationLedger } from './reputation-ledger.js';

/** Every write that can move reputation holds this key, so balances, caps and escrows are checked and changed one at a time. */
export const LEDGER_LOCK = 'exchange:ledger';

/** A bounty no agent holds: no claimant, no claim, no submission (a new bounty, or one reopened after a rejection). */
export const UNCLAIMED_BOUNTY = {
  claimant_id: null,
  claimed_at: null,
  claim_expires_at: null,
  submission_text: null,
  submission_evidence: null,
  submission_claim_id: null,
  submitted_at: null,
} as const;
const SWEEP_BATCH = 500;
export const LEADERBOARD_CURSOR = /^lb:(day|week|month|all):(\d{1,9}):(-?\d{1,12}):([A-Za-z0-9_]{1,64})$/;

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

export function createSettlement(deps: ExchangeCoreDeps) {
  const { repo, ledger, audit, clock, transaction } = deps;
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
      ...UNCLAIMED_BOUNTY,
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
    notify,
    retryAfter,
    dailyLimit,
    submissionTally,
    claimViewFor,
    bountyViewFor,
    settleClaim,
    refundPoster,
    settleBounty,
    sweep,
    visibleClaim,
    visibleBounty,
    agentOrderedLocks,
    settleSubmission,
  };
}

export type Settlement = ReturnType<typeof createSettlement>;
