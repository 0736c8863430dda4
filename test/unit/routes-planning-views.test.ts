import assert from 'node:assert/strict';
import test from 'node:test';
import { AppError } from '../../src/platform/errors.js';
import type { Route } from '../../src/routing/engine.js';
import { closedPassages, splitPairs, speedOf } from '../../src/features/routes/planning/planning-kit.js';
import { explainData, scenarioTotals, whatIfData } from '../../src/features/routes/planning/planning-views.js';

function route(distanceNm: number, passages: { id: string; at_nm: number }[]): Route {
  return {
    distanceNm,
    connectorNm: 0,
    legs: [],
    passages: passages.map((p) => ({ ...p, name: p.id, kind: 'canal' as const, lat: 0, lon: 0 })),
    coordinates: [],
    excludedMask: 0,
  };
}

test('planning kit: closures by passage or alias, each once; pairs parsed and bounded', () => {
  assert.deepEqual(closedPassages('suez, SUEZ,', 'query.closed'), ['suez']);
  assert.throws(
    () => closedPassages('atlantis', 'query.closed'),
    (e: unknown) => e instanceof AppError && e.code === 'unknown_passage',
  );
  assert.deepEqual(splitPairs(' NLRTM:SGSIN ; USHOU:NLRTM;', 5), [
    { from: 'NLRTM', to: 'SGSIN', index: 0 },
    { from: 'USHOU', to: 'NLRTM', index: 1 },
  ]);
  assert.throws(
    () => splitPairs('A:B;C:D', 1),
    (e: unknown) => e instanceof AppError && e.code === 'too_many_pairs',
  );
  assert.throws(
    () => splitPairs('NLRTM', 5),
    (e: unknown) => e instanceof AppError && e.code === 'invalid_request',
  );
  assert.deepEqual(speedOf({ speed_kn: 12 }), { speed_kn: 12, speed_source: 'speed_kn', ship_type: 'other' });
});

test('what-if: the baseline is never the longer route; a closure that is not crossed does not matter', () => {
  const speed = speedOf({ speed_kn: 10 });
  const open = route(1000, [{ id: 'suez', at_nm: 500 }]);
  const closed = route(1500, [{ id: 'cape_good_hope', at_nm: 700 }]);
  const data = whatIfData({ from: 'A', to: 'B' }, [], speed, ['suez'], null, closed, open);
  assert.equal(data.added.distance_nm, 500);
  assert.deepEqual(data.now_uses, ['cape_good_hope']);
  assert.equal(data.closures[0]!.mattered, true);
  // the route under the closure is shorter than the open one: it becomes the baseline
  const shorter = whatIfData({ from: 'A', to: 'B' }, [], speed, ['panama'], null, route(900, []), open);
  assert.equal(shorter.added.distance_nm, 0);
  assert.match(shorter.note, /crosses none of the closed passages/);
});

test('explain: segments between the passages, and the passages no route avoids', () => {
  const speed = speedOf({ speed_kn: 10 });
  const best = route(1000, [
    { id: 'suez', at_nm: 400 },
    { id: 'bab_el_mandeb', at_nm: 600 },
  ]);
  const data = explainData({ from: 'A', to: 'B' }, speed, best, [{ passage: 'suez', route: route(1200, []) }], []);
  assert.deepEqual(
    data.segments.map((s) => [s.from, s.to, s.distance_nm]),
    [
      ['origin', 'suez', 400],
      ['suez', 'bab_el_mandeb', 200],
      ['bab_el_mandeb', 'destination', 400],
    ],
  );
  assert.deepEqual(data.unavoidable, ['bab_el_mandeb']);
  assert.equal(data.alternatives[0]!.extra_pct, 20);
});

test('scenario: totals over the routed pairs', () => {
  const p = (distanceNm: number, hours: number) => ({ distanceNm, hours, fuelT: 1, co2T: 3 });
  const totals = scenarioTotals([{ base: p(100, 10), changed: p(150, 12) }], 1);
  assert.deepEqual([totals.routed, totals.failed, totals.delta.distance_nm, totals.delta.hours], [1, 1, 50, 2]);
});
