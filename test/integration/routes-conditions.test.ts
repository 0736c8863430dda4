import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { conditionsRoutes } from '../../src/features/routes/conditions/conditions-routes.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import type { PositionReport, StaticReport } from '../../src/fleet/types.js';
import { bearingDeg, destinationPoint, distanceM } from '../../src/geo/distance.js';
import { startTestApp, TEST_EPOCH, withApp, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position, seedSampleVessel, seedCoverage } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow, encounterRow, transitRow } from '../helpers/event-rows.js';

const NOW = TEST_EPOCH;
const DAY = 24 * HOUR;
const GIBRALTAR = CHOKEPOINTS.find((c) => c.key === 'gibraltar')!;
const PORTS = readPortTableFile().ports;
const GIB_PORT = PORTS.find((p) => p.locode === 'GIGIB')!;
const LISBON = PORTS.find((p) => p.locode === 'PTLIS' && p.port_id === 37990)!;

let app: TestApp;
let liveKey: string;
let plainKey: string;
/** The Lisbon–Gibraltar route's line (from /v1/routes/direct) and the encounters placed beside it. */
let nearPoint: { lat: number; lon: number };

function transit(vslId: string, exited: number, meanSpeedKn: number, stoppedMs: number) {
  return transitRow({ vsl_id: vslId, zone: 'gibraltar', exited_at: exited, mean_speed_kn: meanSpeedKn, stopped_ms: stoppedMs, updated_at: NOW });
}
function call(vslId: string, portId: number, departure: number, anchorageMs: number) {
  const arrival = departure - anchorageMs - 6 * HOUR;
  return portCallRow({ vsl_id: vslId, port_id: portId, arrival, departure, anchorage_ms: anchorageMs, berth_ms: 6 * HOUR, fixes: 100, updated_at: NOW });
}
function encounter(a: string, b: string, end: number, at: { lat: number; lon: number }) {
  return encounterRow({ vsl_a: a, vsl_b: b, end_at: end, lat: at.lat, lon: at.lon, updated_at: NOW });
}

/** A vessel sailing east at 12 kn from 30° W from 26 h ago, a fix every 30 min until 30 min ago, the last 10 min ago. */
async function sailing(mmsi: number, imoNumber: number, destination: string | null, lat = 45) {
  const fleet = app.bosun.ctx.services.fleet;
  const reports: Array<PositionReport | StaticReport> = [identity(mmsi, NOW - 27 * HOUR, { imo: imoNumber, name: `TEST ${mmsi}`, shipType: 70, destination })];
  const start = NOW - 26 * HOUR;
  const times = [...Array.from({ length: 52 }, (_, k) => start + k * 30 * MINUTE), NOW - 10 * MINUTE];
  for (const t of times) {
    const p = destinationPoint(lat, -30, 90, ((t - start) / HOUR) * 12 * 1852);
    reports.push(position(mmsi, t, p.lat, p.lon, { sog: 12, cog: 90 }));
  }
  await ingest(fleet, ...reports);
}

const get = (path: string, token?: string) => app.api('GET', path, token ? { token } : {});

