import assert from 'node:assert/strict';
import { LANE_GEOJSON_ATTRIBUTION } from '../../src/features/routes/lanes/attribution.js';
import { rfc7946Issues } from '../helpers/geojson.js';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow } from '../helpers/event-rows.js';

/**
 * Voyages and lanes analytics (docs/lanes.md) over port calls seeded directly, so that every count,
 * median, z-score and forecast below is known. NOW is a midnight; the 28-day window [NOW − 28 d, NOW)
 * has four weeks w0..w3. A = Rotterdam, B = Hamburg, C = Antwerp.
 *
 * - A→B (cargo, 70): 1, 2, 3, 4 voyages in w0..w3, one vessel each, 10 + 2i hours (i in departure order), 06:00 UTC departures
 * - A→C (tanker, 80): 3 voyages in w3 at 18:00, 8 h each
 * - C→B (no ship type, simulated): 1 voyage in w2 at 06:00, 5 h
 * - aa0: leaves A and comes back to A (no voyage); spike: 6 calls at C ending on day 10 with no next call (no voyage)
 * - old: A→B departing NOW − 30 d (before the window); B→A: one voyage a week in the four weeks before the window
 */
const NOW = TEST_EPOCH;
const SINCE = NOW - 28 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

let app: TestApp;
let liveKey: string;
let plainKey: string;
let A: number;
let B: number;
let C: number;

function call(vslId: string, portId: number, arrival: number, departure: number | null, shipType: number | null, simulated = 0) {
  return portCallRow({ vsl_id: vslId, port_id: portId, ship_type: shipType, arrival, departure, simulated, updated_at: NOW });
}
/** A voyage: a call at `from` ending at `departure` (10 h long), then an open call at `to` from `departure + hours`. */
function voyage(vslId: string, from: number, to: number, departure: number, hours: number, shipType: number | null, simulated = 0) {
  return [call(vslId, from, departure - 10 * HOUR, departure, shipType, simulated), call(vslId, to, departure + hours * HOUR, null, shipType, simulated)];
}
const at = (week: number, day: number, hour: number) => SINCE + week * 7 * DAY + (day + 1) * DAY + hour * HOUR;

before(async () => {
  app = await startTestApp({ now: NOW });
  const routes = app.bosun.ctx.services.routes;
  [A, B, C] = ['NLRTM', 'DEHAM', 'BEANR'].map((l) => routes.resolvePlace(l, 'x').port!.port_id) as [number, number, number];
  const rows = [];
  let i = 0;
  for (let week = 0; week < 4; week++)
    for (let j = 0; j <= week; j++) {
      rows.push(...voyage(`ab${i}`, A, B, at(week, j, 6), 10 + 2 * i, 70));
      i++;
    }
  for (let j = 0; j < 3; j++) rows.push(...voyage(`ac${j}`, A, C, at(3, j, 18), 8, 80));
  rows.push(...voyage('cb0', C, B, at(2, 4, 6), 5, null, 1));
  rows.push(call('aa0', A, SINCE + 2 * DAY, SINCE + 2 * DAY + 5 * HOUR, 70), call('aa0', A, SINCE + 3 * DAY, null, 70));
  for (let k = 0; k < 6; k++) rows.push(call(`spike${k}`, C, SINCE + 10 * DAY - 5 * HOUR, SINCE + 10 * DAY + 3 * HOUR, 70));
  rows.push(...voyage('old', A, B, NOW - 30 * DAY, 24, 70));
  for (let w = 0; w < 4; w++) rows.push(...voyage(`ba${w}`, B, A, NOW - (56 - 7 * w) * DAY + DAY + 6 * HOUR, 20, 70));
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls(rows);
  liveKey = (await app.registerAgent('lanes-live', ['vessels:live'])).apiKey;
  plainKey = (await app.registerAgent('lanes-plain')).apiKey;
});

after(async () => {
  await app?.close();
});

const get = (path: string, token = liveKey) => app.api('GET', path, { token });
const lane = (x: { from: { port_id: number }; to: { port_id: number } }) => [x.from.port_id, x.to.port_id];
const seaNm = async (from: number, to: number) => (await get(`/v1/routes/direct?from=${from}&to=${to}`)).body.data.distance_nm as number;

