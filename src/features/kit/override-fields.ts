import { AppError } from '../../platform/errors.js';

/**
 * What a correction may change (docs/feedback.md): a vessel's identity fields, a port's name and
 * coordinates, and a port area's kind, position or presence. Each field names the property it overrides in the served record and checks its value.
 */
export type OverrideTarget = 'vessel' | 'port' | 'area';

interface FieldRule {
  /** The field as the answers name it (vessel record / port record). */
  describe: string;
  check(value: unknown): boolean;
}

const text = (max: number): FieldRule => ({ describe: `a string of 1-${max} characters`, check: (v) => typeof v === 'string' && v.trim().length >= 1 && v.length <= max });
const number = (min: number, max: number, integer = false): FieldRule => ({
  describe: `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
  check: (v) => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!integer || Number.isInteger(v)),
});

export const OVERRIDE_FIELDS: Record<OverrideTarget, Record<string, FieldRule>> = {
  vessel: {
    name: text(40),
    callsign: { describe: 'a call sign of 1-10 letters and digits', check: (v) => typeof v === 'string' && /^[A-Za-z0-9]{1,10}$/.test(v) },
    ship_type: number(0, 99, true),
    length_m: number(1, 500),
    beam_m: number(1, 80),
    flag: { describe: 'an ISO 3166-1 alpha-2 country code', check: (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v) },
  },
  port: {
    name: text(80),
    lat: number(-90, 90),
    lon: number(-180, 180),
  },
  // a port area (docs/decisions/121): reclassified, moved (its new centre), or removed
  area: {
    kind: { describe: 'berth or anchorage', check: (v) => v === 'berth' || v === 'anchorage' },
    lat: number(-90, 90),
    lon: number(-180, 180),
    removed: { describe: '1 (the area is not there)', check: (v) => v === 1 },
  },
};

export interface CorrectionChange {
  field: string;
  value: string | number;
}

/**
 * Text that looks like markup: a tag opening (<img, </b, <!--, <?xml) or a character reference (&lt;,
 * &#60;, &#x3c;). No ship or port name needs either; `&` and `<` alone (M&M, A < B) stay plain text.
 */
const MARKUP = /<[A-Za-z!/?]|&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);/;

/** Checks the fields and values of a correction; the message names the offending change. */
export function checkChanges(target: OverrideTarget, changes: readonly CorrectionChange[]): CorrectionChange[] {
  const rules = OVERRIDE_FIELDS[target];
  const seen = new Set<string>();
  return changes.map((change, i) => {
    const rule = rules[change.field];
    if (!rule) {
      throw new AppError('invalid_request', `a ${target} correction may change ${Object.keys(rules).join(', ')}; not ${change.field}`, { field: `body.changes[${i}].field` });
    }
    if (seen.has(change.field)) throw new AppError('invalid_request', `${change.field} is corrected twice`, { field: `body.changes[${i}].field` });
    seen.add(change.field);
    if (!rule.check(change.value)) throw new AppError('invalid_request', `${change.field} must be ${rule.describe}`, { field: `body.changes[${i}].value` });
    if (typeof change.value === 'string' && MARKUP.test(change.value)) {
      throw new AppError('correction_markup_refused', `${change.field} looks like HTML or XML markup (a tag or a character reference); names are plain text`, { field: `body.changes[${i}].value` });
    }
    return { field: change.field, value: typeof change.value === 'string' ? change.value.trim() : change.value };
  });
}

/** One active override as the served records show it. */
export interface AppliedCorrection {
  field: string;
  value: string | number;
  ticket_id: string;
  applied_at: number;
  provenance: string;
}

/** The corrections of one vessel or port, by field. */
export type Corrections = ReadonlyMap<string, AppliedCorrection>;

/** The quality flag of an answer that serves a corrected value (the record's corrections give the provenance). */
export const OPERATOR_CORRECTED_FLAG = 'operator_corrected';

/** The identity property of a vessel each vessel field overrides. */
const VESSEL_PROPS = { name: 'name', callsign: 'callsign', ship_type: 'shipType', length_m: 'lengthM', beam_m: 'beamM', flag: 'flag' } as const;

/** A vessel's identity with its corrections laid over it (the observed state object is never modified). */
export function correctedIdentity<V extends { name: string | null; callsign: string | null; shipType: number | null; lengthM: number | null; beamM: number | null; flag: string | null }>(
  vessel: V,
  corrections: Corrections | undefined,
): V {
  if (!corrections || corrections.size === 0) return vessel;
  const copy = { ...vessel } as Record<string, unknown>;
  for (const [field, c] of corrections) {
    const prop = VESSEL_PROPS[field as keyof typeof VESSEL_PROPS];
    if (prop) copy[prop] = c.value;
  }
  return copy as V;
}

/** A vessel's identity as the fleet observed it, with the operator's corrections laid over it; undefined for a vessel never observed. */
export function correctedVessel<V extends Parameters<typeof correctedIdentity>[0]>(
  fleet: { byVesselId(vslId: string): V | undefined },
  vslId: string,
  correctionsOf: ((vslId: string) => Corrections | undefined) | undefined,
): V | undefined {
  const observed = fleet.byVesselId(vslId);
  return observed && correctedIdentity(observed, correctionsOf?.(vslId));
}

/** The provenance a corrected record carries: each corrected field, its served value and where it came from. */
export function correctionList(corrections: Corrections | undefined) {
  if (!corrections) return [];
  return [...corrections.values()]
    .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0))
    .map((c) => ({ field: c.field, value: c.value, ticket_id: c.ticket_id, provenance: c.provenance, applied_at: new Date(c.applied_at).toISOString() }));
}

/** What readers of the override layer use (the feedback area builds it: OverridesService). */
export interface CorrectionsReader {
  /** Changes with every apply and revert. */
  version(): number;
  corrected(target: OverrideTarget): Iterable<[string, Corrections]>;
  corrections(target: OverrideTarget, id: string | number): Corrections | undefined;
}
