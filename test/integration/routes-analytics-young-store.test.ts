import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { seedDemoDays } from '../helpers/fleet.js';

/**
 * The route analytics on a young store (issue 28, decision 133): 7 days of a 60-vessel demo fleet, read
 * through windows longer than the store. Days and weeks before the store's first data are missing, never
 * zero traffic: no anomaly, no "rising" lane, no seasonal verdict and no stability label stands on them,
 * and every answer states where its data begins.
 */
const NOW = TEST_EPOCH;
const FROM = NOW - 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();
let app: TestApp;
let key: string;

before(async () => {
  app = await startTestApp({ now: NOW });
  await seedDemoDays(app.bosun.ctx.services, app.clock, { seed: 29, vessels: 60, days: 7, until: NOW });
  key = (await app.registerAgent('young-store', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

const get = async (path: string) => {
  const res = await app.api('GET', path, { token: key });
  assert.equal(res.status, 200, res.text);
  return res.body;
};

test('anomaly-days over 30 days of a 7-day store: only the 7 days with data, in the list and in the baseline', async () => {
  const d = (await get('/v1/routes/anomaly-days')).data;
  assert.deepEqual(d.window, { since: iso(NOW - 30 * DAY), until: iso(NOW), days: 30, coverage_start: iso(FROM), days_with_data: 7 });
  assert.deepEqual(
    d.days.map((x: { day: string }) => x.day),
    Array.from({ length: 7 }, (_, i) => iso(FROM + i * DAY).slice(0, 10)),
  );
  assert.ok(
    d.days.every((x: { departures: number }) => x.departures > 0),
    'the demo fleet departs every day',
  );
  assert.deepEqual(
    d.anomalies.filter((a: { direction: string }) => a.direction === 'high'),
    [],
    'steady daily traffic is no anomaly once the empty days are left out',
  );
});

test('lane-trends over 8 weeks: the previous period and the empty weeks are unknown, so no lane is "rising"', async () => {
  const d = (await get('/v1/routes/lane-trends?weeks=8&limit=50')).data;
  assert.deepEqual([d.window.coverage_start, d.window.days_with_data], [iso(FROM), 7]);
  assert.deepEqual([d.previous_window.voyages, d.previous_window.coverage_start, d.previous_window.days_with_data], [null, null, 0]);
  assert.ok(d.items.length > 5, `${d.items.length} lanes`);
  for (const item of d.items) {
    assert.deepEqual([item.previous_voyages, item.change_pct, item.slope_per_week, item.direction], [null, null, null, 'unknown']);
    assert.deepEqual(item.weekly, [null, null, null, null, null, null, null, item.voyages]);
  }
});

test('weekly-trend over 8 weeks: the weeks before the data are null, so neither the whole nor a ship type is "rising"', async () => {
  const d = (await get('/v1/routes/weekly-trend?weeks=8')).data;
  assert.deepEqual([d.window.coverage_start, d.window.days_with_data], [iso(FROM), 7]);
  assert.ok(d.overall.voyages > 0 && d.by_ship_type.length > 0, `${d.overall.voyages} voyages`);
  for (const trend of [d.overall, ...d.by_ship_type]) {
    assert.deepEqual(trend.weekly, [null, null, null, null, null, null, null, trend.voyages]);
    assert.deepEqual([trend.last_week_change_pct, trend.slope_per_week, trend.direction], [null, null, 'unknown']);
  }
});

test('seasonality over 366 days of a 7-day store: no month, weekday or hour verdict', async () => {
  const body = await get('/v1/routes/seasonality?days=366');
  assert.deepEqual([body.data.window.days_with_data, body.data.weekday_occurrences], [7, 1]);
  assert.deepEqual(body.data.enough_history, { weekday: false, hour: false, month: false });
  assert.ok(body.quality_flags.includes('window_too_short_for_month'));
});

test('stability-forecast on one week of history: too short, so no forecast and no stability label', async () => {
  const body = await get('/v1/routes/stability-forecast');
  assert.deepEqual([body.data.weeks_with_data, body.data.forecast, body.data.stability], [1, null, null]);
  assert.ok(body.quality_flags.includes('history_too_short'));
});

test('the same 7 days count the same chokepoint transits in corridors, corridor-pressure-trend and readiness', async () => {
  const corridors = (await get('/v1/routes/corridors?range=7D')).data;
  const pressure = (await get('/v1/routes/corridor-pressure-trend?days=7')).data;
  const readiness = (await get('/v1/routes/readiness?days=7')).data;
  assert.deepEqual(corridors.window, { from: iso(FROM), to: iso(NOW) });
  assert.deepEqual([pressure.window, pressure.days_covered], [{ from: iso(FROM), to: iso(NOW) }, 7], 'the day the store began counts');
  const byCorridor = new Map<string, number>(corridors.items.map((i: { corridor: { key: string }; current: { transits: number } }) => [i.corridor.key, i.current.transits]));
  const total = [...byCorridor.values()].reduce((a, b) => a + b, 0);
  assert.ok(total > 10, `${total} transits`);
  assert.deepEqual(new Map(pressure.items.map((i: { corridor: { key: string }; transits: number }) => [i.corridor.key, i.transits])), byCorridor);
  const eventLayer = readiness.checks.find((c: { name: string }) => c.name === 'event_layer');
  assert.match(eventLayer.detail, new RegExp(` and ${total} chokepoint transits ended in the last 7 days \\(${iso(FROM)} to ${iso(NOW)}`));
});

test('lanes: no lane between terminals of one harbour and no voyage faster than 60 kn; what is left out is counted', async () => {
  const d = (await get('/v1/routes/top-lanes?days=7&limit=50')).data;
  assert.ok(d.sample.left_out.same_harbour + d.sample.left_out.implausible_speed > 0, JSON.stringify(d.sample));
  const nm = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
    const rad = Math.PI / 180;
    const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
    return (2 * 6_371_008.8 * Math.asin(Math.sqrt(h))) / 1852;
  };
  for (const lane of d.items) {
    const gc = nm(lane.from, lane.to);
    assert.ok(gc >= 5, `${lane.from.name} → ${lane.to.name}: ${gc} nm`);
    const details = (await get(`/v1/routes/lane-details?from=${lane.from.port_id}&to=${lane.to.port_id}&days=7&limit=100`)).data;
    for (const v of details.voyages) assert.ok(gc / (v.hours + 0.05) <= 60, `${lane.from.name} → ${lane.to.name}: ${gc} nm in ${v.hours} h`);
  }
});

test('advisory at its default range on a 7-day store: the range shortens to leave a baseline, so every stress index is measured', async () => {
  const body = await get('/v1/routes/advisory?from=NLRTM&to=SGSIN');
  assert.ok(body.quality_flags.includes('range_shortened_to_store'), JSON.stringify(body.quality_flags));
  assert.deepEqual(body.data.window, { from: iso(NOW - 3 * DAY), to: iso(NOW) });
  const chokepoints = body.data.conditions.chokepoints;
  assert.deepEqual(
    chokepoints.map((c: { zone: string }) => c.zone),
    ['dover', 'gibraltar', 'suez', 'bab_el_mandeb', 'malacca'],
  );
  for (const c of chokepoints) {
    assert.equal(typeof c.stress_index, 'number', `${c.zone}: ${JSON.stringify(c.unavailable)}`);
    assert.ok(
      c.unavailable.every((u: { note: string }) => !/not measured yet/.test(u.note)),
      JSON.stringify(c.unavailable),
    );
  }
  assert.ok(!body.quality_flags.some((f: string) => f.startsWith('stress_unavailable:')));
  // a range the caller gives is kept
  const asked = await get('/v1/routes/advisory?from=NLRTM&to=SGSIN&range=7D');
  assert.deepEqual([asked.data.window.from, asked.quality_flags.includes('range_shortened_to_store')], [iso(FROM), false]);
});
