import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeHours, encodeRegisters, HoursSketch, VesselSketch } from '../../src/platform/sketches.js';
import { mean, median, percentile } from '../../src/platform/stats.js';

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
    // the other figures of lane-details (docs/decisions/169): as platform/stats while exact, within 1 % from the buckets
    const sorted = [...values].sort((a, b) => a - b);
    const truths = { p90: percentile(sorted, 90)!, mean: mean(values)!, min: sorted[0]!, max: sorted[n - 1]! };
    const fromExact = { p90: exact.nearestRank(90), mean: exact.mean(), min: exact.min(), max: exact.max() };
    const fromBuckets = { p90: approximate.nearestRank(90)!, mean: approximate.mean()!, min: approximate.min()!, max: approximate.max()! };
    for (const key of ['p90', 'mean', 'min', 'max'] as const) {
      assert.equal(fromExact[key], truths[key], `${n} values: exact ${key}`);
      assert.ok(Math.abs(fromBuckets[key] - truths[key]) / truths[key] < 0.011, `${n} values: ${key} ${fromBuckets[key]} vs ${truths[key]}`);
    }
    assert.equal(
      [...approximate.toBuckets().values()].reduce((sum, c) => sum + c, 0),
      n,
    );
  }
  const zeros = new HoursSketch();
  zeros.add(0);
  zeros.add(0);
  zeros.add(5);
  zeros.toBuckets();
  assert.equal(zeros.median(), 0);
  assert.equal(zeros.min(), 0);
  assert.ok(Math.abs(zeros.nearestRank(90)! - 5) < 0.05);
  assert.equal(HoursSketch.ofBuckets([]).mean(), null);
});

test('encoded registers (sparse while few are set, dense beyond) and hours buckets merge as the sketches they encode', () => {
  for (const n of [1, 20, 200, 5_000]) {
    const cell = new VesselSketch();
    for (let i = 0; i < n; i++) cell.add(`cell-${i}`);
    const registers = cell.toRegisters();
    const encoded = encodeRegisters(registers);
    // sparse: 2 bytes per register set (base64: 4 characters per 3 bytes); dense: the 1,024 registers
    const set = registers.filter((r) => r > 0).length;
    assert.equal(Buffer.from(encoded, 'base64').length, set < 256 ? 2 * set : 1024, `${n} vessels`);
    const viaText = new VesselSketch();
    viaText.add('other');
    viaText.mergeEncoded(encoded);
    const direct = new VesselSketch();
    direct.add('other');
    direct.merge(VesselSketch.ofRegisters(registers));
    assert.deepEqual(viaText.toRegisters(), direct.toRegisters(), `${n} vessels`);
  }
  const buckets = new Map([
    [-100_000, 2],
    [3, 1],
    [170, 40],
  ]);
  const hours = HoursSketch.ofBuckets([[3, 5]]);
  hours.mergeEncoded(encodeHours(buckets));
  assert.deepEqual(
    [...hours.toBuckets().entries()].sort((a, b) => a[0] - b[0]),
    [
      [-100_000, 2],
      [3, 6],
      [170, 40],
    ],
  );
});

test('what an approximate sketch is given is read when it is counted: taken, merged or decoded at once, the same registers and buckets', () => {
  const cellOf = (from: number, n: number) => {
    const s = new VesselSketch();
    for (let i = from; i < from + n; i++) s.add(`t-${i}`);
    return encodeRegisters(s.toRegisters());
  };
  const texts = [cellOf(0, 40), cellOf(30, 600), cellOf(500, 3)];
  const hoursTexts = [
    encodeHours(
      new Map([
        [10, 2],
        [200, 5],
      ]),
    ),
    encodeHours(
      new Map([
        [10, 1],
        [2_000, 3],
      ]),
    ),
  ];
  // at once: every text decoded as it is merged (registers counted first)
  const atOnce = VesselSketch.ofRegisters(new Uint8Array(1024));
  for (const t of texts) {
    atOnce.mergeEncoded(t);
    atOnce.toRegisters();
  }
  atOnce.add('x');
  // a part taken by a lane that holds exact ids (the part's text handed on undecoded), then merged into a total
  const part = VesselSketch.approximate();
  for (const t of texts) part.mergeEncoded(t);
  part.add('x');
  const lane = new VesselSketch();
  lane.add('t-1');
  lane.take(part);
  assert.ok(!lane.exact);
  const total = new VesselSketch();
  total.merge(lane);
  assert.deepEqual(lane.toRegisters(), atOnce.toRegisters());
  assert.deepEqual(total.toRegisters(), atOnce.toRegisters());
  assert.equal(total.count(), atOnce.count());
  // hours: taken (text handed on), merged (decoded), or decoded as merged
  const hoursPart = HoursSketch.ofBuckets([[10, 1]]);
  for (const t of hoursTexts) hoursPart.mergeEncoded(t);
  const laneHours = new HoursSketch();
  laneHours.add(1.5);
  laneHours.take(hoursPart);
  const merged = new HoursSketch();
  merged.merge(laneHours);
  const sorted = (h: HoursSketch) => [...h.toBuckets().entries()].sort((a, b) => a[0] - b[0]);
  const expected = [
    [10, 4],
    [20, 1],
    [200, 5],
    [2_000, 3],
  ];
  assert.deepEqual(sorted(laneHours), expected);
  assert.deepEqual(sorted(merged), expected);
});