before(async () => {
  app = await startTestApp({ now: NOW });
  // stored positions from six days back (the stress baselines need them), analysed by the detector
  await seedCoverage(app.bosun.ctx.services, 244000901, NOW - 6 * DAY, NOW);
  liveKey = (await app.registerAgent('conditions-live', ['vessels:live'])).apiKey;
  plainKey = (await app.registerAgent('conditions-plain')).apiKey;

  const route = await get('/v1/routes/direct?from=PTLIS&to=GIGIB', liveKey);
  const coords = route.body.data.geometry.coordinates as [number, number][];
  // a route vertex more than 150 km from the gate centre and from Lisbon, the encounters beside it
  const i = coords.findIndex(([x, y]) => distanceM(y, x, GIBRALTAR.lat, GIBRALTAR.lon) > 150_000 && distanceM(y, x, LISBON.lat, LISBON.lon) > 80_000);
  const [lon, lat] = coords[i]!;
  nearPoint = { lat, lon };
  // across the track: perpendicular to the route's direction at that vertex, on the outside of the bend there (a
  // point on the outside is exactly as far from the line as from the vertex)
  const [nextLon, nextLat] = coords[i + 1]!;
  const [prevLon, prevLat] = coords[i - 1]!;
  const onward = bearingDeg(lat, lon, nextLat, nextLon);
  const turn = ((onward - bearingDeg(prevLat, prevLon, lat, lon) + 540) % 360) - 180;
  const across = onward + (turn > 0 ? -90 : 90);

  const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
  const transits = [];
  const calls = [];
  for (let k = 1; k <= 4; k++) {
    const end = NOW - k * DAY;
    for (let i = 0; i < 4; i++) transits.push(transit(`vsl_b${k}${i}`, end - (i + 1) * HOUR, 12, 30 * MINUTE));
    calls.push(call(`vsl_c${k}`, GIB_PORT.port_id, end - 2 * HOUR, 2 * HOUR));
  }
  // the last 24 h at Gibraltar: 2 transits at 9 kn stopped 2 h each, a call waiting 3 h (decision 023's worked example without encounters)
  transits.push(transit('vsl_now1', NOW - 3 * HOUR, 9, 2 * HOUR), transit('vsl_now2', NOW - 20 * HOUR, 9, 2 * HOUR));
  calls.push(call('vsl_cnow', GIB_PORT.port_id, NOW - 5 * HOUR, 3 * HOUR));
  // Lisbon: two calls of the last 24 h with 30 h at anchor, one the day before with 10 h
  calls.push(call('vsl_l1', LISBON.port_id, NOW - 4 * HOUR, 30 * HOUR), call('vsl_l2', LISBON.port_id, NOW - 6 * HOUR, 30 * HOUR), call('vsl_l0', LISBON.port_id, NOW - 30 * HOUR, 10 * HOUR));
  // beside the route, on the outside of the bend: 5 km off it 2 h ago (newer than the preview horizon), 8 km off it 20 h ago; 60 km off it 2 h ago
  const near = destinationPoint(nearPoint.lat, nearPoint.lon, across, 5_000);
  const near2 = destinationPoint(nearPoint.lat, nearPoint.lon, across, 8_000);
  const far = destinationPoint(nearPoint.lat, nearPoint.lon, across, 60_000);
  await repo.upsertTransits(transits);
  await repo.upsertCalls(calls);
  await repo.upsertEncounters([encounter('vsl_n1', 'vsl_n2', NOW - 2 * HOUR, near), encounter('vsl_n3', 'vsl_n4', NOW - 20 * HOUR, near2), encounter('vsl_f1', 'vsl_f2', NOW - 2 * HOUR, far)]);
});

after(async () => {
  await app?.close();
});

type Flag = { code: string; severity: string; subject: string; message: string; evidence: Record<string, any>; threshold: number; data_age_seconds: number | null };

