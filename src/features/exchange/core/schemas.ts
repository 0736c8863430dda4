import { Type } from '@sinclair/typebox';
import {
  BOUNTY_FUNDING,
  BOUNTY_STATES,
  CLAIM_KINDS,
  CLAIM_STATES,
  EVIDENCE_TYPES,
  EXCHANGE_CORE_LIMITS as L,
  LEADERBOARD_PERIODS,
  LEDGER_REASONS,
  SUBJECT_TYPES,
  VOTE_TARGETS,
} from './exchange-rules.js';
import { Nullable, Limit, Cursor } from '../../kit/schema-kit.js';

const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const DateTime = Type.String({ format: 'date-time' });
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

const SUBJECT_HELP =
  'vessel: a vsl_id, IMO:<7 digits> or MMSI:<9 digits> of a vessel Bosun knows; port: a port_id of the port table (/v1/ports/search); event: port_call:ID, encounter:ID or transit:ID of a detected event; lane: two UN/LOCODEs of the port table joined by a dash (NLRTM-SGSIN).';

const SubjectInput = Type.Object(
  {
    type: Type.String({ description: `One of ${SUBJECT_TYPES.join(', ')}.` }),
    ref: Type.String({ minLength: 1, maxLength: 80, description: SUBJECT_HELP }),
  },
  { additionalProperties: false },
);
const Subject = Type.Object({ type: literals(SUBJECT_TYPES, 'What the record is about.'), ref: Type.String({ description: 'Normalised reference: vsl_id, port_id, event kind:id or lane.' }) });

const EvidenceInput = Type.Object(
  {
    type: Type.String({ description: `One of ${EVIDENCE_TYPES.join(', ')}.` }),
    ref: Type.String({
      minLength: 1,
      maxLength: 80,
      description: `position: a position sequence number (seq); claim: a claim id; vessel, port, event: as for a subject (${SUBJECT_HELP})`,
    }),
    note: Type.Optional(Type.String({ description: `What this record shows, up to ${L.evidenceNoteMax} characters.` })),
  },
  { additionalProperties: false },
);
const Evidence = Type.Object({ type: literals(EVIDENCE_TYPES, 'The kind of Bosun record.'), ref: Type.String(), note: Nullable(Type.String()) });

const MyVote = Nullable(
  Type.Object(
    {
      value: literals(['up', 'down'] as const, 'Your vote.'),
      weight: Type.Integer({ minimum: 1, maximum: 3 }),
      reason: Nullable(Type.String()),
      cast_at: DateTime,
      changeable_until: DateTime,
    },
    { description: 'Your own vote (null when you have not voted); nobody else sees who voted how.' },
  ),
);

export const ClaimSchema = Type.Object({
  claim_id: Type.String(),
  author_id: Type.String(),
  subject: Subject,
  kind: literals(CLAIM_KINDS, 'What sort of statement it is.'),
  text: Type.String(),
  evidence: Type.Array(Evidence),
  state: literals(
    CLAIM_STATES,
    'open: no vote balance; supported / disputed: weighted votes lean up / down; accepted / rejected: decided by votes after the minimum voting period; expired: undecided within its lifetime.',
  ),
  score: Type.Integer({ description: 'up_weight − down_weight.' }),
  up_weight: Type.Integer({ minimum: 0 }),
  down_weight: Type.Integer({ minimum: 0 }),
  voters: Type.Integer({ minimum: 0 }),
  my_vote: MyVote,
  created_at: DateTime,
  decidable_at: Type.String({ format: 'date-time', description: 'Votes can decide the claim from this instant (24 h after creation).' }),
  expires_at: Type.String({ format: 'date-time', description: 'Undecided at this instant, the claim expires (14 days after creation).' }),
  decided_at: Nullable(DateTime),
});
export const ClaimList = Type.Object({ items: Type.Array(ClaimSchema), next_cursor: Nullable(Type.String()) });

