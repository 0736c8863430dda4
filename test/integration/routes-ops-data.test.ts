import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { cellOfPoint, contiguousGroups, networkCells } from '../../src/features/routes/readiness/network-cells.js';
import { shippedSeaNetwork } from '../../src/routing/network-file.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';

const NOW = TEST_EPOCH;
let app: TestApp;
let key: string;

// Four vessels; times and lags chosen so that no position sits on a bucket boundary.
const A = 211000001; // feed:alpha, North Sea: −2h05m (lag 10 s) and −30 min (lag 20 s)
const B = 211000002; // feed:beta, Singapore Strait: −5h10m (lag 600 s)
const C = 211000003; // feed:alpha, Strait of Gibraltar: −26 h (outside a 24 h window)
const D = 211000004; // feed:beta, mid-Atlantic: −65 min (lag 30 s), no SOG, COG or heading
const POINTS = { a1: [51.9, 3.55], a2: [51.95, 3.6], b: [1.25, 103.85], c: [36.0, -5.6], d: [40.5, -29.5] } as const;

before(async () => {
  app = await startTestApp({ now: NOW });
  const fleet = app.bosun.ctx.services.fleet;
  const at = (mmsi: number, ago: number, [lat, lon]: readonly [number, number], lagMs: number, source: string, extra = {}) =>
    position(mmsi, NOW - ago, lat, lon, { receivedAt: NOW - ago + lagMs, source, ...extra });
  await ingest(
    fleet,
    identity(A, NOW - 3 * HOUR, { imo: imo(931000), name: 'ALPHA ONE', shipType: 70, lengthM: 200, beamM: 32, destination: 'NLRTM', source: 'feed:alpha' }),
    identity(B, NOW - 6 * HOUR, { name: 'BETA', shipType: 80, lengthM: 100, source: 'feed:beta' }),
    at(C, 26 * HOUR, POINTS.c, 5 * SECOND, 'feed:alpha'),
    at(B, 5 * HOUR + 10 * MINUTE, POINTS.b, 600 * SECOND, 'feed:beta'),
    at(A, 2 * HOUR + 5 * MINUTE, POINTS.a1, 10 * SECOND, 'feed:alpha'),
    at(D, 65 * MINUTE, POINTS.d, 30 * SECOND, 'feed:beta', { sog: null, cog: null, heading: null }),
    at(A, 30 * MINUTE, POINTS.a2, 20 * SECOND, 'feed:alpha'),
  );
  key = (await app.registerAgent('routes-ops-data')).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string) => app.api('GET', path, { token: key });

test('data-freshness: newest position, per source and 30° region ages, ingest lag percentiles', async () => {
  const res = await get('/v1/routes/data-freshness?hours=24');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.newest, { observed_at: new Date(NOW - 30 * MINUTE).toISOString(), age_seconds: 1800, source: 'feed:alpha', simulated: false });
  assert.equal(d.positions_in_window, 4);
  assert.deepEqual(
    d.sources.map((s: any) => [s.source, s.positions, s.age_seconds, s.lag_p50_seconds, s.lag_p95_seconds]),
    [
      ['feed:alpha', 2, 1800, 10, 20],
      ['feed:beta', 2, 3900, 30, 600],
    ],
  );
  assert.deepEqual(
    d.regions.map((r: any) => [r.region_id, r.positions, r.age_seconds, r.lag_p95_seconds]),
    [
      ['30/0', 2, 1800, 20],
      ['30/-30', 1, 3900, 30],
      ['0/90', 1, 18600, 600],
    ],
  );
  // lags 10, 20, 30, 600 s: nearest-rank percentiles
  assert.deepEqual(d.ingest_lag, { sample_size: 4, truncated: false, p50_seconds: 20, p90_seconds: 600, p95_seconds: 600, p99_seconds: 600, max_seconds: 600 });
  assert.deepEqual(res.body.quality_flags ?? [], []);

  const empty = await get('/v1/routes/data-freshness?hours=1&foo=1');
  assert.equal(empty.status, 400);
  assert.equal(empty.body.errors[0].code, 'invalid_request');
  for (const bad of ['hours=0', 'hours=721', 'hours=abc']) {
    const r = await get(`/v1/routes/data-freshness?${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.errors[0].code, 'invalid_request');
  }
});

test('data-lag-alerts: sources and regions over the age and lag thresholds, worst first', async () => {
  const res = await get('/v1/routes/data-lag-alerts');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.thresholds, { max_age_seconds: 3600, max_lag_seconds: 300, region_deg: 30 });
  assert.deepEqual(d.checked, { sources: 2, regions: 3, positions_in_window: 4, lag_sample_size: 4 });
  assert.deepEqual(
    d.alerts.map((a: any) => [a.scope, a.key, a.metric, a.value_seconds, a.ratio]),
    [
      ['region', '0/90', 'data_age', 18600, 5.17],
      ['overall', 'all', 'ingest_lag_p95', 600, 2],
      ['region', '0/90', 'ingest_lag_p95', 600, 2],
      ['source', 'feed:beta', 'ingest_lag_p95', 600, 2],
      ['region', '30/-30', 'data_age', 3900, 1.08],
      ['source', 'feed:beta', 'data_age', 3900, 1.08],
    ],
  );
  assert.equal(d.alert_count, 6);
  const strict = (await get('/v1/routes/data-lag-alerts?hours=1&max_age_seconds=1500&max_lag_seconds=600')).body.data;
  // the last hour holds A's −30 min position only (age 1800 > 1500, lag 20 s)
  assert.deepEqual(
    strict.alerts.map((a: any) => [a.scope, a.key, a.metric, a.value_seconds]),
    [
      ['overall', 'all', 'data_age', 1800],
      ['region', '30/0', 'data_age', 1800],
      ['source', 'feed:alpha', 'data_age', 1800],
    ],
  );
  for (const bad of ['max_age_seconds=59', 'max_lag_seconds=0', 'max_lag_seconds=86401']) {
    const r = await get(`/v1/routes/data-lag-alerts?${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.errors[0].code, 'invalid_request');
  }
});

test('data-completeness: identity fields of vessels seen and kinematic fields of positions', async () => {
  const res = await get('/v1/routes/data-completeness?hours=24');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.equal(d.vessels.seen, 3);
  assert.deepEqual(d.vessels.fields, {
    name: { count: 2, share: 0.6667 },
    imo: { count: 1, share: 0.3333 },
    ship_type: { count: 2, share: 0.6667 },
    dimensions: { count: 1, share: 0.3333 },
    destination: { count: 1, share: 0.3333 },
  });
  assert.equal(d.positions.observed, 4);
  assert.deepEqual(d.positions.fields, { sog: { count: 3, share: 0.75 }, cog: { count: 3, share: 0.75 }, heading: { count: 3, share: 0.75 } });
  const bad = await get('/v1/routes/data-completeness?hours=-1');
  assert.equal(bad.body.errors[0].code, 'invalid_request');
});

test('freshness-sla: buckets whose newest position at their end is younger than the target', async () => {
  const res = await get('/v1/routes/freshness-sla?hours=6&bucket_minutes=60&target_seconds=900');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.equal(d.window.buckets, 6);
  assert.deepEqual(
    d.buckets.map((b: any) => [b.positions, b.age_seconds, b.met]),
    [
      [1, 600, true], // B at −5h10m, 10 min before the bucket end
      [0, 4200, false],
      [0, 7800, false],
      [1, 300, true], // A at −2h05m
      [1, 300, true], // D at −65 min
      [1, 1800, false], // A at −30 min, 30 min old now
    ],
  );
  assert.deepEqual([d.met_buckets, d.share, d.positions_in_window], [3, 0.5, 4]);
  for (const bad of ['bucket_minutes=4', 'target_seconds=59', 'hours=169']) {
    const r = await get(`/v1/routes/freshness-sla?${bad}`);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.errors[0].code, 'invalid_request');
  }
});

