import { DAY, HOUR } from '../platform/clock.js';
import { encodeHours, encodeRegisters, hoursBucketOf, HoursSketch, VesselSketch } from '../platform/sketches.js';
import type { PortVisitCellsTable } from '../store/schema.js';
import { medianHours } from './visit-rank.js';

/**
 * Visit rank read from cells (docs/decisions/161): the port calls that began in one UTC day at one port, kept
 * as one cell. A cell lists its vessels and the dwell times of its departed calls while it holds at most
 * EXACT_CALLS_PER_VISIT_CELL calls; beyond, a HyperLogLog of its vessels and a histogram of its dwell hours
 * (src/platform/sketches.ts: ±1 % relative on a median). A window's figures per port are the cells of its whole
 * days merged with the calls of its partial days, read one by one.
 */

export const EXACT_CALLS_PER_VISIT_CELL = 64;

/** The columns of a call a visit cell is made of. */
export interface VisitCall {
  port_id: number;
  vsl_id: string;
  arrival: number;
  departure: number | null;
  simulated: number;
}

export type VisitCellRow = PortVisitCellsTable;

/** What a window reads of a cell or a block of cells. */
export type VisitFigures = Pick<VisitCellRow, 'calls' | 'simulated' | 'call_list' | 'vessel_registers' | 'dwell_buckets'>;

type ExactCallList = [string[], number[]];

const dwellOf = (c: VisitCall) => (c.departure === null ? null : c.departure - c.arrival);

/** The cell of the calls that began at one port on one UTC day. */
export function visitCellOf(arrivalDay: number, portId: number, calls: readonly VisitCall[]): VisitCellRow {
  let lastDeparture: number | null = null;
  for (const c of calls) if (c.departure !== null && (lastDeparture === null || c.departure > lastDeparture)) lastDeparture = c.departure;
  const dwells = calls.map(dwellOf).filter((d): d is number => d !== null);
  const cell = { arrival_day: arrivalDay, port_id: portId, calls: calls.length, simulated: calls.filter((c) => c.simulated === 1).length, last_departure: lastDeparture };
  if (calls.length <= EXACT_CALLS_PER_VISIT_CELL) {
    // in order, so a cell's text depends on its calls only, not on the order the store returned them
    const list: ExactCallList = [[...new Set(calls.map((c) => c.vsl_id))].sort(), [...dwells].sort((a, b) => a - b)];
    return { ...cell, call_list: JSON.stringify(list), vessel_registers: null, dwell_buckets: null };
  }
  const vessels = VesselSketch.ofRegisters(new Uint8Array(1 << 10));
  for (const c of calls) vessels.add(c.vsl_id);
  const buckets = new Map<number, number>();
  for (const ms of dwells) buckets.set(hoursBucketOf(ms / HOUR), (buckets.get(hoursBucketOf(ms / HOUR)) ?? 0) + 1);
  return { ...cell, call_list: null, vessel_registers: encodeRegisters(vessels.toRegisters()), dwell_buckets: encodeHours(buckets) };
}

/** The visit figures of one port (or of a port with its entries rolled up) over a window. */
export class PortVisits {
  calls = 0;
  simulated = 0;
  readonly vessels = new VesselSketch();
  /** Dwell ms while every part is exact; the hours sketch once an approximate cell is merged in. */
  private dwellMs: number[] | null = [];
  private dwellHours: HoursSketch | null = null;

  get exact(): boolean {
    return this.vessels.exact && this.dwellMs !== null;
  }

  /** A cell whose departed calls all count (its last departure is within the window's end). */
  addCell(cell: VisitFigures): void {
    this.calls += Number(cell.calls);
    this.simulated += Number(cell.simulated);
    if (cell.call_list !== null) {
      const [vessels, dwells] = JSON.parse(cell.call_list) as ExactCallList;
      for (const id of vessels) this.vessels.add(id);
      for (const ms of dwells) this.addDwell(ms);
      return;
    }
    this.vessels.mergeEncoded(cell.vessel_registers!);
    this.approximateDwells().mergeEncoded(cell.dwell_buckets!);
  }

  /** A call read one by one; its dwell counts only if it had departed by the window's end (decision 029). */
  addCall(call: VisitCall, windowEnd: number): void {
    this.calls += 1;
    if (call.simulated === 1) this.simulated += 1;
    this.vessels.add(call.vsl_id);
    if (call.departure !== null && call.departure <= windowEnd) this.addDwell(call.departure - call.arrival);
  }

  /** Adds another port's figures (an entry rolled up into its port). */
  merge(other: PortVisits): void {
    this.calls += other.calls;
    this.simulated += other.simulated;
    this.vessels.merge(other.vessels);
    if (other.dwellMs !== null) for (const ms of other.dwellMs) this.addDwell(ms);
    else this.approximateDwells().merge(other.dwellHours!);
  }