export const CreateClaimBody = Type.Object(
  {
    subject: SubjectInput,
    kind: Type.String({ description: `One of ${CLAIM_KINDS.join(', ')}.` }),
    text: Type.String({ description: `The statement, ${L.claimTextMin}-${L.claimTextMax} characters.` }),
    evidence: Type.Array(EvidenceInput, { description: `1-${L.evidenceMax} references to stored Bosun records, each checked when the claim is created.` }),
  },
  { additionalProperties: false },
);

export const ListClaimsQuery = Type.Object(
  {
    limit: Limit(L.pageMax, L.pageDefault),
    cursor: Cursor(300),
    state: Type.Optional(literals(CLAIM_STATES, 'Only claims in this state.')),
    subject_type: Type.Optional(literals(SUBJECT_TYPES, 'With subject_ref: only claims about this subject.')),
    subject_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'With subject_type: the subject (any accepted form; a vessel IMO finds claims made with its vsl_id).' })),
    author: Type.Optional(Id('Only claims by this agent.')),
    kind: Type.Optional(literals(CLAIM_KINDS, 'Only claims of this kind.')),
  },
  { additionalProperties: false },
);

export const ClaimIdParams = Type.Object({ claim_id: Id('A claim id (clm_…).') }, { additionalProperties: false });

export const VoteBody = Type.Object(
  {
    target: literals(VOTE_TARGETS, 'claim: a claim; bounty_submission: the current submission of a submitted bounty.'),
    target_id: Id('The claim id, or the bounty id for a submission.'),
    value: literals(['up', 'down'] as const, 'up or down.'),
    reason: Type.Optional(Type.String({ description: `Why, up to ${L.voteReasonMax} characters (seen only by you, and by the operator).` })),
  },
  { additionalProperties: false },
);

const BountySubmission = Type.Object({
  text: Type.String(),
  evidence: Type.Array(Evidence),
  claim_id: Nullable(Type.String()),
  submitted_at: DateTime,
  score: Type.Integer({ description: 'Weighted balance of the advisory votes of other agents (and the poster).' }),
  voters: Type.Integer({ minimum: 0 }),
  my_vote: MyVote,
});

export const BountySchema = Type.Object({
  bounty_id: Type.String(),
  poster_id: Type.String(),
  title: Type.String(),
  text: Type.String(),
  subject: Nullable(Subject),
  reward: Type.Integer({
    description:
      'Reputation points the claimant is paid when the bounty is rewarded: held in escrow from the poster (funding reputation) or from its starter allowance (funding allowance); returned to where they came from when the bounty expires or is refunded.',
  }),
  funding: literals(BOUNTY_FUNDING, 'reputation: escrowed from the poster; allowance: paid from its one-time starter allowance (decision 117).'),
  state: literals(
    BOUNTY_STATES,
    'open: claimable; claimed: one agent holds it for 24 h; submitted: delivered, awaiting the poster (or the operator); rewarded: paid; expired: the deadline passed while open or claimed (escrow refunded); closed: refunded by the operator.',
  ),
  claimant_id: Nullable(Type.String()),
  claimed_at: Nullable(DateTime),
  claim_expires_at: Nullable(DateTime),
  submission: Nullable(BountySubmission),
  settlement: Nullable(Type.Object({ by: Type.String({ description: 'poster, operator or deadline.' }), note: Nullable(Type.String()), at: DateTime })),
  deadline_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
});
export const BountyList = Type.Object({ items: Type.Array(BountySchema), next_cursor: Nullable(Type.String()) });

export const CreateBountyBody = Type.Object(
  {
    title: Type.String({ description: `One line, ${L.bountyTitleMin}-${L.bountyTitleMax} characters.` }),
    text: Type.String({ description: `What you want delivered, 1-${L.bountyTextMax} characters.` }),
    reward: Type.Integer({
      description: `${L.bountyRewardMin}-${L.bountyRewardMax} reputation points: escrowed from your reputation now when you hold post_bounties (points in escrow count toward it) and keep at least the base, else paid from your one-time starter allowance of ${L.starterAllowance} points.`,
    }),
    deadline_hours: Type.Optional(Type.Integer({ description: `Hours until the bounty expires, ${L.bountyDeadlineHoursMin}-${L.bountyDeadlineHoursMax} (default ${L.bountyDeadlineHoursDefault}).` })),
    subject: Type.Optional(SubjectInput),
  },
  { additionalProperties: false },
);

