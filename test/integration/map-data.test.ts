import { after, before, test } from 'node:test';
import { MAP_ATTRIBUTION } from '../../src/features/map/map-service.js';
import { rfc7946Issues } from '../helpers/geojson.js';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { unwrapRing } from '../../src/features/map/basemap.js';
import { MAP_LAYER_TTL_MS } from '../../src/features/map/map-service.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { identity, ingest, position, seedSampleVessel } from '../helpers/fleet.js';
import { meetingReports } from '../helpers/events-sts.js';
import { callRow } from '../helpers/events-congestion.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';

const DELAY_MS = 50_400 * SECOND;
const PASSWORD = 'map data operator password';

interface Fc {
  type: string;
  viewer?: string;
  features: Array<{ geometry: { coordinates: [number, number] }; properties: Record<string, any> }>;
  attribution?: string[];
  [k: string]: unknown;
}

let app: TestApp;
let now: number;
let session: string;

before(async () => {
  app = await startTestApp();
  now = app.clock.now();
  const fleet = app.bosun.ctx.services.fleet;
  // an encounter that ended 20 h ago (visible to anyone) and one that ended 1 h ago (operator only)
  const reports = [
    ...meetingReports(244000401, 244000402, { lat: 20, lon: -40, start: now - 24 * HOUR, minutes: 180 }),
    ...meetingReports(244000403, 244000404, { lat: 15, lon: -30, start: now - 4 * HOUR, minutes: 180 }),
    position(244000999, now - MINUTE, 0, 0, { sog: 12 }),
  ].sort((x, y) => x.observedAt - y.observedAt);
  for (const r of reports) fleet.acceptPosition(r);
  await fleet.flush();
  await seedSampleVessel(fleet, now);
  // a vessel seen only in the last hour: nothing on the anonymous map
  await ingest(fleet, identity(244010002, now - 30 * MINUTE, { name: 'FRESH ONLY', shipType: 30 }), position(244010002, now - 30 * MINUTE, 51, 3));
  await app.bosun.ctx.services.events.runner.catchUp();
  await app.bosun.ctx.services.operator.setPassword(PASSWORD);
  const signIn = await app.bosun.ctx.services.consoleSessions.signIn(PASSWORD, { ip: '127.0.0.1' });
  assert.ok(signIn.ok);
  session = signIn.token;
});

after(async () => {
  await app?.close();
});

const cookie = () => ({ cookie: `bosun_console=${encodeURIComponent(session)}` });

test('the anonymous vessel layer serves each vessel at its newest position at least the preview delay old, labelled delayed', async () => {
  const res = await app.api('GET', '/map/data/vessels.geojson');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^application\/geo\+json/);
  const fc = JSON.parse(res.text) as Fc;
  assert.equal(fc.viewer, 'anonymous');
  assert.equal(fc.delay_seconds, 50_400);
  assert.deepEqual(rfc7946Issues(fc, { perFeature: false }), []);
  assert.deepEqual(fc.attribution, [...MAP_ATTRIBUTION.vessels]);
  for (const f of fc.features) {
    assert.ok(Date.parse(f.properties.observed_at) <= now - DELAY_MS, `${f.properties.vsl_id} at ${f.properties.observed_at}`);
    assert.equal(f.properties.delayed, true);
  }
  const pride = fc.features.find((f) => f.properties.name === 'OCEAN PRIDE')!;
  assert.deepEqual(pride.geometry.coordinates, [103.7, 1.2]);
  assert.equal(pride.properties.category, 'tanker');
  assert.equal(pride.properties.imo, 9811000);
  assert.equal(pride.properties.age_seconds, 20 * 3600);
  assert.equal(pride.properties.simulated, false);
  assert.ok(!fc.features.some((f) => f.properties.name === 'FRESH ONLY'), 'a vessel with no position that old is not drawn');
});

