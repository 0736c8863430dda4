import { HOUR } from '../../src/platform/clock.js';
import type { Stop } from '../../src/events/port-calls.js';
import type { PortCallWrite } from '../../src/features/events/events-repo.js';

/** Stored port calls built by hand, with waits and berth times known to the minute (for congestion and visit rank tests). */
export interface CallSpec {
  vslId: string;
  portId: number;
  shipType?: number | null;
  arrival: number;
  departure: number | null;
  stops: Array<Pick<Stop, 'kind' | 'start' | 'end'>>;
  /** Default: the departure, or the last stop's end. */
  lastFixAt?: number;
  confidence?: number;
  simulated?: boolean;
}

let seq = 1;

export function callRow(spec: CallSpec): PortCallWrite {
  const stops: Stop[] = spec.stops.map((s) => ({ ...s, navStatus: null, lat: 29.7, lon: -95 }));
  const total = (kind: Stop['kind']) => stops.filter((s) => s.kind === kind).reduce((sum, s) => sum + (s.end - s.start), 0);
  const first = seq;
  seq += 100;
  return {
    vsl_id: spec.vslId,
    port_id: spec.portId,
    ship_type: spec.shipType ?? null,
    arrival: spec.arrival,
    departure: spec.departure,
    last_fix_at: spec.lastFixAt ?? spec.departure ?? stops[stops.length - 1]?.end ?? spec.arrival,
    anchorage_ms: total('anchorage'),
    berth_ms: total('berth'),
    stops: JSON.stringify(stops),
    first_seq: first,
    last_seq: first + 99,
    fixes: 100,
    gaps: 0,
    confidence: spec.confidence ?? 0.9,
    simulated: spec.simulated ? 1 : 0,
    updated_at: spec.departure ?? spec.arrival,
  };
}

/**
 * A completed call that departed at `departure` after `waitH` hours at anchor (none when 0) and `berthH`
 * hours alongside, with half an hour under way before and after the berth: it arrived
 * waitH + berthH + 1 hours before leaving.
 */
export function completedCall(vslId: string, portId: number, shipType: number | null, departure: number, waitH: number, berthH: number): CallSpec {
  const arrival = departure - (waitH + berthH + 1) * HOUR;
  const berthStart = arrival + waitH * HOUR + HOUR / 2;
  return {
    vslId,
    portId,
    shipType,
    arrival,
    departure,
    stops: [...(waitH > 0 ? [{ kind: 'anchorage' as const, start: arrival, end: arrival + waitH * HOUR }] : []), { kind: 'berth', start: berthStart, end: berthStart + berthH * HOUR }],
  };
}
