// The routes service-quality views as pure functions of one window (quality-window.ts and the views files):
// buckets, flags and views computed from samples alone, with a process state the test controls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QualitySample } from '../../src/features/routes/quality/quality-repo.js';
import { qualityWindow, type QualityProcess } from '../../src/features/routes/quality/quality-window.js';
import { NO_TELEMETRY_FLAG } from '../../src/features/telemetry/telemetry-service.js';
import { perfViews } from '../../src/features/routes/quality/quality-views-perf.js';
import { opsViews } from '../../src/features/routes/quality/quality-views-ops.js';
import type { CatalogView } from '../../src/catalog/catalog.js';

const HOUR = 3_600_000;
const since = Date.UTC(2026, 10, 28, 0, 0, 0);
const until = since + 4 * HOUR;
const sample = (ts: number, status = 200, latency_ms = 10, extra: Partial<QualitySample> = {}): QualitySample => ({
  ts,
  operation_id: 'getRoutesDirect',
  status,
  latency_ms,
  error_code: status >= 500 ? 'internal_error' : null,
  cache: null,
  fallback: null,
  cache_age_seconds: null,
  ...extra,
});
const processState: QualityProcess = {
  cacheStatus: () => ({ answerCache: { entries: 2, capacity: 500, hits: 0, misses: 0, evictions: 0, clears: 0 } }),
  cachedAt: () => [until - 1000, until - 61_000],
  catalog: { all: [], byOperationId: new Map() } as unknown as CatalogView,
  now: () => until,
};
const span = { hours: 4, bucketMinutes: 60, since, until, operations: ['getRoutesDirect'], operation: undefined };

test('a window puts each sample in its hour, one at exactly `until` in the last, and flags an empty window', () => {
  const w = qualityWindow(span, [sample(since), sample(since + HOUR + 5), sample(until)], processState);
  assert.deepEqual(
    w.buckets.map((b) => b.length),
    [1, 1, 0, 1],
  );
  assert.deepEqual(w.flags, []);
  assert.equal(w.window.requests, 3);
  assert.equal(w.window.from, '2026-11-28T00:00:00.000Z');
  const empty = qualityWindow(span, [], processState);
  assert.deepEqual(empty.flags, [NO_TELEMETRY_FLAG]);
});

test('views are computed from the window alone: counts, the latest bucket down, an open incident', () => {
  const failing = Array.from({ length: 10 }, (_, i) => sample(until - HOUR + 1000 + i, 500, 20));
  const w = qualityWindow(span, [sample(since, 200, 10), sample(since + 1, 200, 30), ...failing], processState);
  const perf = perfViews.perf(w);
  assert.equal(perf.data.overall.requests, 12);
  assert.equal(perf.data.operations[0]!.operation_id, 'getRoutesDirect');
  assert.equal(perf.data.overall.latency_ms.max, 30);
  const health = opsViews.opsHealth(w);
  assert.equal(health.data.health, 'unhealthy');
  const queue = opsViews.incidentQueue(w);
  assert.ok(
    queue.data.incidents.some((i) => i.open),
    'the failing last hour leaves an incident open',
  );
});
