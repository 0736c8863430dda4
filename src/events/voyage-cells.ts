import { shipCategory } from '../fleet/ship-types.js';
import { DAY, HOUR } from '../platform/clock.js';
import { encodeHours, encodeRegisters, hoursBucketOf, VesselSketch } from '../platform/sketches.js';
import type { VoyageCellsTable, VoyageLaneCellsTable } from '../store/schema.js';
import type { VoyageRow } from './voyages.js';

/**
 * The voyages summed per cell (docs/decisions/149): UTC day or ISO week of departure, origin, destination
 * and ship category. A cell lists its voyages while its period is small (docs/decisions/158: every day of it holds
 * at most EXACT_VOYAGES_PER_DAY voyages, all lanes together); beyond, it keeps a HyperLogLog of the vessels, a
 * histogram of hours (src/platform/sketches.ts) and its voyages per day and per hour of departure, with the bounds a
 * window needs to know whether the whole cell counts: the latest arrival and the earliest origin arrival.
 */

/**
 * A day's cells (and the week cell of a week whose every day is so) list their voyages while the day holds at
 * most this many voyages over all lanes and ship categories (docs/decisions/158): a small store's answers stay
 * exact, and in a large one every cell costs a fixed amount to read however few voyages it holds.
 */
export const EXACT_VOYAGES_PER_DAY = 128;
/** The category of the voyages whose ship type is unknown: no ship-type filter matches it. */
export const UNKNOWN_CATEGORY = 'unknown';

/**
 * A lane cell (docs/decisions/153: all ship categories together, for the answers without a ship-type filter)
 * lists its voyages while it holds at most this many; beyond, its sketches cost a fixed amount to read, so
 * the lanes of a large fleet's window cost about the same however many voyages they hold.
 */
export const EXACT_VOYAGES_PER_LANE_CELL = 16;

export type VoyageCellRow = VoyageCellsTable;
export type VoyageLaneCellRow = VoyageLaneCellsTable;

/** A voyage as an exact cell lists it. */
export interface CellVoyage {
  vslId: string;
  departure: number;
  arrival: number;
  fromArrival: number;
  simulated: boolean;
}

type ExactFacts = Array<[string, number, number, number, 0 | 1]>;
/**
 * An approximate cell's facts (docs/decisions/158), as text without JSON (a parse per cell cost more than the
 * rest of its read): registers and hours as `encodeRegisters` / `encodeHours` write them, then its voyages per day
 * of the period and per UTC hour of departure as comma lists, the four joined by '|'.
 */
type ApproximateFacts = string;

export const categoryOf = (shipType: number | null) => shipCategory(shipType) ?? UNKNOWN_CATEGORY;

