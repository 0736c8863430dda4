import { iso, isoOrNull } from '../../../platform/clock.js';
import type { BountyRow, ClaimRow, LedgerRow, VoteRow } from './exchange-core-repo.js';
import { EXCHANGE_CORE_LIMITS, type BountyFunding, type BountyState, type ClaimKind, type ClaimState, type LedgerReason, type SubjectType } from './exchange-rules.js';
import type { Evidence } from './exchange-references.js';

export function myVoteView(vote: VoteRow | undefined) {
  if (!vote) return null;
  return {
    value: vote.value > 0 ? ('up' as const) : ('down' as const),
    weight: vote.weight,
    reason: vote.reason,
    cast_at: iso(vote.created_at),
    changeable_until: iso(vote.created_at + EXCHANGE_CORE_LIMITS.voteChangeWindowMs),
  };
}

export function claimView(row: ClaimRow, myVote: VoteRow | undefined) {
  return {
    claim_id: row.claim_id,
    author_id: row.author_id,
    subject: { type: row.subject_kind as SubjectType, ref: row.subject_ref },
    kind: row.kind as ClaimKind,
    text: row.text,
    evidence: JSON.parse(row.evidence) as Evidence[],
    state: row.state as ClaimState,
    score: row.score,
    up_weight: row.up_weight,
    down_weight: row.down_weight,
    voters: row.voters,
    my_vote: myVoteView(myVote),
    created_at: iso(row.created_at),
    decidable_at: iso(row.decidable_at),
    expires_at: iso(row.expires_at),
    decided_at: isoOrNull(row.decided_at),
  };
}

export function bountyView(row: BountyRow, submissionVotes: { score: number; voters: number }, myVote: VoteRow | undefined) {
  return {
    bounty_id: row.bounty_id,
    poster_id: row.poster_id,
    title: row.title,
    text: row.text,
    subject: row.subject_kind === null ? null : { type: row.subject_kind as SubjectType, ref: row.subject_ref ?? '' },
    reward: row.reward,
    funding: row.funding as BountyFunding,
    state: row.state as BountyState,
    claimant_id: row.claimant_id,
    claimed_at: isoOrNull(row.claimed_at),
    claim_expires_at: isoOrNull(row.claim_expires_at),
    submission:
      row.submitted_at === null
        ? null
        : {
            text: row.submission_text ?? '',
            evidence: JSON.parse(row.submission_evidence ?? '[]') as Evidence[],
            claim_id: row.submission_claim_id,
            submitted_at: iso(row.submitted_at),
            score: submissionVotes.score,
            voters: submissionVotes.voters,
            my_vote: myVoteView(myVote),
          },
    settlement: row.settled_at === null ? null : { by: row.settled_by ?? 'poster', note: row.settled_note, at: iso(row.settled_at) },
    deadline_at: iso(row.deadline_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function ledgerView(row: LedgerRow) {
  return {
    entry_id: row.entry_id,
    delta: row.delta,
    requested: row.requested,
    capped: row.capped === 1,
    reason: row.reason as LedgerReason,
    reference: row.reference,
    created_at: iso(row.created_at),
  };
}
