import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE, iso } from '../../src/platform/clock.js';
import type { TelemetryRecord } from '../../src/features/telemetry/telemetry-repo.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { telemetryRow } from '../helpers/telemetry-rows.js';

/**
 * Four one-hour buckets of routes telemetry, every record constructed, so each percentile, rate, alert and
 * incident below is known exactly (docs/routes-service-quality.md):
 *   b0 direct: 10 × 200, latencies 10…100 ms; 4 cache hits (aged 60…240 s), 5 misses, 1 miss_evict  → ok
 *   b1 direct: 8 × 200 at 100 ms, 2 × 500 internal_error at 50 ms (20 %: warning); advisory: 5 × 200 at 200 ms,
 *      3 of them no_event_data fallbacks (60 %: critical)                                          → degraded
 *   b2 direct: 5 × 200 at 600 ms (SLO 500), 5 × 500 at 40 ms (50 %: critical, down; p95 600: warning) → down
 *   b3 direct: 3 × 200 + 1 × 400 too_many_vias at 30 ms (4 requests: no alert); with-via: 6 × 200 at 900 ms
 *      (SLO 800: p95 warning, an open incident), one long_connector fallback                       → degraded
 */
const NOW = TEST_EPOCH + 5 * HOUR;
const SINCE = NOW - 4 * HOUR;
const bucket = (i: number) => SINCE + i * HOUR;

let app: TestApp;
let key: string;
let operator: string;

function row(b: number, operation_id: string, status: number, latency_ms: number, extra: Partial<TelemetryRecord> = {}): TelemetryRecord {
  const error_code = status >= 400 ? (status >= 500 ? 'internal_error' : 'too_many_vias') : null;
  return telemetryRow({ ts: bucket(b) + 10 * MINUTE, operation_id, status, latency_ms, error_code, ...extra });
}

function seed(): TelemetryRecord[] {
  const rows: TelemetryRecord[] = [];
  for (let i = 1; i <= 10; i++) {
    const cache = i <= 4 ? 'hit' : i === 10 ? 'miss_evict' : 'miss';
    rows.push(row(0, 'getRoutesDirect', 200, i * 10, { cache, cache_age_seconds: i <= 4 ? i * 60 : 0 }));
  }
  for (let i = 0; i < 8; i++) rows.push(row(1, 'getRoutesDirect', 200, 100));
  for (let i = 0; i < 2; i++) rows.push(row(1, 'getRoutesDirect', 500, 50));
  for (let i = 0; i < 5; i++) rows.push(row(1, 'getRoutesAdvisory', 200, 200, i < 3 ? { fallback: 'no_event_data' } : {}));
  for (let i = 0; i < 5; i++) rows.push(row(2, 'getRoutesDirect', 200, 600));
  for (let i = 0; i < 5; i++) rows.push(row(2, 'getRoutesDirect', 500, 40, { ts: bucket(2) + 20 * MINUTE + i * MINUTE }));
  for (let i = 0; i < 3; i++) rows.push(row(3, 'getRoutesDirect', 200, 30));
  rows.push(row(3, 'getRoutesDirect', 400, 30));
  for (let i = 0; i < 6; i++) rows.push(row(3, 'getRoutesWithVia', 200, 900, i === 0 ? { fallback: 'long_connector' } : {}));
  return rows;
}

const view = async (name: string, query = 'hours=4', token = key) => {
  const res = await app.api('GET', `/v1/routes/${name}?${query}`, { token });
  assert.equal(res.status, 200, `${name}: ${res.text}`);
  return res.body;
};

before(async () => {
  app = await startTestApp();
  ({ apiKey: key } = await app.registerAgent('quality'));
  operator = await app.operatorToken();
  app.clock.set(NOW);
  for (const r of seed()) app.bosun.ctx.services.telemetry.record(r);
  // a record of a quality view and one of another section: neither is counted
  app.bosun.ctx.services.telemetry.record(row(3, 'getRoutesQuality', 500, 5000));
  app.bosun.ctx.services.telemetry.record(row(3, 'getVesselsSearch', 500, 5000));
});
after(async () => app.close());