test('top-lanes: voyages, vessels, median hours and the engine distance per lane; port and ship_type filters', async () => {
  const res = await get('/v1/routes/top-lanes?days=28');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.window, { since: iso(SINCE), until: iso(NOW), days: 28, coverage_start: iso(SINCE), days_with_data: 28 });
  // 14 voyages; calls that began or ended in the window: 14 voyages × 2, aa0's 2, the 6 spike calls
  assert.deepEqual(d.sample, { port_calls: 36, voyages: 14, vessels: 14, left_out: { same_harbour: 0, implausible_speed: 0 } });
  assert.equal(d.lanes_total, 3);
  assert.deepEqual(d.items.map(lane), [
    [A, B],
    [A, C],
    [C, B],
  ]);
  const [ab, ac, cb] = d.items;
  assert.deepEqual([ab.voyages, ab.vessels, ab.median_voyage_hours, ab.simulated_voyages], [10, 10, 19, 0]);
  assert.deepEqual([ac.voyages, ac.vessels, ac.median_voyage_hours], [3, 3, 8]);
  assert.deepEqual([cb.voyages, cb.median_voyage_hours, cb.simulated_voyages], [1, 5, 1]);
  assert.equal(ab.sea_distance_nm, await seaNm(A, B));
  assert.ok(ab.sea_distance_nm > 250 && ab.sea_distance_nm < 450);
  // C→B is a demo voyage; the detectors never ran in this store
  assert.deepEqual(res.body.quality_flags, ['events_not_analysed', 'simulated_source']);

  const tankers = (await get('/v1/routes/top-lanes?days=28&ship_type=tanker')).body.data;
  assert.deepEqual([tankers.items.map(lane), tankers.sample.voyages], [[[A, C]], 3]);
  const atC = (await get('/v1/routes/top-lanes?days=28&port=BEANR&limit=1')).body.data;
  assert.deepEqual([atC.lanes_total, atC.items.map(lane), atC.port.port_id], [2, [[A, C]], C]);
  // the previous 28 days: the four B→A voyages and the old A→B one
  const before = (await get(`/v1/routes/top-lanes?days=28&until=${iso(SINCE)}`)).body.data;
  assert.deepEqual(
    before.items.map((x: { voyages: number }) => [...lane(x as never), x.voyages]),
    [
      [B, A, 4],
      [A, B, 1],
    ],
  );
});

test('lane-details: transit statistics, mix, weekly counts, route and pages of voyages', async () => {
  const res = await get('/v1/routes/lane-details?from=NLRTM&to=DEHAM&days=28&limit=4');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.equal(d.voyages_count, 10);
  assert.equal(d.vessels, 10);
  assert.deepEqual(d.transit_hours, { min: 10, median: 19, mean: 19, p90: 26, max: 28 });
  assert.deepEqual(d.ship_types, [{ ship_type: 'cargo', voyages: 10, share: 1 }]);
  assert.deepEqual(
    d.weekly.map((w: { voyages: number }) => w.voyages),
    [1, 2, 3, 4],
  );
  assert.equal(d.weekly[0].week_start, iso(SINCE));
  const nm = await seaNm(A, B);
  assert.equal(d.route.distance_nm, nm);
  assert.equal(d.route.implied_speed_kn, Math.round((nm / 19) * 10) / 10);
  assert.deepEqual(
    d.voyages.map((v: { vsl_id: string; hours: number }) => [v.vsl_id, v.hours]),
    [
      ['ab0', 10],
      ['ab1', 12],
      ['ab2', 14],
      ['ab3', 16],
    ],
  );
  assert.deepEqual(d.voyages[0], { vsl_id: 'ab0', departure: iso(at(0, 0, 6)), arrival: iso(at(0, 0, 6) + 10 * HOUR), hours: 10, ship_type: 'cargo', simulated: false });
  assert.equal(d.next_offset, 4);
  const last = (await get('/v1/routes/lane-details?from=NLRTM&to=DEHAM&days=28&limit=4&offset=8')).body.data;
  assert.deepEqual([last.voyages.map((v: { vsl_id: string }) => v.vsl_id), last.next_offset], [['ab8', 'ab9'], null]);

  const none = await get(`/v1/routes/lane-details?from=${B}&to=${C}&days=28`);
  assert.deepEqual([none.body.data.voyages_count, none.body.data.transit_hours.median], [0, null]);
  assert.ok(none.body.quality_flags.includes('no_voyages_in_window'));
});

