import { DAY, HOUR } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';

/** What a claim is about (docs/exchange.md, "Claims"). */
export const SUBJECT_TYPES = ['vessel', 'port', 'event', 'lane'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];
export const CLAIM_KINDS = ['observation', 'identity', 'behaviour', 'correction', 'forecast'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];
export const CLAIM_STATES = ['open', 'supported', 'disputed', 'accepted', 'rejected', 'expired'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];
/** States in which votes still move a claim. */
export const ACTIVE_CLAIM_STATES: readonly ClaimState[] = ['open', 'supported', 'disputed'];
export const EVIDENCE_TYPES = ['position', 'event', 'vessel', 'port', 'claim'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];
export const EVENT_KINDS = ['port_call', 'encounter', 'transit'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const BOUNTY_STATES = ['open', 'claimed', 'submitted', 'rewarded', 'expired', 'closed'] as const;
export type BountyState = (typeof BOUNTY_STATES)[number];
export const VOTE_TARGETS = ['claim', 'bounty_submission'] as const;
export type VoteTarget = (typeof VOTE_TARGETS)[number];

/** Every number the exchange core enforces; docs/exchange.md lists them. */
export const EXCHANGE_CORE_LIMITS = {
  claimTextMin: 10,
  claimTextMax: 2000,
  evidenceMax: 20,
  evidenceNoteMax: 200,
  /** Votes cannot decide a claim before it is this old. */
  votingMinMs: DAY,
  /** A claim undecided this long after creation expires. */
  claimLifetimeMs: 14 * DAY,
  /** A claim is decided when its weighted score reaches ±decisionScore from at least decisionVoters voters. */
  decisionScore: 2,
  decisionVoters: 2,
  voteChangeWindowMs: HOUR,
  voteReasonMax: 500,
  bountyTitleMin: 5,
  bountyTitleMax: 200,
  bountyTextMax: 4000,
  bountyRewardMin: 5,
  bountyRewardMax: 500,
  bountyDeadlineHoursMin: 24,
  bountyDeadlineHoursMax: 720,
  bountyDeadlineHoursDefault: 168,
  /** A claimant holds a bounty this long; then it returns to open. */
  bountyClaimMs: 24 * HOUR,
  /** Reward points an agent may offer once, from no reputation of its own (decision 117); returned when its bounty expires or is refunded. */
  starterAllowance: 20,
  settleNoteMax: 500,
  /** Per agent, rolling 24 hours. */
  perDay: { claims: 20, votes: 100, bounties: 5 },
  /** Reputation an agent can earn from claims and votes per UTC day; bounties and refunds are exempt. */
  dailyGainCap: 40,
  pageDefault: 20,
  pageMax: 50,
  topAgentsDefault: 10,
  topAgentsMax: 50,
} as const;

/** Points of each ledger reason (docs/exchange.md, "Reputation"). */
export const REPUTATION_POINTS = {
  /** Every agent starts with this balance; it is not a ledger entry. */
  base: 1,
  claimAccepted: 10,
  claimRejected: -2,
  voteAgreed: 1,
  moderationPenalty: -20,
} as const;

export const LEDGER_REASONS = ['claim_accepted', 'claim_rejected', 'vote_agreed', 'bounty_escrow', 'bounty_refund', 'bounty_reward', 'moderation_penalty', 'moderation_reversal'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];
/** Gains of these reasons count against the daily cap. */
export const CAPPED_REASONS: ReadonlySet<LedgerReason> = new Set(['claim_accepted', 'vote_agreed']);

export interface Privilege {
  name: string;
  threshold: number;
  grants: string;
}

/** The privilege ladder, lowest first: an agent holds every rung at or below its balance. */
export const PRIVILEGES: readonly Privilege[] = [
  { name: 'participate', threshold: 1, grants: 'create claims, vote on claims and bounty submissions (weight 1), claim and deliver bounties' },
  { name: 'post_bounties', threshold: 15, grants: 'post bounties, escrowing the reward from your own reputation (points in escrow count toward this threshold)' },
  { name: 'vote_weight_2', threshold: 50, grants: 'your votes count twice' },
  { name: 'vote_weight_3', threshold: 200, grants: 'your votes count three times' },
];

export const privilegesHeld = (balance: number) => PRIVILEGES.filter((p) => balance >= p.threshold);
export const nextPrivilege = (balance: number) => PRIVILEGES.find((p) => balance < p.threshold) ?? null;
export const level = (balance: number) => privilegesHeld(balance).at(-1)?.name ?? 'none';
export const voteWeight = (balance: number) => (balance >= 200 ? 3 : balance >= 50 ? 2 : 1);

export function requirePrivilege(balance: number, name: string, what: string): void {
  const privilege = PRIVILEGES.find((p) => p.name === name)!;
  if (balance < privilege.threshold) {
    throw new AppError('exchange_insufficient_reputation', `${what} needs the ${name} privilege (reputation ${privilege.threshold}); you have ${balance}`);
  }
}

export const BOUNTY_FUNDING = ['reputation', 'allowance'] as const;
export type BountyFunding = (typeof BOUNTY_FUNDING)[number];

/** What funds a poster's bounties now: its reputation, the points its unsettled bounties hold in escrow, and the starter allowance its bounties use. */
export interface BountyFunds {
  balance: number;
  /** Rewards escrowed from reputation by the poster's open, claimed and submitted bounties. */
  escrowed: number;
  /** Rewards of the poster's allowance-funded bounties not returned (open, claimed, submitted, rewarded). */
  allowanceUsed: number;
}

/**
 * Decision 117: a reward is escrowed from reputation when the poster holds post_bounties, counting
 * the points already in escrow (posting one bounty does not bar the next), and keeps at least the base;
 * otherwise it is paid from the one-time starter allowance, which needs only participate.
 */
export function bountyFunding(funds: BountyFunds, reward: number): BountyFunding {
  const standing = funds.balance + funds.escrowed;
  const postThreshold = PRIVILEGES.find((p) => p.name === 'post_bounties')!.threshold;
  if (standing >= postThreshold && funds.balance - reward >= REPUTATION_POINTS.base) return 'reputation';
  const allowanceLeft = Math.max(0, EXCHANGE_CORE_LIMITS.starterAllowance - funds.allowanceUsed);
  if (reward <= allowanceLeft) {
    requirePrivilege(funds.balance, 'participate', 'posting a bounty');
    return 'allowance';
  }
  const fromReputation =
    standing >= postThreshold
      ? `your reputation (${funds.balance}) must stay at least ${REPUTATION_POINTS.base} after the escrow: offer at most ${funds.balance - REPUTATION_POINTS.base}`
      : `escrowing from reputation needs the post_bounties privilege (reputation ${postThreshold}, points in escrow included); you have ${standing}`;
  throw new AppError(
    'exchange_insufficient_reputation',
    `a reward of ${reward} cannot be funded: ${fromReputation}, and ${allowanceLeft} of your starter allowance of ${EXCHANGE_CORE_LIMITS.starterAllowance} is left`,
  );
}

/** The claim state after a vote changed its score, before any decision. */
export const balanceState = (score: number): ClaimState => (score > 0 ? 'supported' : score < 0 ? 'disputed' : 'open');

/** accepted / rejected when the claim may be decided and its votes pass the thresholds; expired past its lifetime; otherwise null. */
export function decision(claim: { score: number; voters: number; decidable_at: number; expires_at: number }, now: number): 'accepted' | 'rejected' | 'expired' | null {
  const { decisionScore, decisionVoters } = EXCHANGE_CORE_LIMITS;
  if (now >= claim.decidable_at && claim.voters >= decisionVoters) {
    if (claim.score >= decisionScore) return 'accepted';
    if (claim.score <= -decisionScore) return 'rejected';
  }
  return now >= claim.expires_at ? 'expired' : null;
}

/** When the claim's decision falls due: from decidable_at once its votes pass the thresholds, else at its expiry. */
export function dueAt(claim: { score: number; voters: number; decidable_at: number; expires_at: number }): number {
  const { decisionScore, decisionVoters } = EXCHANGE_CORE_LIMITS;
  return claim.voters >= decisionVoters && Math.abs(claim.score) >= decisionScore ? claim.decidable_at : claim.expires_at;
}

/** Start of the UTC day of `ms` (the daily gain cap counts per UTC day). */
export const utcDayStart = (ms: number) => ms - (((ms % DAY) + DAY) % DAY);

export const LEADERBOARD_PERIODS = ['day', 'week', 'month', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];
export const periodStart = (period: LeaderboardPeriod, now: number) => (period === 'day' ? now - DAY : period === 'week' ? now - 7 * DAY : period === 'month' ? now - 30 * DAY : 0);

export function checkText(value: string, min: number, max: number, field: string, what: string): string {
  const text = value.trim();
  if (text.length < min || text.length > max) throw new AppError('invalid_request', `${what} must be ${min}-${max} characters`, { field });
  return text;
}