test('quality: per operation and overall measures and the quality score', async () => {
  const body = await view('quality');
  assert.deepEqual(body.quality_flags, []);
  const d = body.data;
  assert.deepEqual(d.window, { from: iso(SINCE), to: iso(NOW), hours: 4, bucket_minutes: 60, operation: null, requests: 45, truncated: false });
  assert.equal(d.overall.requests, 45);
  assert.equal(d.overall.server_errors, 7);
  assert.equal(d.overall.client_errors, 1);
  assert.equal(d.overall.availability, 0.8444);
  assert.equal(d.overall.latency_attainment, 0.7556);
  assert.equal(d.overall.fallback_share, 0.0889);
  assert.equal(d.overall.quality_score, 83.1);
  assert.deepEqual(d.overall.cache, { hits: 4, misses: 6, evictions: 1, hit_ratio: 0.4 });
  assert.deepEqual(
    d.operations.map((o: any) => [o.operation_id, o.requests, o.quality_score]),
    [
      ['getRoutesDirect', 34, 85.3],
      ['getRoutesWithVia', 6, 66.7],
      ['getRoutesAdvisory', 5, 88],
    ],
  );
  const withVia = d.operations.find((o: any) => o.operation_id === 'getRoutesWithVia');
  assert.deepEqual(withVia.latency_ms, { p50: 900, p90: 900, p95: 900, p99: 900, max: 900, mean: 900 });
  assert.equal(withVia.latency_slo_ms, 800);
});

test('perf, perf-breakdown and latency-trend', async () => {
  const perf = (await view('perf')).data;
  const direct = perf.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.equal(direct.latency_slo_ms, 500);
  assert.equal(direct.latency_attainment, 0.8529);
  assert.equal(direct.latency_ms.max, 600);
  const breakdown = (await view('perf-breakdown', 'hours=4&operation=direct')).data;
  assert.equal(breakdown.window.operation, 'getRoutesDirect');
  const [op] = breakdown.operations;
  assert.deepEqual(
    op.by_status_class.map((c: any) => [c.status_class, c.requests, c.latency_ms.p50]),
    [
      ['2xx', 26, 100],
      ['4xx', 1, 30],
      ['5xx', 7, 40],
    ],
  );
  assert.deepEqual(
    op.by_cache.map((c: any) => [c.cache, c.requests, c.latency_ms.p50]),
    [
      ['hit', 4, 20],
      ['miss', 5, 70],
      ['miss_evict', 1, 100],
      ['none', 24, 100],
    ],
  );
  const trend = (await view('latency-trend')).data;
  assert.deepEqual(
    trend.buckets.map((b: any) => [b.start, b.requests, b.p50_ms, b.p95_ms, b.over_slo]),
    [
      [iso(bucket(0)), 10, 50, 100, 0],
      [iso(bucket(1)), 15, 100, 200, 0],
      [iso(bucket(2)), 10, 40, 600, 5],
      [iso(bucket(3)), 10, 900, 900, 6],
    ],
  );
});

test('cache views: efficiency, hit trend, staleness, turnover', async () => {
  const eff = (await view('cache-efficiency')).data;
  assert.deepEqual(eff.overall, { operation_id: null, cacheable_requests: 10, hits: 4, misses: 6, evictions: 1, hit_ratio: 0.4, latency_p50_hit_ms: 20, latency_p50_miss_ms: 70, time_saved_ms: 200 });
  assert.deepEqual(
    eff.operations.map((o: any) => o.operation_id),
    ['getRoutesDirect'],
  );
  assert.equal(eff.process_cache.capacity, 2000);
  const trend = (await view('cache-hit-trend')).data;
  assert.deepEqual(trend.buckets[0], { start: iso(bucket(0)), hits: 4, misses: 6, evictions: 1, hit_ratio: 0.4 });
  assert.deepEqual(trend.buckets[1], { start: iso(bucket(1)), hits: 0, misses: 0, evictions: 0, hit_ratio: null });
  const stale = (await view('cache-staleness')).data;
  assert.deepEqual(stale.served_from_cache, { hits: 4, age_seconds: { p50: 120, p95: 240, max: 240, mean: 150 } });
  const turnover = (await view('cache-turnover')).data;
  assert.deepEqual(turnover.totals, { inserts: 6, evictions: 1, hits: 4, hit_ratio: 0.4 });
});

