// Exchange claims, votes on claims and bounty submissions, and the moderation of claims (docs/exchange.md).
import { DAY, HOUR, iso } from '../../../platform/clock.js';
import { newId } from '../../../access/credentials.js';
import { AppError } from '../../../platform/errors.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import type { ClaimRow, VoteRow } from './exchange-core-repo.js';
import type { EvidenceInput, SubjectInput } from './exchange-references.js';
import {
  ACTIVE_CLAIM_STATES,
  balanceState,
  checkText,
  CLAIM_KINDS,
  decision,
  dueAt,
  EXCHANGE_CORE_LIMITS as L,
  REPUTATION_POINTS,
  requirePrivilege,
  voteWeight,
  type VoteTarget,
} from './exchange-rules.js';
import { bountyView, claimView, myVoteView } from './exchange-views.js';
import { LEDGER_LOCK, type ExchangeCoreDeps, type Settlement } from './exchange-settlement.js';

export function createClaimsService(deps: ExchangeCoreDeps, settlement: Settlement) {
  const { repo, ledger, references, gate, audit, cursors, clock, transaction } = deps;
  const { notify, dailyLimit, claimViewFor, settleClaim, settleBounty, sweep, visibleClaim, visibleBounty, agentOrderedLocks, settleSubmission } = settlement;
  return {
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
  };
}
