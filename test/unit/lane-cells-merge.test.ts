import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCK, blockStartOf, laneBlockCellsOf, laneCellsOfVoyages, laneDayRunsOfWeek, mergeLaneCells, WEEK, weekStartOf, type VoyageLaneCellRow } from '../../src/events/voyage-cells.js';
import type { VoyageRow } from '../../src/events/voyages.js';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { HoursSketch, VesselSketch } from '../../src/platform/sketches.js';

const rand = (() => {
  let s = 4242;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
})();
const BLOCK_START = blockStartOf(Date.UTC(2026, 9, 20));

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
    counts: [cell.voyages, cell.simulated, cell.max_arrival, cell.min_from_arrival, cell.min_duration_ms],
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
    const days = Array.from({ length: 28 }, (_, d) => laneCellsOfVoyages(BLOCK_START + d * DAY, 1, departedIn(voyages, BLOCK_START + d * DAY, BLOCK_START + (d + 1) * DAY))).flat();
    assert.deepEqual(readAll(mergeLaneCells(BLOCK_START, 28, days)), readAll(laneCellsOfVoyages(BLOCK_START, 7, voyages).map((c) => ({ ...c, period_days: 28 }))), `${n} voyages`);
  }
});

test('laneDayRunsOfWeek and laneBlockCellsOf: each run and block is the cell of the voyages that departed in it', () => {
  const voyages = voyagesOf(600, 300);
  const weekStart = weekStartOf(BLOCK_START + WEEK);
  const dayCells = Array.from({ length: 7 }, (_, d) => laneCellsOfVoyages(weekStart + d * DAY, 1, departedIn(voyages, weekStart + d * DAY, weekStart + (d + 1) * DAY))).flat();
  const expectedRuns = [2, 3, 4, 5, 6].flatMap((days) => [
    ...laneCellsOfVoyages(weekStart, 1, departedIn(voyages, weekStart, weekStart + days * DAY)).map((c) => ({ ...c, period_days: days })),
    ...laneCellsOfVoyages(weekStart + WEEK - days * DAY, 1, departedIn(voyages, weekStart + WEEK - days * DAY, weekStart + WEEK)).map((c) => ({ ...c, period_days: days })),
  ]);
  assert.deepEqual(readAll(laneDayRunsOfWeek(weekStart, dayCells)), readAll(expectedRuns));

  const weekCells = [0, 1, 2, 3].flatMap((w) => laneCellsOfVoyages(BLOCK_START + w * WEEK, 7, departedIn(voyages, BLOCK_START + w * WEEK, BLOCK_START + (w + 1) * WEEK)));
  const cellOf = (from: number, to: number) => laneCellsOfVoyages(from, 7, departedIn(voyages, from, to)).map((c) => ({ ...c, period_days: (to - from) / DAY }));
  const expectedBlock = [
    ...cellOf(BLOCK_START, BLOCK_START + BLOCK),
    ...cellOf(BLOCK_START, BLOCK_START + 2 * WEEK),
    ...cellOf(BLOCK_START, BLOCK_START + 3 * WEEK),
    ...cellOf(BLOCK_START + 2 * WEEK, BLOCK_START + BLOCK),
    ...cellOf(BLOCK_START + WEEK, BLOCK_START + BLOCK),
  ];
  assert.deepEqual(readAll(laneBlockCellsOf(BLOCK_START, weekCells)), readAll(expectedBlock));
  assert.ok(
    expectedBlock.some((c) => c.voyage_list === null),
    'some merged cells are sketches',
  );
});
