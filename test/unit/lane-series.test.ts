import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { HoursSketch, VesselSketch } from '../../src/platform/sketches.js';
import type { DatedLaneParts } from '../../src/features/routes/lanes/lane-stats.js';
import { seriesOf, sumLanesPer, voyagesPer, voyagesPerLane } from '../../src/features/routes/lanes/lane-series.js';

// ports 1 → 2 are 600 nm apart, 1 → 3 are 2 nm apart (one harbour), 1 → 4 have no position
const gcNm = (from: number, to: number) => (to === 2 ? 600 : to === 3 ? 2 : null);
const T0 = 20_000 * DAY;
const voyage = (vslId: string, departure: number, hours: number, category = 'cargo') => ({ vslId, departure, hours, simulated: false, category });

const parts: DatedLaneParts[] = [
  {
    from: 1,
    to: 2,
    exact: [voyage('a', T0 + HOUR, 20), voyage('b', T0 + 2 * HOUR, 5), voyage('a', T0 + DAY + HOUR, 30, 'tanker'), voyage('c', T0 + 8 * DAY, 0)],
    approximate: [],
  },
  { from: 1, to: 3, exact: [voyage('d', T0 + HOUR, 3)], approximate: [] },
  { from: 1, to: 4, exact: [voyage('e', T0 + 3 * DAY, 0.1)], approximate: [] },
];

test('voyagesPer counts per key the voyages the lanes count: one harbour, too fast (600 nm in 5 h) and no time left out; a port without position keeps all', () => {
  const perDay = voyagesPer(parts, (departure) => Math.floor((departure - T0) / DAY), gcNm);
  assert.deepEqual(
    [...perDay.entries()].sort((a, b) => a[0] - b[0]),
    [
      [0, 1],
      [1, 1],
      [3, 1],
    ],
  );
  assert.deepEqual(
    seriesOf(perDay, 5, (k) => k),
    [1, 1, 0, 1, 0],
  );
  const perLane = voyagesPerLane(parts, (_departure, category) => category, gcNm);
  assert.deepEqual(
    [...perLane.values()].map((l) => [l.from, l.to, Object.fromEntries(l.counts)]),
    [
      [1, 2, { cargo: 1, tanker: 1 }],
      [1, 4, { cargo: 1 }],
    ],
  );
  assert.deepEqual(Object.fromEntries(voyagesPer(parts, (departure) => (departure < T0 + DAY ? 'first' : null), gcNm)), { first: 1 });
});

test('sumLanesPer sums each key as the window is summed: vessels and hours of the kept voyages, null keys left out', () => {
  const halves = sumLanesPer(parts, (departure) => (departure < T0 + 2 * DAY ? 'early' : null), gcNm);
  assert.deepEqual([...halves.keys()], ['early']);
  const early = halves.get('early')!;
  assert.deepEqual(
    early.lanes.map((l) => [l.from, l.to, l.voyages, l.vessels.count(), l.hours.median()]),
    [[1, 2, 2, 1, 25]],
  );
  assert.deepEqual(early.leftOut, { same_harbour: 1, implausible_speed: 1 });
});

test('an approximate part is counted whole in the key of its span, else day by day; summing lanes per key refuses a key that cuts its span', () => {
  // four voyages, one of 1 h over 600 nm, which the rule left out when the cell was summed (docs/decisions/177): its
  // sketches and voyages per day and hour hold the three others
  const hours = new HoursSketch();
  for (const h of [20, 20, 30]) hours.add(h);
  const cell: DatedLaneParts = {
    from: 1,
    to: 2,
    exact: [],
    approximate: [
      {
        voyages: 4,
        leftOut: 1,
        simulated: 0,
        minHours: 1,
        vessels: VesselSketch.ofRegisters(new Uint8Array(1024)),
        hours: HoursSketch.ofBuckets(hours.toBuckets()),
        periodStart: T0,
        periodDays: 2,
        category: 'cargo',
        days: [1, 2],
        departureHours: Array.from({ length: 24 }, (_, h) => (h === 5 ? 3 : 0)),
      },
    ],
  };
  // the one voyage left out is not counted: 3
  assert.deepEqual(Object.fromEntries(voyagesPer([cell], (departure) => (departure < T0 + 2 * DAY ? 'both days' : null), gcNm)), { 'both days': 3 });
  // a span of several keys (keys of whole days) is counted day by day, as its days hold counted voyages
  assert.deepEqual(Object.fromEntries(voyagesPer([cell], (departure) => Math.floor((departure - T0) / DAY), gcNm)), { 0: 1, 1: 2 });
  assert.throws(() => sumLanesPer([cell], (departure) => Math.floor((departure - T0) / DAY), gcNm), /spans two keys/);
});
