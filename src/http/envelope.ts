import type { ErrorDetail } from './errors.js';
import type { Caller } from '../access/principals.js';
import { iso } from '../clock.js';

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
    as_of: iso(args.now),
    freshness_seconds: Math.max(0, Math.round(args.freshnessSeconds ?? 0)),
    cost_units: args.costUnits,
    policy: { attribution_required: true, attribution_text: ATTRIBUTION_TEXT, usage_tier: usageTier(args.caller) },
    confidence: args.confidence ?? null,
    quality_flags: args.qualityFlags ?? [],
    data: args.data,
    errors: [],
  };
}

/** The envelope as JSON text, with `data` given as already-serialised JSON (same text as JSON.stringify of the whole). */
export function envelopeJsonWithData(envelope: Envelope<unknown>, dataJson: string): string {
  const { data: _data, errors, ...head } = envelope;
  const headJson = JSON.stringify(head);
  return `${headJson.slice(0, -1)},"data":${dataJson},"errors":${JSON.stringify(errors)}}`;
}

/** Failed calls charge nothing and carry an empty data object (or, for a few codes, an object describing the refusal). */
export function errorEnvelope(args: { requestId: string; now: number; caller: Caller; errors: ErrorDetail[]; data?: Record<string, unknown> }): Envelope<Record<string, unknown>> {
  return {
    status: 'error',
    request_id: args.requestId,
    as_of: iso(args.now),
    freshness_seconds: 0,
    cost_units: 0,
    policy: { attribution_required: true, attribution_text: ATTRIBUTION_TEXT, usage_tier: usageTier(args.caller) },
    confidence: null,
    quality_flags: [],
    data: args.data ?? {},
    errors: args.errors,
  };
}