test('fallback-trend, sla-breaches and slo-snapshot', async () => {
  const fb = (await view('fallback-trend')).data;
  assert.deepEqual(fb.totals, { requests: 45, fallbacks: 4, fallback_share: 0.0889, by_reason: { no_event_data: 3, long_connector: 1 } });
  assert.deepEqual(
    fb.buckets.map((b: any) => [b.fallbacks, b.fallback_share]),
    [
      [0, 0],
      [3, 0.2],
      [0, 0],
      [1, 0.1],
    ],
  );
  const sla = (await view('sla-breaches')).data;
  const direct = sla.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.deepEqual([direct.over_slo, direct.worst_ms, direct.server_errors, direct.availability_met, direct.latency_met], [5, 600, 7, false, false]);
  assert.equal(sla.breaches.length, 18, '7 server errors and 11 slow answers');
  assert.deepEqual(sla.breaches[0], { at: iso(bucket(3) + 10 * MINUTE), operation_id: 'getRoutesWithVia', latency_ms: 900, latency_slo_ms: 800, status: 200, error_code: null, kind: 'latency' });
  const slo = (await view('slo-snapshot')).data;
  assert.deepEqual(slo.overall.error_budget, { allowed_failures: 0.225, failures: 7, remaining: -30.1111 });
  assert.deepEqual(slo.overall.latency_budget, { allowed_slow: 2.25, slow: 11, remaining: -3.8889 });
  const advisory = slo.operations.find((o: any) => o.operation_id === 'getRoutesAdvisory');
  assert.equal(advisory.availability_met, true);
  assert.equal(slo.targets.latency_slo_ms.getRoutesDirect, 500);
});

test('reliability: endpoint rows, index and drivers; the error catalog against declared errors', async () => {
  const rel = (await view('endpoint-reliability')).data;
  const direct = rel.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.deepEqual(direct.buckets, { with_requests: 4, ok: 2, degraded: 1, down: 1 });
  assert.equal(direct.longest_unhealthy_streak_buckets, 2);
  assert.equal(direct.last_server_error_at, iso(bucket(2) + 24 * MINUTE));
  assert.equal(direct.reliability_index, 74.7);
  const index = (await view('reliability-index')).data;
  assert.equal(index.index, 70.8);
  assert.deepEqual(index.components, { availability: 0.8444, latency_attainment: 0.7556, ok_bucket_share: 0.25 });
  const drivers = (await view('reliability-drivers')).data;
  assert.equal(drivers.unreliable_requests, 18);
  assert.deepEqual(
    drivers.operations.map((o: any) => [o.operation_id, o.unreliable, o.share_of_unreliable, o.server_errors, o.slow]),
    [
      ['getRoutesDirect', 12, 0.6667, 7, 5],
      ['getRoutesWithVia', 6, 0.3333, 0, 6],
    ],
  );
  assert.deepEqual(drivers.error_codes, [{ code: 'internal_error', count: 7, share_of_server_errors: 1, operations: ['getRoutesDirect'] }]);
  const catalog = (await view('error-catalog')).data;
  assert.deepEqual(
    catalog.codes.map((c: any) => [c.code, c.count, c.statuses]),
    [
      ['internal_error', 7, [500]],
      ['too_many_vias', 1, [400]],
    ],
  );
  const directErrors = catalog.operations.find((o: any) => o.operation_id === 'getRoutesDirect');
  assert.ok(directErrors.declared.includes('port_not_found'));
  assert.deepEqual(directErrors.seen, ['internal_error', 'too_many_vias']);
  assert.deepEqual(directErrors.undeclared_seen, ['too_many_vias'], 'direct does not declare too_many_vias; internal_error is a pipeline code');
});

