// Exchange bounties: posting with escrow or allowance, claiming, submitting, settling (docs/exchange.md, decision 117).
import { DAY, HOUR, iso } from '../../../platform/clock.js';
import { newId } from '../../../access/credentials.js';
import type { Caller } from '../../../access/principals.js';
import { AppError } from '../../../platform/errors.js';
import type { ExchangeMember } from '../gate/exchange-gate.js';
import type { BountyRow } from './exchange-core-repo.js';
import type { EvidenceInput, SubjectInput } from './exchange-references.js';
import { bountyFunding, checkText, EXCHANGE_CORE_LIMITS as L, requirePrivilege } from './exchange-rules.js';
import { bountyView, claimView } from './exchange-views.js';
import { LEDGER_LOCK, UNCLAIMED_BOUNTY, type ExchangeCoreDeps, type Settlement } from './exchange-settlement.js';

export function createBountiesService(deps: ExchangeCoreDeps, settlement: Settlement) {
  const { repo, ledger, references, gate, audit, cursors, clock, transaction } = deps;
  const { notify, dailyLimit, bountyViewFor, refundPoster, settleBounty, sweep, visibleBounty, agentOrderedLocks, settleSubmission } = settlement;
  return {
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
          ...UNCLAIMED_BOUNTY,
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

    hideBounty: (bountyId: string) => repo.setBountyHidden(bountyId, true),
    restoreBounty: (bountyId: string) => repo.setBountyHidden(bountyId, false),
  };
}
