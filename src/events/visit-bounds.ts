import { DAY } from '../platform/clock.js';
import { WEEK, weekStartOf } from './voyage-cells.js';

/**
 * Visit rank by vessel read from kept bounds (docs/decisions/165). The calls a vessel began in a window
 * [from, to) of at most `length_days` days are at most its bound for the week holding `from`: the most calls
 * it began in any span of that length starting in that week. Read by bound, highest first, the vessels whose
 * bound is under the k-th best exact count so far cannot enter the top k, so a ranking reads its candidates'
 * calls only (a threshold algorithm), and stays exact.
 */

/** The window lengths bounds are kept for: a window uses the shortest length at least its own. */
export const BOUND_LENGTHS_DAYS = [7, 30] as const;

/** The bounds of one vessel in one week (the table's row). */
export interface VisitBoundRow {
  vsl_id: string;
  length_days: number;
  week_start: number;
  bound: number;
}

/** The kept length whose bounds hold a window of this many ms; null when it is longer than all. */
export function boundLengthFor(windowMs: number): number | null {
  return BOUND_LENGTHS_DAYS.find((days) => days * DAY >= windowMs) ?? null;
}

/** The first week whose bounds an arrival at `t` can change (a week's bounds count arrivals in [week, week + WEEK + length)). */
export function firstWeekTouchedBy(t: number): number {
  const longest = BOUND_LENGTHS_DAYS[BOUND_LENGTHS_DAYS.length - 1]! * DAY;
  return weekStartOf(t - WEEK - longest) + WEEK;
}

/** The count of sorted values in [lo, hi). */
function countIn(sorted: readonly number[], lo: number, hi: number): number {
  return lowerBound(sorted, hi) - lowerBound(sorted, lo);
}

function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The bounds of one vessel for the weeks from `fromWeek` on, from its arrivals (all those at or after
 * `fromWeek`, any order): per kept length and week, the most arrivals in [s, s + length) for a start s in
 * the week (ms). The best start is an arrival in the week or the week's last ms. Weeks with no such arrival
 * have no row (bound 0).
 */
export function visitBoundsOf(vslId: string, arrivals: readonly number[], fromWeek: number, lengthsDays: readonly number[] = BOUND_LENGTHS_DAYS): VisitBoundRow[] {
  const sorted = arrivals.filter((a) => a >= fromWeek).sort((a, b) => a - b);
  const rows: VisitBoundRow[] = [];
  for (const days of lengthsDays) {
    const length = days * DAY;
    const weeks = new Set<number>();
    // the weeks w with an arrival in [w, w + WEEK + length)
    for (const a of sorted) for (let w = weekStartOf(a); w > a - WEEK - length && w >= fromWeek; w -= WEEK) weeks.add(w);
    for (const w of [...weeks].sort((a, b) => a - b)) {
      let bound = countIn(sorted, w + WEEK - 1, w + WEEK - 1 + length);
      for (let i = lowerBound(sorted, w); i < sorted.length && sorted[i]! < w + WEEK; i++) bound = Math.max(bound, countIn(sorted, sorted[i]!, sorted[i]! + length));
      if (bound > 0) rows.push({ vsl_id: vslId, length_days: days, week_start: w, bound });
    }
  }
  return rows;
}

/**
 * Visit rank by vessel at one port (docs/decisions/175): bounds per vessel, port and week for the longest kept
 * length (every visit-rank window fits it), kept only from PORT_BOUND_FLOOR calls: a vessel with no row at a port
 * began at most PORT_BOUND_FLOOR - 1 calls there in any such span, so a ranking whose last count is at least the
 * floor is decided by the rows alone (below it, the port's GROUP BY answers).
 */
export const PORT_BOUND_FLOOR = 4;
export const PORT_BOUND_LENGTH_DAYS = BOUND_LENGTHS_DAYS[BOUND_LENGTHS_DAYS.length - 1]!;

/** A vessel's bound at one port in one week (the table's row). */
export interface PortVisitBoundRow {
  vsl_id: string;
  port_id: number;
  week_start: number;
  bound: number;
}

/** The per-port bounds of one vessel for the weeks from `fromWeek` on, from its calls (all those at or after `fromWeek`, any order): `visitBoundsOf` of its arrivals at each port, for PORT_BOUND_LENGTH_DAYS, the bounds under PORT_BOUND_FLOOR left out. */
export function portVisitBoundsOf(vslId: string, calls: ReadonlyArray<{ port_id: number; arrival: number }>, fromWeek: number): PortVisitBoundRow[] {
  const byPort = new Map<number, number[]>();
  for (const c of calls) {
    const list = byPort.get(c.port_id);
    if (list) list.push(c.arrival);
    else byPort.set(c.port_id, [c.arrival]);
  }
  return [...byPort]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([port_id, arrivals]) =>
      visitBoundsOf(vslId, arrivals, fromWeek, [PORT_BOUND_LENGTH_DAYS])
        .filter((b) => b.bound >= PORT_BOUND_FLOOR)
        .map((b) => ({ vsl_id: vslId, port_id, week_start: b.week_start, bound: b.bound })),
    );
}

/** A ranked vessel: calls in the window, distinct ports, and the highest ship type stored with its calls. */
export interface RankedVessel {
  vslId: string;
  calls: number;
  ports: number;
  shipType: number | null;
}

/** The visit rank's order: calls, then distinct ports, then vsl_id (as the store's GROUP BY orders them). */
export const byVisitRank = (a: RankedVessel, b: RankedVessel): number => b.calls - a.calls || b.ports - a.ports || (a.vslId < b.vslId ? -1 : a.vslId > b.vslId ? 1 : 0);
