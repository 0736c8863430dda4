import { shipCategory } from '../fleet/ship-types.js';
import { DAY, HOUR } from '../platform/clock.js';
import { HoursSketch, hoursBucketOf, registersOfText, registersToText, VesselSketch } from '../platform/sketches.js';
import type { VoyageCellsTable } from '../store/schema.js';
import type { VoyageRow } from './voyages.js';

/**
 * The voyages summed per cell (docs/decisions/149): UTC day or ISO week of departure, origin, destination
 * and ship category. A cell lists its voyages while it holds at most EXACT_VOYAGES_PER_CELL of them; beyond, it keeps
 * a HyperLogLog of the vessels and a histogram of hours (src/platform/sketches.ts) with the bounds a window
 * needs to know whether the whole cell counts: the latest arrival and the earliest origin arrival.
 */

export const EXACT_VOYAGES_PER_CELL = 64;
/** The category of the voyages whose ship type is unknown: no ship-type filter matches it. */
export const UNKNOWN_CATEGORY = 'unknown';

export type VoyageCellRow = VoyageCellsTable;

/** A voyage as an exact cell lists it. */
export interface CellVoyage {
  vslId: string;
  departure: number;
  arrival: number;
  fromArrival: number;
  simulated: boolean;
}

type ExactFacts = Array<[string, number, number, number, 0 | 1]>;
interface ApproximateFacts {
  vessels: string;
  hours: Array<[number, number]>;
}

export const categoryOf = (shipType: number | null) => shipCategory(shipType) ?? UNKNOWN_CATEGORY;

/** ISO weeks begin on Monday 00:00 UTC; 1970-01-05 was a Monday. */
const FIRST_MONDAY = 4 * DAY;
export const WEEK = 7 * DAY;
export const dayStartOf = (t: number) => Math.floor(t / DAY) * DAY;
export const weekStartOf = (t: number) => Math.floor((t - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;

/**
 * The cells of the voyages that departed in one period (a UTC day, or an ISO week: periodDays 1 or 7,
 * beginning at periodStart). A voyage that arrived before it departed counts in no window (docs/lanes.md),
 * so no cell holds it.
 */
export function cellsOfVoyages(periodStart: number, periodDays: 1 | 7, voyages: readonly VoyageRow[]): VoyageCellRow[] {
  const groups = new Map<string, VoyageRow[]>();
  for (const v of voyages) {
    if (v.arrival < v.departure) continue;
    const key = `${v.from_port}|${v.to_port}|${categoryOf(v.ship_type)}`;
    const list = groups.get(key);
    if (list) list.push(v);
    else groups.set(key, [v]);
  }
  return [...groups.values()].map((list) => {
    const first = list[0]!;
    const exact = list.length <= EXACT_VOYAGES_PER_CELL;
    let facts: ExactFacts | ApproximateFacts;
    if (exact) facts = list.map((v) => [v.vsl_id, v.departure, v.arrival, v.from_arrival, v.simulated === 1 ? 1 : 0]);
    else {
      const vessels = VesselSketch.ofRegisters(new Uint8Array(1 << 10));
      const hours = new Map<number, number>();
      for (const v of list) {
        vessels.add(v.vsl_id);
        const bucket = hoursBucketOf((v.arrival - v.departure) / HOUR);
        hours.set(bucket, (hours.get(bucket) ?? 0) + 1);
      }
      facts = { vessels: registersToText(vessels.toRegisters()), hours: [...hours.entries()] };
    }
    return {
      period_start: periodStart,
      period_days: periodDays,
      from_port: first.from_port,
      to_port: first.to_port,
      category: categoryOf(first.ship_type),
      voyages: list.length,
      simulated: list.filter((v) => v.simulated === 1).length,
      max_arrival: Math.max(...list.map((v) => v.arrival)),
      min_from_arrival: Math.min(...list.map((v) => v.from_arrival)),
      min_duration_ms: Math.min(...list.map((v) => v.arrival - v.departure)),
      exact: exact ? 1 : 0,
      facts: JSON.stringify(facts),
    };
  });
}

/** The voyages of an exact cell. */
export function voyagesOfCell(facts: string): CellVoyage[] {
  return (JSON.parse(facts) as ExactFacts).map(([vslId, departure, arrival, fromArrival, simulated]) => ({ vslId, departure, arrival, fromArrival, simulated: simulated === 1 }));
}

/** The sketches of an approximate cell. */
export function sketchesOfCell(facts: string): { vessels: VesselSketch; hours: HoursSketch } {
  const parsed = JSON.parse(facts) as ApproximateFacts;
  return { vessels: VesselSketch.ofRegisters(registersOfText(parsed.vessels)), hours: HoursSketch.ofBuckets(parsed.hours) };
}
