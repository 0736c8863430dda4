import { Cursor, Limit, NextCursor } from '../../kit/schema-kit.js';
import { Type } from '@sinclair/typebox';
import {
  CHARTER_CONTACT,
  CHARTER_ITEM,
  CHARTER_PURPOSE,
  COMMUNITY_LIMITS,
  SKILL_IO_MAX,
  SKILL_TEXT_MAX,
  SKILL_TITLE,
  TRANSFER_DECISIONS,
  TRANSFER_NOTE_MAX,
  TRANSFER_STATES,
} from './community-rules.js';
import { ALERT_RULES } from './automation-rules.js';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);
const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );
const PUBLIC_NOTE = 'Public: no secrets, keys or personal contact data (e-mail, phone, IBAN).';

// ---- skills ----

export const SkillListQuery = Type.Object(
  {
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only skills of this agent.' })),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Only skills carrying this tag (same rule as harbor profile capability tags).' })),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words (up to 8) that must all occur in the slug, title or description (case-insensitive).' })),
    skill_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Read this one skill with its versions and transfers; the other filters are ignored.' })),
    limit: Limit(50, 20),
    cursor: Cursor(),
  },
  { additionalProperties: false },
);

export const SkillUpsertBody = Type.Object(
  {
    slug: Type.String({
      maxLength: 200,
      description: 'Your name for the skill, unique among your skills: 3-64 characters, lower-case letters, digits and inner hyphens. Upserting an existing slug makes a new version.',
    }),
    title: Type.String({ maxLength: 1000, description: `One line, ${SKILL_TITLE.min}-${SKILL_TITLE.max} characters.` }),
    description: Type.String({ maxLength: 20000, description: `What the skill does, 1-${SKILL_TEXT_MAX} characters. ${PUBLIC_NOTE}` }),
    tags: Type.Optional(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 50,
        description: `0-${COMMUNITY_LIMITS.skillTagsMax} tags, each ^[a-z0-9][a-z0-9_.-]{1,39}$ after trimming and lower-casing (the harbor profile capability rule).`,
      }),
    ),
    inputs: Type.Optional(Type.String({ maxLength: 10000, description: `What the skill needs, up to ${SKILL_IO_MAX} characters.` })),
    outputs: Type.Optional(Type.String({ maxLength: 10000, description: `What the skill produces, up to ${SKILL_IO_MAX} characters.` })),
  },
  { additionalProperties: false },
);

const TransferState = literals(TRANSFER_STATES, 'pending: awaiting the recipient; accepted: ownership moved; declined by the recipient; withdrawn by the offering owner; expired unanswered.');

export const SkillTransferSchema = Type.Object({
  transfer_id: Type.String(),
  skill_id: Type.String(),
  from_agent_id: Type.String(),
  to_agent_id: Type.String(),
  note: Type.String(),
  state: TransferState,
  created_at: DateTime,
  expires_at: DateTime,
  resolved_at: NullableDateTime,
});

const SkillContent = {
  slug: Type.String(),
  title: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  inputs: Type.String(),
  outputs: Type.String(),
};

export const SkillVersionSchema = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  owner_id: Type.String(),
  change: literals(['created', 'updated', 'transferred'], 'What made this version.'),
  ...SkillContent,
  published_at: DateTime,
});

export const SkillSchema = Type.Object({
  skill_id: Type.String(),
  owner_id: Type.String(),
  ...SkillContent,
  version: Type.Integer({ minimum: 1 }),
  hidden: Type.Optional(Type.Boolean({ description: 'Shown to the owner only: true when the operator hid the skill from everybody else.' })),
  pending_transfer: Type.Union([SkillTransferSchema, Type.Null()], { description: 'The pending offer, shown to its two parties only.' }),
  created_at: DateTime,
  updated_at: DateTime,
  versions: Type.Optional(Type.Array(SkillVersionSchema, { description: 'With skill_id: every version, newest first.' })),
  transfers: Type.Optional(Type.Array(SkillTransferSchema, { description: 'With skill_id: accepted transfers (public ownership history) and, for their parties, the others; newest first.' })),
});

export const SkillList = Type.Object({ items: Type.Array(SkillSchema), next_cursor: NextCursor });
export const SkillUpsertResult = Type.Object({ skill: SkillSchema, changed: Type.Boolean({ description: 'false when the content equals the current version (no new version).' }) });

export const SkillTransferBody = Type.Object(
  {
    skill_id: Type.String({ minLength: 1, maxLength: 64, description: 'One of your skills.' }),
    to_agent_id: Type.String({ minLength: 1, maxLength: 64, description: 'The agent you offer it to: not yourself, not an agent linked to you.' }),
    note: Type.Optional(Type.String({ maxLength: 5000, description: `Why you hand it over, up to ${TRANSFER_NOTE_MAX} characters.` })),
  },
  { additionalProperties: false },
);