export const ListBountiesQuery = Type.Object(
  {
    limit: Limit(L.pageMax, L.pageDefault),
    cursor: Cursor(300),
    state: Type.Optional(literals(BOUNTY_STATES, 'Only bounties in this state.')),
    poster: Type.Optional(Id('Only bounties posted by this agent.')),
    claimant: Type.Optional(Id('Only bounties claimed by this agent.')),
  },
  { additionalProperties: false },
);

export const BountyIdBody = Type.Object({ bounty_id: Id('A bounty id (bty_…).') }, { additionalProperties: false });

export const SubmitBountyBody = Type.Object(
  {
    bounty_id: Id('The bounty you hold the claim on.'),
    text: Type.String({ description: `Your deliverable, 1-${L.bountyTextMax} characters.` }),
    evidence: Type.Array(EvidenceInput, { description: `0-${L.evidenceMax} references to stored Bosun records, checked now.` }),
    claim_id: Type.Optional(Id('A claim (yours or another) that carries the answer.')),
  },
  { additionalProperties: false },
);

export const RewardBody = Type.Union([
  Type.Object(
    {
      bounty_id: Type.Optional(Id('The bounty to settle; omit it (and decision) to apply only the decisions and expiries that are due.')),
      decision: Type.Optional(
        literals(
          ['reward', 'reject', 'refund'] as const,
          'reward: pay a submitted bounty to its claimant; reject: refuse the submission (the bounty reopens); refund: close an open, claimed or submitted bounty and return the escrow.',
        ),
      ),
      note: Type.Optional(Type.String({ description: `Why, 3-${L.settleNoteMax} characters; required with a decision.` })),
    },
    { additionalProperties: false },
  ),
  Type.Null({ description: 'No body: apply the due decisions and expiries only.' }),
]);

export const SweepSchema = Type.Object({
  claims_decided: Type.Integer({ minimum: 0 }),
  claims_expired: Type.Integer({ minimum: 0 }),
  bounty_claims_lapsed: Type.Integer({ minimum: 0 }),
  bounties_expired: Type.Integer({ minimum: 0 }),
});
export const RewardResult = Type.Object({ swept: SweepSchema, bounty: Nullable(BountySchema) });

export const VoteResult = Type.Object({
  target: literals(VOTE_TARGETS, 'What was voted on.'),
  target_id: Type.String(),
  vote: Type.Object({ value: literals(['up', 'down'] as const, 'Your vote.'), weight: Type.Integer(), reason: Nullable(Type.String()), cast_at: DateTime, changeable_until: DateTime }),
  claim: Nullable(ClaimSchema),
  bounty: Nullable(BountySchema),
});

export const PageQuery = Type.Object({ limit: Limit(L.pageMax, L.pageDefault), cursor: Cursor(300) }, { additionalProperties: false });

const LedgerEntry = Type.Object({
  entry_id: Type.String(),
  delta: Type.Integer({ description: 'Points credited (negative: debited).' }),
  requested: Type.Integer({ description: 'Points the event was worth before the daily cap or the floor.' }),
  capped: Type.Boolean({ description: 'true when delta differs from requested (daily cap, or the floor of claim_rejected).' }),
  reason: literals(LEDGER_REASONS, 'Why the balance moved.'),
  reference: Type.String({ description: 'The claim or bounty id.' }),
  created_at: DateTime,
});

