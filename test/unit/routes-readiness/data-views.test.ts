import assert from 'node:assert/strict';
import test from 'node:test';
import { coverageGapsView, longitudeSpan } from '../../../src/features/routes/readiness/coverage-views.js';
import { freshnessFactsOf, freshnessSlaView, lagAlertsView, windowEndingAt } from '../../../src/features/routes/readiness/freshness-views.js';
import { cellKey } from '../../../src/features/routes/readiness/network-cells.js';
import type { PortRecord } from '../../../src/features/ports/port-table.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

test('freshness: lags by source and by 30° region, ages from the window end; lag alerts above the thresholds, worst first (ties by scope, key, metric)', () => {
  const at = windowEndingAt(10 * HOUR, 2);
  const sources = [
    { source: 'a', positions: 3, simulated: 0, newest_observed: 10 * HOUR - 2 * HOUR, newest_received: 10 * HOUR },
    { source: 'b', positions: 1, simulated: 0, newest_observed: 10 * HOUR - 60_000, newest_received: 10 * HOUR },
  ];
  const lagRows = [
    { source: 'a', lag_ms: 1000, lat: 10, lon: 10 },
    { source: 'a', lag_ms: 600_000, lat: 10, lon: 10 },
    { source: 'b', lag_ms: 2000, lat: -40, lon: 100 },
  ];
  const regionCells = [{ row: 3, col: 6, positions: 3, simulated: 0, newest_observed: 8 * HOUR }];
  const f = freshnessFactsOf(at, { observed_at: 10 * HOUR - 60_000, received_at: 10 * HOUR, source: 'b', simulated: false }, sources, lagRows, regionCells);
  assert.deepEqual(
    f.sources.map((s) => [s.source, s.age_seconds, s.lag_sample_size, s.lag_p95_seconds]),
    [
      ['b', 60, 1, 2],
      ['a', 7200, 2, 600],
    ],
  );
  assert.deepEqual(
    f.regions.map((r) => [r.region_id, r.south, r.west, r.lag_sample_size]),
    [['0/0', 0, 0, 2]],
  );
  const alerts = lagAlertsView(f, 3600, 300).data.alerts;
  assert.deepEqual(
    alerts.map((a) => [a.scope, a.key, a.metric, a.ratio]),
    [
      ['overall', 'all', 'ingest_lag_p95', 2],
      ['region', '0/0', 'data_age', 2],
      ['region', '0/0', 'ingest_lag_p95', 2],
      ['source', 'a', 'data_age', 2],
      ['source', 'a', 'ingest_lag_p95', 2],
    ],
  );
});

test('freshness SLA: the newest position carries over empty buckets; a position at the window end counts in the last bucket', () => {
  const at = windowEndingAt(3 * HOUR, 3);
  const perBucket = [
    { bucket: 0, newest: 50 * MINUTE, positions: 2 },
    { bucket: 3, newest: 3 * HOUR, positions: 1 },
  ];
  const sla = freshnessSlaView(at, HOUR, 900, null, perBucket).data;
  assert.deepEqual(
    sla.buckets.map((b) => [b.positions, b.age_seconds, b.met]),
    [
      [2, 600, true],
      [0, 4200, false],
      [1, 0, true],
    ],
  );
  assert.equal(sla.share, 0.6667);
});

test('coverage gaps: contiguous unobserved network cells across the antimeridian form one gap with the nearest port', () => {
  const lanes = new Set([cellKey(90, 0), cellKey(90, 359), cellKey(10, 10)]);
  const port = { port_id: 1, name: 'Suva', locode: 'FJSUV', lat: 0, lon: 179 } as PortRecord;
  const view = coverageGapsView(windowEndingAt(HOUR, 1).window, lanes, [{ row: 10, col: 10, positions: 1, simulated: 0, newest_observed: 0 }], [port], 20, 1).data;
  assert.equal(view.unobserved_cells, 2);
  assert.equal(view.gap_count, 1);
  const gap = view.gaps[0]!;
  assert.equal(gap.cells, 2);
  assert.deepEqual(gap.extent, { south: 0, west: 179, north: 1, east: -179, crosses_antimeridian: true });
  assert.equal(gap.nearest_port?.name, 'Suva');
});

test('coverage gaps: a gap in every column spans -180 to 180 (never west 0 / east 0); the edges follow the widest empty run of columns', () => {
  const belt = new Set(Array.from({ length: 360 }, (_, col) => cellKey(100, col)));
  const gap = coverageGapsView(windowEndingAt(HOUR, 1).window, belt, [], [], 20, 1).data.gaps[0]!;
  assert.deepEqual([gap.cells, gap.extent], [360, { south: 10, west: -180, north: 11, east: 180, crosses_antimeridian: false }]);
  assert.deepEqual(longitudeSpan([10]), { west: -170, east: -169, crossesAntimeridian: false });
  assert.deepEqual(longitudeSpan([0, 359, 358]), { west: 178, east: -179, crossesAntimeridian: true });
  // every column but 5: from 6 eastwards round the globe to 5
  assert.deepEqual(longitudeSpan(Array.from({ length: 360 }, (_, c) => c).filter((c) => c !== 5)), { west: -174, east: -175, crossesAntimeridian: true });
  assert.deepEqual(longitudeSpan([100, 101, 102, 200]), { west: -80, east: 21, crossesAntimeridian: false });
});