test('risk-flags: Lisbon to Gibraltar flags the stressed strait with the measured values, the encounters beside the track, not the one 60 km off', async () => {
  const res = await get('/v1/routes/risk-flags?from=PTLIS&to=GIGIB&range=24H', liveKey);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.cost_units, 0.62);
  const d = res.body.data;
  assert.deepEqual(d.route.passages, ['gibraltar']);
  assert.deepEqual(d.window, { from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.equal(d.analysed_up_to, new Date(NOW - 10 * MINUTE).toISOString());
  const byCode = Object.fromEntries((d.flags as Flag[]).map((f) => [f.code, f]));
  const stress = byCode.chokepoint_stress!;
  // transit_volume 2 vs 4 → 0.5, gate_speed 9 vs 12 → 0.5, gate_waiting 2 h vs 0.5 → 1, port_congestion 3 h vs 2 → 0.5; no encounters near the gate: sts 0 vs 0 → 0
  // (0.3·0.5 + 0.15·0.5 + 0.2·1 + 0.15·0.5 + 0.1·0) / 0.9 = 55.6
  assert.deepEqual([stress.subject, stress.severity, stress.threshold, stress.evidence.stress_index, stress.evidence.level], ['gibraltar', 'high', 50, 55.6, 'high']);
  const components = Object.fromEntries(stress.evidence.components.map((c: { name: string; value: number; baseline: number }) => [c.name, [c.value, c.baseline]]));
  assert.deepEqual(components.transit_volume, [2, 4]);
  assert.deepEqual(components.gate_speed, [9, 12]);
  // the newest data behind the index: the measured 0 encounters near the gate, as of the analysis (10 min ago)
  assert.equal(stress.data_age_seconds, 600);
  assert.match(stress.message, /Strait of Gibraltar stress high \(55\.6\/100\): transits 50 % below baseline \(2 vs 4\); mean speed in the gate 9 kn vs 12 kn/);

  const sts = byCode.sts_near_route!;
  assert.equal(sts.severity, 'elevated');
  assert.equal(sts.evidence.count, 2);
  assert.equal(sts.evidence.within_km, 20);
  assert.ok(sts.evidence.nearest_km <= 5.1, String(sts.evidence.nearest_km));
  assert.equal(sts.data_age_seconds, 2 * 3600);
  assert.equal(sts.evidence.encounter_ids.length, 2);
  // the destination waits 3 h (median): under the 6 h threshold, no flag
  assert.equal(byCode.destination_congestion, undefined);
  assert.deepEqual(d.checked, { chokepoints: ['gibraltar'], sts: true, destination_congestion: true });
  assert.deepEqual(d.thresholds.chokepoint_stress, { elevated: 25, high: 50, severe: 75 });
  assert.deepEqual(res.body.quality_flags, []);
  assert.equal(res.body.freshness_seconds, 600);
});

test('advisory: sentences quote the measured values; recommendations from the flags, the route avoiding the strait measured', async () => {
  const res = await get('/v1/routes/advisory?from=PTLIS&to=GIGIB&range=24H', liveKey);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.cost_units, 0.66);
  const d = res.body.data;
  const [gib] = d.conditions.chokepoints;
  assert.deepEqual([gib.zone, gib.passage, gib.stress_index, gib.level], ['gibraltar', 'gibraltar', 55.6, 'high']);
  assert.equal(d.conditions.sts.count, 2);
  // nearest first: 5 km off the line, then the one 8 km off it (both on the outside of the bend, as far from the line as from the vertex)
  const [first, second] = d.conditions.sts.items.map((i: { distance_km: number }) => i.distance_km);
  assert.equal(Math.round(first), 5);
  assert.ok(second > first && second <= 8, String(second));
  const dest = d.conditions.destination;
  assert.deepEqual([dest.port.locode, dest.available, dest.window.median_wait_hours, dest.previous_window.median_wait_hours, dest.trend, dest.waiting_now], ['GIGIB', true, 3, 2, 'rising', 0]);
  assert.equal(dest.data_age_seconds, 5 * 3600);
  assert.match(d.summary[0], /^Strait of Gibraltar stress high \(55\.6\/100\)/);
  assert.match(d.summary[1], /^2 encounters \(possible STS transfers\) ended within 20 km of the route in the window; nearest 5 km/);
  assert.match(d.summary[2], /median anchorage wait 3 h over 1 completed call \(window before: 2 h\); trend rising/);
  // high stress at a routing passage: the same route avoiding it, measured (round Africa and back through Suez)
  const avoiding = await get('/v1/routes/direct?from=PTLIS&to=GIGIB&avoid=gibraltar', liveKey);
  const added = Math.round((avoiding.body.data.distance_nm - d.route.distance_nm) * 10) / 10;
  assert.deepEqual(d.alternatives, [{ avoid: 'gibraltar', distance_nm: avoiding.body.data.distance_nm, added_nm: added, passages: ['good_hope', 'babelmandeb', 'suez'], note: null }]);
  assert.equal(
    d.recommendations[0],
    `Strait of Gibraltar stress high (55.6/100): avoiding it adds ${added} nm (+${Math.round((added / d.route.distance_nm) * 1000) / 10} %) by good_hope, babelmandeb, suez; GET /v1/routes/direct?from=PTLIS&to=GIGIB&avoid=gibraltar`,
  );
  assert.match(d.recommendations[1], /^Review the 2 encounters near the route: GET \/v1\/sts\/events\?zone=/);
});

