import { Type } from '@sinclair/typebox';
import { IntentData } from '../payments/schemas.js';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../kit/text-rules.js';

const Text = (min: number, max: number, description: string) => Type.String({ minLength: min, maxLength: max, pattern: NO_CONTROL_CHARACTERS_PATTERN, description });

export const RegisterBody = Type.Object(
  {
    name: Text(2, 64, 'Display name of the agent (2-64 characters, no control characters).'),
    vendor: Type.Optional(Text(1, 64, 'Who builds or runs the agent (self-declared, unverified).')),
    description: Type.Optional(Text(0, 1000, 'What the agent does, up to 1,000 characters.')),
  },
  { additionalProperties: false },
);

const IsoOrNull = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const ScopeGrantSchema = Type.Object({
  scope: Type.String(),
  granted_by: Type.String(),
  granted_at: Type.String({ format: 'date-time' }),
  expires_at: IsoOrNull,
});

export const AgentStateSchema = Type.Union(['registered', 'sandbox', 'trial', 'trusted', 'operator_approved', 'revoked', 'sandbox_expired', 'trial_expired'].map((s) => Type.Literal(s)));

export const RegisterResponse = Type.Object({
  agent_id: Type.String(),
  api_key: Type.String({ description: 'Shown once. Send it as "Authorization: Bearer <api_key>". Only a hash is stored.' }),
  key_prefix: Type.String(),
  state: AgentStateSchema,
  scopes: Type.Array(Type.String()),
  sandbox_expires_at: IsoOrNull,
  created_at: Type.String({ format: 'date-time' }),
  next_steps: Type.Array(Type.String()),
});

export const AgentSelf = Type.Object({
  agent_id: Type.String(),
  name: Type.String(),
  vendor: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  state: AgentStateSchema,
  created_at: Type.String({ format: 'date-time' }),
  sandbox_expires_at: IsoOrNull,
  trial_expires_at: IsoOrNull,
  key_prefix: Type.String(),
  key_rotated_at: IsoOrNull,
  scopes: Type.Array(Type.String(), { description: 'Every scope the key can use now: active grants plus harbor:operator_request:create/read, which every non-revoked agent holds.' }),
  scope_grants: Type.Array(ScopeGrantSchema, { description: 'Active stored grants (expired ones are not shown).' }),
  payment_intents: Type.Array(IntentData, {
    description: 'Your newest 20 payment intents in their current state (empty while payment intents are disabled or none exist); the read-back of POST /v1/payments/intents.',
  }),
});
