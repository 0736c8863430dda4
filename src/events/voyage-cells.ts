import { shipCategory } from '../fleet/ship-types.js';
import { DAY, HOUR } from '../platform/clock.js';
import { encodeHours, encodeRegisters, HLL_REGISTERS, HoursSketch, hoursBucketOf, VesselSketch } from '../platform/sketches.js';
import type { VoyageCellsTable, VoyageLaneCellsTable, VoyageWindowCellsTable } from '../store/schema.js';
import type { VoyageRow } from './voyages.js';
import { everyVoyageCounts, type VoyageCounts } from './lane-rule.js';

/**
 * The voyages summed per cell (docs/decisions/149): UTC day or ISO week of departure, origin, destination
 * and ship category. A cell lists its voyages while its period is small (docs/decisions/158: every day of it holds
 * at most EXACT_VOYAGES_PER_DAY voyages, all lanes together); beyond, it keeps a HyperLogLog of the vessels, a
 * histogram of hours (src/platform/sketches.ts) and its voyages per day and per hour of departure, with the bounds a
 * window needs to know whether the whole cell counts: the latest arrival and the earliest origin arrival.
 * An approximate cell's sketches and counts per day and hour hold only the voyages the lanes count (lane-rule
 * `VoyageCounts`, docs/decisions/177); `left_out` says how many of its voyages the rule left out (every cell: an
 * exact one lists them all, and its reader applies the rule per voyage).
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
export type VoyageWindowCellRow = VoyageWindowCellsTable;

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
 * An approximate cell's facts (docs/decisions/158 and 164), as text without JSON (a parse per cell cost more than the
 * rest of its read): hours as `encodeHours` writes them, then its voyages per day of the period and per UTC hour of
 * departure as comma lists, the three joined by '|'. Its registers are a column of their own (`vessel_registers`,
 * as `encodeRegisters` writes them), so an answer that counts voyages only leaves them unread.
 */
type ApproximateFacts = { facts: string; registers: string };

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
  return { facts: [encodeHours(hours), days.join(','), departureHours.join(',')].join('|'), registers: encodeRegisters(vessels.toRegisters()) };
}

/**
 * The cells of the voyages that departed in one period (a UTC day, or an ISO week: periodDays 1 or 7,
 * beginning at periodStart): all of the period's voyages, which decide whether its cells are exact. A voyage
 * that arrived before it departed counts in no window (docs/lanes.md), so no cell holds it.
 */
export function cellsOfVoyages(periodStart: number, periodDays: 1 | 7, voyages: readonly VoyageRow[], counts: VoyageCounts): VoyageCellRow[] {
  const exact = periodIsSmall(voyages);
  return [...groupsOf(voyages, (v) => `${v.from_port}|${v.to_port}|${categoryOf(v.ship_type)}`)].map((list) => {
    const first = list[0]!;
    const counted = countedOf(list, counts);
    const exactFacts: ExactFacts = exact ? list.map((v) => [v.vsl_id, v.departure, v.arrival, v.from_arrival, v.simulated === 1 ? 1 : 0]) : [];
    const approximate = exact ? null : approximateFactsOf(periodStart, periodDays, counted);
    return {
      period_start: periodStart,
      period_days: periodDays,
      ...boundsOf(list, counted),
      category: categoryOf(first.ship_type),
      exact: exact ? 1 : 0,
      facts: approximate === null ? JSON.stringify(exactFacts) : approximate.facts,
      vessel_registers: approximate === null ? null : approximate.registers,
    };
  });
}

/**
 * The lane cells of the voyages that departed in one period (docs/decisions/153): as `cellsOfVoyages`, all
 * ship categories in one cell, with EXACT_VOYAGES_PER_LANE_CELL, and the sketches as `encodeRegisters` and
 * `encodeHours` write them (a fixed-size read, no JSON).
 */