test('lane-details over a window that is not whole weeks (the default 30 days): weekly periods end at until, the oldest one shorter', async () => {
  const res = await get('/v1/routes/lane-details?from=NLRTM&to=DEHAM');
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.window, { since: iso(NOW - 30 * DAY), until: iso(NOW), days: 30, coverage_start: iso(NOW - 30 * DAY), days_with_data: 30 });
  assert.deepEqual(
    d.weekly.map((w: { week_start: string; week_end: string; voyages: number }) => [w.week_start, w.week_end, w.voyages]),
    [
      [iso(NOW - 30 * DAY), iso(SINCE), 1],
      [iso(SINCE), iso(SINCE + 7 * DAY), 1],
      [iso(SINCE + 7 * DAY), iso(SINCE + 14 * DAY), 2],
      [iso(SINCE + 14 * DAY), iso(SINCE + 21 * DAY), 3],
      [iso(SINCE + 21 * DAY), iso(NOW), 4],
    ],
  );
  assert.equal(d.voyages_count, 11, 'the ten of the last 28 days and one in the two days before');
});

test('lane-trends: weekly counts, slope and change against the previous period', async () => {
  const d = (await get('/v1/routes/lane-trends?weeks=2')).body.data;
  assert.deepEqual(d.window, { since: iso(NOW - 14 * DAY), until: iso(NOW), days: 14, coverage_start: iso(NOW - 14 * DAY), days_with_data: 14 });
  assert.deepEqual(d.previous_window, { since: iso(SINCE), until: iso(NOW - 14 * DAY), voyages: 3, coverage_start: iso(SINCE), days_with_data: 14 });
  const rows = d.items.map((x: { voyages: number; previous_voyages: number; change_pct: number | null; slope_per_week: number; direction: string; weekly: number[] }) => [
    ...lane(x as never),
    x.voyages,
    x.previous_voyages,
    x.change_pct,
    x.slope_per_week,
    x.direction,
    x.weekly,
  ]);
  assert.deepEqual(rows, [
    [A, B, 7, 3, 133.3, 1, 'rising', [3, 4]],
    [A, C, 3, 0, null, 3, 'rising', [0, 3]],
    [C, B, 1, 0, null, -1, 'falling', [1, 0]],
  ]);
});

test('lane-volatility: coefficient of variation of weekly and daily counts', async () => {
  const d = (await get('/v1/routes/lane-volatility?days=28&min_voyages=1')).body.data;
  assert.equal(d.buckets, 4);
  assert.deepEqual(d.overall.counts, [1, 2, 4, 7]);
  assert.deepEqual(
    d.items.map((x: { cv: number; mean_per_bucket: number; std_per_bucket: number; counts: number[] }) => [...lane(x as never), x.mean_per_bucket, x.std_per_bucket, x.cv, x.counts]),
    [
      [A, C, 0.75, 1.299, 1.732, [0, 0, 0, 3]],
      [C, B, 0.25, 0.433, 1.732, [0, 0, 1, 0]],
      [A, B, 2.5, 1.118, 0.447, [1, 2, 3, 4]],
    ],
  );
  // default min_voyages 2 leaves out C→B; daily buckets: A→B's 10 voyages on 10 of 28 days
  const daily = (await get('/v1/routes/lane-volatility?days=28&bucket=day')).body.data;
  assert.equal(daily.lanes_total, 2);
  const ab = daily.items.find((x: { from: { port_id: number }; to: { port_id: number } }) => x.to.port_id === B);
  const m = 10 / 28;
  assert.equal(ab.cv, Math.round((Math.sqrt((10 * (1 - m) ** 2 + 18 * m * m) / 28) / m) * 1000) / 1000);
  const bad = await get('/v1/routes/lane-volatility?days=30');
  assert.deepEqual([bad.status, bad.body.errors[0].code, bad.body.errors[0].field], [400, 'invalid_request', 'query.days']);
});

