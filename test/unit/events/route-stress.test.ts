import assert from 'node:assert/strict';
import test from 'node:test';
import { routeStressIndex, STRESS_WEIGHTS, type StressComponentName, type StressInput } from '../../../src/events/route-stress.js';

const calm: Record<StressComponentName, StressInput> = {
  transit_volume: { value: 100, baseline: 100, dataAgeSeconds: 60 },
  gate_speed: { value: 12, baseline: 12, dataAgeSeconds: 60 },
  gate_waiting: { value: 0.5, baseline: 0.5, dataAgeSeconds: 60 },
  port_congestion: { value: 3, baseline: 3, dataAgeSeconds: 600 },
  detours: { value: 0.02, baseline: 0.02, dataAgeSeconds: 3600 },
  sts_activity: { value: 1, baseline: 1, dataAgeSeconds: 3600 },
};

test('the weights sum to one; every component at its baseline is zero stress', () => {
  assert.equal(
    Object.values(STRESS_WEIGHTS)
      .reduce((a, b) => a + b, 0)
      .toFixed(6),
    '1.000000',
  );
  const r = routeStressIndex(calm);
  assert.equal(r.index, 0);
  assert.equal(r.level, 'low');
  assert.equal(r.weight_measured, 1);
  assert.equal(r.components.length, 6);
});

test('each component: halved traffic, half speed, waits doubled, more detours and encounters', () => {
  const r = routeStressIndex({
    ...calm,
    transit_volume: { value: 50, baseline: 100, dataAgeSeconds: 60 }, // |0.5 − 1| = 0.5
    gate_speed: { value: 6, baseline: 12, dataAgeSeconds: 60 }, // half speed: 1
    gate_waiting: { value: 1.5, baseline: 0.5, dataAgeSeconds: 60 }, // 1 extra hour against 1: 1
    port_congestion: { value: 4.5, baseline: 3, dataAgeSeconds: 600 }, // 1.5/3 = 0.5
    detours: { value: 0.07, baseline: 0.02, dataAgeSeconds: 3600 }, // 5 points: 0.5
    sts_activity: { value: 1, baseline: 1, dataAgeSeconds: 3600 }, // 0
  });
  const stress = Object.fromEntries(r.components.map((c) => [c.name, c.stress]));
  assert.deepEqual(stress, { transit_volume: 0.5, gate_speed: 1, gate_waiting: 1, port_congestion: 0.5, detours: 0.5, sts_activity: 0 });
  // 100 × (0.3·0.5 + 0.15·1 + 0.2·1 + 0.15·0.5 + 0.1·0.5 + 0) = 62.5
  assert.equal(r.index, 62.5);
  assert.equal(r.level, 'high');
});

test('unmeasured components are listed with why, and their weight goes to the others', () => {
  const r = routeStressIndex({
    ...calm,
    transit_volume: { value: 200, baseline: 100, dataAgeSeconds: 60 }, // surge: 1
    detours: { value: null, baseline: null, dataAgeSeconds: null, note: 'needs the routing engine' },
    sts_activity: { value: 3, baseline: null, dataAgeSeconds: 60 },
  });
  const detours = r.components.find((c) => c.name === 'detours')!;
  assert.deepEqual([detours.available, detours.note, detours.stress], [false, 'needs the routing engine', null]);
  assert.equal(r.components.find((c) => c.name === 'sts_activity')!.note, 'no baseline to compare with');
  assert.equal(r.weight_measured, 0.8);
  assert.equal(r.index, 37.5, '100 × 0.3 / 0.8');
  const none = routeStressIndex(Object.fromEntries(Object.keys(calm).map((k) => [k, { value: null, baseline: null, dataAgeSeconds: null }])) as Record<StressComponentName, StressInput>);
  assert.deepEqual([none.index, none.level, none.weight_measured], [null, null, 0]);
});

test('a zero baseline counts where the stress is an excess over a floor (waits, STS), not where it is a ratio (traffic, speed)', () => {
  const r = routeStressIndex({
    ...calm,
    transit_volume: { value: 10, baseline: 0, dataAgeSeconds: 60 },
    gate_waiting: { value: 2, baseline: 0, dataAgeSeconds: 60 }, // two hours against a floor of one: 1
    sts_activity: { value: 0, baseline: 0, dataAgeSeconds: 60 }, // none as usual: 0
  });
  const byName = Object.fromEntries(r.components.map((c) => [c.name, c]));
  assert.deepEqual([byName.transit_volume!.available, byName.transit_volume!.note], [false, 'no baseline to compare with']);
  assert.deepEqual([byName.gate_waiting!.available, byName.gate_waiting!.stress], [true, 1]);
  assert.deepEqual([byName.sts_activity!.available, byName.sts_activity!.stress], [true, 0]);
  assert.equal(r.weight_measured, 0.7);
});
