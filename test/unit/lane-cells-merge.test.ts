import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BLOCK,
  blockStartOf,
  categoryBlockCellsOf,
  categoryDayRunsOfWeek,
  categoryOf,
  cellsOfVoyages,
  EXACT_VOYAGES_PER_DAY,
  laneBlockCellsOf,
  laneCellsOfVoyages,
  laneDayRunsOfWeek,
  mergeLaneCells,
  hoursOfCell,
  WEEK,
  weekStartOf,
  type VoyageCellRow,
  type VoyageLaneCellRow,
} from '../../src/events/voyage-cells.js';
import type { VoyageRow } from '../../src/events/voyages.js';
import type { VoyageCounts } from '../../src/events/lane-rule.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { encodeHours, encodeRegisters, HLL_REGISTERS, HoursSketch, VesselSketch } from '../../src/platform/sketches.js';

const rand = (() => {
  let s = 4242;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
})();
const BLOCK_START = blockStartOf(Date.UTC(2026, 9, 20));
/** The lanes' rule as the cells apply it (docs/decisions/177): here the voyages of lane 1 → 3 shorter than 20 h do not count. */
const COUNTS: VoyageCounts = (_from, to, durationMs) => !(to === 3 && durationMs < 20 * HOUR);

/** `n` voyages on two lanes departing over the 28 days from BLOCK_START, from `vessels` vessels. */
function voyagesOf(n: number, vessels: number): VoyageRow[] {
  return Array.from({ length: n }, () => {
    const departure = BLOCK_START + Math.floor(rand() * 28 * DAY);
    const arrival = departure + Math.round((2 + rand() * 200) * HOUR);
    return {
      vsl_id: `v${Math.floor(rand() * vessels)}`,
      from_port: 1,
      to_port: 2 + Math.floor(rand() * 2),
      from_arrival: departure - Math.round(rand() * 40 * HOUR),
      departure,
      arrival,
      ship_type: 70,
      simulated: rand() < 0.3 ? 1 : 0,
    };
  });
}

/** What a reader gets of a cell: its counts and bounds, its vessels and hours (exact list or sketches). */
function readOf(cell: VoyageLaneCellRow) {
  const vessels = cell.vessel_registers === null ? null : new VesselSketch();
  const hours = cell.hours_buckets === null ? null : HoursSketch.ofBuckets([]);
  if (vessels && hours) {
    vessels.toRegisters();
    vessels.mergeEncoded(cell.vessel_registers!);
    hours.mergeEncoded(cell.hours_buckets!);
  }
  const list = cell.voyage_list === null ? null : (JSON.parse(cell.voyage_list) as [string[], number[], number[]]);
  return {
    key: [cell.period_days, cell.period_start, cell.from_port, cell.to_port].join('|'),
    counts: [cell.voyages, cell.left_out, cell.simulated, cell.max_arrival, cell.min_from_arrival, cell.min_duration_ms],
    list: list && list[0].map((id, i) => `${id} ${list[1][i]} ${list[2][i]}`).sort(),
    registers: vessels && [...vessels.toRegisters()],
    hours: hours && [...hours.toBuckets().entries()].sort((a, b) => a[0] - b[0]),
  };
}
const readAll = (cells: VoyageLaneCellRow[]) => cells.map(readOf).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
const departedIn = (voyages: VoyageRow[], from: number, to: number) => voyages.filter((v) => v.departure >= from && v.departure < to);

test('mergeLaneCells: cells merged give the cell of their voyages together (exact list to 16 voyages, the same sketches beyond)', () => {
  for (const [n, vessels] of [
    [10, 5],
    [30, 12],
    [400, 150],
    [3_000, 2_000],
  ] as const) {
    const voyages = voyagesOf(n, vessels);
    const days = Array.from({ length: 28 }, (_, d) => laneCellsOfVoyages(BLOCK_START + d * DAY, 1, departedIn(voyages, BLOCK_START + d * DAY, BLOCK_START + (d + 1) * DAY), COUNTS)).flat();
    assert.deepEqual(readAll(mergeLaneCells(BLOCK_START, 28, days, COUNTS)), readAll(laneCellsOfVoyages(BLOCK_START, 7, voyages, COUNTS).map((c) => ({ ...c, period_days: 28 }))), `${n} voyages`);
  }
});