test('top-polylines and lane-heatmap(.geojson): routed lane geometry and the density grid', async () => {
  const p = (await get('/v1/routes/top-polylines?days=28&limit=2')).body.data;
  assert.equal(p.type, 'FeatureCollection');
  assert.deepEqual(
    p.features.map((f: { properties: never }) => lane(f.properties)),
    [
      [A, B],
      [A, C],
    ],
  );
  const direct = (await get(`/v1/routes/direct?from=${A}&to=${B}`)).body.data;
  assert.deepEqual(p.features[0].geometry, direct.geometry);
  assert.deepEqual([p.features[0].properties.voyages, p.features[0].properties.sea_distance_nm, p.unroutable_lanes], [10, direct.distance_nm, 0]);
  assert.deepEqual(rfc7946Issues(p, { perFeature: false }), []);
  assert.deepEqual(p.attribution, [...LANE_GEOJSON_ATTRIBUTION.routed]);
  assert.ok(p.attribution.some((line: string) => line.startsWith('Maritime network: Eurostat marnet')));

  // every lane lies in the 10° cell 0..10°E, 50..60°N
  const h = (await get('/v1/routes/lane-heatmap?days=28&cell_deg=10')).body.data;
  assert.deepEqual([h.lanes_total, h.lanes_mapped, h.voyages_mapped, h.cells_total, h.max_voyages], [3, 3, 14, 1, 14]);
  assert.deepEqual(h.cells, [{ west: 0, south: 50, east: 10, north: 60, voyages: 14, lanes: 3 }]);
  const g = (await get('/v1/routes/lane-heatmap.geojson?days=28&cell_deg=10')).body.data;
  assert.equal(g.type, 'FeatureCollection');
  assert.deepEqual(g.features[0].geometry.coordinates, [
    [
      [0, 50],
      [10, 50],
      [10, 60],
      [0, 60],
      [0, 50],
    ],
  ]);
  assert.equal(g.features[0].properties.voyages, 14);
  assert.deepEqual(rfc7946Issues(g, { perFeature: false }), []);
  const fine = (await get('/v1/routes/lane-heatmap?days=28&cell_deg=0.5&limit=3')).body.data;
  assert.ok(fine.cells_total > 3);
  assert.equal(fine.cells.length, 3);
});

test('hubs, hubs.geojson and network-overview: the lane graph', async () => {
  const d = (await get('/v1/routes/hubs?days=28')).body.data;
  assert.deepEqual(
    d.items.map((h: { port: { port_id: number }; voyages_out: number; voyages_in: number; voyages_total: number; out_degree: number; in_degree: number; partners: number; vessels: number }) => [
      h.port.port_id,
      h.voyages_out,
      h.voyages_in,
      h.voyages_total,
      h.out_degree,
      h.in_degree,
      h.partners,
      h.vessels,
    ]),
    [
      [A, 13, 0, 13, 2, 0, 2, 13],
      [B, 0, 11, 11, 0, 2, 2, 11],
      [C, 1, 3, 4, 1, 1, 2, 4],
    ],
  );
  const g = (await get('/v1/routes/hubs.geojson?days=28&limit=1')).body.data;
  assert.deepEqual([g.type, g.features.length, g.features[0].properties.port.port_id, g.ports_total], ['FeatureCollection', 1, A, 3]);
  assert.deepEqual(g.features[0].geometry.coordinates, [g.features[0].properties.port.lon, g.features[0].properties.port.lat]);
  assert.deepEqual(rfc7946Issues(g, { perFeature: false }), []);
  assert.deepEqual(g.attribution, [...LANE_GEOJSON_ATTRIBUTION.hubs]);

  const n = (await get('/v1/routes/network-overview?days=28')).body.data;
  assert.deepEqual([n.ports, n.lanes, n.voyages, n.vessels, n.connected_components, n.largest_component_ports, n.density, n.median_voyage_hours], [3, 3, 14, 14, 1, 3, 0.5, 15]);
  assert.deepEqual([n.top_hub.port.port_id, n.top_hub.voyages_total, lane(n.top_lane), n.top_lane.voyages], [A, 13, [A, B], 10]);
  // the four weeks before: B→A and the old A→B are one component of two ports
  const before = (await get(`/v1/routes/network-overview?days=28&until=${iso(SINCE)}`)).body.data;
  assert.deepEqual([before.ports, before.lanes, before.voyages, before.connected_components], [2, 2, 5, 1]);
});