export function laneCellsOfVoyages(periodStart: number, periodDays: 1 | 7, voyages: readonly VoyageRow[], counts: VoyageCounts): VoyageLaneCellRow[] {
  return [...groupsOf(voyages, (v) => `${v.from_port}|${v.to_port}`)].map((list) => {
    const counted = countedOf(list, counts);
    const cell = { period_start: periodStart, period_days: periodDays, ...boundsOf(list, counted) };
    if (list.length <= EXACT_VOYAGES_PER_LANE_CELL) {
      const facts: LaneCellVoyages = [list.map((v) => v.vsl_id), list.map((v) => v.arrival - v.departure), list.map((v) => (v.simulated === 1 ? 1 : 0))];
      return { ...cell, voyage_list: JSON.stringify(facts), vessel_registers: null, hours_buckets: null };
    }
    const { vessels, hours } = sketchesOfVoyages(counted);
    return { ...cell, voyage_list: null, vessel_registers: encodeRegisters(vessels.toRegisters()), hours_buckets: encodeHours(hours) };
  });
}

/**
 * Four ISO weeks from 1970-01-05 (docs/decisions/157): the lane cells also keep, per lane, the 28-day block
 * and the runs of whole weeks that begin or end a block (14 and 21 days), and the runs of days that begin or
 * end an ISO week (2 to 6 days), so a window reads at most a run of days, a run of weeks, its whole blocks,
 * a run of weeks and a run of days per lane, however long it is and however many voyages its cells hold.
 */
export const BLOCK = 4 * WEEK;
export const blockStartOf = (t: number) => Math.floor((t - FIRST_MONDAY) / BLOCK) * BLOCK + FIRST_MONDAY;

/**
 * The lane cells of one period merged from cells of its parts (of one lane or several): as
 * `laneCellsOfVoyages` over the parts' voyages (an exact list while the sum holds at most
 * EXACT_VOYAGES_PER_LANE_CELL voyages, the sketches beyond; a sketch is the same whatever the order of
 * its voyages), without reading the voyages again.
 */
export function mergeLaneCells(periodStart: number, periodDays: number, cells: readonly VoyageLaneCellRow[], counts: VoyageCounts): VoyageLaneCellRow[] {
  return [...groupsOf(cells, laneKeyOf)].map((parts) => mergeLaneParts(periodStart, periodDays, parts, counts));
}

/** Lists parsed once however many runs and blocks a cell is merged into. */
const parsedLists = new WeakMap<VoyageLaneCellRow, LaneCellVoyages>();
function listOf(cell: VoyageLaneCellRow): LaneCellVoyages {
  let list = parsedLists.get(cell);
  if (!list) parsedLists.set(cell, (list = voyagesOfLaneCell(cell.voyage_list!)));
  return list;
}

/** The counts and bounds of the parts after the first added into `merged` (a copy of the first). */
function addBoundsOfParts(merged: CellBounds, parts: readonly CellBounds[]): void {
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    merged.voyages += part.voyages;
    merged.left_out += part.left_out;
    merged.simulated += part.simulated;
    merged.max_arrival = Math.max(merged.max_arrival, part.max_arrival);
    merged.min_from_arrival = Math.min(merged.min_from_arrival, part.min_from_arrival);
    merged.min_duration_ms = Math.min(merged.min_duration_ms, part.min_duration_ms);
  }
}
type CellBounds = Pick<VoyageCellRow, 'voyages' | 'left_out' | 'simulated' | 'max_arrival' | 'min_from_arrival' | 'min_duration_ms'>;