test('destination congestion: Lisbon waiting 30 h is flagged high with the wait values', async () => {
  const res = await get('/v1/routes/risk-flags?from=GIGIB&to=PTLIS&range=24H', liveKey);
  assert.equal(res.status, 200, res.text);
  const flag = (res.body.data.flags as Flag[]).find((f) => f.code === 'destination_congestion')!;
  assert.deepEqual([flag.severity, flag.threshold, flag.subject], ['high', 24, String(LISBON.port_id)]);
  assert.deepEqual([flag.evidence.median_wait_hours, flag.evidence.previous_median_wait_hours, flag.evidence.completed_calls, flag.evidence.trend], [30, 10, 2, 'rising']);
  assert.equal(flag.data_age_seconds, 4 * 3600);
  const advisory = await get('/v1/routes/advisory?from=GIGIB&to=PTLIS&range=24H', liveKey);
  assert.ok(advisory.body.data.recommendations.some((r: string) => r === `Allow for waiting at anchor at ${LISBON.name}: median 30 h over the last window (0 waiting now)`));
});

test('a key without vessels:live: the window ends 14 h ago, the encounter of 2 h ago is not seen, delayed_position', async () => {
  const res = await get('/v1/routes/risk-flags?from=PTLIS&to=GIGIB&range=24H', plainKey);
  assert.equal(res.status, 200, res.text);
  const to = NOW - DELAY_SECONDS * 1000;
  assert.deepEqual(res.body.data.window, { from: new Date(to - DAY).toISOString(), to: new Date(to).toISOString() });
  const sts = (res.body.data.flags as Flag[]).find((f) => f.code === 'sts_near_route')!;
  assert.equal(sts.evidence.count, 1);
  assert.equal(sts.data_age_seconds, 20 * 3600);
  assert.ok(res.body.quality_flags.includes('delayed_position'));
});

test('a route with no events in the window: nothing flagged, what could not be measured is said', async () => {
  const res = await get('/v1/routes/risk-flags?from=SGSIN&to=HKHKG', liveKey);
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(d.flags, []);
  assert.deepEqual(d.checked, { chokepoints: [], sts: true, destination_congestion: false });
  // the store holds 6 days of positions: the default range shortens to 3 days so the stress indexes have a baseline (issue 28)
  assert.deepEqual(res.body.quality_flags, ['range_shortened_to_store', 'destination_congestion_unavailable']);
  const advisory = await get('/v1/routes/advisory?from=SGSIN&to=HKHKG', liveKey);
  const c = advisory.body.data.conditions;
  assert.deepEqual([c.sts.count, c.sts.nearest_km, c.destination.available, c.destination.median_wait_hours], [0, null, false, undefined]);
  assert.equal(c.destination.waiting_now, null);
  assert.match(c.destination.note, /no port calls detected/);
  assert.deepEqual(advisory.body.data.recommendations, []);
});

test('no event data at all: no values, no flags, quality flag no_event_data', async () => {
  await withApp(async (fresh) => {
    const { apiKey } = await fresh.registerAgent('conditions-empty', ['vessels:live']);
    const res = await fresh.api('GET', '/v1/routes/advisory?from=PTLIS&to=GIGIB', { token: apiKey });
    assert.equal(res.status, 200, res.text);
    const d = res.body.data;
    assert.equal(d.analysed_up_to, null);
    assert.deepEqual(res.body.quality_flags, ['no_event_data']);
    const [gib] = d.conditions.chokepoints;
    assert.deepEqual([gib.zone, gib.stress_index, gib.level, gib.components, gib.data_age_seconds], ['gibraltar', null, null, [], null]);
    assert.deepEqual([d.conditions.sts.count, d.conditions.sts.items], [null, []]);
    assert.deepEqual([d.conditions.destination.available, d.conditions.destination.window], [false, null]);
    assert.deepEqual(d.summary, ['No event data: the event detector has not analysed any positions yet, so the conditions along this route cannot be assessed.']);
    assert.deepEqual(d.recommendations, []);
    const flags = await fresh.api('GET', '/v1/routes/risk-flags?from=PTLIS&to=GIGIB', { token: apiKey });
    assert.deepEqual(flags.body.data.flags, []);
    assert.deepEqual(flags.body.data.checked, { chokepoints: [], sts: false, destination_congestion: false });
    assert.deepEqual(flags.body.quality_flags, ['no_event_data']);
    assert.equal(flags.body.freshness_seconds, 0);
  });
});

