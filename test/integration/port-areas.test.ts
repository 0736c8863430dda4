import assert from 'node:assert/strict';
import test from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import { PORT_AREA_CELL_DEG } from '../../src/events/port-areas.js';
import { PORT_AREAS_REBUILD_EVERY_MS } from '../../src/features/events/port-areas-service.js';
import { createLeaseRepo } from '../../src/store/leases.js';
import { destinationPoint } from '../../src/geo/distance.js';
import { startTestApp, TEST_EPOCH } from '../helpers/app.js';
import { childStore } from '../helpers/child-store.js';
import { runCli } from '../helpers/cli.js';
import { PAPEETE, papeeteCall } from '../helpers/event-tracks.js';

const T0 = TEST_EPOCH - 3 * 24 * HOUR;
const cellOf = (p: { lat: number; lon: number }) => JSON.stringify([Math.floor(p.lat / PORT_AREA_CELL_DEG), Math.floor(p.lon / PORT_AREA_CELL_DEG)]);

test('bosun events areas rebuild: GFW areas per port and areas learnt where several vessels stopped, berth or anchorage by their stops; operator areas kept', async () => {
  const store = childStore();
  try {
    // three vessels, each 3 h at anchor 2.5 km north of Papeete (status 1) and 10 h alongside 200 m north (status 5)
    const bosun = await store.open();
    try {
      const reports = [244000041, 244000042, 244000043].flatMap((mmsi, i) => papeeteCall(mmsi, T0 + i * 20 * HOUR));
      for (const r of reports.sort((a, b) => a.observedAt - b.observedAt)) bosun.ctx.services.fleet.acceptPosition(r);
      await bosun.ctx.services.fleet.flush();
      await bosun.ctx.services.events.runner.catchUp();
      assert.equal((await bosun.ctx.store.db.selectFrom('port_calls').select('id').execute()).length, 3);
      await bosun.ctx.store.db
        .insertInto('port_areas')
        .values({
          port_id: PAPEETE.port_id,
          provenance: 'operator',
          kind: 'berth',
          cells: '[[0,0]]',
          lat: 0,
          lon: 0,
          confidence: 1,
          vessels: 0,
          stops: 0,
          anchor_stops: 0,
          gfw_points: 0,
          updated_at: T0,
        })
        .execute();
    } finally {
      await bosun.close();
    }
    const cli = () => runCli(['events', 'areas', 'rebuild'], { env: { ...store.env, LOG_LEVEL: 'silent' } });
    const first = await cli();
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /read {5}\d+ GFW anchorage points, 6 stops of 3 port calls/);
    const replaced = /replaced 0 areas with (\d+) gfw and (\d+) learnt areas at \d+ ports/.exec(first.stdout);
    assert.ok(replaced, first.stdout);
    const again = await cli();
    assert.match(again.stdout, new RegExp(`replaced ${Number(replaced[1]) + Number(replaced[2])} areas with ${replaced[1]} gfw and ${replaced[2]} learnt`));

    const reopened = await store.open();
    try {
      const rows = await reopened.ctx.services.events.areas.repo.ofPort(PAPEETE.port_id);
      const gfwCells = new Set(PAPEETE.anchorages.map(([lat, lon]) => cellOf({ lat, lon })));
      const holding = (p: { lat: number; lon: number }) => rows.find((r) => r.provenance !== 'operator' && (JSON.parse(r.cells) as unknown[]).some((c) => JSON.stringify(c) === cellOf(p)));
      const berth = holding(destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 200))!;
      const anchorage = holding(destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 2_500))!;
      assert.ok(berth && anchorage, JSON.stringify(rows));
      assert.deepEqual([berth.kind, berth.vessels, berth.stops, berth.anchor_stops, berth.confidence], ['berth', 3, 3, 0, 0.8]);
      assert.deepEqual([anchorage.kind, anchorage.vessels, anchorage.stops, anchorage.anchor_stops, anchorage.confidence], ['anchorage', 3, 3, 3, 0.8]);
      assert.equal(berth.provenance, gfwCells.has(cellOf(destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 200))) ? 'gfw' : 'learnt');
      assert.equal(rows.filter((r) => r.provenance === 'operator').length, 1, 'the operator area stays');
    } finally {
      await reopened.close();
    }
  } finally {
    await store.cleanup();
  }
});