/** One lane's cells merged (mergeLaneCells); an exact part's voyages the lanes do not count stay out of the sketches. */
function mergeLaneParts(periodStart: number, periodDays: number, parts: readonly VoyageLaneCellRow[], counts: VoyageCounts): VoyageLaneCellRow {
  const merged: VoyageLaneCellRow = { ...parts[0]!, period_start: periodStart, period_days: periodDays, voyage_list: null, vessel_registers: null, hours_buckets: null };
  addBoundsOfParts(merged, parts);
  if (parts.length === 1 && parts[0]!.voyage_list !== null) return { ...merged, voyage_list: parts[0]!.voyage_list };
  if (merged.voyages <= EXACT_VOYAGES_PER_LANE_CELL) {
    const lists = parts.map(listOf);
    const facts: LaneCellVoyages = [lists.flatMap((l) => l[0]), lists.flatMap((l) => l[1]), lists.flatMap((l) => l[2])];
    return { ...merged, voyage_list: JSON.stringify(facts) };
  }
  const vessels = VesselSketch.ofRegisters(new Uint8Array(HLL_REGISTERS));
  const hours = HoursSketch.ofBuckets([]);
  for (const part of parts) {
    if (part.voyage_list === null) {
      vessels.mergeEncoded(part.vessel_registers!);
      hours.mergeEncoded(part.hours_buckets!);
      continue;
    }
    const [ids, durations] = listOf(part);
    for (let i = 0; i < ids.length; i++) {
      if (!counts(part.from_port, part.to_port, durations[i]!)) continue;
      vessels.add(ids[i]!);
      hours.add(durations[i]! / HOUR);
    }
  }
  return { ...merged, vessel_registers: encodeRegisters(vessels.toRegisters()), hours_buckets: encodeHours(hours.toBuckets()) };
}

/**
 * The runs of days of one ISO week (docs/decisions/157) merged from its day cells: the first 2 to 6 days
 * (period_start the Monday) and the last 2 to 6 (period_start the day they begin).
 */
export const laneDayRunsOfWeek = (weekStart: number, dayCells: readonly VoyageLaneCellRow[], counts: VoyageCounts) =>
  dayRunsOfWeek(weekStart, dayCells, laneKeyOf, (start, days, parts) => mergeLaneParts(start, days, parts, counts));

/**
 * The cells of one 28-day block (docs/decisions/157) merged from its week cells: the block itself, its
 * first 2 and 3 weeks (period_start the block's) and its last 2 and 3 weeks.
 */
export const laneBlockCellsOf = (blockStart: number, weekCells: readonly VoyageLaneCellRow[], counts: VoyageCounts) =>
  blockCellsOf(blockStart, weekCells, laneKeyOf, (start, days, parts) => mergeLaneParts(start, days, parts, counts));

/** The runs of days of one ISO week and the cells of one block of the cells per ship category (docs/decisions/164): as the lane cells'. */
export const categoryDayRunsOfWeek = (weekStart: number, dayCells: readonly VoyageCellRow[], counts: VoyageCounts) =>
  dayRunsOfWeek(weekStart, dayCells, categoryKeyOf, (start, days, parts) => mergeCategoryParts(start, days, parts, counts));
export const categoryBlockCellsOf = (blockStart: number, weekCells: readonly VoyageCellRow[], counts: VoyageCounts) =>
  blockCellsOf(blockStart, weekCells, categoryKeyOf, (start, days, parts) => mergeCategoryParts(start, days, parts, counts));

type Merge<C> = (periodStart: number, periodDays: number, parts: readonly C[]) => C;
const laneKeyOf = (c: { from_port: number; to_port: number }) => `${c.from_port}|${c.to_port}`;
const categoryKeyOf = (c: VoyageCellRow) => `${c.from_port}|${c.to_port}|${c.category}`;

/**
 * The runs of days of one ISO week merged from its day cells, per key (lane, or lane and ship category): each run
 * from the run one day shorter and the day it adds (a merge is the same whatever the grouping of its parts), so a
 * key's day cells are each read once or twice, not once per run that holds them.
 */
function dayRunsOfWeek<C extends VoyageLaneCellRow | VoyageCellRow>(weekStart: number, dayCells: readonly C[], keyOf: (c: C) => string, merge: Merge<C>): C[] {
  const runs: C[] = [];
  for (const cells of groupsOf(dayCells, keyOf)) {
    const onDay = (d: number) => cells.filter((c) => c.period_start === weekStart + d * DAY);
    let prefix: C | undefined;
    let suffix: C | undefined;
    for (let days = 1; days <= 6; days++) {
      const first = [...(prefix ? [prefix] : []), ...onDay(days - 1)];
      const last = [...onDay(7 - days), ...(suffix ? [suffix] : [])];
      prefix = first.length > 0 ? (first.length === 1 && days === 1 ? first[0] : merge(weekStart, days, first)) : undefined;
      suffix = last.length > 0 ? (last.length === 1 && days === 1 ? last[0] : merge(weekStart + WEEK - days * DAY, days, last)) : undefined;
      if (days === 1) continue;
      if (prefix) runs.push(prefix);
      if (suffix) runs.push(suffix);
    }
  }
  return runs;
}