test('status timeline, alerts, alert keys and incidents', async () => {
  const timeline = (await view('status-timeline')).data;
  assert.deepEqual(
    timeline.buckets.map((b: any) => b.status),
    ['ok', 'degraded', 'down', 'degraded'],
  );
  assert.equal(timeline.current, 'degraded');
  assert.deepEqual(timeline.counts, { ok: 1, degraded: 2, down: 1, no_data: 0 });
  const feed = (await view('alerts-feed')).data;
  assert.deepEqual(
    feed.alerts.map((a: any) => [a.bucket_start, a.key, a.severity, a.value, a.threshold]),
    [
      [iso(bucket(3)), 'latency_p95:getRoutesWithVia', 'warning', 900, 800],
      [iso(bucket(2)), 'latency_p95:getRoutesDirect', 'warning', 600, 500],
      [iso(bucket(2)), 'server_error_rate:getRoutesDirect', 'critical', 0.5, 0.25],
      [iso(bucket(1)), 'fallback_share:getRoutesAdvisory', 'critical', 0.6, 0.5],
      [iso(bucket(1)), 'server_error_rate:getRoutesDirect', 'warning', 0.2, 0.05],
    ],
  );
  const summary = (await view('alerts-summary')).data;
  assert.deepEqual([summary.total, summary.by_severity, summary.by_rule], [5, { warning: 3, critical: 2 }, { server_error_rate: 2, latency_p95: 2, fallback_share: 1 }]);
  assert.deepEqual(
    summary.firing_now.map((a: any) => a.key),
    ['latency_p95:getRoutesWithVia'],
  );
  const keys = (await view('alert-keys-trend')).data;
  assert.deepEqual(keys.buckets[2].keys, ['latency_p95:getRoutesDirect', 'server_error_rate:getRoutesDirect']);
  const queue = (await view('incident-queue')).data;
  assert.deepEqual([queue.open, queue.closed], [1, 3]);
  assert.deepEqual(
    queue.incidents.map((i: any) => [i.key, i.open, i.started_at, i.ended_at, i.buckets, i.peak_severity, i.peak_value]),
    [
      ['latency_p95:getRoutesWithVia', true, iso(bucket(3)), null, 1, 'warning', 900],
      ['latency_p95:getRoutesDirect', false, iso(bucket(2)), iso(bucket(3)), 1, 'warning', 600],
      ['fallback_share:getRoutesAdvisory', false, iso(bucket(1)), iso(bucket(2)), 1, 'critical', 0.6],
      ['server_error_rate:getRoutesDirect', false, iso(bucket(1)), iso(bucket(3)), 2, 'critical', 0.5],
    ],
  );
});

test('quality history and score trend', async () => {
  const history = (await view('quality-history')).data;
  assert.deepEqual(history.buckets[1], {
    start: iso(bucket(1)),
    requests: 15,
    availability: 0.8667,
    success_rate: 0.8667,
    server_error_rate: 0.1333,
    latency_p50_ms: 100,
    latency_p95_ms: 200,
    latency_attainment: 1,
    cache_hit_ratio: null,
    fallback_share: 0.2,
    quality_score: 89.3,
  });
  const trend = (await view('quality-score-trend')).data;
  assert.deepEqual(
    trend.buckets.map((b: any) => b.score),
    [100, 89.3, 60, 80],
  );
  assert.deepEqual(trend.summary, { min: 60, max: 100, mean: 82.3, change: -20 });
  assert.equal(trend.score, 83.1);
});

test('operator views: digest, scorecard, overview, volatility, control tower, recommendations, health', async () => {
  const agentTry = await app.api('GET', '/v1/routes/ops-health?hours=4', { token: key });
  assert.equal(agentTry.status, 403);
  const digest = (await view('ops-digest', 'hours=4', operator)).data;
  assert.deepEqual(digest.headline, { requests: 45, availability: 0.8444, quality_score: 83.1, error_budget_remaining: -30.1111, alerts: 5, open_incidents: 1, status_now: 'degraded' });
  assert.deepEqual(digest.lowest_scoring_operation, { operation_id: 'getRoutesWithVia', quality_score: 66.7 });
  assert.deepEqual(digest.top_error_code, { code: 'internal_error', count: 7 });
  assert.match(digest.lines[0], /^45 routes requests in the last 4 hours over 3 operations; availability 84.44 %, 7 server errors\.$/);
  const card = (await view('ops-scorecard', 'hours=4', operator)).data;
  assert.deepEqual(
    card.operations.map((o: any) => [o.operation_id, o.grade]),
    [
      ['getRoutesDirect', 'C'],
      ['getRoutesWithVia', 'F'],
      ['getRoutesAdvisory', 'C'],
    ],
  );
  assert.deepEqual(card.overall, { quality_score: 83.1, grade: 'C' });
  const overview = (await view('ops-overview', 'hours=4', operator)).data;
  assert.deepEqual([overview.status_now, overview.alerts_firing, overview.open_incidents, overview.fallbacks], ['degraded', 1, 1, { count: 4, share: 0.0889 }]);
  const vol = (await view('ops-volatility', 'hours=4', operator)).data;
  assert.deepEqual(vol.overall.requests_per_bucket, { mean: 11.25, stddev: 2.1651, cv: 0.1925 });
  const tower = (await view('ops-control-tower', 'hours=4', operator)).data;
  const withVia = tower.operations.find((o: any) => o.operation_id === 'getRoutesWithVia');
  assert.deepEqual([withVia.status_now, withVia.alerts_firing, withVia.open_incidents, withVia.latency_p95_ms], ['degraded', 1, 1, 900]);
  const recs = (await view('ops-recommendations', 'hours=4', operator)).data;
  assert.deepEqual(
    recs.recommendations.map((r: any) => [r.priority, r.rule, r.operation_id]),
    [
      [1, 'availability_below_target', 'getRoutesDirect'],
      [2, 'latency_below_target', 'getRoutesDirect'],
      [2, 'latency_below_target', 'getRoutesWithVia'],
      [2, 'open_incident', 'getRoutesWithVia'],
      [3, 'cache_churn', null],
      [3, 'frequent_fallback', 'getRoutesAdvisory'],
    ],
  );
  assert.deepEqual(recs.recommendations[0].evidence, { availability: 0.7941, target: 0.995, server_errors: 7, requests: 34, top_error_code: 'internal_error', error_budget_remaining: -40.1765 });
  assert.equal(recs.recommendations[5].evidence.fallback, 'no_event_data');
  const health = (await view('ops-health', 'hours=4', operator)).data;
  assert.equal(health.health, 'unhealthy');
  assert.deepEqual(
    health.checks.filter((c: any) => c.ok === false).map((c: any) => c.check),
    ['status_now', 'availability_slo', 'latency_slo', 'open_incidents', 'answer_cache'],
    'the answer cache check fails on the same evidence as the cache_churn recommendation',
  );
});

