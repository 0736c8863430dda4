import { isValidImo } from '../../ais/imo.js';
import { AppError } from '../../platform/errors.js';

export type VesselRef = { kind: 'imo'; imo: number } | { kind: 'mmsi'; mmsi: number } | { kind: 'vsl_id'; vslId: string };

const VSL_ID = /^vsl_[0-9a-f]{16}$/;

function imoRef(digits: string, raw: string, field: string): VesselRef {
  const imo = Number(digits);
  if (!/^\d{7}$/.test(digits) || !isValidImo(imo)) {
    throw new AppError('invalid_vessel_id', `${JSON.stringify(raw)} is not a valid IMO number (7 digits whose last is the check digit)`, { field });
  }
  return { kind: 'imo', imo };
}

function mmsiRef(digits: string, raw: string, field: string): VesselRef {
  if (!/^\d{9}$/.test(digits) || Number(digits) < 100_000_000) {
    throw new AppError('invalid_vessel_id', `${JSON.stringify(raw)} is not a valid MMSI (9 digits)`, { field });
  }
  return { kind: 'mmsi', mmsi: Number(digits) };
}

/**
 * Parses a vessel identifier: `IMO:9811000`, `MMSI:563033300`, a vsl_id, or bare digits (7 = IMO,
 * 9 = MMSI). With `as`, the value is that kind of number (an `IMO`/`MMSI` prefix is tolerated).
 */
export function parseVesselRef(raw: string, field: string, as?: 'imo' | 'mmsi'): VesselRef {
  const value = raw.trim();
  const prefixed = /^(IMO|MMSI)[: ]?(\S+)$/i.exec(value);
  if (as === 'imo') return imoRef(prefixed && prefixed[1]!.toUpperCase() === 'IMO' ? prefixed[2]! : value, raw, field);
  if (as === 'mmsi') return mmsiRef(prefixed && prefixed[1]!.toUpperCase() === 'MMSI' ? prefixed[2]! : value, raw, field);
  if (prefixed) return prefixed[1]!.toUpperCase() === 'IMO' ? imoRef(prefixed[2]!, raw, field) : mmsiRef(prefixed[2]!, raw, field);
  if (VSL_ID.test(value)) return { kind: 'vsl_id', vslId: value };
  if (/^\d{7}$/.test(value)) return imoRef(value, raw, field);
  if (/^\d{9}$/.test(value)) return mmsiRef(value, raw, field);
  throw new AppError('invalid_vessel_id', `${JSON.stringify(raw)} is not a vessel id: use IMO:<7 digits>, MMSI:<9 digits> or a vsl_id`, { field });
}

/** The one selector among id / imo / mmsi query parameters. */
export function selectorRef(query: { id?: string; imo?: string; mmsi?: string }): VesselRef {
  const given = (['id', 'imo', 'mmsi'] as const).filter((k) => query[k] !== undefined);
  if (given.length !== 1) {
    throw new AppError('invalid_request', 'give exactly one of id, imo or mmsi', { field: `query.${given[1] ?? 'id'}` });
  }
  const key = given[0]!;
  return parseVesselRef(query[key]!, `query.${key}`, key === 'id' ? undefined : key);
}
