/**
 * The demo fleet's land audit (issue 17, decision 052): samples every vessel as a receiver would see it
 * (every 6 minutes under way, every 30 minutes otherwise) and measures how far each moving position lies
 * inland on Natural Earth 1:10m outside the declared waterways; and, per voyage line, whether it turns
 * back on itself (a U-turn of more than 150° between consecutive 2 km steps). Used by the tests and to
 * record the figures in docs/demo-fleet.md; never by the running simulator.
 */
import { bearingDeg } from '../geo/distance.js';
import { landIndex } from '../geo/land.js';
import type { Polyline } from '../geo/polyline.js';
import { inlandKm } from '../routing/land-check.js';
import type { Segment } from './agenda.js';
import type { DemoFleet } from './fleet.js';

export interface InlandPosition {
  vessel: number;
  kind: string;
  t: number;
  lat: number;
  lon: number;
  inlandKm: number;
  segment: Segment['kind'];
}

export interface LandAudit {
  positions: number;
  moving: number;
  /** Moving positions deeper inland than 1 km (all of them, for diagnosis). */
  inland: InlandPosition[];
  voyages: number;
  /** Voyage lines with a turn of more than 150°, and the vessels' indices. */
  uTurnVoyages: number;
  uTurns: { vessel: number; kind: string; at: { lat: number; lon: number } }[];
}

const U_TURN_STEP_M = 2000;
const U_TURN_DEG = 150;

/** True when the line turns back by more than 150° between consecutive 2 km steps; the turning point, else null. */
export function uTurnOf(line: Polyline): { lat: number; lon: number } | null {
  let previous: number | null = null;
  for (let d = 0; d + U_TURN_STEP_M <= line.lengthM; d += U_TURN_STEP_M) {
    const a = line.at(d);
    const b = line.at(d + U_TURN_STEP_M);
    if (a.lat === b.lat && a.lon === b.lon) continue;
    const bearing = bearingDeg(a.lat, a.lon, b.lat, b.lon);
    if (previous !== null) {
      const turn = Math.abs(((bearing - previous + 540) % 360) - 180);
      if (turn > U_TURN_DEG) return { lat: a.lat, lon: a.lon };
    }
    previous = bearing;
  }
  return null;
}

/** Audits `vessels` (indices; default all) of the fleet from `from` to `to`. */
export function auditFleetOverLand(fleet: DemoFleet, from: number, to: number, vessels?: readonly number[]): LandAudit {
  const land = landIndex();
  const audit: LandAudit = { positions: 0, moving: 0, inland: [], voyages: 0, uTurnVoyages: 0, uTurns: [] };
  for (const index of vessels ?? fleet.vessels.map((v) => v.index)) {
    const vessel = fleet.vessels[index]!;
    const lines = new Set<() => Polyline>();
    for (let t = from; t < to;) {
      const segment = fleet.segmentOf(index, t);
      const state = fleet.stateOf(index, t);
      audit.positions++;
      if (segment.kind === 'sailing') lines.add(segment.line);
      if (state.moving) {
        audit.moving++;
        const depth = inlandKm(land, state.lon, state.lat);
        if (depth > 1) audit.inland.push({ vessel: index, kind: vessel.kind, t, lat: state.lat, lon: state.lon, inlandKm: depth, segment: segment.kind });
      }
      t += state.moving ? 360_000 : 1_800_000;
    }
    for (const line of lines) {
      audit.voyages++;
      const at = uTurnOf(line());
      if (at !== null) {
        audit.uTurnVoyages++;
        audit.uTurns.push({ vessel: index, kind: vessel.kind, at });
      }
    }
  }
  return audit;
}
