import { bearingDeg, distanceM } from '../geo/distance.js';

/**
 * Chokepoint transits (docs/decisions/021-chokepoints.md). Each chokepoint is a gate: a disc around
 * the centre IMF PortWatch publishes, and the axis along which traffic passes. A vessel that enters
 * the disc and leaves it having moved at least one radius along the axis has transited, in the
 * direction of that movement; one that leaves on the side it came in has only visited. Gate radii and
 * axes are Bosun's own (no one publishes gate areas), chosen from the geography of each passage.
 */
export interface Chokepoint {
  key: string;
  name: string;
  lat: number;
  lon: number;
  radiusKm: number;
  /** Compass bearing of the passage; moving along it is the first direction, against it the second. */
  axisDeg: number;
  directions: [string, string];
}

export const CHOKEPOINTS: readonly Chokepoint[] = [
  { key: 'suez', name: 'Suez Canal', lat: 30.5933, lon: 32.4369, radiusKm: 90, axisDeg: 0, directions: ['northbound', 'southbound'] },
  { key: 'panama', name: 'Panama Canal', lat: 9.1205, lon: -79.7672, radiusKm: 40, axisDeg: 320, directions: ['northbound', 'southbound'] },
  { key: 'bosporus', name: 'Bosporus', lat: 41.1693, lon: 29.0915, radiusKm: 20, axisDeg: 20, directions: ['northbound', 'southbound'] },
  { key: 'bab_el_mandeb', name: 'Bab-el-Mandeb', lat: 12.7886, lon: 43.3495, radiusKm: 40, axisDeg: 330, directions: ['northbound', 'southbound'] },
  { key: 'malacca', name: 'Strait of Malacca', lat: 1.517, lon: 102.6651, radiusKm: 60, axisDeg: 315, directions: ['northwestbound', 'southeastbound'] },
  { key: 'hormuz', name: 'Strait of Hormuz', lat: 26.2969, lon: 56.8598, radiusKm: 50, axisDeg: 330, directions: ['inbound', 'outbound'] },
  { key: 'cape_of_good_hope', name: 'Cape of Good Hope', lat: -34.9273, lon: 20.8827, radiusKm: 100, axisDeg: 90, directions: ['eastbound', 'westbound'] },
  { key: 'gibraltar', name: 'Strait of Gibraltar', lat: 35.9423, lon: -5.7549, radiusKm: 30, axisDeg: 90, directions: ['eastbound', 'westbound'] },
  { key: 'dover', name: 'Dover Strait', lat: 51.0302, lon: 1.5058, radiusKm: 30, axisDeg: 45, directions: ['northeastbound', 'southwestbound'] },
  { key: 'oresund', name: 'Øresund', lat: 55.5078, lon: 12.8508, radiusKm: 30, axisDeg: 0, directions: ['northbound', 'southbound'] },
  { key: 'taiwan_strait', name: 'Taiwan Strait', lat: 24.7235, lon: 119.8314, radiusKm: 100, axisDeg: 30, directions: ['northbound', 'southbound'] },
  { key: 'lombok', name: 'Lombok Strait', lat: -8.4191, lon: 115.8014, radiusKm: 40, axisDeg: 0, directions: ['northbound', 'southbound'] },
];

export interface GateFix {
  seq: number;
  t: number;
  lat: number;
  lon: number;
  sog: number | null;
}

export interface Transit {
  zone: string;
  direction: string;
  entered: number;
  exited: number;
  /** Mean speed over ground in the gate, knots (null without any). */
  meanSpeedKn: number | null;
  /** Time between consecutive fixes both slower than 0.5 kn: waiting in the gate. */
  stoppedMs: number;
  firstSeq: number;
  lastSeq: number;
  fixes: number;
}

/** Per vessel, plain data (restart-safe). */
export interface GateState {
  inside: {
    zone: string;
    entered: number;
    lat: number;
    lon: number;
    firstSeq: number;
    lastSeq: number;
    lastT: number;
    sogSum: number;
    sogCount: number;
    fixes: number;
    stoppedMs: number;
    lastSog: number | null;
  } | null;
}

const STOPPED_KN = 0.5;

export const emptyGateState = (): GateState => ({ inside: null });

/** Signed distance along the axis from a to b, metres (positive: along the axis). */
function alongAxisM(gate: Chokepoint, aLat: number, aLon: number, bLat: number, bLon: number): number {
  const d = distanceM(aLat, aLon, bLat, bLon);
  if (d === 0) return 0;
  return d * Math.cos(((bearingDeg(aLat, aLon, bLat, bLon) - gate.axisDeg) * Math.PI) / 180);
}

export interface TransitDetector {
  /** Feeds one vessel's fix (in time order for the vessel); returns a transit completed by it, if any. */
  push(state: GateState, fix: GateFix): Transit | null;
  /** The gate a position lies in, if any. */
  gateAt(lat: number, lon: number): Chokepoint | null;
}

export function createTransitDetector(gates: readonly Chokepoint[] = CHOKEPOINTS): TransitDetector {
  const byKey = new Map(gates.map((g) => [g.key, g]));
  const gateAt = (lat: number, lon: number) => gates.find((g) => Math.abs(g.lat - lat) < g.radiusKm / 100 && distanceM(lat, lon, g.lat, g.lon) <= g.radiusKm * 1000) ?? null;

  return {
    gateAt,
    push(state, fix) {
      const gate = gateAt(fix.lat, fix.lon);
      const inside = state.inside;
      if (inside && inside.zone === gate?.key) {
        if (fix.t < inside.lastT) return null;
        if (fix.sog !== null && fix.sog < STOPPED_KN && inside.lastSog !== null && inside.lastSog < STOPPED_KN) inside.stoppedMs += fix.t - inside.lastT;
        inside.lastSog = fix.sog;
        inside.lastSeq = fix.seq;
        inside.lastT = fix.t;
        inside.fixes++;
        if (fix.sog !== null) {
          inside.sogSum += fix.sog;
          inside.sogCount++;
        }
        return null;
      }
      let done: Transit | null = null;
      if (inside) {
        // left the gate (or jumped into another): a transit if it crossed a radius along the axis
        const left = byKey.get(inside.zone)!;
        const along = alongAxisM(left, inside.lat, inside.lon, fix.lat, fix.lon);
        if (Math.abs(along) >= left.radiusKm * 1000) {
          done = {
            zone: left.key,
            direction: along > 0 ? left.directions[0] : left.directions[1],
            entered: inside.entered,
            exited: inside.lastT,
            meanSpeedKn: inside.sogCount ? Math.round((inside.sogSum / inside.sogCount) * 10) / 10 : null,
            stoppedMs: inside.stoppedMs,
            firstSeq: inside.firstSeq,
            lastSeq: inside.lastSeq,
            fixes: inside.fixes,
          };
        }
        state.inside = null;
      }
      if (gate) {
        state.inside = {
          zone: gate.key,
          entered: fix.t,
          lat: fix.lat,
          lon: fix.lon,
          firstSeq: fix.seq,
          lastSeq: fix.seq,
          lastT: fix.t,
          sogSum: fix.sog ?? 0,
          sogCount: fix.sog === null ? 0 : 1,
          fixes: 1,
          stoppedMs: 0,
          lastSog: fix.sog,
        };
      }
      return done;
    },
  };
}