test('the operation filter, the window parameters and a window without telemetry', async () => {
  const only = (await view('quality', 'hours=4&operation=getRoutesWithVia')).data;
  assert.deepEqual([only.window.requests, only.operations.length], [6, 1]);
  const byPath = (await view('quality', 'hours=4&operation=with-via')).data;
  assert.equal(byPath.window.operation, 'getRoutesWithVia');
  const days = (await view('quality', 'days=1')).data;
  assert.equal(days.window.hours, 24);
  assert.equal(days.window.requests, 45);
  const empty = await view('quality', 'hours=1&operation=getRoutesAdvisory');
  assert.deepEqual(empty.quality_flags, ['no_telemetry_in_window']);
  assert.equal(empty.data.overall.requests, 0);
  assert.equal(empty.data.overall.availability, null);
  assert.equal(empty.data.overall.quality_score, null);
  assert.deepEqual(empty.data.overall.latency_ms, { p50: null, p90: null, p95: null, p99: null, max: null, mean: null });
  const emptyHealth = await view('ops-health', 'hours=1&operation=getRoutesAdvisory', operator);
  assert.equal(emptyHealth.data.health, 'unknown');
  const emptyTimeline = (await view('status-timeline', 'hours=1&bucket_minutes=30&operation=getRoutesAdvisory')).data;
  assert.deepEqual(
    emptyTimeline.buckets.map((b: any) => b.status),
    ['no_data', 'no_data'],
  );

  for (const [query, field] of [
    ['hours=4&days=1', 'query.days'],
    ['operation=getVesselsSearch', 'query.operation'],
    ['operation=quality', 'query.operation'],
    ['operation=getRoutesAlertsFeed', 'query.operation'],
    ['days=30&bucket_minutes=5', 'query.bucket_minutes'],
    ['hours=721', 'query.hours'],
    ['days=0', 'query.days'],
    ['bucket_minutes=2', 'query.bucket_minutes'],
    ['window=4', null],
  ] as const) {
    const res = await app.api('GET', `/v1/routes/quality?${query}`, { token: key });
    assert.equal(res.status, 400, query);
    assert.equal(res.body.errors[0].code, 'invalid_request', query);
    if (field) assert.equal(res.body.errors[0].field, field, query);
  }
});

test('incident ids stay the same from call to call while the clock moves within a bucket (issue 28)', async () => {
  const ids = async (at: number) => {
    app.clock.set(at);
    return (await view('incident-queue')).data.incidents.map((i: any) => i.id);
  };
  try {
    const atNow = await ids(NOW);
    assert.deepEqual(atNow, [
      `latency_p95:getRoutesWithVia@${iso(bucket(3))}`,
      `latency_p95:getRoutesDirect@${iso(bucket(2))}`,
      `fallback_share:getRoutesAdvisory@${iso(bucket(1))}`,
      `server_error_rate:getRoutesDirect@${iso(bucket(1))}`,
    ]);
    assert.deepEqual(await ids(NOW + 7 * MINUTE), atNow);
    assert.deepEqual(await ids(NOW + 23 * MINUTE + 5000), atNow);
  } finally {
    app.clock.set(NOW);
  }
});