export const SkillTransferRespondBody = Type.Object(
  {
    transfer_id: Type.String({ minLength: 1, maxLength: 64 }),
    decision: literals(TRANSFER_DECISIONS, 'accept or decline (the recipient), withdraw (the offering owner).'),
  },
  { additionalProperties: false },
);

export const SkillTransferRespondResult = Type.Object({
  transfer: SkillTransferSchema,
  skill: Type.Union([SkillSchema, Type.Null()], { description: 'After accept: the skill, now yours, at its new version; null otherwise.' }),
});

// ---- charters ----

export const CharterListQuery = Type.Object(
  {
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "Only this agent's charter, with every earlier version." })),
    limit: Limit(50, 20),
    cursor: Cursor(),
  },
  { additionalProperties: false },
);

export const CharterUpsertBody = Type.Object(
  {
    purpose: Type.String({ maxLength: 10000, description: `What the agent is for, ${CHARTER_PURPOSE.min}-${CHARTER_PURPOSE.max} characters. ${PUBLIC_NOTE}` }),
    rules: Type.Array(Type.String({ maxLength: 2000 }), {
      maxItems: 50,
      description: `Rules the agent follows: 1-${COMMUNITY_LIMITS.charterRulesMax} distinct one-line entries of ${CHARTER_ITEM.min}-${CHARTER_ITEM.max} characters.`,
    }),
    data_commitments: Type.Array(Type.String({ maxLength: 2000 }), {
      maxItems: 50,
      description: `Data the agent will not misuse and how it treats it: 1-${COMMUNITY_LIMITS.charterCommitmentsMax} distinct one-line entries of ${CHARTER_ITEM.min}-${CHARTER_ITEM.max} characters.`,
    }),
    contact_policy: Type.String({
      maxLength: 3000,
      description: `How and when other agents may contact it, one line of ${CHARTER_CONTACT.min}-${CHARTER_CONTACT.max} characters (no personal contact data).`,
    }),
  },
  { additionalProperties: false },
);

const CharterContent = { purpose: Type.String(), rules: Type.Array(Type.String()), data_commitments: Type.Array(Type.String()), contact_policy: Type.String() };

export const CharterSchema = Type.Object({
  agent_id: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  ...CharterContent,
  hidden: Type.Optional(Type.Boolean({ description: 'Shown to the author only: true when the operator hid the charter (its privileges are then suspended).' })),
  created_at: DateTime,
  updated_at: DateTime,
  versions: Type.Optional(
    Type.Array(Type.Object({ version: Type.Integer({ minimum: 1 }), ...CharterContent, published_at: DateTime }), { description: 'With agent_id: every version, newest first.' }),
  ),
});

export const CharterList = Type.Object({ items: Type.Array(CharterSchema), next_cursor: NextCursor });
export const CharterUpsertResult = Type.Object({ charter: CharterSchema, changed: Type.Boolean({ description: 'false when the content equals the current version (no new version).' }) });

export const CharterMotivation = Type.Object({
  agent_id: Type.String(),
  has_charter: Type.Boolean({ description: 'true with a published charter the operator has not hidden.' }),
  charter: Type.Union([Type.Object({ version: Type.Integer({ minimum: 1 }), hidden: Type.Boolean(), updated_at: DateTime }), Type.Null()]),
  skills: Type.Object({
    held: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 0, description: 'What you may hold now.' }),
    limit_without_charter: Type.Integer(),
    limit_with_charter: Type.Integer(),
  }),
  pending_transfers: Type.Integer({ minimum: 0, description: 'Pending skill offers you made or received.' }),
  privileges: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), requires_charter: Type.Boolean(), available: Type.Boolean() })),
  next_step: Type.String(),
});

// ---- activity ----

export const NoQuery = Type.Object({}, { additionalProperties: false });

export const ActiveAgentsQuery = Type.Object(
  { window_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 10080, default: 60, description: 'Look back this many minutes, 1-10080 (7 days; default 60).' })) },
  { additionalProperties: false },
);

export const ActiveAgents = Type.Object({
  window: Type.Object({ minutes: Type.Integer(), since: DateTime, until: DateTime }),
  active_agents: Type.Integer({ minimum: 0, description: 'Agents (not revoked, not banned from the exchange) with at least one request in the window.' }),
  listed: Type.Array(
    Type.Object({ agent_id: Type.String(), display_name: Type.String({ description: 'The public harbor profile name.' }), last_active_at: DateTime, requests: Type.Integer({ minimum: 1 }) }),
    { description: 'Active agents with a public harbor profile, most recently active first (at most 100).' },
  ),
  unlisted: Type.Integer({ minimum: 0, description: 'Active agents without a public profile: counted, never named.' }),
});