test('the operator layer needs the console session and serves live positions', async () => {
  const refused = await app.api('GET', '/console/map/data/vessels.geojson');
  assert.equal(refused.status, 401);
  assert.equal((await app.api('GET', '/console/map')).headers.location, '/console');
  const res = await app.api('GET', '/console/map/data/vessels.geojson', { headers: cookie() });
  assert.equal(res.status, 200);
  const fc = JSON.parse(res.text) as Fc;
  assert.equal(fc.viewer, 'operator');
  const pride = fc.features.find((f) => f.properties.name === 'OCEAN PRIDE')!;
  assert.deepEqual(pride.geometry.coordinates, [103.8, 1.25]);
  assert.equal(pride.properties.delayed, false);
  const fresh = fc.features.find((f) => f.properties.name === 'FRESH ONLY')!;
  assert.equal(fresh.properties.category, 'fishing');
  const page = await app.api('GET', '/console/map', { headers: cookie() });
  assert.equal(page.status, 200);
  assert.match(page.text, /data-vessels="\/console\/map\/data\/vessels.geojson"/);
});

test('STS encounters on the map stop at the viewer horizon: the recent one only for the operator', async () => {
  const sts = (fc: Fc) => fc.features.filter((f) => f.properties.layer === 'sts');
  const anonymous = JSON.parse((await app.api('GET', '/map/data/events.geojson')).text) as Fc;
  const operator = JSON.parse((await app.api('GET', '/console/map/data/events.geojson', { headers: cookie() })).text) as Fc;
  assert.equal(sts(anonymous).length, 1);
  assert.ok(Math.abs(sts(anonymous)[0]!.geometry.coordinates[1] - 20) < 0.01);
  assert.ok(Date.parse(sts(anonymous)[0]!.properties.end) <= now - DELAY_MS);
  assert.equal(sts(operator).length, 2);
  assert.equal((await app.api('GET', '/console/map/data/events.geojson')).status, 401);
});

test('layers are rebuilt after the TTL: a vessel added appears once the clock has moved on', async () => {
  const names = async () => (JSON.parse((await app.api('GET', '/console/map/data/vessels.geojson', { headers: cookie() })).text) as Fc).features.map((f) => f.properties.name);
  assert.ok(!(await names()).includes('LATE ARRIVAL'));
  await ingest(app.bosun.ctx.services.fleet, identity(244010003, now, { name: 'LATE ARRIVAL', shipType: 52 }), position(244010003, now, 50, 1));
  assert.ok(!(await names()).includes('LATE ARRIVAL'), 'reused within the TTL');
  app.clock.advance(MAP_LAYER_TTL_MS);
  assert.ok((await names()).includes('LATE ARRIVAL'));
});

test('places: the twelve chokepoints and the port table split into WPI ports and the UN/LOCODE-only rest; gzip when accepted', async () => {
  const plain = await app.api('GET', '/map/data/places.geojson');
  assert.equal(plain.headers['content-encoding'], undefined);
  const zipped = await app.bosun.http.inject({ method: 'GET', url: '/map/data/places.geojson', headers: { 'accept-encoding': 'gzip, deflate, br' } });
  assert.equal(zipped.headers['content-encoding'], 'gzip');
  assert.equal(zipped.headers.vary, 'accept-encoding');
  const places = JSON.parse(gunzipSync(zipped.rawPayload).toString()) as Fc;
  assert.deepEqual(places, JSON.parse(plain.text));
  const chokepoints = places.features.filter((f) => f.properties.layer === 'chokepoint');
  assert.deepEqual(chokepoints.map((f) => f.properties.key).sort(), CHOKEPOINTS.map((c) => c.key).sort());
  const more = JSON.parse((await app.api('GET', '/map/data/more-ports.geojson')).text) as Fc;
  const table = app.bosun.ctx.services.ports.table();
  const ports = places.features.filter((f) => f.properties.layer === 'port');
  assert.equal(ports.length, table.filter((p) => p.sources.includes('wpi')).length);
  assert.equal(ports.length + more.features.length, table.length);
  assert.deepEqual(rfc7946Issues(places, { perFeature: false }), []);
  assert.deepEqual(rfc7946Issues(more, { perFeature: false }), []);
  assert.deepEqual(places.attribution, [...MAP_ATTRIBUTION.places]);
  const events = JSON.parse((await app.api('GET', '/map/data/events.geojson')).text) as Fc;
  assert.deepEqual(rfc7946Issues(events, { perFeature: false }), []);
});