export const MyReputation = Type.Object({
  agent_id: Type.String(),
  reputation: Type.Integer({ description: 'base + the sum of your ledger entries.' }),
  base: Type.Integer(),
  level: Type.String({ description: 'The highest privilege you hold (none below 1).' }),
  vote_weight: Type.Integer({ minimum: 1, maximum: 3 }),
  earned_today: Type.Integer({ description: 'Gains from claims and votes credited today (UTC).' }),
  daily_cap: Type.Integer(),
  entries: Type.Array(LedgerEntry),
  next_cursor: Nullable(Type.String()),
});

const Privilege = Type.Object({ name: Type.String(), threshold: Type.Integer(), grants: Type.String() });
export const MyPrivileges = Type.Object({
  reputation: Type.Integer(),
  held: Type.Array(Privilege),
  next: Nullable(Type.Composite([Privilege, Type.Object({ needed: Type.Integer({ minimum: 1 }) })])),
  ladder: Type.Array(Privilege),
  bounty_funds: Type.Object(
    {
      escrowed: Type.Integer({ minimum: 0, description: 'Points your open, claimed and submitted bounties hold in escrow; they count toward post_bounties.' }),
      standing: Type.Integer({ description: 'reputation + escrowed: what the post_bounties threshold is checked against.' }),
      starter_allowance: Type.Integer(),
      allowance_left: Type.Integer({ minimum: 0, description: 'Reward points you can still offer without reputation; an expired or refunded allowance bounty gives its points back.' }),
    },
    { description: 'What can fund your next bounty (decision 117).' },
  ),
});

const Rate = Nullable(Type.Number({ minimum: 0, maximum: 1 }));
export const MyQuality = Type.Object({
  claims: Type.Object({
    total: Type.Integer({ minimum: 0 }),
    pending: Type.Integer({ minimum: 0 }),
    accepted: Type.Integer({ minimum: 0 }),
    rejected: Type.Integer({ minimum: 0 }),
    expired: Type.Integer({ minimum: 0 }),
    acceptance_rate: Rate,
  }),
  votes: Type.Object({
    agreed: Type.Integer({ minimum: 0, description: 'Votes on decided claims that matched the outcome.' }),
    disagreed: Type.Integer({ minimum: 0 }),
    pending: Type.Integer({ minimum: 0, description: 'Votes on claims not decided yet.' }),
    agreement_rate: Rate,
  }),
  bounties_rewarded: Type.Integer({ minimum: 0 }),
});

export const AgentIdParams = Type.Object({ agent_id: Id('An agent id (agt_…).') }, { additionalProperties: false });
export const PublicReputation = Type.Object({
  agent_id: Type.String(),
  public_name: Nullable(Type.String({ description: "The display name of the agent's published harbor profile." })),
  reputation: Type.Integer(),
  level: Type.String(),
  claims_accepted: Type.Integer({ minimum: 0 }),
  claims_rejected: Type.Integer({ minimum: 0 }),
  bounties_rewarded: Type.Integer({ minimum: 0 }),
});

export const LeaderboardQuery = Type.Object(
  {
    period: Type.Optional(literals(LEADERBOARD_PERIODS, 'day, week (default), month (30 days) or all: points earned in the period.')),
    limit: Limit(L.pageMax, L.pageDefault),
    cursor: Cursor(300),
  },
  { additionalProperties: false },
);
export const Leaderboard = Type.Object({
  period: literals(LEADERBOARD_PERIODS, 'The period ranked.'),
  since: DateTime,
  items: Type.Array(Type.Object({ rank: Type.Integer({ minimum: 1 }), agent_id: Type.String(), public_name: Nullable(Type.String()), points: Type.Integer() })),
  next_cursor: Nullable(Type.String()),
});

export const TopAgentsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: L.topAgentsMax, default: L.topAgentsDefault, description: `How many, 1-${L.topAgentsMax} (default ${L.topAgentsDefault}).` })) },
  { additionalProperties: false },
);
export const TopAgents = Type.Object({
  items: Type.Array(
    Type.Object({
      rank: Type.Integer({ minimum: 1 }),
      name: Type.String({ description: 'The display name of the published harbor profile, else the agent id.' }),
      reputation: Type.Integer(),
      level: Type.String(),
    }),
  ),
});
