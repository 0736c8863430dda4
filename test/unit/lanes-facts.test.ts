import assert from 'node:assert/strict';
import { test } from 'node:test';
import { voyagePairs, type VoyageCall } from '../../src/events/voyages.js';
import { MAX_VOYAGE_SPEED_KN, plausibleFromMs, tooFast } from '../../src/events/lane-rule.js';
import { countPer, directionOf, lanesOf, shipTypeCodes, weekly, weekOfWindow } from '../../src/features/routes/lanes/lanes-facts.js';
import { laneFiguresOf } from '../../src/features/routes/lanes/lane-details.js';
import { hubsOfLanes, hubVesselsOf, lanePartsOfVoyages, sumLanes } from '../../src/features/routes/lanes/lane-stats.js';
import type { Voyage } from '../../src/features/routes/lanes/lanes-math.js';

/** Ports of voyages as the summed lanes count them (no port positions: no plausibility rule). */
const hubsOf = (voyages: readonly Voyage[]) => hubsOfLanes(sumLanes(lanePartsOfVoyages(voyages), () => null).lanes);

const H = 3_600_000;
const D = 24 * H;
const v = (vslId: string, from: number, to: number, departure: number, hours = 10, shipType: number | null = 70): Voyage => ({
  vslId,
  from,
  to,
  departure,
  arrival: departure + hours * H,
  shipType,
  simulated: false,
});
const c = (vsl: string, port: number, arrival: number, departure: number | null, extra: Partial<VoyageCall> = {}): VoyageCall => ({
  vsl_id: vsl,
  port_id: port,
  ship_type: 70,
  arrival,
  departure,
  last_fix_at: departure ?? arrival + H,
  simulated: 0,
  ...extra,
});

test('voyagePairs: one row per consecutive pair at two ports, keyed by the origin call, no window', () => {
  const rows = voyagePairs([
    c('a', 1, 0, 10 * H),
    c('a', 1, 20 * H, 30 * H), // back at port 1: no voyage
    c('a', 2, 50 * H, null, { last_fix_at: 60 * H, ship_type: null }), // departure never written: the last fix stands in
    c('a', 3, 70 * H, null, { simulated: 1 }),
    c('b', 3, 71 * H, 72 * H), // another vessel: never paired with a's calls
  ]);
  assert.deepEqual(rows, [
    { vsl_id: 'a', from_port: 1, to_port: 2, from_arrival: 20 * H, departure: 30 * H, arrival: 50 * H, ship_type: 70, simulated: 0 },
    { vsl_id: 'a', from_port: 2, to_port: 3, from_arrival: 50 * H, departure: 60 * H, arrival: 70 * H, ship_type: 70, simulated: 1 },
  ]);
});

test('lanesOf: busiest first, then more vessels, then port ids', () => {
  const lanes = lanesOf([v('a', 1, 2, 0), v('a', 1, 2, D), v('b', 3, 4, 0), v('c', 3, 4, D), v('d', 5, 6, 0)]);
  assert.deepEqual(
    lanes.map((l) => [l.from, l.to, l.voyages.length]),
    [
      [3, 4, 2],
      [1, 2, 2],
      [5, 6, 1],
    ],
  );
});

test('countPer and weekly: buckets from since; weekly periods end at until, the oldest shorter', () => {
  assert.deepEqual(countPer([0, D - 1, D, 3 * D], 0, 4 * D, D), [2, 1, 0, 1]);
  const weeks = weekOfWindow(0, 10 * D);
  assert.deepEqual([weeks.n, weeks.of(0), weeks.of(3 * D - 1), weeks.of(3 * D), weeks.of(10 * D - 1)], [2, 0, 0, 1, 1]);
  const w = weekly(
    new Map([
      [0, 1],
      [1, 1],
    ]),
    0,
    10 * D,
  );
  assert.deepEqual(
    w.map((x) => x.voyages),
    [1, 1],
  );
  assert.equal(w[0]!.week_start, new Date(0).toISOString());
  assert.equal(w[0]!.week_end, new Date(3 * D).toISOString());
});

test('hubsOfLanes: voyages in and out, degrees, partners and vessels per port', () => {
  const voyages = [v('a', 1, 2, 0), v('b', 2, 1, D), v('c', 1, 3, 0)];
  const hubs = hubsOf(voyages);
  assert.deepEqual(hubs[0], { portId: 1, voyages_out: 2, voyages_in: 1, voyages_total: 3, out_degree: 2, in_degree: 1, partners: 2 });
  const lanes = sumLanes(lanePartsOfVoyages(voyages), () => null).lanes;
  assert.deepEqual(
    [...hubVesselsOf(lanes, [1, 3])],
    [
      [1, 3],
      [3, 1],
    ],
  );
  assert.deepEqual(
    hubs.map((h) => h.portId),
    [1, 2, 3],
  );
});

test('laneFiguresOf (exact parts): ship type mix, weekly counts and transit hours of the voyages that count', () => {
  const voyages = [v('a', 1, 2, 0, 10, 80), v('b', 1, 2, D, 30, null), v('c', 1, 2, 9 * D, 20, 81), v('d', 1, 2, 9 * D, 0.1, 81)];
  const parts = lanePartsOfVoyages(voyages);
  // 100 nm: the 0.1-hour voyage is faster than the speed rule allows
  const lane = sumLanes(parts, () => 100).lanes[0];
  const figures = laneFiguresOf(lane, parts, 100, { since: 0, until: 10 * D, days: 10 });
  assert.deepEqual(figures.shipTypes, [
    { ship_type: 'tanker', voyages: 2, share: 0.667 },
    { ship_type: 'unknown', voyages: 1, share: 0.333 },
  ]);
  assert.deepEqual(
    figures.weekly.map((x) => x.voyages),
    [2, 1],
  );
  assert.deepEqual(figures.transitHours, { min: 10, median: 20, mean: 20, p90: 30, max: 30 });
  assert.equal(figures.voyages, 3);
  assert.equal(figures.vessels, 3);
  // terminals of one harbour: nothing counts
  assert.equal(laneFiguresOf(undefined, parts, 1, { since: 0, until: 10 * D, days: 10 }).shipTypes.length, 0);
});

test('plausibleFromMs: the least whole ms the speed rule keeps, none on a lane within one harbour', () => {
  for (const nm of [5, 6.1, 60, 123.456789, 1000 / 3, 4321.987]) {
    const d = plausibleFromMs(nm)!;
    assert.ok(!tooFast(nm, d / H), `${nm} nm: ${d} ms kept`);
    assert.ok(tooFast(nm, (d - 1) / H), `${nm} nm: ${d - 1} ms left out`);
    assert.ok(Math.abs(d - (nm / MAX_VOYAGE_SPEED_KN) * H) <= 1);
  }
  assert.equal(plausibleFromMs(null), 0);
  assert.equal(plausibleFromMs(4.9), null);
});

test('shipTypeCodes and directionOf', () => {
  assert.deepEqual(shipTypeCodes('tanker'), [80, 81, 82, 83, 84, 85, 86, 87, 88, 89]);
  assert.equal(shipTypeCodes(undefined), null);
  assert.equal(directionOf(25, null), 'rising');
  assert.equal(directionOf(null, -2), 'falling');
  assert.equal(directionOf(null, 0), 'steady');
  assert.equal(directionOf(null, null), 'unknown');
});