/** The cells of one 28-day block merged from its week cells, per key (lane, or lane and ship category). */
function blockCellsOf<C extends VoyageLaneCellRow | VoyageCellRow>(blockStart: number, weekCells: readonly C[], keyOf: (c: C) => string, merge: Merge<C>): C[] {
  const out: C[] = [];
  for (const cells of groupsOf(weekCells, keyOf)) {
    out.push(merge(blockStart, 28, cells));
    for (const weeks of [2, 3]) {
      const prefix = cells.filter((c) => c.period_start < blockStart + weeks * WEEK);
      const suffix = cells.filter((c) => c.period_start >= blockStart + BLOCK - weeks * WEEK);
      if (prefix.length > 0) out.push(merge(blockStart, weeks * 7, prefix));
      if (suffix.length > 0) out.push(merge(blockStart + BLOCK - weeks * WEEK, weeks * 7, suffix));
    }
  }
  return out;
}

/** Exact lists parsed once however many runs and blocks a cell is merged into. */
const parsedFacts = new WeakMap<VoyageCellRow, ExactFacts>();
function exactFactsOf(cell: VoyageCellRow): ExactFacts {
  let list = parsedFacts.get(cell);
  if (!list) parsedFacts.set(cell, (list = JSON.parse(cell.facts) as ExactFacts));
  return list;
}

/**
 * Cells per ship category of one lane and category merged into one period (docs/decisions/164): exact (their lists
 * joined) while every part is exact, as every day of the period then is small (docs/decisions/158); else the
 * approximate facts `cellsOfVoyages` writes for the parts' voyages together (registers and hours merged, voyages
 * per day placed at each part's offset, per hour of departure added), without reading the voyages again.
 */
export function mergeCategoryParts(periodStart: number, periodDays: number, parts: readonly VoyageCellRow[], counts: VoyageCounts): VoyageCellRow {
  const merged: VoyageCellRow = { ...parts[0]!, period_start: periodStart, period_days: periodDays };
  addBoundsOfParts(merged, parts);
  if (parts.every((p) => Number(p.exact) === 1)) return { ...merged, exact: 1, facts: parts.length === 1 ? parts[0]!.facts : JSON.stringify(parts.flatMap(exactFactsOf)), vessel_registers: null };
  const vessels = VesselSketch.ofRegisters(new Uint8Array(HLL_REGISTERS));
  const hours = HoursSketch.ofBuckets([]);
  const days = new Array<number>(periodDays).fill(0);
  const departureHours = new Array<number>(24).fill(0);
  for (const part of parts) {
    if (Number(part.exact) === 0) {
      hours.mergeEncoded(hoursOfCell(part.facts, days, (part.period_start - periodStart) / DAY, departureHours));
      vessels.mergeEncoded(part.vessel_registers!);
      continue;
    }
    for (const [vslId, departure, arrival] of exactFactsOf(part)) {
      if (!counts(part.from_port, part.to_port, arrival - departure)) continue;
      vessels.add(vslId);
      hours.add((arrival - departure) / HOUR);
      days[Math.floor((departure - periodStart) / DAY)]!++;
      departureHours[Math.floor((departure % DAY) / HOUR)]!++;
    }
  }
  return { ...merged, exact: 0, facts: [encodeHours(hours.toBuckets()), days.join(','), departureHours.join(',')].join('|'), vessel_registers: encodeRegisters(vessels.toRegisters()) };
}

/** The one lane every voyage is summed in for the window cells (docs/decisions/163). */
const ALL_LANES = { from_port: 0, to_port: 0 };

