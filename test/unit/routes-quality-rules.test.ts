import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QualitySample } from '../../src/features/routes/quality/quality-repo.js';
import { alertsOf, bucketStatus, incidentsOf, percentile, qualityScore, reliabilityIndex } from '../../src/features/routes/quality/rules.js';

const sample = (status: number, latency_ms: number, extra: Partial<QualitySample> = {}): QualitySample => ({
  ts: 0,
  operation_id: 'getRoutesDirect',
  status,
  latency_ms,
  error_code: null,
  cache: null,
  fallback: null,
  cache_age_seconds: null,
  ...extra,
});
const many = (n: number, make: (i: number) => QualitySample) => Array.from({ length: n }, (_, i) => make(i));

test('nearest-rank percentiles', () => {
  assert.equal(percentile([], 50), null);
  assert.equal(percentile([1, 2, 3, 4], 50), 2);
  assert.equal(percentile([1, 2, 3, 4], 95), 4);
  assert.equal(percentile([7], 99), 7);
});

test('alert thresholds: the boundaries, and no alert under five requests', () => {
  // 1 of 20 failing is exactly 5 %: not above the warning threshold
  assert.deepEqual(alertsOf('getRoutesDirect', 0, [...many(19, () => sample(200, 10)), sample(500, 10)]), []);
  const warn = alertsOf('getRoutesDirect', 0, [...many(18, () => sample(200, 10)), sample(500, 10), sample(500, 10)]);
  assert.deepEqual(
    warn.map((a) => [a.rule, a.severity, a.value]),
    [['server_error_rate', 'warning', 0.1]],
  );
  // 2 of 8 = 25 %: critical from 25 %
  assert.deepEqual(
    alertsOf('getRoutesDirect', 0, [...many(3, () => sample(200, 10)), sample(500, 10), sample(200, 10), sample(200, 10), sample(200, 10), sample(500, 10)]).map((a) => a.severity),
    ['critical'],
  );
  assert.deepEqual(
    alertsOf(
      'getRoutesDirect',
      0,
      many(4, () => sample(500, 5000)),
    ),
    [],
    'four requests raise nothing',
  );
  // p95 exactly at the SLO (500 ms for direct) is within it; above twice it is critical
  assert.deepEqual(
    alertsOf(
      'getRoutesDirect',
      0,
      many(5, () => sample(200, 500)),
    ),
    [],
  );
  assert.deepEqual(
    alertsOf(
      'getRoutesDirect',
      0,
      many(5, () => sample(200, 1001)),
    ).map((a) => [a.rule, a.severity, a.threshold]),
    [['latency_p95', 'critical', 1000]],
  );
  assert.deepEqual(
    alertsOf(
      'getRoutesAdvisory',
      0,
      many(8, (i) => sample(200, 10, { operation_id: 'getRoutesAdvisory', fallback: i < 2 ? 'no_event_data' : null })),
    ).map((a) => a.rule),
    [],
    'a quarter exactly is not above 25 %',
  );
});

test('bucket status: down, degraded, ok, no_data', () => {
  const down = many(6, (i) => sample(i < 3 ? 500 : 200, 10));
  assert.equal(bucketStatus(down, alertsOf('getRoutesDirect', 0, down)), 'down');
  assert.equal(
    bucketStatus(
      many(4, () => sample(500, 10)),
      [],
    ),
    'ok',
    'too few requests to judge',
  );
  assert.equal(bucketStatus([], []), 'no_data');
});

test('incidents: consecutive alerting buckets make one incident, a gap closes it, the last bucket keeps it open', () => {
  const H = 3_600_000;
  const starts = [0, H, 2 * H, 3 * H, 4 * H];
  const alert = (b: number, value: number, severity: 'warning' | 'critical' = 'warning') => ({
    bucket_start: starts[b]!,
    operation_id: 'getRoutesDirect',
    key: 'server_error_rate:getRoutesDirect',
    rule: 'server_error_rate' as const,
    severity,
    value,
    threshold: 0.05,
    requests: 10,
  });
  const incidents = incidentsOf([alert(0, 0.1), alert(1, 0.3, 'critical'), alert(3, 0.2), alert(4, 0.1)], starts, H);
  assert.deepEqual(
    incidents.map((i) => [i.started_at, i.ended_at, i.open, i.buckets, i.peak_severity, i.peak_value]),
    [
      [3 * H, null, true, 2, 'warning', 0.2],
      [0, 2 * H, false, 2, 'critical', 0.3],
    ],
  );
});

test('scores: the documented weights; null without requests', () => {
  assert.equal(qualityScore(1, 1, 0), 100);
  assert.equal(qualityScore(0.9, 0.5, 0.5), 70);
  assert.equal(qualityScore(null, 1, 0), null);
  assert.equal(reliabilityIndex(1, 0, 0.5), 70);
  assert.equal(reliabilityIndex(1, 1, null), null);
});