test('advisory and risk-flags errors', async () => {
  const cases: Array<[string, string, number]> = [
    ['from=XXAAA&to=GIGIB', 'port_not_found', 404],
    ['from=PTLIS&to=GIGIB&avoid=atlantis', 'unknown_passage', 400],
    ['from=PTLIS&to=GIGIB&range=31D', 'invalid_range', 400],
    ['from=PTLIS&to=PTLIS', 'same_origin_destination', 400],
    ['from=47.0,100.0&to=GIGIB', 'point_on_land', 422],
    ['from=NLRTM&to=GRPIR&avoid=gibraltar,suez,good_hope,panama,cape_horn,magellan', 'route_unreachable', 422],
    [`from=NLRTM&to=GRPIR&via=${Array.from({ length: 11 }, () => 'GIGIB').join(';')}`, 'too_many_vias', 400],
    ['from=PTLIS', 'invalid_request', 400],
  ];
  for (const path of ['advisory', 'risk-flags']) {
    for (const [qs, code, status] of cases) {
      const res = await get(`/v1/routes/${path}?${qs}`, liveKey);
      assert.equal(res.body.errors?.[0]?.code, code, `${path}?${qs}: ${res.text}`);
      assert.equal(res.status, status, qs);
    }
    assert.equal((await get(`/v1/routes/${path}?from=PTLIS&to=GIGIB`)).body.errors[0].code, 'auth_required');
  }
});

test('forecast-lite: ETA to an AIS destination given as a UN/LOCODE, from the live position at the recent mean speed', async () => {
  await sailing(244100001, imo(910001), 'NLRTM');
  const res = await get(`/v1/routes/forecast-lite?vessel=IMO:${imo(910001)}`, liveKey);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.cost_units, 0.57);
  const d = res.body.data;
  assert.equal(d.position.observed_at, new Date(NOW - 10 * MINUTE).toISOString());
  assert.equal(d.position.delayed, false);
  assert.deepEqual([d.destination.source, d.destination.resolution, d.destination.port.locode, d.destination.candidates], ['ais', 'locode', 'NLRTM', 1]);
  assert.deepEqual([d.speed.kn, d.speed.source, d.speed.ship_type], [12, 'recent_sog', 'general_cargo']);
  assert.ok(d.speed.samples >= 12, String(d.speed.samples));
  const direct = await get(`/v1/routes/direct?from=${d.position.lat.toFixed(5)},${d.position.lon.toFixed(5)}&to=${d.destination.port.port_id}`, liveKey);
  assert.equal(d.remaining_nm, direct.body.data.distance_nm);
  assert.equal(d.eta, new Date(Math.round((NOW - 10 * MINUTE + (d.remaining_nm / 12) * HOUR) / 1000) * 1000).toISOString());
  assert.equal(d.duration_hours, Math.round((d.remaining_nm / 12) * 10) / 10);
  // 1 − (600 s / 3600) / 48, × 0.9 (recent SOG, 5 samples or more) × 1 (LOCODE)
  assert.deepEqual(d.confidence, { value: 0.9, position_age: 0.997, speed_source: 0.9, destination: 1 });
  assert.equal(res.body.confidence, 0.9);
  assert.equal(res.body.freshness_seconds, 600);
  assert.deepEqual(res.body.quality_flags, []);
});

test('forecast-lite without vessels:live: from the delayed position (14 h old) and the speed before it', async () => {
  const res = await get(`/v1/routes/forecast-lite?vessel=IMO:${imo(910001)}`, plainKey);
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.equal(d.position.observed_at, new Date(NOW - DELAY_SECONDS * 1000).toISOString());
  assert.equal(d.position.age_seconds, DELAY_SECONDS);
  assert.equal(d.position.delayed, true);
  assert.equal(d.speed.source, 'recent_sog');
  assert.ok(res.body.quality_flags.includes('delayed_position'));
  // 1 − 14/48
  assert.equal(d.confidence.position_age, 0.708);
  assert.equal(d.confidence.value, Math.round(0.708 * 0.9 * 100) / 100);
  const live = await get(`/v1/routes/forecast-lite?vessel=IMO:${imo(910001)}`, liveKey);
  assert.ok(d.remaining_nm > live.body.data.remaining_nm + 50, `${d.remaining_nm} vs ${live.body.data.remaining_nm}`);
});

