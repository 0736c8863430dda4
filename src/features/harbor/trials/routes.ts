import { Type } from '@sinclair/typebox';
import { AppError } from '../../../platform/errors.js';
import { defineRoute } from '../../kit/route.js';
import { REPORTED_MOTION, SERVICE_VESSEL_IDENTITY } from '../../vessels/schemas.js';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 32, description });
const OWNER_OVERRIDES = ['owner', 'owner_id', 'tenant', 'on_behalf_of', 'agent_id'] as const;
const RAW_REQUESTS = ['raw', 'include', 'history', 'track'] as const;

const TrialQuery = Type.Object(
  {
    imo: Type.Optional(Id('IMO number (7 digits, "IMO:" prefix tolerated)')),
    mmsi: Type.Optional(Id('MMSI (9 digits)')),
    ...Object.fromEntries(OWNER_OVERRIDES.map((k) => [k, Type.Optional(Type.String({ maxLength: 128, description: 'Not accepted: owner_override_forbidden.' }))])),
    ...Object.fromEntries(RAW_REQUESTS.map((k) => [k, Type.Optional(Type.String({ maxLength: 64, description: 'Not accepted: raw_vessel_data_forbidden.' }))])),
  },
  { additionalProperties: false },
);

const TrialSnapshot = Type.Object({
  vessel: Type.Object(SERVICE_VESSEL_IDENTITY),
  position: Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    ...REPORTED_MOTION,
  }),
  observed_at: Type.String({ format: 'date-time' }),
  generated_at: Type.String({ format: 'date-time' }),
  age_seconds: Type.Integer({ minimum: 0 }),
  data_state: Type.Union([Type.Literal('live'), Type.Literal('recent'), Type.Literal('stale')]),
  quality_flags: Type.Array(Type.String()),
  source: Type.Object({ kind: Type.Literal('ais'), feed: Type.String(), simulated: Type.Boolean() }),
  attribution: Type.String(),
  trial: Type.Object({ vessel: Type.String(), expires_at: Type.String({ format: 'date-time' }) }),
});

const trial = defineRoute({
  operationId: 'getServicesVesselSnapshotTrial',
  description:
    'The current snapshot of the one vessel of your trial (scope snapshot:read plus an explicit one-vessel grant by the operator, 7 days): identity, position, observed_at, generated_at, age_seconds, data_state (live ≤ 10 min, recent ≤ 6 h, stale), quality_flags, source and attribution. Query imo or mmsi (exactly one). No credit debit, no tracking renewal, no other vessel (trial_vessel_not_allowed), no owner override (owner_override_forbidden), no raw data (raw_vessel_data_forbidden). Limits: 6 calls per minute and 100 per day (trial_rate_limited); 10 failed calls per hour block the trial for the rest of that hour (trial_error_rate_limited). Ask for a trial with an operator request of category access_request.',
  query: TrialQuery,
  response: TrialSnapshot,
  errors: [
    'trial_not_enabled',
    'trial_vessel_not_allowed',
    'trial_rate_limited',
    'trial_error_rate_limited',
    'trial_snapshot_unavailable',
    'owner_override_forbidden',
    'vessel_not_found',
    'invalid_vessel_id',
    'raw_vessel_data_forbidden',
  ],
  examples: [{ summary: 'Snapshot of the trial vessel (answers scope_required until the operator grants a trial)', query: { imo: '9811000' }, expectError: 'scope_required' }],
  async handler({ query }, call) {
    if (call.caller.kind !== 'agent') throw new AppError('agent_key_required');
    const q = query as Record<string, string | undefined>;
    const ownerOverride = OWNER_OVERRIDES.find((k) => q[k] !== undefined) ?? null;
    const rawRequested = RAW_REQUESTS.find((k) => q[k] !== undefined) ?? null;
    return call.services.trials.snapshot(call.caller.agent.agentId, { imo: q.imo, mmsi: q.mmsi, ownerOverride, rawRequested });
  },
});

export const trialRoutes = [trial];