test('laneDayRunsOfWeek and laneBlockCellsOf: each run and block is the cell of the voyages that departed in it', () => {
  const voyages = voyagesOf(600, 300);
  const weekStart = weekStartOf(BLOCK_START + WEEK);
  const dayCells = Array.from({ length: 7 }, (_, d) => laneCellsOfVoyages(weekStart + d * DAY, 1, departedIn(voyages, weekStart + d * DAY, weekStart + (d + 1) * DAY), COUNTS)).flat();
  const expectedRuns = [2, 3, 4, 5, 6].flatMap((days) => [
    ...laneCellsOfVoyages(weekStart, 1, departedIn(voyages, weekStart, weekStart + days * DAY), COUNTS).map((c) => ({ ...c, period_days: days })),
    ...laneCellsOfVoyages(weekStart + WEEK - days * DAY, 1, departedIn(voyages, weekStart + WEEK - days * DAY, weekStart + WEEK), COUNTS).map((c) => ({ ...c, period_days: days })),
  ]);
  assert.deepEqual(readAll(laneDayRunsOfWeek(weekStart, dayCells, COUNTS)), readAll(expectedRuns));

  const weekCells = [0, 1, 2, 3].flatMap((w) => laneCellsOfVoyages(BLOCK_START + w * WEEK, 7, departedIn(voyages, BLOCK_START + w * WEEK, BLOCK_START + (w + 1) * WEEK), COUNTS));
  const cellOf = (from: number, to: number) => laneCellsOfVoyages(from, 7, departedIn(voyages, from, to), COUNTS).map((c) => ({ ...c, period_days: (to - from) / DAY }));
  const expectedBlock = [
    ...cellOf(BLOCK_START, BLOCK_START + BLOCK),
    ...cellOf(BLOCK_START, BLOCK_START + 2 * WEEK),
    ...cellOf(BLOCK_START, BLOCK_START + 3 * WEEK),
    ...cellOf(BLOCK_START + 2 * WEEK, BLOCK_START + BLOCK),
    ...cellOf(BLOCK_START + WEEK, BLOCK_START + BLOCK),
  ];
  assert.deepEqual(readAll(laneBlockCellsOf(BLOCK_START, weekCells, COUNTS)), readAll(expectedBlock));
  assert.ok(
    expectedBlock.some((c) => c.voyage_list === null),
    'some merged cells are sketches',
  );
  // a sketch holds the voyages counted only: its hours add up to its voyages less those left out
  const sketched = expectedBlock.filter((c) => c.voyage_list === null && c.to_port === 3);
  assert.ok(sketched.length > 0 && sketched.every((c) => c.left_out > 0), 'lane 1 → 3 sketched with voyages left out');
  for (const cell of sketched) {
    const hours = HoursSketch.ofBuckets([]);
    hours.mergeEncoded(cell.hours_buckets!);
    assert.equal(
      [...hours.toBuckets().values()].reduce((sum, n) => sum + n, 0),
      cell.voyages - cell.left_out,
    );
    assert.ok((hours.min() ?? 0) >= 20, 'no voyage under 20 h in its hours');
  }
});

/** What a reader gets of a cell per ship category: counts and bounds, its voyages (exact), or its sketches and voyages per day and per hour of departure. */
function readCategoryCell(cell: VoyageCellRow) {
  const key = [cell.period_days, cell.period_start, cell.from_port, cell.to_port, cell.category].join('|');
  const counts = [cell.voyages, cell.left_out, cell.simulated, cell.max_arrival, cell.min_from_arrival, cell.min_duration_ms];
  if (cell.exact === 1) return { key, counts, list: (JSON.parse(cell.facts) as unknown[]).map((v) => JSON.stringify(v)).sort() };
  const days = new Array<number>(cell.period_days).fill(0);
  const departureHours = new Array<number>(24).fill(0);
  const hours = HoursSketch.ofBuckets([]);
  hours.mergeEncoded(hoursOfCell(cell.facts, days, 0, departureHours));
  const vessels = VesselSketch.ofRegisters(new Uint8Array(HLL_REGISTERS));
  vessels.mergeEncoded(cell.vessel_registers!);
  return { key, counts, registers: [...vessels.toRegisters()], hours: [...hours.toBuckets().entries()].sort((a, b) => a[0] - b[0]), days, departureHours };
}
const readCategoryCells = (cells: VoyageCellRow[]) => cells.map(readCategoryCell).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * The cell per ship category of the voyages of one key that departed in [from, from + days), written as one: exact
 * when every voyage's part (its day, or its week) was small (docs/decisions/158), else its sketches.
 */
