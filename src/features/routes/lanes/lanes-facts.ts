import { DAY, HOUR, iso } from '../../../platform/clock.js';
import { shipCategory, type ShipCategory } from '../../../fleet/ship-types.js';
import { median, round, type Voyage } from './lanes-math.js';
import { sameHarbour, tooFast } from '../../../events/lane-rule.js';

/**
 * The pure parts of the lanes views (docs/lanes.md): what one answer reads (its facts) and the
 * groupings every view shares, with no store, no clock and no routing.
 */

/** Whole UTC days [since, until). */
export interface Window {
  since: number;
  until: number;
  days: number;
}

/** What one answer stands on: its window, its voyages, the port calls that began or ended in it, and how far events were analysed. */
export interface Facts {
  window: Window;
  voyages: Voyage[];
  callsInWindow: number;
  analysedUpTo: number | null;
  /** Where the store's port calls begin (null when it holds none): periods before it have no data. */
  dataFrom: number | null;
  /** Pairs of calls the lanes do not count as voyages (plausibleVoyages). */
  leftOut: LeftOut;
}

export interface LeftOut {
  same_harbour: number;
  implausible_speed: number;
}

/**
 * The voyages the lanes count (issue 28): a move between terminals of one harbour is no lane, and a voyage
 * faster over the great circle than MAX_VOYAGE_SPEED_KN is an artefact of overlapping port areas.
 * `gcNm` is the great-circle distance between two ports (null when a port has no position).
 */
export function plausibleVoyages(voyages: readonly Voyage[], gcNm: (from: number, to: number) => number | null): { kept: Voyage[]; leftOut: LeftOut } {
  const kept: Voyage[] = [];
  const leftOut: LeftOut = { same_harbour: 0, implausible_speed: 0 };
  for (const v of voyages) {
    const nm = gcNm(v.from, v.to);
    if (sameHarbour(nm)) leftOut.same_harbour++;
    else if (tooFast(nm, (v.arrival - v.departure) / HOUR)) leftOut.implausible_speed++;
    else kept.push(v);
  }
  return { kept, leftOut };
}

/** The order lane-details lists a lane's voyages in: oldest departure first, then by vessel id. */
export const voyageOrder = (a: { departure: number; vslId: string }, b: { departure: number; vslId: string }) => a.departure - b.departure || a.vslId.localeCompare(b.vslId);

export interface Common {
  days?: number;
  until?: string;
  ship_type?: ShipCategory;
}

export const laneKey = (from: number, to: number) => `${from}>${to}`;
export const hours = (ms: number) => round(ms / HOUR, 1);
export const maybe = (x: number | null, places: number) => (x === null ? null : round(x, places));
export const vesselCount = (voyages: readonly Voyage[]) => new Set(voyages.map((v) => v.vslId)).size;

/** The AIS ship-type codes (1–99) of a category, or null for no filter. */
export const shipTypeCodes = (category: ShipCategory | undefined): number[] | null =>
  category === undefined ? null : Array.from({ length: 99 }, (_, i) => i + 1).filter((c) => shipCategory(c) === category);

export interface LaneAgg {
  from: number;
  to: number;
  voyages: Voyage[];
}

/** Voyages grouped by lane, busiest first (then more vessels, then by port ids). */
export function lanesOf(voyages: readonly Voyage[]): LaneAgg[] {
  const lanes = new Map<string, LaneAgg>();
  for (const v of voyages) {
    const key = laneKey(v.from, v.to);
    const held = lanes.get(key);
    if (held) held.voyages.push(v);
    else lanes.set(key, { from: v.from, to: v.to, voyages: [v] });
  }
  const vessels = new Map([...lanes.values()].map((l) => [l, vesselCount(l.voyages)]));
  return [...lanes.values()].sort((a, b) => b.voyages.length - a.voyages.length || vessels.get(b)! - vessels.get(a)! || a.from - b.from || a.to - b.to);
}

/** Counts of times (all in [since, until)) per bucket of `bucketMs` from since, oldest first. */
export function countPer(times: readonly number[], since: number, until: number, bucketMs: number): number[] {
  const counts = new Array<number>(Math.ceil((until - since) / bucketMs)).fill(0);
  for (const t of times) counts[Math.floor((t - since) / bucketMs)]!++;
  return counts;
}

/** The 7-day period ending at until (0 the oldest of n) in which a departure in [since, until) lies; the oldest is shorter when the window is not whole weeks. */
export const weekOfWindow = (since: number, until: number) => {
  const week = 7 * DAY;
  const n = Math.ceil((until - since) / week);
  return { n, of: (departure: number) => n - 1 - Math.floor((until - 1 - departure) / week) };
};

/** Voyages per 7-day period ending at until (counts keyed by weekOfWindow), oldest first. */
export function weekly(counts: ReadonlyMap<number, number>, since: number, until: number) {
  const week = 7 * DAY;
  const { n } = weekOfWindow(since, until);
  return Array.from({ length: n }, (_, i) => ({ week_start: iso(Math.max(since, until - (n - i) * week)), week_end: iso(until - (n - 1 - i) * week), voyages: counts.get(i) ?? 0 }));
}

export function directionOf(pct: number | null, slopeValue: number | null): 'rising' | 'falling' | 'steady' | 'unknown' {
  const x = pct ?? (slopeValue === null || slopeValue === 0 ? null : slopeValue > 0 ? 100 : -100);
  if (x === null) return slopeValue === 0 ? 'steady' : 'unknown';
  return x > 10 ? 'rising' : x < -10 ? 'falling' : 'steady';
}

/** Voyages per ship category (counts above 0), most first, with their share. */
export function categoryMix(counts: ReadonlyMap<string, number>) {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([ship_type, n]) => ({ ship_type, voyages: n, share: round(n / total, 3) }));
}

/** Median voyage hours of a set of voyages (null when empty). */
export const medianHours = (voyages: readonly Voyage[]) => median(voyages.map((v) => (v.arrival - v.departure) / HOUR));