test('coverage, coverage-history and coverage-gaps over the network cells', async () => {
  const lanes = networkCells(shippedSeaNetwork().engine.graph);
  const cellsIn24h = new Set([POINTS.a1, POINTS.a2, POINTS.b, POINTS.d].map(([lat, lon]) => cellOfPoint(lat, lon)));
  const covered = [...cellsIn24h].filter((k) => lanes.has(k));
  assert.equal(cellsIn24h.size, 3);
  // the North Sea and the Singapore Strait are on the network
  assert.ok(lanes.has(cellOfPoint(...POINTS.a2)) && lanes.has(cellOfPoint(...POINTS.b)));

  const cov = (await get('/v1/routes/coverage?hours=24')).body.data;
  assert.equal(cov.cell_deg, 1);
  assert.equal(cov.network.cells, lanes.size);
  assert.deepEqual([cov.observed_cells, cov.covered_cells], [3, covered.length]);
  assert.equal(cov.share, Math.round((covered.length / lanes.size) * 10_000) / 10_000);
  const onLanes = [POINTS.a1, POINTS.a2, POINTS.b, POINTS.d].filter(([lat, lon]) => lanes.has(cellOfPoint(lat, lon))).length;
  assert.deepEqual(cov.positions, { in_window: 4, in_network_cells: onLanes, simulated: 0 });

  const hist = await get('/v1/routes/coverage-history?days=3');
  const h = hist.body.data;
  assert.deepEqual(
    h.days.map((x: any) => [x.day, x.positions, x.observed_cells]),
    [
      ['2026-11-19', 1, 1],
      ['2026-11-20', 4, 3],
      ['2026-11-21', 0, 0],
    ],
  );
  assert.equal(h.days[0].covered_cells, lanes.has(cellOfPoint(...POINTS.c)) ? 1 : 0);
  assert.equal(h.days[1].covered_cells, covered.length);
  assert.equal(h.days[2].share, null);
  assert.deepEqual(hist.body.quality_flags, ['days_without_positions']);

  const gaps = (await get('/v1/routes/coverage-gaps?hours=24&limit=5')).body.data;
  const missing = new Set([...lanes].filter((k) => !cellsIn24h.has(k)));
  const groups = contiguousGroups(missing);
  assert.deepEqual([gaps.unobserved_cells, gaps.gap_count, gaps.gaps.length], [missing.size, groups.length, Math.min(5, groups.length)]);
  const sizes = groups.map((g) => g.length).sort((a, b) => b - a);
  assert.deepEqual(
    gaps.gaps.map((g: any) => g.cells),
    sizes.slice(0, 5),
  );
  assert.ok(gaps.gaps.every((g: any) => typeof g.nearest_chokepoint.name === 'string' && g.nearest_port !== null));
  const big = (await get('/v1/routes/coverage-gaps?hours=24&min_cells=1000')).body.data;
  assert.deepEqual(
    big.gaps.map((g: any) => g.cells),
    sizes.filter((n) => n >= 1000).slice(0, 20),
  );

  for (const bad of ['/v1/routes/coverage?hours=0', '/v1/routes/coverage-history?days=31', '/v1/routes/coverage-gaps?limit=101', '/v1/routes/coverage-gaps?min_cells=0']) {
    const r = await get(bad);
    assert.equal(r.status, 400, bad);
    assert.equal(r.body.errors[0].code, 'invalid_request');
  }
});