test('weekly-summary and weekly-trend: per week, change and slope, per ship type', async () => {
  const s = (await get('/v1/routes/weekly-summary?weeks=4')).body.data;
  assert.deepEqual(
    s.items.map((w: { voyages: number; departures: number; vessels: number; lanes: number; median_voyage_hours: number; voyages_change_pct: number | null }) => [
      w.voyages,
      w.departures,
      w.vessels,
      w.lanes,
      w.median_voyage_hours,
      w.voyages_change_pct,
    ]),
    [
      [1, 2, 1, 1, 10, null],
      [2, 8, 2, 1, 13, 100],
      [4, 4, 4, 2, 17, 100],
      [7, 7, 7, 2, 22, 75],
    ],
  );
  assert.deepEqual(s.items[3].by_ship_type, [
    { ship_type: 'cargo', voyages: 4 },
    { ship_type: 'tanker', voyages: 3 },
  ]);
  assert.deepEqual(s.items[2].by_ship_type, [
    { ship_type: 'cargo', voyages: 3 },
    { ship_type: 'unknown', voyages: 1 },
  ]);

  const t = (await get('/v1/routes/weekly-trend?weeks=4')).body.data;
  assert.deepEqual(t.overall, { voyages: 14, weekly: [1, 2, 4, 7], last_week_change_pct: 75, slope_per_week: 2, direction: 'rising' });
  assert.deepEqual(
    t.by_ship_type.map((x: { ship_type: string; weekly: number[]; slope_per_week: number; direction: string }) => [x.ship_type, x.weekly, x.slope_per_week, x.direction]),
    [
      ['cargo', [1, 2, 3, 4], 1, 'rising'],
      ['tanker', [0, 0, 0, 3], 0.9, 'rising'],
      ['unknown', [0, 0, 1, 0], 0.1, 'rising'],
    ],
  );
});

test('seasonality: by weekday, hour and month with shares; too short a window is flagged', async () => {
  const res = await get('/v1/routes/seasonality?days=28');
  const d = res.body.data;
  // departures on Sunday (day 0 of each week after the Saturday start), Monday, Tuesday, Wednesday, Thursday
  assert.deepEqual(
    d.by_weekday.map((w: { voyages: number }) => w.voyages),
    [4, 3, 1, 1, 0, 0, 5],
  );
  assert.deepEqual(d.by_weekday[6], { weekday: 'sunday', voyages: 5, share: Math.round((5 / 14) * 1000) / 1000 });
  assert.deepEqual(
    d.by_hour.filter((h: { voyages: number }) => h.voyages > 0),
    [
      { hour_utc: 6, voyages: 11, share: 0.786 },
      { hour_utc: 18, voyages: 3, share: 0.214 },
    ],
  );
  assert.deepEqual(d.by_month, [
    { month: '2026-10', voyages: 1, share: 0.071 },
    { month: '2026-11', voyages: 13, share: 0.929 },
  ]);
  assert.deepEqual(d.enough_history, { weekday: true, hour: true, month: false });
  assert.ok(res.body.quality_flags.includes('window_too_short_for_month'));
  const short = await get('/v1/routes/seasonality?days=14&port=NLRTM');
  assert.deepEqual([short.body.data.sample.voyages, short.body.data.enough_history.weekday], [10, false]);
  assert.ok(short.body.quality_flags.includes('window_too_short_for_weekday'));
});

