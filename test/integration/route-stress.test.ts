import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { metricsRoutes } from '../../src/features/routes/stress/routes.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { DELAY_SECONDS } from '../../src/features/vessels/entitlements.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { destinationPoint } from '../../src/geo/distance.js';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { position, seedCoverage } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { portCallRow, encounterRow, transitRow } from '../helpers/event-rows.js';

const NOW = TEST_EPOCH;
const DAY = 24 * HOUR;
const GIBRALTAR = CHOKEPOINTS.find((c) => c.key === 'gibraltar')!;
const GIB_PORT = readPortTableFile().ports.find((p) => p.locode === 'GIGIB')!;

let app: TestApp;
let liveKey: string;

/** A transit of Gibraltar that left the gate at `exited`. */
function transit(vslId: string, exited: number, meanSpeedKn: number, stoppedMs: number) {
  return transitRow({ vsl_id: vslId, zone: 'gibraltar', exited_at: exited, mean_speed_kn: meanSpeedKn, stopped_ms: stoppedMs, updated_at: NOW });
}
function call(vslId: string, departure: number, anchorageMs: number) {
  const arrival = departure - anchorageMs - 6 * HOUR;
  return portCallRow({ vsl_id: vslId, port_id: GIB_PORT.port_id, arrival, departure, anchorage_ms: anchorageMs, berth_ms: 6 * HOUR, fixes: 100, updated_at: NOW });
}
/** An encounter 40 km east of the gate centre (inside 100 km) that ended at `end`. */
function encounter(a: string, b: string, end: number) {
  const at = destinationPoint(GIBRALTAR.lat, GIBRALTAR.lon, 90, 40_000);
  return encounterRow({ vsl_a: a, vsl_b: b, end_at: end, lat: at.lat, lon: at.lon, updated_at: NOW });
}

before(async () => {
  app = await startTestApp({ now: NOW });
  // stored positions from six days back: the four 24 h baseline windows are covered
  await seedCoverage(app.bosun.ctx.services, 244000901, NOW - 6 * DAY, NOW);
  const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
  const transits = [];
  const calls = [];
  const encounters = [];
  // baseline windows (k = 1..4 days back): 4 transits at 12 kn, 30 min stopped each; one call with 2 h at anchor; one encounter
  for (let k = 1; k <= 4; k++) {
    const end = NOW - k * DAY;
    for (let i = 0; i < 4; i++) transits.push(transit(`vsl_b${k}${i}`, end - (i + 1) * HOUR, 12, 30 * MINUTE));
    calls.push(call(`vsl_c${k}`, end - 2 * HOUR, 2 * HOUR));
    encounters.push(encounter(`vsl_e${k}a`, `vsl_e${k}b`, end - 3 * HOUR));
  }
  // the range (the last 24 h): 2 transits at 9 kn, stopped 2 h each; one call waiting 3 h; two encounters
  transits.push(transit('vsl_now1', NOW - 3 * HOUR, 9, 2 * HOUR), transit('vsl_now2', NOW - 20 * HOUR, 9, 2 * HOUR));
  calls.push(call('vsl_cnow', NOW - 5 * HOUR, 3 * HOUR));
  encounters.push(encounter('vsl_ea', 'vsl_eb', NOW - 4 * HOUR), encounter('vsl_ec', 'vsl_ed', NOW - 16 * HOUR));
  // elsewhere: a transit of another gate, a call far away, an encounter 150 km from the gate
  transits.push({ ...transit('vsl_x', NOW - 2 * HOUR, 1, 10 * HOUR), zone: 'suez' });
  const far = destinationPoint(GIBRALTAR.lat, GIBRALTAR.lon, 270, 150_000);
  encounters.push({ ...encounter('vsl_fa', 'vsl_fb', NOW - 2 * HOUR), lat: far.lat, lon: far.lon });
  await repo.upsertTransits(transits);
  await repo.upsertCalls(calls);
  await repo.upsertEncounters(encounters);
  liveKey = (await app.registerAgent('stress-live', ['vessels:live'])).apiKey;
});

after(async () => {
  await app?.close();
});