test('data views with nothing in the window say so', async () => {
  app.clock.advance(100 * HOUR);
  const f = await get('/v1/routes/data-freshness?hours=1');
  assert.deepEqual([f.body.data.positions_in_window, f.body.data.ingest_lag.p50_seconds, f.body.data.sources.length], [0, null, 0]);
  assert.deepEqual(f.body.quality_flags, ['no_positions_in_window']);
  const c = await get('/v1/routes/data-completeness?hours=1');
  assert.equal(c.body.data.vessels.fields.name.share, null);
  assert.deepEqual(c.body.quality_flags, ['no_vessels_in_window', 'no_positions_in_window']);
  const s = await get('/v1/routes/freshness-sla?hours=2');
  assert.equal(s.body.data.met_buckets, 0);
  assert.equal(s.body.data.share, 0, 'positions are stored, all too old');
  const cov = await get('/v1/routes/coverage?hours=1');
  assert.deepEqual([cov.body.data.covered_cells, cov.body.data.share], [0, 0]);
  assert.deepEqual(cov.body.quality_flags, ['no_positions_in_window']);
});

test('simulated (demo) positions are counted and flagged simulated_source', async () => {
  const now = app.clock.now();
  await ingest(app.bosun.ctx.services.fleet, position(211000009, now - MINUTE, 51.9, 3.55, { simulated: true, source: 'sim:demo' }));
  const f = await get('/v1/routes/data-freshness?hours=1');
  assert.deepEqual([f.body.data.positions_in_window, f.body.data.simulated_positions, f.body.data.newest.simulated], [1, 1, true]);
  assert.ok(f.body.quality_flags.includes('simulated_source'));
  const cov = await get('/v1/routes/coverage?hours=1');
  assert.deepEqual([cov.body.data.covered_cells, cov.body.data.positions.simulated, cov.body.quality_flags], [1, 1, ['simulated_source']]);
  for (const path of ['/v1/routes/data-completeness?hours=1', '/v1/routes/coverage-history?days=1', '/v1/routes/coverage-gaps?hours=1&limit=1']) {
    assert.ok((await get(path)).body.quality_flags.includes('simulated_source'), path);
  }
  // a position observed exactly now (the window end) belongs to the last bucket, with the one a minute before
  await ingest(app.bosun.ctx.services.fleet, position(211000010, now, 1.25, 103.85));
  const sla = (await get('/v1/routes/freshness-sla?hours=1&bucket_minutes=30&target_seconds=60')).body.data;
  assert.deepEqual(
    sla.buckets.map((b: any) => [b.positions, b.age_seconds, b.met]),
    [
      [0, (100 * HOUR) / SECOND, false], // A at NOW − 30 min, seen from the bucket end now − 30 min
      [2, 0, true],
    ],
  );
});
