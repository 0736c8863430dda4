import type { DecodedMessage } from '../ais/index.js';
import type { ObservationMeta, PositionReport, StaticReport } from './types.js';
import { iso } from '../platform/clock.js';

/** What one decoded AIS message means to the fleet. */
export type Conversion =
  { kind: 'position'; position: PositionReport; identity: StaticReport | null } | { kind: 'static'; identity: StaticReport } | { kind: 'non_vessel' } | { kind: 'undecodable' } | { kind: 'other' };

const POSITION_TYPES = new Set([1, 2, 3, 18, 19, 27]);
/** Base stations (4, 11), SAR aircraft (9) and aids to navigation (21) are not vessels. */
const NON_VESSEL_TYPES = new Set([4, 9, 11, 21]);
/** Days an ETA may lie in the past before it is read as next year's date. */
const ETA_PAST_TOLERANCE_DAYS = 60;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const cleaned = value.replace(/@+$/g, '').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? null : cleaned;
};

/** Sum of the two reference-point distances; null when neither is reported (both 0). */
function dimension(a: unknown, b: unknown): number | null {
  const x = num(a) ?? 0;
  const y = num(b) ?? 0;
  return x + y > 0 ? x + y : null;
}

/**
 * ETA month/day/hour/minute (no year in AIS) as ISO 8601 UTC in the observation's year, or the next
 * year when that date lies more than 60 days before the observation (a January ETA sent in December).
 * Null without month and day or for an impossible date; an unavailable hour or minute counts as 0.
 */
export function etaToIso(month: unknown, day: unknown, hour: unknown, minute: unknown, observedAt: number): string | null {
  const m = num(month);
  const d = num(day);
  if (m === null || d === null || m < 1 || m > 12 || d < 1 || d > 31) return null;
  const h = num(hour) ?? 0;
  const min = num(minute) ?? 0;
  if (h > 23 || min > 59) return null;
  const year = new Date(observedAt).getUTCFullYear();
  const at = (y: number) => {
    const ms = Date.UTC(y, m - 1, d, h, min);
    return new Date(ms).getUTCDate() === d ? ms : null;
  };
  let eta = at(year);
  if (eta !== null && eta < observedAt - ETA_PAST_TOLERANCE_DAYS * 86_400_000) eta = at(year + 1);
  return eta === null ? null : iso(eta).replace('.000Z', 'Z');
}

/** A static report that carries nothing but who reported and when (every field a message may fill is null). */
export function emptyStatic(mmsi: number, meta: ObservationMeta): StaticReport {
  return {
    ...meta,
    mmsi,
    imo: null,
    name: null,
    callsign: null,
    shipType: null,
    lengthM: null,
    beamM: null,
    draughtM: null,
    destination: null,
    eta: null,
  };
}

const shipType = (value: unknown): number | null => {
  const code = num(value);
  return code === null || code === 0 ? null : code;
};

/** Converts a scaled decoder message (gpsd field names, null for not available). */
export function convertMessage(message: DecodedMessage, meta: ObservationMeta): Conversion {
  if (message.flag !== null || !message.fields.scaled) return { kind: 'undecodable' };
  const f = message.fields;
  const type = f.type;
  if (NON_VESSEL_TYPES.has(type)) return { kind: 'non_vessel' };
  if (POSITION_TYPES.has(type)) {
    const lat = num(f.lat);
    const lon = num(f.lon);
    const position: PositionReport = {
      ...meta,
      mmsi: f.mmsi,
      lat: lat ?? Number.NaN,
      lon: lon ?? Number.NaN,
      sog: num(f.speed),
      cog: num(f.course),
      heading: num(f.heading),
      navStatus: type === 18 || type === 19 ? null : num(f.status),
      msgType: type,
    };
    let identity: StaticReport | null = null;
    if (type === 19) {
      identity = {
        ...emptyStatic(f.mmsi, meta),
        name: text(f.shipname),
        shipType: shipType(f.shiptype),
        lengthM: dimension(f.to_bow, f.to_stern),
        beamM: dimension(f.to_port, f.to_starboard),
      };
    }
    return { kind: 'position', position, identity };
  }
  if (type === 5) {
    const imo = num(f.imo);
    return {
      kind: 'static',
      identity: {
        ...emptyStatic(f.mmsi, meta),
        imo: imo === 0 ? null : imo,
        name: text(f.shipname),
        callsign: text(f.callsign),
        shipType: shipType(f.shiptype),
        lengthM: dimension(f.to_bow, f.to_stern),
        beamM: dimension(f.to_port, f.to_starboard),
        draughtM: num(f.draught),
        destination: text(f.destination),
        eta: etaToIso(f.eta_month, f.eta_day, f.eta_hour, f.eta_minute, meta.observedAt),
      },
    };
  }
  if (type === 24) {
    if (f.part === 'A') return { kind: 'static', identity: { ...emptyStatic(f.mmsi, meta), name: text(f.shipname) } };
    if (f.part === 'B') {
      return {
        kind: 'static',
        identity: {
          ...emptyStatic(f.mmsi, meta),
          name: text(f.shipname),
          callsign: text(f.callsign),
          shipType: shipType(f.shiptype),
          lengthM: dimension(f.to_bow, f.to_stern),
          beamM: dimension(f.to_port, f.to_starboard),
        },
      };
    }
  }
  return { kind: 'other' };
}
