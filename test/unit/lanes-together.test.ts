import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HoursSketch, VesselSketch } from '../../src/platform/sketches.js';
import { lanesTogether, sumLanes, type LaneParts, type LaneStats, type SummedLanes } from '../../src/features/routes/lanes/lane-stats.js';
import { prng } from '../helpers/prng.js';

// ports 1 → 2 are 600 nm apart, 1 → 3 are 2 nm apart (one harbour), 1 → 4 have no position, 2 → 1 are 300 nm apart
const gcNm = (from: number, to: number) => (to === 2 ? 600 : to === 3 ? 2 : to === 1 ? 300 : null);
const LANES: Array<[number, number]> = [
  [1, 2],
  [1, 3],
  [1, 4],
  [2, 1],
];

/** Exact parts of random voyages (some too fast, some of no time) for each of `spans` spans, a lane's part in a span or none. */
function exactSpans(rand: () => number, spans: number): LaneParts[][] {
  return Array.from({ length: spans }, () =>
    LANES.filter(() => rand() < 0.8).map(([from, to]) => ({
      from,
      to,
      exact: Array.from({ length: 1 + Math.floor(rand() * 6) }, () => ({ vslId: `v${Math.floor(rand() * 8)}`, hours: rand() < 0.1 ? 0 : 1 + rand() * 40, simulated: rand() < 0.3 })),
      approximate: [],
    })),
  );
}

/** The parts of all spans as one part per lane (what summing the window's cells at once gives). */
function partsTogether(spans: readonly LaneParts[][]): LaneParts[] {
  const lanes = new Map<string, LaneParts>();
  for (const part of spans.flat()) {
    const key = `${part.from}>${part.to}`;
    const lane = lanes.get(key) ?? lanes.set(key, { from: part.from, to: part.to, exact: [], approximate: [] }).get(key)!;
    lane.exact.push(...part.exact);
    lane.approximate.push(...part.approximate);
  }
  return [...lanes.values()];
}

const figures = (summed: SummedLanes) => ({
  lanes: summed.lanes.map((l: LaneStats) => [l.from, l.to, l.voyages, l.simulatedVoyages, l.vessels.count(), l.hours.median()]),
  leftOut: summed.leftOut,
  approximate: summed.approximate,
});

test('lanesTogether gives the lanes, voyages, vessels, hours and left-out counts of sumLanes over all the spans parts together (exact parts)', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const spans = exactSpans(prng(seed), 1 + (seed % 5));
    for (const ties of ['vessels', 'ports'] as const) {
      const together = lanesTogether(
        spans.map((parts) => sumLanes(parts, gcNm, ties)),
        ties,
      );
      assert.deepEqual(figures(together), figures(sumLanes(partsTogether(spans), gcNm, ties)), `seed ${seed}, ties by ${ties}`);
    }
  }
});

test('lanesTogether with approximate parts: the same lanes, voyages, simulated voyages, left-out counts and flag; vessels and hours where every span keeps its lane', () => {
  // `leftOut` of the voyages the rule left out when the cells were summed (docs/decisions/177): not in the sketches
  const approximate = (voyages: number, simulated: number, ids: string[], hours: number[], leftOut = 0, minHours = Math.min(...hours)) => {
    const vessels = VesselSketch.approximate();
    for (const id of ids) vessels.add(id);
    return {
      voyages,
      leftOut,
      simulated,
      minHours,
      vessels,
      hours: HoursSketch.ofBuckets(hours.map((h, i) => [Math.floor(Math.log(h) / Math.log(1.02)), i === 0 ? voyages - leftOut - hours.length + 1 : 1] as const)),
    };
  };
  // 1 → 2: 600 nm; in the second span all its voyages take 2 h (300 kn: too fast) and its lane keeps none there
  const spans: LaneParts[][] = [
    [
      { from: 1, to: 2, exact: [{ vslId: 'x', hours: 30, simulated: false }], approximate: [approximate(40, 5, ['a', 'b', 'c'], [20, 25])] },
      { from: 2, to: 1, exact: [], approximate: [approximate(30, 0, ['d', 'e'], [15, 16])] },
    ],
    [
      { from: 1, to: 2, exact: [], approximate: [approximate(3, 0, [], [], 3, 2)] },
      { from: 2, to: 1, exact: [{ vslId: 'd', hours: 14, simulated: true }], approximate: [approximate(20, 2, ['f'], [18, 19])] },
      { from: 1, to: 3, exact: [], approximate: [approximate(17, 0, [], [], 17, 1)] },
    ],
  ];
  const together = lanesTogether(spans.map((parts) => sumLanes(parts, gcNm)));
  const once = sumLanes(partsTogether(spans), gcNm);
  const counts = (s: SummedLanes) => ({ lanes: s.lanes.map((l) => [l.from, l.to, l.voyages, l.simulatedVoyages]), leftOut: s.leftOut, approximate: s.approximate });
  assert.deepEqual(counts(together), counts(once));
  assert.deepEqual(counts(together), {
    lanes: [
      [2, 1, 51, 3],
      [1, 2, 41, 5],
    ],
    leftOut: { same_harbour: 17, implausible_speed: 3 },
    approximate: true,
  });
  // the same vessels and hours both ways: 2 → 1 keeps voyages in both spans; 1 → 2 none in the second, whose cell holds no vessel of them
  const lane = (s: SummedLanes, from: number) => s.lanes.find((l) => l.from === from)!;
  assert.equal(lane(together, 2).vessels.count(), lane(once, 2).vessels.count());
  assert.equal(lane(together, 2).hours.median(), lane(once, 2).hours.median());
  assert.equal(lane(together, 1).vessels.count(), 4);
  assert.equal(lane(once, 1).vessels.count(), 4);
});

test('sumLanes with ties by ports orders lanes of equal voyages by their ports, not by their vessels', () => {
  const parts: LaneParts[] = [
    { from: 1, to: 2, exact: ['a', 'a', 'a'].map((vslId) => ({ vslId, hours: 20, simulated: false })), approximate: [] },
    { from: 1, to: 4, exact: ['b', 'c', 'd'].map((vslId) => ({ vslId, hours: 20, simulated: false })), approximate: [] },
    { from: 2, to: 1, exact: ['e'].map((vslId) => ({ vslId, hours: 20, simulated: false })), approximate: [] },
  ];
  const order = (s: SummedLanes) => s.lanes.map((l) => `${l.from}>${l.to}`);
  assert.deepEqual(order(sumLanes(parts, gcNm)), ['1>4', '1>2', '2>1']);
  assert.deepEqual(order(sumLanes(parts, gcNm, 'ports')), ['1>2', '1>4', '2>1']);
  assert.deepEqual(order(lanesTogether([sumLanes(parts.slice(0, 2), gcNm, 'ports'), sumLanes(parts.slice(1), gcNm, 'ports')], 'ports')), ['1>4', '1>2', '2>1']);
});
