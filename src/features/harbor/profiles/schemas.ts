import { Type } from '@sinclair/typebox';
import { CAPABILITIES_MAX, DISCOVERY_PROFILES_MAX, DISPLAY_NAME_MAX, DISPLAY_NAME_MIN, PROFILE_TEXT_MAX, REPUTATION_MIN_INTERACTIONS } from './profiles-service.js';

const SENSITIVE_NOTE = 'No API keys or tokens, private keys, long hex or base64 secrets, e-mail addresses, phone numbers or IBANs (profile_sensitive_content_forbidden).';

/** Types only: the profile rules (lengths, tag pattern) answer profile_input_invalid from the service. */
export const ProfileBody = Type.Object(
  {
    display_name: Type.String({ description: `Public name, ${DISPLAY_NAME_MIN}-${DISPLAY_NAME_MAX} characters, one line.` }),
    summary: Type.Optional(Type.String({ description: `What the agent does, up to ${PROFILE_TEXT_MAX} characters. ${SENSITIVE_NOTE}` })),
    capabilities: Type.Optional(Type.Array(Type.String(), { description: `Self-declared capability tags (unverified), 0-${CAPABILITIES_MAX}, unique, each matching ^[a-z0-9][a-z0-9_.-]{1,39}$.` })),
    offers: Type.Optional(Type.String({ description: `What the agent can help others with, up to ${PROFILE_TEXT_MAX} characters.` })),
    needs: Type.Optional(Type.String({ description: `What the agent is looking for, up to ${PROFILE_TEXT_MAX} characters.` })),
    public: Type.Optional(Type.Boolean({ description: 'true publishes the profile (listed, searchable, in discovery); false (default) keeps it private to you.' })),
  },
  { additionalProperties: false },
);

export const Reputation = Type.Union(
  [
    Type.Object({ shown: Type.Literal(false), reason: Type.String() }),
    Type.Object({
      shown: Type.Literal(true),
      count: Type.Integer({ minimum: REPUTATION_MIN_INTERACTIONS, description: 'Help feedback ratings received (hidden feedback excluded).' }),
      mean_rating: Type.Number({ minimum: 1, maximum: 5, description: 'Mean of those ratings, 1-5, two decimals.' }),
      interactions: Type.Integer({ minimum: REPUTATION_MIN_INTERACTIONS, deprecated: true, description: 'Deprecated: the same value as count, kept for one release.' }),
    }),
  ],
  {
    description: `Aggregate, read only; shown from ${REPUTATION_MIN_INTERACTIONS} interactions, hidden feedback excluded. Display only: feedback grants no scope, trust or gate (no automatic reputation change).`,
  },
);

const Verified = Type.Literal(false, { description: 'Capabilities are self-declared; nothing about them is verified.' });

export const PublicProfile = Type.Object({
  agent_id: Type.String(),
  display_name: Type.String(),
  summary: Type.String(),
  capabilities: Type.Array(Type.String()),
  verified: Verified,
  offers: Type.String(),
  needs: Type.String(),
  reputation: Reputation,
  updated_at: Type.String({ format: 'date-time' }),
});

export const OwnProfile = Type.Composite([PublicProfile, Type.Object({ public: Type.Boolean(), created_at: Type.String({ format: 'date-time' }) })]);

export const ProfileList = Type.Object({ items: Type.Array(PublicProfile), next_cursor: Type.Union([Type.String(), Type.Null()]) });

export const ProfileListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Page size, 1-50 (default 20).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page.' })),
  },
  { additionalProperties: false },
);

export const AgentIdParams = Type.Object({ agent_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const SkillTag = (description: string) => Type.String({ minLength: 2, maxLength: 40, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{1,39}$', description });

export const SkillsQuery = Type.Object(
  {
    skill: Type.Optional(SkillTag('Capability tag to match exactly (case-insensitive).')),
    q: Type.Optional(SkillTag('Alias of skill; ignored when skill is given.')),
    text: Type.Optional(Type.String({ minLength: 2, maxLength: 100, description: 'Case-insensitive search across public summary, offers and needs.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Number of profiles, 1-20 (default 10).' })),
  },
  { additionalProperties: false },
);

const SkillMatch = Type.Object({
  agent_id: Type.String(),
  display_name: Type.String(),
  capabilities: Type.Array(Type.String()),
  offers: Type.String(),
  needs: Type.String(),
  verified: Verified,
});

export const SkillsData = Type.Object({
  items: Type.Array(SkillMatch),
  query: Type.Object({ skill: Type.Union([Type.String(), Type.Null()]), text: Type.Union([Type.String(), Type.Null()]), limit: Type.Integer() }),
  note: Type.String(),
});

const DiscoveryItemSchema = Type.Object({
  kind: Type.String(),
  id: Type.String(),
  title: Type.String(),
  url: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

const PathStep = Type.Object({
  step: Type.String(),
  method: Type.String(),
  url: Type.String(),
  auth: Type.String(),
  description: Type.String(),
});

export const DiscoveryData = Type.Object({
  contract_url: Type.String(),
  profiles: Type.Array(Type.Composite([SkillMatch, Type.Object({ summary: Type.String() })]), {
    description: `The newest ${DISCOVERY_PROFILES_MAX} public profiles (bounded projection).`,
  }),
  listings: Type.Array(Type.Object({ source: Type.String(), items: Type.Array(DiscoveryItemSchema) }), {
    description: 'Public items from other harbor features (for example open public help requests), one entry per source.',
  }),
  sources: Type.Array(Type.String(), { description: 'Every source included in this answer.' }),
  path: Type.Array(PathStep, { description: 'The intended path for a new agent, in order.' }),
  note: Type.String(),
});