test('anomaly-days: departures per day against the median/MAD baseline', async () => {
  const d = (await get('/v1/routes/anomaly-days?days=28')).body.data;
  assert.equal(d.sample.departures, 21);
  assert.equal(d.days.length, 28);
  // 15 days without departures: median 0 and MAD 0, so the scale is the mean absolute deviation 21/28
  assert.deepEqual(d.baseline, { median: 0, mad: 0, scale: 'mean_absolute_deviation' });
  const z = (x: number) => Math.round((x / (1.253314 * (21 / 28))) * 100) / 100;
  assert.deepEqual(d.anomalies, [{ day: iso(SINCE + 10 * DAY).slice(0, 10), departures: 6, z: z(6), direction: 'high' }]);
  assert.equal(d.days[22].z, z(2));
  const none = await get('/v1/routes/anomaly-days?days=28&ship_type=passenger');
  assert.deepEqual([none.body.data.sample.departures, none.body.data.anomalies, none.body.data.baseline.scale], [0, [], 'none']);
  assert.ok(none.body.quality_flags.includes('no_matching_calls_in_window'));
  // at Antwerp: 6 on day 10 and 1 on day 19 (C→B); threshold 3 also takes day 19
  const c = (await get('/v1/routes/anomaly-days?days=28&port=BEANR&threshold=3')).body.data;
  const zc = (x: number) => Math.round((x / (1.253314 * (7 / 28))) * 100) / 100;
  assert.deepEqual(
    c.anomalies.map((a: { departures: number; z: number }) => [a.departures, a.z]),
    [
      [6, zc(6)],
      [1, zc(1)],
    ],
  );
});

test('port-activity-imbalance: arrivals against departures per port', async () => {
  const d = (await get('/v1/routes/port-activity-imbalance?days=28')).body.data;
  assert.deepEqual(
    d.items.map((x: { port: { port_id: number }; arrivals: number; departures: number; net_flow: number; imbalance_ratio: number; balance: string }) => [
      x.port.port_id,
      x.arrivals,
      x.departures,
      x.net_flow,
      x.imbalance_ratio,
      x.balance,
    ]),
    [
      [B, 11, 0, 11, 1, 'accumulating'],
      [C, 10, 7, 3, 0.176, 'accumulating'],
      [A, 15, 14, 1, 0.034, 'accumulating'],
    ],
  );
  const one = (await get('/v1/routes/port-activity-imbalance?days=28&port=NLRTM')).body.data;
  assert.deepEqual([one.ports_total, one.items[0].port.port_id], [1, A]);
});

test('dest-opportunities: growth between windows against the vessels serving the lane', async () => {
  const d = (await get('/v1/routes/dest-opportunities?from=NLRTM&days=14')).body.data;
  assert.deepEqual(d.window, { since: iso(NOW - 14 * DAY), until: iso(NOW), days: 14, coverage_start: iso(NOW - 14 * DAY), days_with_data: 14 });
  assert.deepEqual(
    d.items.map((x: { to: { port_id: number }; voyages_recent: number; voyages_previous: number; demand_growth_pct: number | null; vessels_recent: number; opportunity_score: number }) => [
      x.to.port_id,
      x.voyages_recent,
      x.voyages_previous,
      x.demand_growth_pct,
      x.vessels_recent,
      x.opportunity_score,
    ]),
    [
      [C, 3, 0, null, 3, 0.75],
      [B, 7, 3, 133.3, 7, 0.5],
    ],
  );
});

test('stability-forecast: mean of the last 4 weeks, backtest, interval; too short a history', async () => {
  const res = await get('/v1/routes/stability-forecast?weeks=8');
  const d = res.body.data;
  const history = [1, 1, 1, 2, 1, 2, 4, 7];
  assert.deepEqual(
    d.history.map((h: { voyages: number }) => h.voyages),
    history,
  );
  assert.equal(d.weeks_with_data, 8);
  const errors = [1 - 1.25, 2 - 1.25, 4 - 1.5, 7 - 2.25];
  const rmse = Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / 4);
  const r = (x: number, p: number) => Math.round(x * 10 ** p) / 10 ** p;
  assert.deepEqual(d.backtest, { points: 4, mae: r(8.25 / 4, 3), rmse: r(rmse, 3) });
  assert.deepEqual(d.forecast, { week_start: iso(NOW), week_end: iso(NOW + 7 * DAY), voyages: 3.5, low: 0, high: r(3.5 + 1.96 * rmse, 2) });
  const m = 19 / 8;
  assert.equal(d.cv, r(Math.sqrt(history.reduce((s, x) => s + (x - m) ** 2, 0) / 8) / m, 3));
  assert.equal(d.stability, 'volatile');

  const laneRes = (await get('/v1/routes/stability-forecast?weeks=6&from=NLRTM&to=DEHAM')).body.data;
  assert.deepEqual(
    laneRes.history.map((h: { voyages: number }) => h.voyages),
    [0, 1, 1, 2, 3, 4],
  );
  assert.equal(laneRes.forecast.voyages, 2.5);

  const short = await get(`/v1/routes/stability-forecast?weeks=6&until=${iso(NOW - 49 * DAY)}`);
  assert.deepEqual([short.body.data.weeks_with_data, short.body.data.forecast, short.body.data.backtest], [1, null, null]);
  assert.ok(short.body.quality_flags.includes('history_too_short'));
});