test('GET /v1/ports/{port_id}/areas: the stored areas as GeoJSON (after a rebuild); empty before; port_not_found and invalid_request', async () => {
  const app = await startTestApp({ now: TEST_EPOCH });
  try {
    const empty = await app.api('GET', `/v1/ports/${PAPEETE.port_id}/areas`);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.data.features, []);
    const fleet = app.bosun.ctx.services.fleet;
    for (const r of [244000051, 244000052].flatMap((mmsi, i) => papeeteCall(mmsi, T0 + i * 20 * HOUR)).sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(r);
    await fleet.flush();
    await app.bosun.ctx.services.events.runner.catchUp();
    await app.bosun.ctx.services.events.areas.rebuild();

    // port search links each port's areas; the link answers them
    const found = await app.api('GET', `/v1/ports/search?near=${PAPEETE.lat},${PAPEETE.lon}&radius_km=5&limit=5`);
    assert.equal(found.status, 200, found.text);
    const papeete = found.body.data.items.find((p: { port_id: number }) => p.port_id === PAPEETE.port_id);
    assert.equal(papeete.areas_url, `http://localhost:80/v1/ports/${PAPEETE.port_id}/areas`);
    const res = await app.api('GET', new URL(papeete.areas_url).pathname);
    assert.equal(res.status, 200);
    const data = res.body.data as {
      type: string;
      port: { port_id: number };
      features: Array<{ id: number; geometry: { type: string; coordinates: number[][][][] }; properties: Record<string, unknown> }>;
    };
    assert.equal(data.type, 'FeatureCollection');
    assert.equal(data.port.port_id, PAPEETE.port_id);
    const berthCell = JSON.parse(cellOf(destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 200))) as [number, number];
    const berth = data.features.find((f) =>
      f.geometry.coordinates.some(
        (square) => square[0]![0]![1] === Math.round(berthCell[0] * PORT_AREA_CELL_DEG * 1e5) / 1e5 && square[0]![0]![0] === Math.round(berthCell[1] * PORT_AREA_CELL_DEG * 1e5) / 1e5,
      ),
    );
    assert.ok(berth, JSON.stringify(data.features.map((f) => f.properties)));
    assert.equal(berth.geometry.type, 'MultiPolygon');
    assert.deepEqual([berth.properties.kind, berth.properties.vessels, berth.properties.stops, berth.properties.confidence], ['berth', 2, 2, 0.75]);
    assert.equal(berth.id, berth.properties.area_id);

    const unknown = await app.api('GET', '/v1/ports/999999/areas');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].code, 'port_not_found');
    const bad = await app.api('GET', '/v1/ports/abc/areas');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'invalid_request');
  } finally {
    await app.close();
  }
});

