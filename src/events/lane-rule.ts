import { HOUR } from '../platform/clock.js';
import { distanceNm } from '../geo/distance.js';

/**
 * The lanes' rule (issue 28): which voyages the lanes count. A move between terminals of one harbour is no lane,
 * and a voyage faster over the great circle than MAX_VOYAGE_SPEED_KN is an artefact of overlapping port areas.
 * The lanes views apply it per voyage (lanes-facts `plausibleVoyages`); the voyage cells apply it when they keep
 * sketches (docs/decisions/177), so that an approximate cell's vessels, hours and counts are those of the voyages
 * counted.
 */

/** Ports closer than this (great circle) are terminals of one harbour: a move between them is no lane. */
export const SAME_HARBOUR_NM = 5;
/** Faster than this between two ports (great circle between their positions over the hours taken) no merchant vessel sails, even with port areas of a few nm shortening the run: overlapping port areas, not a voyage. */
export const MAX_VOYAGE_SPEED_KN = 60;

/** A lane between ports `nm` apart (null: a port without position) joins terminals of one harbour. */
export const sameHarbour = (nm: number | null) => nm !== null && nm < SAME_HARBOUR_NM;
/** A voyage of `hoursTaken` over `nm` is faster than any merchant vessel sails. */
export const tooFast = (nm: number | null, hoursTaken: number) => nm !== null && (hoursTaken <= 0 || nm / hoursTaken > MAX_VOYAGE_SPEED_KN);

/**
 * The shortest duration in whole ms a voyage over `nm` may take and count (the least d with tooFast false: the
 * speed rule as a bound a store can compare durations with); null when no voyage of the lane counts (one harbour).
 */
export function plausibleFromMs(nm: number | null): number | null {
  if (sameHarbour(nm)) return null;
  if (nm === null) return 0;
  let d = Math.max(1, Math.ceil((nm / MAX_VOYAGE_SPEED_KN) * HOUR));
  while (d > 1 && !tooFast(nm, (d - 1) / HOUR)) d--;
  while (tooFast(nm, d / HOUR)) d++;
  return d;
}

/** Where ports are, as the lanes measure a lane (the ports service: the table with the operator's corrections). */
export interface PortPositions {
  byId(portId: number): { lat: number | null; lon: number | null } | null | undefined;
}

/** The great circle in nautical miles between two ports, null when either has no position. */
export function greatCircleNmOf(ports: PortPositions): (from: number, to: number) => number | null {
  return (from, to) => {
    const a = ports.byId(from);
    const b = ports.byId(to);
    return a && b && a.lat !== null && a.lon !== null && b.lat !== null && b.lon !== null ? distanceNm(a.lat, a.lon, b.lat, b.lon) : null;
  };
}

/** Whether the lanes count a voyage of `durationMs` from one port to another (the rule, lane by lane). */
export type VoyageCounts = (from: number, to: number, durationMs: number) => boolean;

/** The rule with the ports' positions as they are now, each lane measured once (build one per summing pass: a correction of a port applies to the next). */
export function voyageCountsOf(ports: PortPositions): VoyageCounts {
  const greatCircleNm = greatCircleNmOf(ports);
  const lanes = new Map<string, number | null>();
  return (from, to, durationMs) => {
    const key = `${from}>${to}`;
    let nm = lanes.get(key);
    if (nm === undefined) lanes.set(key, (nm = greatCircleNm(from, to)));
    return !sameHarbour(nm) && !tooFast(nm, durationMs / HOUR);
  };
}

/** Every voyage counts: the window cells' one lane, whose voyages were counted before their lanes were merged. */
export const everyVoyageCounts: VoyageCounts = () => true;
