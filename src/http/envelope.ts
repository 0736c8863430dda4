import type { ErrorDetail } from '../platform/errors.js';
import type { Caller } from '../access/principals.js';
import { iso } from '../platform/clock.js';

export const ATTRIBUTION_TEXT =
  'Data from Bosun, an open maritime information service. AIS positions come from the feeds each response names; simulated data is labelled as such. Cite "Bosun" and the named source when you reuse it.';

export type UsageTier = 'anonymous' | 'free';

export interface Envelope<D = unknown> {
  status: 'ok' | 'error';
  request_id: string;
  as_of: string;
  freshness_seconds: number;
  cost_units: number;
  policy: { attribution_required: boolean; attribution_text: string; usage_tier: UsageTier };
  confidence: number | null;
  quality_flags: string[];
  data: D;
  errors: ErrorDetail[];
}

/** The last `as_of` text: requests answered in the same millisecond share it (no Date per answer). */
let isoMs = Number.NaN;
let isoText = '';
function asOf(ms: number): string {
  if (ms !== isoMs) {
    isoText = iso(ms);
    isoMs = ms;
  }
  return isoText;
}

export const usageTier = (caller: Caller): UsageTier => (caller.kind === 'anonymous' ? 'anonymous' : 'free');

export function okEnvelope<D>(args: {
  requestId: string;
  now: number;
  caller: Caller;
  data: D;
  costUnits: number;
  freshnessSeconds?: number;
  confidence?: number | null;
  qualityFlags?: string[];
}): Envelope<D> {
  return {
    status: 'ok',
    request_id: args.requestId,
    as_of: asOf(args.now),
    freshness_seconds: Math.max(0, Math.round(args.freshnessSeconds ?? 0)),
    cost_units: args.costUnits,
    policy: { attribution_required: true, attribution_text: ATTRIBUTION_TEXT, usage_tier: usageTier(args.caller) },
    confidence: args.confidence ?? null,
    quality_flags: args.qualityFlags ?? [],
    data: args.data,
    errors: [],
  };
}

const numberJson = (value: number | null): string => (typeof value === 'number' && Number.isFinite(value) ? String(value) : 'null');
/** The policy object as JSON per usage tier: the same few hundred characters on every answer. */
const POLICY_JSON = new Map<UsageTier, string>(
  (['anonymous', 'free'] as const).map((tier) => [tier, JSON.stringify({ attribution_required: true, attribution_text: ATTRIBUTION_TEXT, usage_tier: tier })]),
);
const policyJson = (policy: Envelope['policy']): string =>
  (policy.attribution_required === true && policy.attribution_text === ATTRIBUTION_TEXT ? POLICY_JSON.get(policy.usage_tier) : undefined) ?? JSON.stringify(policy);

const listJson = (list: readonly unknown[]): string => (list.length === 0 ? '[]' : JSON.stringify(list));

/**
 * The envelope as JSON text, with `data` given as already-serialised JSON: the same text as
 * JSON.stringify of the whole envelope, written field by field (issue 9: hot reads).
 */
export function envelopeJsonWithData(envelope: Envelope<unknown>, dataJson: string | undefined): string {
  const e = envelope;
  return (
    `{"status":${JSON.stringify(e.status)},"request_id":${JSON.stringify(e.request_id)},"as_of":${JSON.stringify(e.as_of)},` +
    `"freshness_seconds":${numberJson(e.freshness_seconds)},"cost_units":${numberJson(e.cost_units)},"policy":${policyJson(e.policy)},` +
    `"confidence":${numberJson(e.confidence)},"quality_flags":${listJson(e.quality_flags)},` +
    (dataJson === undefined ? '' : `"data":${dataJson},`) +
    `"errors":${listJson(e.errors)}}`
  );
}

/** The envelope as JSON text (the same text as JSON.stringify of it). */
export const envelopeJson = (envelope: Envelope<unknown>): string => envelopeJsonWithData(envelope, JSON.stringify(envelope.data) as string | undefined);

/** Failed calls charge nothing and carry an empty data object (or, for a few codes, an object describing the refusal). */
export function errorEnvelope(args: { requestId: string; now: number; caller: Caller; errors: ErrorDetail[]; data?: Record<string, unknown> }): Envelope<Record<string, unknown>> {
  return {
    status: 'error',
    request_id: args.requestId,
    as_of: asOf(args.now),
    freshness_seconds: 0,
    cost_units: 0,
    policy: { attribution_required: true, attribution_text: ATTRIBUTION_TEXT, usage_tier: usageTier(args.caller) },
    confidence: null,
    quality_flags: [],
    data: args.data ?? {},
    errors: args.errors,
  };
}