type Component = { name: string; value: number | null; baseline: number | null; stress: number | null; weight: number; data_age_seconds: number | null; available: boolean; note: string | null };
const byName = (components: Component[]) => Object.fromEntries(components.map((c) => [c.name, c]));

test('route_stress_index at Gibraltar: each component against the mean of the four windows before, and the weighted index', async () => {
  const res = await app.api('GET', '/v1/metrics/route_stress_index?zone_key=gibraltar&range=24H', { token: liveKey });
  assert.equal(res.status, 200);
  assert.equal(res.body.cost_units, 1.3);
  const data = res.body.data;
  assert.deepEqual(data.window, { from: new Date(NOW - DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.deepEqual(data.baseline, { from: new Date(NOW - 5 * DAY).toISOString(), to: new Date(NOW - DAY).toISOString(), windows: 4 });
  const c = byName(data.components);
  const summary = (x: Component) => [x.value, x.baseline, x.stress, x.weight, x.available];
  // 2 transits against 4: |2/4 − 1|
  assert.deepEqual(summary(c.transit_volume!), [2, 4, 0.5, 0.3, true]);
  // 9 kn against 12: (12 − 9)/12 × 2
  assert.deepEqual(summary(c.gate_speed!), [9, 12, 0.5, 0.15, true]);
  // 2 h stopped per transit against 0.5 h: (2 − 0.5)/max(0.5, 1), clamped to 1
  assert.deepEqual(summary(c.gate_waiting!), [2, 0.5, 1, 0.2, true]);
  // a 3 h median wait against 2 h: (3 − 2)/2
  assert.deepEqual(summary(c.port_congestion!), [3, 2, 0.5, 0.15, true]);
  // 2 encounters within 100 km against 1 (the one 150 km away does not count)
  assert.deepEqual(summary(c.sts_activity!), [2, 1, 1, 0.1, true]);
  // the calls are one per vessel: no voyage, so nothing to say of detours
  assert.deepEqual(summary(c.detours!), [null, null, null, 0.1, false]);
  assert.equal(c.detours!.note, 'no voyage in the window whose shortest route crosses the gate');
  assert.deepEqual(data.detour_voyages, { expected: 0, avoided: 0 });
  // (0.3·0.5 + 0.15·0.5 + 0.2·1 + 0.15·0.5 + 0.1·1) / 0.9
  assert.equal(data.index, 66.7);
  assert.equal(data.level, 'high');
  assert.equal(data.weight_measured, 0.9);
  // data age: the newest transit left 3 h ago, the newest call 5 h ago, the newest encounter ended 4 h ago; no voyage: the analysed data's age
  assert.deepEqual(
    [c.transit_volume!.data_age_seconds, c.gate_speed!.data_age_seconds, c.port_congestion!.data_age_seconds, c.sts_activity!.data_age_seconds, c.detours!.data_age_seconds],
    [3 * 3600, 3 * 3600, 5 * 3600, 4 * 3600, 600],
  );
  assert.ok(data.nearby_ports.some((p: { port_id: number }) => p.port_id === GIB_PORT.port_id));
  assert.ok(data.nearby_ports.every((p: { distance_km: number }) => p.distance_km <= 100));
  assert.equal(data.analysed_up_to, new Date(NOW - 10 * MINUTE).toISOString());
  assert.equal(data.data_from, new Date(NOW - 6 * DAY).toISOString());
  assert.equal(res.body.freshness_seconds, 600);
  assert.deepEqual(res.body.quality_flags, [], 'no event behind the answer is simulated');
});

test('route_stress_index for an anonymous caller ends at the preview horizon', async () => {
  const res = await app.api('GET', '/v1/metrics/route_stress_index?zone_key=gibraltar&range=24H');
  assert.equal(res.status, 200);
  const to = NOW - DELAY_SECONDS * 1000;
  assert.deepEqual(res.body.data.window, { from: new Date(to - DAY).toISOString(), to: new Date(to).toISOString() });
  const c = byName(res.body.data.components);
  // the window 38 h to 14 h ago: the transit that left 20 h ago and the four of the day before; nothing newer
  assert.equal(c.transit_volume!.value, 5);
  assert.equal(c.sts_activity!.value, 2);
  assert.equal(c.port_congestion!.value, 2);
  assert.equal(c.transit_volume!.data_age_seconds, 20 * 3600);
});

test('route_stress_index without enough stored history: no baseline, said so; the default range is 7 days', async () => {
  const res = await app.api('GET', '/v1/metrics/route_stress_index?zone_key=GIBRALTAR', { token: liveKey });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.window, { from: new Date(NOW - 7 * DAY).toISOString(), to: new Date(NOW).toISOString() });
  assert.equal(res.body.data.baseline.windows, 0);
  const c = byName(res.body.data.components);
  assert.equal(c.transit_volume!.value, 2 + 16);
  assert.equal(c.transit_volume!.available, false);
  assert.match(c.transit_volume!.note!, /stored positions begin/);
  assert.equal(res.body.data.index, null);
  assert.equal(res.body.data.level, null);
});

test('route_stress_index errors: unknown zone_key lists the keys, bad range', async () => {
  const unknown = await app.api('GET', '/v1/metrics/route_stress_index?zone_key=atlantis');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.errors[0].code, 'unknown_zone');
  assert.equal(unknown.body.errors[0].field, 'query.zone_key');
  for (const key of ['suez', 'panama', 'hormuz', 'malacca', 'bab_el_mandeb', 'gibraltar', 'bosporus']) assert.ok(unknown.body.errors[0].message.includes(key), key);
  const missing = await app.api('GET', '/v1/metrics/route_stress_index');
  assert.equal(missing.body.errors[0].code, 'invalid_request');
  for (const range of ['31D', '0H']) {
    const bad = await app.api('GET', `/v1/metrics/route_stress_index?zone_key=suez&range=${range}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'invalid_range', range);
  }
  assert.equal((await app.api('GET', '/v1/metrics/route_stress_index?zone_key=suez&range=1W')).body.errors[0].code, 'invalid_request');
});

test('route_stress_index: the published examples answer 200', async () => {
  for (const example of metricsRoutes[0]!.examples) {
    const qs = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    assert.equal((await app.api('GET', `/v1/metrics/route_stress_index?${qs}`)).status, 200, example.summary);
  }
});

test('route_stress_index counts a transit the detector found in positions through the fleet; simulated positions make a simulated answer', async () => {
  const fresh = await startTestApp({ now: NOW });
  try {
    const fleet = fresh.bosun.ctx.services.fleet;
    // west to east along the strait at 12 kn, a fix every 3 minutes, 80 km
    const reports: PositionReport[] = [];
    const start = destinationPoint(GIBRALTAR.lat, GIBRALTAR.lon, 270, 40_000);
    for (let d = 0, t = NOW - 10 * HOUR; d <= 80_000; d += 1_111, t += 3 * MINUTE) {
      const p = destinationPoint(start.lat, start.lon, 90, d);
      reports.push(position(244000950, t, p.lat, p.lon, { sog: 12, cog: 90, simulated: true }));
    }
    for (const r of reports) fleet.acceptPosition(r);
    await fleet.flush();
    await fresh.bosun.ctx.services.events.runner.catchUp();
    const operator = await fresh.operatorToken();
    const res = await fresh.api('GET', '/v1/metrics/route_stress_index?zone_key=gibraltar&range=24H', { token: operator });
    const c = byName(res.body.data.components);
    assert.equal(c.transit_volume!.value, 1);
    assert.equal(c.gate_speed!.value, 12);
    assert.equal(c.gate_waiting!.value, 0);
    assert.equal(res.body.data.baseline.windows, 0, 'the positions begin inside the range');
    assert.deepEqual(res.body.quality_flags, ['simulated_source']);
  } finally {
    await fresh.close();
  }
});

const portOf = (locode: string) => readPortTableFile().ports.find((p) => p.locode === locode)!;

test('decision 118: detours are voyages routed through the gate by the engine whose vessel did not transit it; a port call inside the gate is not strait waiting', async () => {
  const fresh = await startTestApp({ now: NOW });
  try {
    await seedCoverage(fresh.bosun.ctx.services, 244000902, NOW - 6 * DAY, NOW);
    const [rotterdam, piraeus, hamburg, tangerMed] = [portOf('NLRTM'), portOf('GRPIR'), portOf('DEHAM'), portOf('MAPTM')];
    const at = (vslId: string, portId: number, arrival: number, departure: number | null) => ({
      ...call(vslId, departure ?? arrival, 0),
      port_id: portId,
      arrival,
      departure,
      last_fix_at: departure ?? arrival,
      berth_ms: (departure ?? arrival) - arrival,
    });
    const calls = [];
    const transits = [];
    // the baseline days: two Rotterdam → Piraeus voyages a day, both through the strait (0 % avoided)
    for (let k = 1; k <= 4; k++) {
      for (const i of [1, 2]) {
        const v = `vsl_base${k}_${i}`;
        calls.push(at(v, rotterdam.port_id, NOW - k * DAY - 6 * DAY, NOW - k * DAY - 5 * DAY), at(v, piraeus.port_id, NOW - k * DAY - i * HOUR, null));
        transits.push({ ...transit(v, NOW - k * DAY - 2 * DAY, 12, 0) });
      }
    }
    // the range: four Rotterdam → Piraeus voyages; one passed the strait, three never did (around Africa, or lost)
    for (const i of [1, 2, 3, 4]) {
      const v = `vsl_now${i}`;
      calls.push(at(v, rotterdam.port_id, NOW - 9 * DAY, NOW - 8 * DAY), at(v, piraeus.port_id, NOW - i * HOUR, null));
    }
    transits.push(transit('vsl_now1', NOW - 3 * DAY, 12, 0));
    // a Rotterdam → Hamburg voyage does not route by the strait: no detour whatever its track
    calls.push(at('vsl_north', rotterdam.port_id, NOW - 3 * DAY, NOW - 2 * DAY), at('vsl_north', hamburg.port_id, NOW - 5 * HOUR, null));
    // the same port twice is no voyage
    calls.push(at('vsl_same', piraeus.port_id, NOW - 4 * DAY, NOW - 3 * DAY), at('vsl_same', piraeus.port_id, NOW - 2 * HOUR, null));
    // a tanker in the strait 55 h, 51 of them at berth in Tanger Med (inside the gate), 52 h stopped: 1 h of strait waiting
    calls.push(at('vsl_tanger', tangerMed.port_id, NOW - 54 * HOUR, NOW - 3 * HOUR));
    transits.push({ ...transit('vsl_tanger', NOW - 2 * HOUR, 3, 52 * HOUR), entered_at: NOW - 57 * HOUR });
    // another transit stopped 2 h with no call: all of it strait waiting
    transits.push(transit('vsl_waiting', NOW - 4 * HOUR, 8, 2 * HOUR));
    const repo = createEventsRepo(fresh.bosun.ctx.store.db, fresh.bosun.ctx.services.ports);
    await repo.upsertCalls(calls);
    await repo.upsertTransits(transits);

    const operator = await fresh.operatorToken();
    const res = await fresh.api('GET', '/v1/metrics/route_stress_index?zone_key=gibraltar&range=24H', { token: operator });
    assert.equal(res.status, 200, res.text);
    const c = byName(res.body.data.components);
    // the range holds the Tanger Med transit (52 h stopped − 51 h in port = 1 h) and the other (2 h): 1.5 h per transit
    assert.equal(c.gate_waiting!.value, 1.5);
    // 3 of 4 voyages routed through the strait avoided it, against 0 of 2 each day before: (0.75 − 0) × 10, clamped
    assert.deepEqual(res.body.data.detour_voyages, { expected: 4, avoided: 3 });
    assert.deepEqual([c.detours!.value, c.detours!.baseline, c.detours!.stress, c.detours!.available], [0.75, 0, 1, true]);
    assert.equal(c.detours!.data_age_seconds, 3600, 'the newest voyage routed through the strait arrived an hour ago');

    // Øresund is watched by the event layer but is no passage of the sea network
    const oresund = await fresh.api('GET', '/v1/metrics/route_stress_index?zone_key=oresund&range=24H', { token: operator });
    const o = byName(oresund.body.data.components);
    assert.equal(o.detours!.available, false);
    assert.match(o.detours!.note!, /not a passage of the sea network/);
    assert.equal(oresund.body.data.detour_voyages, null);
  } finally {
    await fresh.close();
  }
});