/** ISO weeks begin on Monday 00:00 UTC; 1970-01-05 was a Monday. */
const FIRST_MONDAY = 4 * DAY;
export const WEEK = 7 * DAY;
export const dayStartOf = (t: number) => Math.floor(t / DAY) * DAY;
export const weekStartOf = (t: number) => Math.floor((t - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;

/** A cell's vessels as a HyperLogLog and its voyages' hours per log bucket (an approximate cell's sketches). */
function sketchesOfVoyages(list: readonly VoyageRow[]): { vessels: VesselSketch; hours: Map<number, number> } {
  const vessels = VesselSketch.ofRegisters(new Uint8Array(1 << 10));
  const hours = new Map<number, number>();
  for (const v of list) {
    vessels.add(v.vsl_id);
    const bucket = hoursBucketOf((v.arrival - v.departure) / HOUR);
    hours.set(bucket, (hours.get(bucket) ?? 0) + 1);
  }
  return { vessels, hours };
}

/** Whether every day of the period holds at most EXACT_VOYAGES_PER_DAY voyages (all lanes): its cells list their voyages. */
function periodIsSmall(voyages: readonly VoyageRow[]): boolean {
  const perDay = new Map<number, number>();
  for (const v of voyages) {
    const day = dayStartOf(v.departure);
    const n = (perDay.get(day) ?? 0) + 1;
    if (n > EXACT_VOYAGES_PER_DAY) return false;
    perDay.set(day, n);
  }
  return true;
}

/** The sketches of an approximate cell, and its voyages per day of the period and per UTC hour of departure. */
function approximateFactsOf(periodStart: number, periodDays: number, list: readonly VoyageRow[]): ApproximateFacts {
  const { vessels, hours } = sketchesOfVoyages(list);
  const days = new Array<number>(periodDays).fill(0);
  const departureHours = new Array<number>(24).fill(0);
  for (const v of list) {
    days[Math.floor((v.departure - periodStart) / DAY)]!++;
    departureHours[Math.floor((v.departure % DAY) / HOUR)]!++;
  }
  return [encodeRegisters(vessels.toRegisters()), encodeHours(hours), days.join(','), departureHours.join(',')].join('|');
}

/**
 * The cells of the voyages that departed in one period (a UTC day, or an ISO week: periodDays 1 or 7,
 * beginning at periodStart): all of the period's voyages, which decide whether its cells are exact. A voyage
 * that arrived before it departed counts in no window (docs/lanes.md), so no cell holds it.
 */
export function cellsOfVoyages(periodStart: number, periodDays: 1 | 7, voyages: readonly VoyageRow[]): VoyageCellRow[] {
  const exact = periodIsSmall(voyages);
  return [...groupsOf(voyages, (v) => `${v.from_port}|${v.to_port}|${categoryOf(v.ship_type)}`)].map((list) => {
    const first = list[0]!;
    const facts: ExactFacts | ApproximateFacts = exact
      ? list.map((v) => [v.vsl_id, v.departure, v.arrival, v.from_arrival, v.simulated === 1 ? 1 : 0])
      : approximateFactsOf(periodStart, periodDays, list);
    return {
      period_start: periodStart,
      period_days: periodDays,
      ...boundsOf(list),
      category: categoryOf(first.ship_type),
      exact: exact ? 1 : 0,
      facts: typeof facts === 'string' ? facts : JSON.stringify(facts),
    };
  });
}

/**
 * The lane cells of the voyages that departed in one period (docs/decisions/153): as `cellsOfVoyages`, all
 * ship categories in one cell, with EXACT_VOYAGES_PER_LANE_CELL, and the sketches as `encodeRegisters` and
 * `encodeHours` write them (a fixed-size read, no JSON).
 */
export function laneCellsOfVoyages(periodStart: number, periodDays: 1 | 7, voyages: readonly VoyageRow[]): VoyageLaneCellRow[] {
  return [...groupsOf(voyages, (v) => `${v.from_port}|${v.to_port}`)].map((list) => {
    const cell = { period_start: periodStart, period_days: periodDays, ...boundsOf(list) };
    if (list.length <= EXACT_VOYAGES_PER_LANE_CELL) {
      const facts: LaneCellVoyages = [list.map((v) => v.vsl_id), list.map((v) => v.arrival - v.departure), list.map((v) => (v.simulated === 1 ? 1 : 0))];
      return { ...cell, voyage_list: JSON.stringify(facts), vessel_registers: null, hours_buckets: null };
    }
    const { vessels, hours } = sketchesOfVoyages(list);
    return { ...cell, voyage_list: null, vessel_registers: encodeRegisters(vessels.toRegisters()), hours_buckets: encodeHours(hours) };
  });
}

/** The voyages of a period grouped by cell; one that arrived before it departed counts in no window, so in no cell. */
function groupsOf(voyages: readonly VoyageRow[], keyOf: (v: VoyageRow) => string): Iterable<VoyageRow[]> {
  const groups = new Map<string, VoyageRow[]>();
  for (const v of voyages) {
    if (v.arrival < v.departure) continue;
    const key = keyOf(v);
    const list = groups.get(key);
    if (list) list.push(v);
    else groups.set(key, [v]);
  }
  return groups.values();
}

/** What a window needs to know of a cell without reading its voyages: its counts and its bounds. */
function boundsOf(list: readonly VoyageRow[]) {
  let simulated = 0;
  let maxArrival = -Infinity;
  let minFromArrival = Infinity;
  let minDuration = Infinity;
  for (const v of list) {
    if (v.simulated === 1) simulated++;
    maxArrival = Math.max(maxArrival, v.arrival);
    minFromArrival = Math.min(minFromArrival, v.from_arrival);
    minDuration = Math.min(minDuration, v.arrival - v.departure);
  }
  return { from_port: list[0]!.from_port, to_port: list[0]!.to_port, voyages: list.length, simulated, max_arrival: maxArrival, min_from_arrival: minFromArrival, min_duration_ms: minDuration };
}

/** The voyages of an exact cell. */
export function voyagesOfCell(facts: string): CellVoyage[] {
  return (JSON.parse(facts) as ExactFacts).map(([vslId, departure, arrival, fromArrival, simulated]) => ({ vslId, departure, arrival, fromArrival, simulated: simulated === 1 }));
}

/**
 * The voyages of an exact lane cell, column by column: vessel ids, durations (ms) and simulated (1) or not
 * (0). No arrival and no origin arrival: a reader uses the list only when the cell's bounds say all of its
 * voyages count in the window, and reads the voyages themselves otherwise (docs/decisions/153).
 */
export type LaneCellVoyages = [string[], number[], Array<0 | 1>];

export const voyagesOfLaneCell = (voyageList: string) => JSON.parse(voyageList) as LaneCellVoyages;

/** Adds the comma list of counts in text[from, to) to into[offset …]. */
function addCounts(text: string, from: number, to: number, into: number[], offset: number): void {
  let at = offset;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      into[at++]! += n;
      n = 0;
    } else n = n * 10 + (c - 48);
  }
  into[at]! += n;
}

/**
 * What an approximate cell holds, to be merged without decoding (VesselSketch / HoursSketch `mergeEncoded`):
 * encoded registers and hours; its voyages per day are added to days[dayOffset …] and per UTC hour of departure
 * to departureHours.
 */
export function sketchesOfCell(facts: string, days: number[], dayOffset: number, departureHours: number[]): { vessels: string; hours: string } {
  const first = facts.indexOf('|');
  const second = facts.indexOf('|', first + 1);
  const third = facts.indexOf('|', second + 1);
  addCounts(facts, second + 1, third, days, dayOffset);
  addCounts(facts, third + 1, facts.length, departureHours, 0);
  return { vessels: facts.slice(0, first), hours: facts.slice(first + 1, second) };
}