test('basemap: Natural Earth land and borders; rings crossing the antimeridian and back are unwrapped', async () => {
  const res = await app.api('GET', '/map/data/basemap.json');
  const basemap = JSON.parse(res.text) as { land: Fc; borders: Fc; attribution: string };
  assert.match(basemap.attribution, /Natural Earth/);
  const polygons = (basemap.land.features[0] as unknown as { geometry: { coordinates: number[][][][] } }).geometry.coordinates;
  assert.ok(polygons.length > 1000);
  let bands = 0;
  for (const polygon of polygons)
    for (const ring of polygon) {
      let jumps = 0;
      for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0]! - ring[i - 1]![0]!) > 180) jumps++;
      if (jumps > 1) bands++;
    }
  assert.equal(bands, 0, 'no ring draws a band across the map');
  // RFC 7946 §3.1.6: topojson's clockwise exterior rings are turned counter-clockwise
  assert.deepEqual(rfc7946Issues(basemap.land, { perFeature: false }), []);
  assert.deepEqual(rfc7946Issues(basemap.borders, { perFeature: false }), []);
  assert.deepEqual(
    unwrapRing([
      [179, 60],
      [-179, 60],
      [-179, 61],
      [179, 61],
      [179, 60],
    ]),
    [
      [179, 60],
      [181, 60],
      [181, 61],
      [179, 61],
      [179, 60],
    ],
  );
  assert.equal((await app.api('GET', '/assets/map/maplibre-gl.mjs')).status, 200);
  assert.equal((await app.api('GET', '/assets/map/nothing.js')).status, 404);
  const page = await app.api('GET', '/map');
  assert.match(page.text, /<noscript>/);
  assert.match(page.text, /50,400 s/);
});

test('congestion at the busiest ports, as each viewer may see it: a vessel waiting since 2 h ago only on the operator map', async () => {
  const port = app.bosun.ctx.services.ports.table().find((p) => p.sources.includes('wpi'))!;
  const waiting = (vslId: string, since: number) =>
    callRow({ vslId, portId: port.port_id, shipType: 70, arrival: since, departure: null, stops: [{ kind: 'anchorage', start: since, end: now - MINUTE }], lastFixAt: now - MINUTE });
  await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls([waiting('vsl_map_wait_a', now - 20 * HOUR), waiting('vsl_map_wait_b', now - 2 * HOUR)]);
  app.clock.advance(MAP_LAYER_TTL_MS);
  const at = (fc: Fc) => fc.features.find((f) => f.properties.layer === 'congestion' && f.properties.port_id === port.port_id)!;
  const anonymous = at(JSON.parse((await app.api('GET', '/map/data/events.geojson')).text) as Fc);
  const operator = at(JSON.parse((await app.api('GET', '/console/map/data/events.geojson', { headers: cookie() })).text) as Fc);
  assert.equal(anonymous.properties.waiting, 1);
  assert.ok(Date.parse(anonymous.properties.at) <= app.clock.now() - DELAY_MS);
  assert.equal(operator.properties.waiting, 2);
  assert.deepEqual(operator.geometry.coordinates, [Math.round(port.lon * 1e5) / 1e5, Math.round(port.lat * 1e5) / 1e5]);
});

test("the console map's data polls do not keep the operator signed in: the idle hour runs from the last page the operator opened", async () => {
  const signedIn = await app.bosun.ctx.services.consoleSessions.signIn(PASSWORD, { ip: '127.0.0.1' });
  assert.ok(signedIn.ok);
  const headers = { cookie: `bosun_console=${encodeURIComponent(signedIn.token)}` };
  assert.equal((await app.api('GET', '/console/map', { headers })).status, 200, 'the page itself renews the session');
  // an unattended tab: the page polls its layers every 15 s for an hour
  for (let minute = 15; minute <= 45; minute += 15) {
    app.clock.advance(15 * MINUTE);
    assert.equal((await app.api('GET', '/console/map/data/vessels.geojson', { headers })).status, 200, `poll at ${minute} min`);
    assert.equal((await app.api('GET', '/console/map/data/events.geojson', { headers })).status, 200, `poll at ${minute} min`);
  }
  app.clock.advance(15 * MINUTE);
  assert.equal((await app.api('GET', '/console/map/data/vessels.geojson', { headers })).status, 401, 'an hour after the page: signed out');
  assert.equal((await app.api('GET', '/console/map', { headers })).headers.location, '/console');
});
