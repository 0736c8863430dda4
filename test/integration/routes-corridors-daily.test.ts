import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import { corridorRoutes } from '../../src/features/routes/corridors/routes.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { seedCoverage } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { transitRow } from '../helpers/event-rows.js';

const NOW = TEST_EPOCH;
const DAY = 24 * HOUR;

let app: TestApp;
let liveKey: string;
let vessel = 1;

function transit(zone: string, direction: string, exited: number, speedKn: number, hours: number, stoppedH = 0, simulated = 0) {
  return transitRow({
    vsl_id: `vsl_d${vessel++}`,
    zone,
    direction,
    entered_at: exited - hours * HOUR,
    exited_at: exited,
    mean_speed_kn: speedKn,
    stopped_ms: stoppedH * HOUR,
    simulated,
    updated_at: NOW,
  });
}

/** Dover's ten days, oldest first: transits a day and their speed; on the last day 4 of 16 vessels stopped their whole 2 h. */
const DOVER_COUNTS = [1, 4, 6, 4, 1, 6, 4, 4, 6, 16];
const DOVER_SPEEDS = [12, 11, 13, 12, 11, 13, 12, 12, 13, 6];

before(async () => {
  app = await startTestApp({ now: NOW });
  // stored positions from 20 days back
  await seedCoverage(app.bosun.ctx.services, 244000912, NOW - 20 * DAY, NOW);
  const rows = [];
  for (let i = 0; i < 10; i++) {
    const dayEnd = NOW - (9 - i) * DAY;
    for (let j = 0; j < DOVER_COUNTS[i]!; j++) {
      rows.push(transit('dover', j % 2 ? 'southwestbound' : 'northeastbound', dayEnd - (j + 1) * HOUR, DOVER_SPEEDS[i]!, 2, i === 9 && j < 4 ? 2 : 0));
    }
    // Øresund: two a day, one each way, 10 kn, an hour in the gate
    rows.push(transit('oresund', 'northbound', dayEnd - 2 * HOUR, 10, 1), transit('oresund', 'southbound', dayEnd - 5 * HOUR, 10, 1));
  }
  rows.push(transit('lombok', 'northbound', NOW - 2 * HOUR, 8, 3, 0, 1));
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertTransits(rows);
  liveKey = (await app.registerAgent('corridors-daily', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string) => app.api('GET', path, { token: liveKey });

test('corridor-pressure-trend: daily pressure = transits × (1 + stopped share) and its least-squares slope', async () => {
  const res = await get('/v1/routes/corridor-pressure-trend?corridor=dover&days=10');
  assert.equal(res.status, 200);
  const data = res.body.data;
  assert.deepEqual(data.window, { from: new Date(NOW - 10 * DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.deepEqual([data.days, data.days_covered], [10, 10]);
  const dover = data.items[0];
  assert.deepEqual(
    dover.series.map((d: { pressure: number }) => d.pressure),
    [1, 4, 6, 4, 1, 6, 4, 4, 6, 20],
  );
  assert.deepEqual(dover.series[9], { from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString(), transits: 16, mean_speed_kn: 6, stopped_share: 0.25, pressure: 20 });
  // Σ(x − 4.5)·y = 90 over Σ(x − 4.5)² = 82.5; mean 5.6
  assert.deepEqual([dover.transits, dover.mean_pressure, dover.slope_per_day, dover.slope_pct_per_day, dover.direction], [52, 5.6, 1.0909, 19.5, 'rising']);
  const flat = (await get('/v1/routes/corridor-pressure-trend?corridor=oresund&days=10')).body.data.items[0];
  assert.deepEqual([flat.mean_pressure, flat.slope_per_day, flat.slope_pct_per_day, flat.direction], [2, 0, 0, 'steady']);
  assert.deepEqual(res.body.quality_flags, []);
});

test('corridor-pressure-trend without transits: zero days, no slope, said so; days before the stored positions are left out', async () => {
  const res = await get('/v1/routes/corridor-pressure-trend?corridor=panama&days=10');
  const panama = res.body.data.items[0];
  assert.equal(panama.series.length, 10);
  assert.deepEqual([panama.transits, panama.mean_pressure, panama.slope_per_day, panama.direction], [0, null, null, null]);
  assert.deepEqual(res.body.quality_flags, ['no_transits_in_window']);
  const long = await get('/v1/routes/corridor-pressure-trend?corridor=dover&days=60');
  assert.deepEqual([long.body.data.days, long.body.data.days_covered, long.body.data.items[0].series.length], [60, 20, 20]);
  assert.equal(long.body.data.items[0].series[0].from, new Date(NOW - 20 * DAY).toISOString());
  const all = await get('/v1/routes/corridor-pressure-trend?days=7');
  assert.equal(all.body.data.items.length, 12);
  assert.deepEqual(all.body.quality_flags, ['simulated_source'], 'the Lombok transit is simulated');
});

test('corridor-anomaly-score: robust z of the latest day against the days before, per metric and combined', async () => {
  const res = await get('/v1/routes/corridor-anomaly-score?corridor=dover&days=10');
  const dover = res.body.data.items[0];
  assert.equal(dover.history_days, 9);
  assert.equal(dover.latest.transits, 16);
  // transits: median 4, MAD 2 of [1,4,6,4,1,6,4,4,6] → (16 − 4) / (1.4826 · 2)
  assert.deepEqual(dover.metrics.transits, { value: 16, median: 4, mad: 2, scale: 2.9652, z: 4.05, history: 9, anomalous: true, note: null });
  // speed: median 12, MAD 1 → (6 − 12) / 1.4826
  assert.deepEqual([dover.metrics.mean_speed_kn.z, dover.metrics.mean_speed_kn.median, dover.metrics.mean_speed_kn.mad], [-4.05, 12, 1]);
  // stopped share: never stopped before, 0.25 now: no finite score, anomalous
  assert.deepEqual([dover.metrics.stopped_share.value, dover.metrics.stopped_share.z, dover.metrics.stopped_share.anomalous], [0.25, null, true]);
  assert.match(dover.metrics.stopped_share.note, /constant/);
  assert.deepEqual(dover.combined, { score: 4.05, metrics_scored: 2, anomalous: true, anomalous_metrics: ['transits', 'mean_speed_kn', 'stopped_share'] });
  const oresund = (await get('/v1/routes/corridor-anomaly-score?corridor=oresund&days=10')).body.data.items[0];
  assert.deepEqual([oresund.metrics.transits.z, oresund.metrics.mean_speed_kn.z, oresund.metrics.stopped_share.z], [0, 0, 0]);
  assert.deepEqual(oresund.combined, { score: 0, metrics_scored: 3, anomalous: false, anomalous_metrics: [] });
  const panama = await get('/v1/routes/corridor-anomaly-score?corridor=panama&days=10');
  assert.deepEqual(
    [panama.body.data.items[0].metrics.transits.z, panama.body.data.items[0].metrics.transits.note, panama.body.data.items[0].combined.score],
    [null, 'no transits in the period', null],
  );
  assert.deepEqual(panama.body.quality_flags, ['no_transits_in_window']);
});

test('corridor-stability: coefficient of variation, direction balance and anomalous days', async () => {
  const dover = (await get('/v1/routes/corridor-stability?corridor=dover&days=10')).body.data.items[0];
  // mean 5.2, population variance 159.6 / 10; the 16-transit day is the one anomalous day
  assert.deepEqual(dover, {
    corridor: { key: 'dover', name: 'Dover Strait', passage: 'dover', directions: ['northeastbound', 'southwestbound'] },
    transits: 52,
    days: 10,
    mean_daily_transits: 5.2,
    sd_daily_transits: 3.995,
    cv: 0.768,
    class: 'volatile',
    by_direction: [
      { direction: 'northeastbound', transits: 27 },
      { direction: 'southwestbound', transits: 25 },
    ],
    direction_balance: 0.962,
    anomalous_days: 1,
    anomalous_day_share: 0.1,
  });
  const oresund = (await get('/v1/routes/corridor-stability?corridor=oresund&days=10')).body.data.items[0];
  assert.deepEqual([oresund.cv, oresund.class, oresund.direction_balance, oresund.anomalous_day_share], [0, 'stable', 1, 0]);
  const panama = (await get('/v1/routes/corridor-stability?corridor=panama&days=10')).body.data.items[0];
  assert.deepEqual([panama.cv, panama.class, panama.direction_balance, panama.anomalous_day_share], [null, null, null, null]);
});

test('corridor-regimes: each day classified against the period medians, consecutive days joined', async () => {
  const dover = (await get('/v1/routes/corridor-regimes?corridor=dover&days=10')).body.data.items[0];
  assert.deepEqual(dover.reference, { median_daily_transits: 4, median_daily_speed_kn: 12 });
  assert.deepEqual(
    dover.segments.map((s: { regime: string; days: number; transits: number }) => [s.regime, s.days, s.transits]),
    [
      ['quiet', 1, 1],
      ['normal', 1, 4],
      ['busy', 1, 6],
      ['normal', 1, 4],
      ['quiet', 1, 1],
      ['busy', 1, 6],
      ['normal', 2, 8],
      ['busy', 1, 6],
      ['disrupted', 1, 16],
    ],
  );
  assert.deepEqual(dover.segments[6], {
    regime: 'normal',
    from: new Date(NOW - 4 * DAY).toISOString(),
    to: new Date(NOW - 2 * DAY).toISOString(),
    days: 2,
    transits: 8,
    mean_daily_transits: 4,
    mean_speed_kn: 12,
    stopped_share: 0,
  });
  assert.deepEqual([dover.segments[8].mean_speed_kn, dover.segments[8].stopped_share], [6, 0.25]);
  assert.equal(dover.current_regime, 'disrupted');
  const oresund = (await get('/v1/routes/corridor-regimes?corridor=oresund&days=10')).body.data.items[0];
  assert.deepEqual(
    oresund.segments.map((s: { regime: string; days: number; mean_daily_transits: number }) => [s.regime, s.days, s.mean_daily_transits]),
    [['normal', 10, 2]],
  );
  const panama = (await get('/v1/routes/corridor-regimes?corridor=panama&days=10')).body.data.items[0];
  assert.deepEqual([panama.segments, panama.current_regime, panama.reference], [[], null, null]);
});

test('corridor daily operations for a caller without live data end at the preview horizon', async () => {
  const res = await app.api('GET', '/v1/routes/corridor-stability?corridor=oresund&days=7', { token: (await app.registerAgent('corridors-daily-plain')).apiKey });
  const to = NOW - DELAY_SECONDS * 1000;
  assert.deepEqual(res.body.data.window, { from: new Date(to - 7 * DAY).toISOString(), to: new Date(to).toISOString() });
  // seven days back from 14 h ago: the two transits of each of the seven days before the last one
  assert.equal(res.body.data.items[0].transits, 14);
  assert.ok(res.body.quality_flags.includes('delayed_position'));
});

test('corridor daily operations: errors', async () => {
  for (const path of ['corridor-pressure-trend', 'corridor-anomaly-score', 'corridor-stability', 'corridor-regimes']) {
    const unknown = await get(`/v1/routes/${path}?corridor=atlantis`);
    assert.deepEqual([unknown.status, unknown.body.errors[0].code, unknown.body.errors[0].field], [400, 'unknown_zone', 'query.corridor'], path);
    for (const days of ['6', '61', 'ten']) {
      const bad = await get(`/v1/routes/${path}?days=${days}`);
      assert.deepEqual([bad.status, bad.body.errors[0].code], [400, 'invalid_request'], `${path} days=${days}`);
    }
    // the shared window name (decision 119): range=7D is days=7, and a range outside the days bounds is refused naming range
    const [byRange, byDays] = [await get(`/v1/routes/${path}?range=7D`), await get(`/v1/routes/${path}?days=7`)];
    assert.equal(byRange.status, 200, byRange.text);
    assert.deepEqual(byRange.body.data.window, byDays.body.data.window);
    assert.deepEqual([(await get(`/v1/routes/${path}?range=6D`)).body.errors[0].field, (await get(`/v1/routes/${path}?range=6D`)).body.errors[0].code], ['query.range', 'invalid_range']);
  }
});

test('corridor daily operations: the published examples answer 200', async () => {
  for (const route of corridorRoutes.slice(4)) {
    for (const example of route.examples) {
      const qs = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
      const path = route.operationId
        .replace(/^getRoutes/, '')
        .replace(/([a-z])([A-Z])/g, '$1-$2')
        .toLowerCase();
      assert.equal((await get(`/v1/routes/${path}?${qs}`)).status, 200, `${route.operationId} ${example.summary}`);
    }
  }
});
