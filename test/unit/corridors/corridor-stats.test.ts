import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOUR } from '../../../src/platform/clock.js';
import {
  baselineFigures,
  classifyDay,
  health,
  median,
  robustZ,
  slope,
  stability,
  watch,
  windowFigures,
  type DayFigures,
  type TransitFact,
} from '../../../src/features/routes/corridors/corridor-stats.js';

const DIRS = ['eastbound', 'westbound'] as const;
const fact = (hours: number, speed: number | null, stoppedH = 0, direction = 'eastbound', vsl = 'a'): TransitFact => ({
  vsl_id: vsl,
  zone: 'gibraltar',
  direction,
  entered_at: 0,
  exited_at: hours * HOUR,
  mean_speed_kn: speed,
  stopped_ms: stoppedH * HOUR,
  simulated: 0,
});
const day = (transits: number, speed: number | null, stoppedShare: number | null): DayFigures => ({
  from: 0,
  to: 1,
  transits,
  by_direction: [],
  mean_speed_kn: speed,
  stopped_share: stoppedShare,
  waiting_hours_per_transit: null,
  pressure: transits,
});

test('median and least-squares slope', () => {
  assert.equal(median([]), null);
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(slope([5]), null);
  assert.equal(slope([1, 2, 3]), 1);
  assert.equal(slope([3, 3, 3, 3]), 0);
});

test('window figures: medians, speeds without nulls, stopped share of time in the gate, distinct vessels', () => {
  const f = windowFigures([fact(2, 10, 1, 'eastbound', 'a'), fact(4, null, 0, 'westbound', 'a'), fact(6, 14, 2, 'westbound', 'b')], DIRS);
  assert.deepEqual(f, {
    transits: 3,
    by_direction: [
      { direction: 'eastbound', transits: 1 },
      { direction: 'westbound', transits: 2 },
    ],
    vessels: 2,
    median_transit_hours: 4,
    mean_speed_kn: 12,
    stopped_share: 0.25,
    waiting_hours_per_transit: 1,
  });
  assert.deepEqual(baselineFigures([f, windowFigures([], DIRS)]), { windows: 2, transits: 1.5, mean_speed_kn: 12, stopped_share: 0.25, waiting_hours_per_transit: 1 });
});

test('robust z: MAD, the mean absolute deviation when the MAD is 0, a constant history, too little history', () => {
  const z = robustZ(10, [1, 2, 3, 4, 5]);
  // median 3, MAD 1: (10 − 3) / 1.4826
  assert.deepEqual([z.median, z.mad, z.z, z.anomalous], [3, 1, 4.72, true]);
  assert.equal(robustZ(4, [1, 2, 3, 4, 5]).anomalous, false);
  // MAD 0 (four equal of six): mean absolute deviation 2/6 · 1.253314
  const fallback = robustZ(5, [2, 2, 2, 2, 3, 3]);
  assert.deepEqual([fallback.mad, fallback.scale, fallback.z], [0, 0.4178, 7.18]);
  assert.deepEqual([robustZ(2, [2, 2, 2, 2, 2]).z, robustZ(3, [2, 2, 2, 2, 2]).z, robustZ(3, [2, 2, 2, 2, 2]).anomalous], [0, null, true]);
  assert.match(robustZ(3, [1, 2, 3, 4]).note!, /fewer than 5/);
  assert.equal(robustZ(null, [1, 2, 3, 4, 5]).note, 'no value on the latest day');
});

test('regime rules at their edges', () => {
  const ref = { transits: 4, speed: 12 };
  assert.equal(classifyDay(day(4, 12, 0.25), ref), 'disrupted');
  assert.equal(classifyDay(day(4, 12, 0.249), ref), 'normal');
  assert.equal(classifyDay(day(4, 8.4, 0), ref), 'disrupted');
  assert.equal(classifyDay(day(4, 8.5, 0), ref), 'normal');
  assert.equal(classifyDay(day(1, 12, 0), ref), 'quiet');
  assert.equal(classifyDay(day(2, 12, 0), ref), 'normal');
  assert.equal(classifyDay(day(6, 12, 0), ref), 'busy');
  assert.equal(classifyDay(day(0, null, null), { transits: 0, speed: null }), 'normal');
  assert.equal(classifyDay(day(1, null, 0), { transits: 0, speed: null }), 'busy');
});

test('health and watch against a baseline; stability of equal days', () => {
  const current = windowFigures([fact(2, 8, 1), fact(2, 8, 1)], DIRS);
  const base = { windows: 4, transits: 4, mean_speed_kn: 10, stopped_share: 0, waiting_hours_per_transit: 0 };
  const h = health(current, base);
  // speed 80, stopped 50, volume 50: 32 + 15 + 15
  assert.deepEqual([h.score, h.level], [62, 'strained']);
  assert.deepEqual(
    watch(current, base).map((a) => a.reason),
    ['volume_drop', 'slowdown', 'waiting'],
  );
  assert.deepEqual(watch(windowFigures([fact(2, 8.1, 0.9), fact(2, 8.1), fact(2, 8.1)], DIRS), base), []);
  assert.deepEqual(health(current, { windows: 0, transits: null, mean_speed_kn: null, stopped_share: null, waiting_hours_per_transit: null }).weight_measured, 0.3);
  const s = stability([day(2, 10, 0), day(2, 10, 0), day(2, 10, 0), day(2, 10, 0), day(2, 10, 0)], DIRS);
  assert.deepEqual([s.cv, s.class, s.anomalous_days, s.direction_balance], [0, 'stable', 0, null]);
});