test('forecast-lite: a destination given by name (two Rotterdams: the larger, flagged ambiguous), a given to, a given speed', async () => {
  await sailing(244100002, imo(910002), 'ROTTERDAM', 46);
  const res = await get(`/v1/routes/forecast-lite?vessel=MMSI:244100002`, liveKey);
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual([d.destination.text, d.destination.resolution, d.destination.port.locode, d.destination.candidates, d.confidence.destination], ['ROTTERDAM', 'name_ambiguous', 'NLRTM', 2, 0.6]);

  const given = await get(`/v1/routes/forecast-lite?vessel=MMSI:244100002&to=GBSOU&speed_kn=10`, liveKey);
  const g = given.body.data;
  assert.deepEqual([g.destination.source, g.destination.resolution, g.destination.port.locode, g.speed.kn, g.speed.source], ['to', 'given', 'GBSOU', 10, 'speed_kn']);
  assert.equal(g.duration_hours, Math.round((g.remaining_nm / 10) * 10) / 10);
});

test('forecast-lite errors: unresolvable and missing destinations, unknown vessel, bad id, no visible position, bad to', async () => {
  await sailing(244100003, imo(910003), 'NOWHERE LAND XQZ', 47);
  const unresolved = await get(`/v1/routes/forecast-lite?vessel=MMSI:244100003`, liveKey);
  assert.deepEqual([unresolved.status, unresolved.body.errors[0].code, unresolved.body.errors[0].field], [422, 'destination_unresolved', 'query.to']);
  assert.match(unresolved.body.errors[0].message, /NOWHERE LAND XQZ/);
  await sailing(244100004, imo(910004), null, 48);
  const unknown = await get(`/v1/routes/forecast-lite?vessel=MMSI:244100004`, liveKey);
  assert.deepEqual([unknown.status, unknown.body.errors[0].code], [422, 'destination_unknown']);
  const notFound = await get('/v1/routes/forecast-lite?vessel=MMSI:366999999', liveKey);
  assert.deepEqual([notFound.status, notFound.body.errors[0].code], [404, 'vessel_not_found']);
  const bad = await get('/v1/routes/forecast-lite?vessel=IMO:123', liveKey);
  assert.deepEqual([bad.status, bad.body.errors[0].code], [400, 'invalid_vessel_id']);
  // only a fresh position: nothing a key without vessels:live may see
  await ingest(app.bosun.ctx.services.fleet, identity(244100005, NOW - HOUR, { destination: 'NLRTM' }), position(244100005, NOW - HOUR, 45, -20));
  const hidden = await get('/v1/routes/forecast-lite?vessel=MMSI:244100005', plainKey);
  assert.deepEqual([hidden.status, hidden.body.errors[0].code], [422, 'position_unavailable']);
  const badTo = await get('/v1/routes/forecast-lite?vessel=MMSI:244100005&to=XXAAA', liveKey);
  assert.deepEqual([badTo.status, badTo.body.errors[0].code], [404, 'port_not_found']);
  const badAvoid = await get('/v1/routes/forecast-lite?vessel=MMSI:244100005&avoid=atlantis', liveKey);
  assert.deepEqual([badAvoid.status, badAvoid.body.errors[0].code], [400, 'unknown_passage']);
  const missing = await get('/v1/routes/forecast-lite', liveKey);
  assert.deepEqual([missing.status, missing.body.errors[0].code], [400, 'invalid_request']);
  assert.equal((await get('/v1/routes/forecast-lite?vessel=MMSI:244100005')).body.errors[0].code, 'auth_required');
});

const PATHS: Record<string, string> = { getRoutesAdvisory: '/v1/routes/advisory', getRoutesRiskFlags: '/v1/routes/risk-flags', getRoutesForecastLite: '/v1/routes/forecast-lite' };

test('the published examples answer 200', async () => {
  await seedSampleVessel(app.bosun.ctx.services.fleet, NOW);
  for (const route of conditionsRoutes) {
    for (const example of route.examples) {
      const qs = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
      for (const token of [liveKey, plainKey]) {
        const res = await get(`${PATHS[route.operationId]}?${qs}`, token);
        assert.equal(res.status, 200, `${route.operationId} ${qs}: ${res.text}`);
      }
    }
  }
});