/**
 * A week's own window cells (docs/decisions/163): the lane cells of one lane that holds every voyage of every lane the
 * lanes count (docs/decisions/177: the rule applied on each voyage's own lane before they are merged into one) — the
 * week's day cells, week cell and runs of days from its voyages (`byDay`: the same voyages per UTC day of departure).
 * Its block's cells are `windowBlockCellsOf` the block's week cells.
 */
export function windowCellsOfWeek(weekStart: number, voyages: readonly VoyageRow[], byDay: ReadonlyMap<number, readonly VoyageRow[]>, counts: VoyageCounts): VoyageWindowCellRow[] {
  const oneLane = (list: readonly VoyageRow[]) => countedOf(list, counts).map((v) => ({ ...v, ...ALL_LANES }));
  const week = laneCellsOfVoyages(weekStart, 7, oneLane(voyages), everyVoyageCounts);
  const days = [...byDay.entries()].flatMap(([day, list]) => laneCellsOfVoyages(day, 1, oneLane(list), everyVoyageCounts));
  return [...week, ...days, ...laneDayRunsOfWeek(weekStart, days, everyVoyageCounts)].map(withoutLane);
}

/** The window cells of one block (docs/decisions/163) merged from its week cells, as the lane cells' (`laneBlockCellsOf`). */
export const windowBlockCellsOf = (blockStart: number, weekCells: readonly VoyageWindowCellRow[]): VoyageWindowCellRow[] =>
  laneBlockCellsOf(
    blockStart,
    weekCells.map((c) => ({ ...c, ...ALL_LANES })),
    everyVoyageCounts,
  ).map(withoutLane);

const withoutLane = ({ from_port, to_port, ...cell }: VoyageLaneCellRow): VoyageWindowCellRow => cell;

/** Voyages (or cells) grouped by cell (by lane, or lane and ship category); a voyage that arrived before it departed counts in no window, so in no cell. */
function groupsOf<T extends VoyageRow | VoyageLaneCellRow | VoyageCellRow>(rows: readonly T[], keyOf: (row: T) => string): Iterable<T[]> {
  const groups = new Map<string, T[]>();
  for (const v of rows) {
    if ('departure' in v && v.arrival < v.departure) continue;
    const key = keyOf(v);
    const list = groups.get(key);
    if (list) list.push(v);
    else groups.set(key, [v]);
  }
  return groups.values();
}

/** The voyages of a list the lanes count (a voyage that arrived before it departed is in no cell at all). */
const countedOf = (list: readonly VoyageRow[], counts: VoyageCounts) => list.filter((v) => counts(v.from_port, v.to_port, v.arrival - v.departure));

/**
 * What a window needs to know of a cell without reading its voyages: its counts (its voyages, those of them the rule
 * left out, the simulated ones of those `counted`) and its bounds (of all of its voyages).
 */
function boundsOf(list: readonly VoyageRow[], counted: readonly VoyageRow[]) {
  let simulated = 0;
  let maxArrival = -Infinity;
  let minFromArrival = Infinity;
  let minDuration = Infinity;
  for (const v of counted) if (v.simulated === 1) simulated++;
  for (const v of list) {
    maxArrival = Math.max(maxArrival, v.arrival);
    minFromArrival = Math.min(minFromArrival, v.from_arrival);
    minDuration = Math.min(minDuration, v.arrival - v.departure);
  }
  return {
    from_port: list[0]!.from_port,
    to_port: list[0]!.to_port,
    voyages: list.length,
    left_out: list.length - counted.length,
    simulated,
    max_arrival: maxArrival,
    min_from_arrival: minFromArrival,
    min_duration_ms: minDuration,
  };
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
 * The hours an approximate cell holds, encoded, to be merged without decoding (HoursSketch `mergeEncoded`); its
 * voyages per day are added to days[dayOffset …] and per UTC hour of departure to departureHours (its registers are
 * the cell's `vessel_registers`).
 */
export function hoursOfCell(facts: string, days: number[], dayOffset: number, departureHours: number[]): string {
  const first = facts.indexOf('|');
  const second = facts.indexOf('|', first + 1);
  addCounts(facts, first + 1, second, days, dayOffset);
  addCounts(facts, second + 1, facts.length, departureHours, 0);
  return facts.slice(0, first);
}