test('no port calls: empty answers with the quality flag, never invented values', async () => {
  const until = '2026-01-01T00:00:00Z';
  for (const path of ['top-lanes', 'hubs', 'network-overview', 'lane-heatmap', 'weekly-summary', 'anomaly-days', 'port-activity-imbalance']) {
    const res = await get(`/v1/routes/${path}?until=${until}`);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.ok(res.body.quality_flags.includes('no_port_calls_in_window'), path);
    assert.equal(res.body.data.sample.port_calls, 0, path);
  }
  const n = (await get(`/v1/routes/network-overview?until=${until}`)).body.data;
  assert.deepEqual([n.ports, n.voyages, n.median_voyage_hours, n.top_hub, n.density], [0, 0, null, null, null]);
});

test('the window ends at the caller horizon, rounded down to a day', async () => {
  // without vessels:live the horizon is 14 h back: the window ends at the midnight before it
  const d = (await get('/v1/routes/top-lanes?days=28', plainKey)).body.data;
  assert.equal(d.window.until, iso(NOW - DAY));
  const later = (await get(`/v1/routes/top-lanes?days=28&until=${iso(NOW + 5 * DAY)}`)).body.data;
  assert.equal(later.window.until, iso(NOW));
});

test('bad input: unknown ports, same origin and destination, malformed parameters', async () => {
  const cases: [string, number, string, string][] = [
    ['top-lanes?port=ZZZZZ', 404, 'port_not_found', 'query.port'],
    ['top-lanes?port=52.0,3.9', 400, 'invalid_request', 'query.port'],
    ['top-lanes?days=0', 400, 'invalid_request', 'query.days'],
    ['top-lanes?days=91', 400, 'invalid_request', 'query.days'],
    ['top-lanes?until=yesterday', 400, 'invalid_request', 'query.until'],
    ['top-lanes?ship_type=submarine', 400, 'invalid_request', 'query.ship_type'],
    ['lane-details?from=NLRTM', 400, 'invalid_request', 'query.to'],
    ['lane-details?from=NLRTM&to=NLRTM', 400, 'same_origin_destination', 'query.to'],
    ['lane-details?from=NLRTM&to=99999999', 404, 'port_not_found', 'query.to'],
    ['lane-trends?weeks=1', 400, 'invalid_request', 'query.weeks'],
    ['lane-heatmap?cell_deg=0.1', 400, 'invalid_request', 'query.cell_deg'],
    ['anomaly-days?threshold=0', 400, 'invalid_request', 'query.threshold'],
    ['dest-opportunities', 400, 'invalid_request', 'query.from'],
    ['dest-opportunities?from=XXQQQ', 404, 'port_not_found', 'query.from'],
    ['stability-forecast?from=NLRTM', 400, 'invalid_request', 'query.to'],
    ['stability-forecast?weeks=5', 400, 'invalid_request', 'query.weeks'],
    ['seasonality?days=367', 400, 'invalid_request', 'query.days'],
    ['weekly-summary?weeks=27', 400, 'invalid_request', 'query.weeks'],
    ['hubs?bogus=1', 400, 'invalid_request', 'query.bogus'],
  ];
  for (const [path, status, code, field] of cases) {
    const res = await get(`/v1/routes/${path}`);
    assert.deepEqual([res.status, res.body.errors?.[0]?.code, res.body.errors?.[0]?.field], [status, code, field], `${path}: ${res.text}`);
  }
});