  /** Median dwell in hours to one decimal (as `medianHours` while exact); null for no departed call. */
  medianDwellHours(): number | null {
    if (this.dwellMs !== null) return medianHours(this.dwellMs);
    const median = this.dwellHours!.median();
    return median === null ? null : Math.round(median * 10) / 10;
  }

  private addDwell(ms: number): void {
    if (this.dwellMs !== null) this.dwellMs.push(ms);
    else this.dwellHours!.add(ms / HOUR);
  }

  private approximateDwells(): HoursSketch {
    if (this.dwellHours === null) {
      const sketch = new HoursSketch();
      for (const ms of this.dwellMs!) sketch.add(ms / HOUR);
      sketch.toBuckets();
      this.dwellHours = sketch;
      this.dwellMs = null;
    }
    return this.dwellHours;
  }
}

/** Visit figures per port over a window: cells of its whole days, calls of its partial days (and of the cells a window ending before their last departure cannot use). */
export function portVisitsOf(cells: ReadonlyArray<VisitFigures & { port_id: number }>, calls: readonly VisitCall[], windowEnd: number): Map<number, PortVisits> {
  const ports = new Map<number, PortVisits>();
  const of = (portId: number) => {
    let p = ports.get(portId);
    if (!p) ports.set(portId, (p = new PortVisits()));
    return p;
  };
  for (const cell of cells) of(Number(cell.port_id)).addCell(cell);
  for (const call of calls) of(Number(call.port_id)).addCall(call, windowEnd);
  return ports;
}

/**
 * Blocks of cells (docs/decisions/170): the cells of 2, 4, 8 and 16 consecutive days at one port merged into one,
 * aligned on multiples of their span since the epoch, so a window's whole days are at most two blocks of each span
 * per port (as the dyadic ranges of a segment tree) instead of a cell per day.
 */
export const BLOCK_SPANS_DAYS = [2, 4, 8, 16] as const;

/** The start of the block of `spanDays` days holding the day starting at `day` (ms). */
export const blockStartOf = (day: number, spanDays: number): number => Math.floor(day / (spanDays * DAY)) * spanDays * DAY;

/** The whole days [firstDay, endDay) as the fewest aligned blocks and single days (span 1), in order. */
export function windowPiecesOf(firstDay: number, endDay: number): Array<{ spanDays: number; start: number }> {
  const pieces: Array<{ spanDays: number; start: number }> = [];
  for (let at = firstDay; at < endDay;) {
    const spanDays = [...BLOCK_SPANS_DAYS].reverse().find((span) => blockStartOf(at, span) === at && at + span * DAY <= endDay) ?? 1;
    pieces.push({ spanDays, start: at });
    at += spanDays * DAY;
  }
  return pieces;
}

/**
 * The block starting at `start` of one port's day cells (any order; null for none): calls summed, the latest
 * departure; a list while every cell is one (any length: a window reading the block is exact where its days
 * were), else the cells' registers and buckets merged with the lists' vessels and dwells, as a window reading the
 * cells one by one would merge them.
 */
export function visitBlockOf(start: number, portId: number, cells: readonly VisitCellRow[]): VisitCellRow | null {
  if (cells.length === 0) return null;
  let lastDeparture: number | null = null;
  for (const c of cells) if (c.last_departure !== null && (lastDeparture === null || Number(c.last_departure) > lastDeparture)) lastDeparture = Number(c.last_departure);
  const block = {
    arrival_day: start,
    port_id: portId,
    calls: cells.reduce((sum, c) => sum + Number(c.calls), 0),
    simulated: cells.reduce((sum, c) => sum + Number(c.simulated), 0),
    last_departure: lastDeparture,
  };
  const lists = cells.filter((c) => c.call_list !== null).map((c) => JSON.parse(c.call_list!) as ExactCallList);
  if (lists.length === cells.length) {
    const list: ExactCallList = [[...new Set(lists.flatMap(([vessels]) => vessels))].sort(), lists.flatMap(([, dwells]) => dwells).sort((a, b) => a - b)];
    return { ...block, call_list: JSON.stringify(list), vessel_registers: null, dwell_buckets: null };
  }
  const vessels = VesselSketch.approximate();
  const hours = HoursSketch.ofBuckets([]);
  for (const [ids, dwells] of lists) {
    for (const id of ids) vessels.add(id);
    for (const ms of dwells) hours.add(ms / HOUR);
  }
  for (const c of cells)
    if (c.call_list === null) {
      vessels.mergeEncoded(c.vessel_registers!);
      hours.mergeEncoded(c.dwell_buckets!);
    }
  // buckets in order, so a block's text depends on its cells only
  const buckets = new Map([...hours.toBuckets()].sort((a, b) => a[0] - b[0]));
  return { ...block, call_list: null, vessel_registers: encodeRegisters(vessels.toRegisters()), dwell_buckets: encodeHours(buckets) };
}