function categoryCellOf(voyages: VoyageRow[], from: number, days: number, partSmall: (departure: number) => boolean): VoyageCellRow[] {
  const held = departedIn(voyages, from, from + days * DAY);
  const keyOf = (v: VoyageRow) => `${v.from_port}|${v.to_port}|${categoryOf(v.ship_type)}`;
  return [...new Set(held.map(keyOf))].map((key) => {
    const list = held.filter((v) => keyOf(v) === key);
    const exact = list.every((v) => partSmall(v.departure));
    const vessels = VesselSketch.ofRegisters(new Uint8Array(HLL_REGISTERS));
    const hours = HoursSketch.ofBuckets([]);
    const perDay = new Array<number>(days).fill(0);
    const perHour = new Array<number>(24).fill(0);
    const counted = list.filter((v) => COUNTS(v.from_port, v.to_port, v.arrival - v.departure));
    for (const v of counted) {
      vessels.add(v.vsl_id);
      hours.add((v.arrival - v.departure) / HOUR);
      perDay[Math.floor((v.departure - from) / DAY)]!++;
      perHour[Math.floor((v.departure % DAY) / HOUR)]!++;
    }
    return {
      period_start: from,
      period_days: days,
      from_port: list[0]!.from_port,
      to_port: list[0]!.to_port,
      category: categoryOf(list[0]!.ship_type),
      voyages: list.length,
      left_out: list.length - counted.length,
      simulated: counted.filter((v) => v.simulated === 1).length,
      max_arrival: Math.max(...list.map((v) => v.arrival)),
      min_from_arrival: Math.min(...list.map((v) => v.from_arrival)),
      min_duration_ms: Math.min(...list.map((v) => v.arrival - v.departure)),
      exact: exact ? 1 : 0,
      facts: exact ? JSON.stringify(list.map((v) => [v.vsl_id, v.departure, v.arrival, v.from_arrival, v.simulated])) : [encodeHours(hours.toBuckets()), perDay.join(','), perHour.join(',')].join('|'),
      vessel_registers: exact ? null : encodeRegisters(vessels.toRegisters()),
    };
  });
}

test('categoryDayRunsOfWeek and categoryBlockCellsOf (decision 164): each run and block is the cell of its voyages per lane and ship category, exact while its parts are', () => {
  // a small first week (at most EXACT_VOYAGES_PER_DAY voyages a day), then weeks with a day beyond it
  const voyages = [...voyagesOf(280, 120).map((v) => ({ ...v, departure: BLOCK_START + ((v.departure - BLOCK_START) % WEEK) }))];
  for (const v of voyagesOf(1_400, 600)) voyages.push({ ...v, departure: BLOCK_START + WEEK + ((v.departure - BLOCK_START) % (3 * WEEK)) });
  for (const v of voyagesOf(EXACT_VOYAGES_PER_DAY + 20, 100)) voyages.push({ ...v, departure: BLOCK_START + 10 * DAY + ((v.departure - BLOCK_START) % DAY) });
  for (const [i, v] of voyages.entries()) {
    v.arrival = v.departure + Math.round((2 + (i % 97) * 2) * HOUR);
    v.ship_type = i % 3 === 0 ? 80 : 70;
  }
  const dayOf = (t: number) => Math.floor((t - BLOCK_START) / DAY);
  const perDay = new Map<number, number>();
  for (const v of voyages) perDay.set(dayOf(v.departure), (perDay.get(dayOf(v.departure)) ?? 0) + 1);
  const daySmall = (t: number) => (perDay.get(dayOf(t)) ?? 0) <= EXACT_VOYAGES_PER_DAY;
  const weekSmall = (t: number) => [0, 1, 2, 3, 4, 5, 6].every((d) => daySmall(weekStartOf(t) + d * DAY));
  assert.ok(!weekSmall(BLOCK_START + 10 * DAY) && weekSmall(BLOCK_START), 'one small week and one that is not');

  for (const weekStart of [BLOCK_START, BLOCK_START + WEEK]) {
    const dayCells = Array.from({ length: 7 }, (_, d) => cellsOfVoyages(weekStart + d * DAY, 1, departedIn(voyages, weekStart + d * DAY, weekStart + (d + 1) * DAY), COUNTS)).flat();
    const expected = [2, 3, 4, 5, 6].flatMap((days) => [...categoryCellOf(voyages, weekStart, days, daySmall), ...categoryCellOf(voyages, weekStart + WEEK - days * DAY, days, daySmall)]);
    assert.deepEqual(readCategoryCells(categoryDayRunsOfWeek(weekStart, dayCells, COUNTS)), readCategoryCells(expected), `runs of the week of ${new Date(weekStart).toISOString()}`);
  }
  const weekCells = [0, 1, 2, 3].flatMap((w) => cellsOfVoyages(BLOCK_START + w * WEEK, 7, departedIn(voyages, BLOCK_START + w * WEEK, BLOCK_START + (w + 1) * WEEK), COUNTS));
  const expectedBlock = [
    ...categoryCellOf(voyages, BLOCK_START, 28, weekSmall),
    ...categoryCellOf(voyages, BLOCK_START, 14, weekSmall),
    ...categoryCellOf(voyages, BLOCK_START, 21, weekSmall),
    ...categoryCellOf(voyages, BLOCK_START + 2 * WEEK, 14, weekSmall),
    ...categoryCellOf(voyages, BLOCK_START + WEEK, 21, weekSmall),
  ];
  const block = categoryBlockCellsOf(BLOCK_START, weekCells, COUNTS);
  assert.deepEqual(readCategoryCells(block), readCategoryCells(expectedBlock));
  assert.ok(block.some((c) => c.exact === 1) && block.some((c) => c.exact === 0), 'exact and approximate merged cells');
});
