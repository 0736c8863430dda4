import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HoursSketch, VesselSketch } from '../../src/platform/sketches.js';
import { median } from '../../src/platform/stats.js';

test('VesselSketch: exact while only ids were added, within 3 standard errors (3 × 3.3 %) once registers are merged in', () => {
  const exact = new VesselSketch();
  for (let i = 0; i < 500; i++) exact.add(`v${i % 200}`);
  assert.equal(exact.count(), 200);
  assert.ok(exact.exact);
  for (const n of [50, 1_000, 20_000, 200_000]) {
    const a = new VesselSketch();
    const b = new VesselSketch();
    for (let i = 0; i < n; i++) (i % 2 === 0 ? a : b).add(`vessel-${i}`);
    // an approximate part (registers) merged into an exact one, and overlapping ids added again
    const merged = new VesselSketch();
    merged.merge(a);
    merged.merge(VesselSketch.ofRegisters(b.toRegisters()));
    for (let i = 0; i < n; i += 3) merged.add(`vessel-${i}`);
    assert.ok(!merged.exact);
    const error = Math.abs(merged.count() - n) / n;
    assert.ok(error < 3 * 0.033, `${n} vessels estimated as ${merged.count()} (${(error * 100).toFixed(1)} %)`);
  }
});

test('HoursSketch: the median of the values while exact, within 1 % relative from the buckets', () => {
  const rand = (() => {
    let s = 12345;
    return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  })();
  for (const n of [1, 2, 7, 100, 5_001]) {
    const values = Array.from({ length: n }, () => 1 + rand() * 300);
    const exact = new HoursSketch();
    for (const h of values) exact.add(h);
    assert.equal(exact.median(), median(values));
    const approximate = HoursSketch.ofBuckets([]);
    approximate.merge(exact);
    assert.ok(!approximate.exact);
    const truth = median(values)!;
    // the median of a bucketed set: within half a bucket (ratio 1.02) of each of the middle values
    assert.ok(Math.abs(approximate.median()! - truth) / truth < 0.011, `${n} values: ${approximate.median()} vs ${truth}`);
    assert.equal(approximate.countBelow(0.5), 0);
    assert.equal(approximate.countBelow(1_000), n);
  }
  const zeros = new HoursSketch();
  zeros.add(0);
  zeros.add(0);
  zeros.add(5);
  zeros.toBuckets();
  assert.equal(zeros.median(), 0);
  assert.equal(zeros.countBelow(1), 2);
  assert.equal(zeros.withoutBelow(1).countBelow(1_000), 1);
});