test('the scheduled rebuild: due on a store never built and a day after the last build, not before; one process at a time under the store lease', async () => {
  const app = await startTestApp({ now: TEST_EPOCH });
  try {
    const { areas } = app.bosun.ctx.services.events;
    const fleet = app.bosun.ctx.services.fleet;
    for (const r of [244000061, 244000062].flatMap((mmsi, i) => papeeteCall(mmsi, T0 + i * 20 * HOUR)).sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(r);
    await fleet.flush();
    await app.bosun.ctx.services.events.runner.catchUp();

    // another process holds the rebuild lease: this one leaves the work to it
    const leases = createLeaseRepo(app.bosun.ctx.store.db);
    assert.equal(await leases.claim('port_areas_rebuild', 'other-process', app.clock.now(), HOUR), true);
    assert.equal(await areas.rebuildIfDue(), null);
    assert.equal(await areas.repo.lastBuiltAt(), null);
    await leases.release('port_areas_rebuild', 'other-process', app.clock.now());

    const first = await areas.rebuildIfDue();
    assert.ok(first && first.written.learnt >= 1 && first.written.gfw > 1000, JSON.stringify(first));
    assert.equal(await areas.repo.lastBuiltAt(), TEST_EPOCH);
    assert.ok((await areas.repo.ofPort(PAPEETE.port_id)).some((a) => a.provenance === 'learnt'));

    app.clock.advance(PORT_AREAS_REBUILD_EVERY_MS - 1);
    assert.equal(await areas.rebuildIfDue(), null, 'not due a millisecond before a day');
    app.clock.advance(1);
    const again = await areas.rebuildIfDue();
    assert.deepEqual(again?.written, first.written);
    assert.equal(await areas.repo.lastBuiltAt(), TEST_EPOCH + PORT_AREAS_REBUILD_EVERY_MS);
    assert.equal(await leases.holder('port_areas_rebuild', app.clock.now()), null, 'the lease is released after the build');
  } finally {
    await app.close();
  }
});

test('an operator corrects a port area through a feedback ticket: applied as an operator area, kept by rebuilds, used by the port-call detector; revert restores the built area', async () => {
  const app = await startTestApp({ now: TEST_EPOCH });
  try {
    const { areas, runner } = app.bosun.ctx.services.events;
    const fleet = app.bosun.ctx.services.fleet;
    // no AIS status and no heading: a stop's kind comes from the stored area where one holds it, else the former rules
    const quiet = (mmsi: number, start: number) => papeeteCall(mmsi, start).map((r) => ({ ...r, navStatus: null, heading: null }));
    const feed = async (reports: ReturnType<typeof quiet>) => {
      for (const r of reports.sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(r);
      await fleet.flush();
      await runner.catchUp();
    };
    const lastStopKind = async (mmsi: number) => {
      const vessel = await app.bosun.ctx.store.db.selectFrom('vessels').select('vsl_id').where('mmsi', '=', mmsi).executeTakeFirstOrThrow();
      const call = await app.bosun.ctx.store.db.selectFrom('port_calls').select(['port_id', 'stops']).where('vsl_id', '=', vessel.vsl_id).executeTakeFirstOrThrow();
      assert.equal(call.port_id, PAPEETE.port_id);
      const stops = JSON.parse(call.stops) as Array<{ kind: string }>;
      return stops.map((s) => s.kind);
    };
    await feed([244000071, 244000072, 244000073].flatMap((mmsi, i) => quiet(mmsi, T0 + i * 20 * HOUR)));
    assert.deepEqual(await lastStopKind(244000071), ['anchorage', 'berth'], 'before any area: the wait then the berth');
    await areas.rebuild();
    const berthCell = JSON.parse(cellOf(destinationPoint(PAPEETE.lat, PAPEETE.lon, 0, 200))) as [number, number];
    type Feature = { properties: { area_key: string; kind: string; provenance: string }; geometry: { coordinates: number[][][][] } };
    const holdingBerth = async () => {
      const res = await app.api('GET', `/v1/ports/${PAPEETE.port_id}/areas`);
      assert.equal(res.status, 200, res.text);
      const w = Math.round(berthCell[1] * PORT_AREA_CELL_DEG * 1e5) / 1e5;
      const s = Math.round(berthCell[0] * PORT_AREA_CELL_DEG * 1e5) / 1e5;
      return (res.body.data.features as Feature[]).filter((f) => f.geometry.coordinates.some((sq) => sq[0]![0]![0] === w && sq[0]![0]![1] === s));
    };
    const [built] = await holdingBerth();
    assert.ok(built, 'a built area holds the berth');
    assert.equal(built.properties.kind, 'berth');
    assert.match(built.properties.area_key, new RegExp(`^${PAPEETE.port_id}:-?\\d+:-?\\d+$`));

    // an agent asks for the berth area to be an anchorage; an unknown area is refused
    const agent = await app.registerAgent('pilot');
    const unknown = await app.api('POST', '/v1/feedback/correction', {
      token: agent.apiKey,
      body: { subject: { kind: 'area', id: `${PAPEETE.port_id}:1:1` }, changes: [{ field: 'kind', value: 'anchorage' }], body: 'no such area' },
    });
    assert.deepEqual([unknown.status, unknown.body.errors[0].code, unknown.body.errors[0].field], [400, 'invalid_request', 'body.subject.id']);
    const badKind = await app.api('POST', '/v1/feedback/correction', {
      token: agent.apiKey,
      body: { subject: { kind: 'area', id: built.properties.area_key }, changes: [{ field: 'kind', value: 'quay' }], body: 'x' },
    });
    assert.deepEqual([badKind.status, badKind.body.errors[0].code], [400, 'invalid_request']);
    const opened = await app.api('POST', '/v1/feedback/correction', {
      token: agent.apiKey,
      body: { subject: { kind: 'area', id: built.properties.area_key }, changes: [{ field: 'kind', value: 'anchorage' }], body: 'Ships lie at anchor here, not alongside.' },
    });
    assert.equal(opened.status, 201, opened.text);
    const ticketId = opened.body.data.ticket_id as string;
    const feedback = app.bosun.ctx.services.feedback;
    await feedback.step(ticketId, 'accept', {}, { kind: 'cli' });
    app.clock.advance(HOUR);
    await feedback.step(ticketId, 'apply', {}, { kind: 'cli' });

    const corrected = await holdingBerth();
    assert.deepEqual(
      corrected.map((f) => [f.properties.provenance, f.properties.kind]),
      [['operator', 'anchorage']],
      'the operator area holds the cell; the built one is masked there',
    );
    // a rebuild leaves the operator area and its mask alone
    app.clock.advance(HOUR);
    await areas.rebuild();
    assert.deepEqual(
      (await holdingBerth()).map((f) => [f.properties.provenance, f.properties.kind]),
      [['operator', 'anchorage']],
    );
    // the detector reads the corrected area: a new call's stop there is a wait at anchor
    await feed(quiet(244000074, T0 + 2 * HOUR));
    assert.deepEqual(await lastStopKind(244000074), ['anchorage', 'anchorage']);

    // reverted: the built berth area is served and used again
    await feedback.step(ticketId, 'revert', {}, { kind: 'cli' });
    assert.deepEqual(
      (await holdingBerth()).map((f) => [f.properties.provenance, f.properties.kind]),
      [[built.properties.provenance, 'berth']],
    );
    await feed(quiet(244000075, T0 + 4 * HOUR));
    assert.deepEqual(await lastStopKind(244000075), ['anchorage', 'berth']);
  } finally {
    await app.close();
  }
});