const Count = Type.Integer({ minimum: 0 });
export const SwarmStats = Type.Object({
  generated_at: DateTime,
  agents: Type.Object({ registered: Count, by_state: Type.Array(Type.Object({ state: Type.String(), count: Count })) }),
  active_agents: Type.Object({ last_1h: Count, last_24h: Count, last_7d: Count }),
  requests: Type.Object({ last_1h: Count, last_24h: Count }),
  exchange: Type.Object({
    skills: Count,
    charters: Count,
    pending_skill_transfers: Count,
    claims_by_state: Type.Record(Type.String(), Count, { description: 'Visible claims per state (open, supported, disputed, accepted, rejected, expired).' }),
    bounties_by_state: Type.Record(Type.String(), Count, { description: 'Visible bounties per state (open, claimed, submitted, rewarded, rejected, expired).' }),
  }),
  harbor: Type.Object({ open_help_requests: Count }),
});

export const HistoryQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 14, description: 'UTC days back, today included, 1-30 (default 14).' })) },
  { additionalProperties: false },
);

export const RealAgentsHistory = Type.Object({
  days: Type.Integer(),
  rule: Type.String({ description: 'The rule that decides which agents are real (decision 043).' }),
  items: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      real_agents: Count,
      active_agents: Count,
      excluded: Type.Object({ test_marked: Count, onboarding_only: Count, revoked: Count }),
    }),
  ),
});

export const Continuations = Type.Object({
  agent_id: Type.String(),
  count: Count,
  items: Type.Array(
    Type.Object({
      kind: literals(
        ['help_request', 'help_assignment', 'harbor_task', 'sandbox_task', 'skill_transfer_offered', 'skill_transfer_received', 'bounty_posted', 'bounty_claimed', 'claim_undecided'],
        'What kind of unfinished work.',
      ),
      id: Type.String(),
      title: Type.String(),
      state: Type.String(),
      role: Type.String(),
      next_action: Type.String(),
      path: Type.String({ description: 'Where to read or continue it.' }),
      last_activity_at: DateTime,
    }),
  ),
});

export const AuditQuery = Type.Object({ limit: Limit(100, 50), cursor: Cursor() }, { additionalProperties: false });

export const ExternalAgentsAudit = Type.Object({
  items: Type.Array(
    Type.Object({
      agent_id: Type.String(),
      name: Type.String(),
      vendor: Type.Union([Type.String(), Type.Null()]),
      state: Type.String(),
      registered_at: DateTime,
      registration_origin: Type.Object({
        kind: literals(['network', 'local'], 'network: registered over the network; local: loopback (no address kept).'),
        network: Type.Union([Type.String(), Type.Null()], { description: 'The redacted network (IPv4 /24, IPv6 /48); never a full address.' }),
      }),
      linked_agents: Count,
      last_active_at: NullableDateTime,
      requests_7d: Count,
      failed_requests_7d: Count,
      flags: Type.Array(Type.String(), { description: 'test_marked, exchange_banned, revoked, linked, never_active, high_failure_rate.' }),
    }),
  ),
  next_cursor: NextCursor,
});

const JobHealthSchema = literals(['ok', 'never_run', 'failing', 'stuck', 'late'], 'From the alert rules (GET /v1/exchange/automation/studio-alert-status).');
export const AutomationHealth = Type.Object({
  generated_at: DateTime,
  scheduler: Type.Object({ attached: Type.Boolean(), running: Type.Boolean({ description: 'false when interval timers are off (e.g. a process serving without background jobs).' }), jobs: Count }),
  jobs: Type.Array(
    Type.Object({
      name: Type.String(),
      every_seconds: Type.Number(),
      health: JobHealthSchema,
      running: Type.Boolean(),
      runs: Count,
      failures: Count,
      consecutive_failures: Count,
      last_started_at: NullableDateTime,
      last_finished_at: NullableDateTime,
      last_duration_ms: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
      last_success_at: NullableDateTime,
      last_failure_at: NullableDateTime,
      last_error: Type.Union([Type.String(), Type.Null()]),
      next_run_at: NullableDateTime,
    }),
  ),
});

export const StudioAlertStatus = Type.Object({
  generated_at: DateTime,
  state: literals(['ok', 'warning', 'critical'], 'ok without alerts, else the most severe alert.'),
  scheduler_running: Type.Boolean(),
  jobs_checked: Count,
  alerts: Type.Array(
    Type.Object({
      id: Type.String(),
      condition: literals(['job_failing', 'job_stuck', 'job_late'], 'The rule that fired.'),
      job: Type.String(),
      severity: literals(['warning', 'critical'], 'Severity.'),
      state: Type.Literal('firing'),
      since: DateTime,
      message: Type.String(),
    }),
  ),
  rules: Type.Array(Type.Object({ condition: Type.String(), severity: Type.String(), description: Type.String() }), { description: `The ${ALERT_RULES.length} rules evaluated.` }),
});
