import assert from 'node:assert/strict';
import test from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import type { PositionReport } from '../../src/fleet/types.js';
import { TEST_EPOCH, withApp, type TestApp } from '../helpers/app.js';
import { childStore } from '../helpers/child-store.js';
import { runCli } from '../helpers/cli.js';
import { PAPEETE, papeeteCall } from '../helpers/event-tracks.js';
import { callRow, completedCall } from '../helpers/events-congestion.js';
import { seedSampleVessel } from '../helpers/fleet.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { HOUSTON } from '../helpers/houston-ports.js';

// An applied port correction (docs/feedback.md) is the port every reader gets: routing, event detection,
// congestion, visit rank, ports search; reverting it brings the observed port back everywhere.

const ROTTERDAM = 31140;
const CLI = { kind: 'cli' } as const;
const iso = (ms: number) => new Date(ms).toISOString();

/** Opens a port correction as `token`, accepts and applies it; the ticket id. */
async function applyCorrection(app: TestApp, token: string, portId: number, changes: Array<{ field: string; value: string | number }>): Promise<string> {
  const res = await app.api('POST', '/v1/feedback/correction', { token, body: { subject: { kind: 'port', id: String(portId) }, changes, body: 'The port is elsewhere / named otherwise.' } });
  assert.equal(res.status, 201, res.text);
  const ticketId = res.body.data.ticket_id as string;
  await app.bosun.ctx.services.feedback.step(ticketId, 'accept', {}, CLI);
  await app.bosun.ctx.services.feedback.step(ticketId, 'apply', {}, CLI);
  return ticketId;
}

const revert = (app: TestApp, ticketId: string) => app.bosun.ctx.services.feedback.step(ticketId, 'revert', {}, CLI);

/** Rotterdam's table position lies in the city: its answers also carry connector_over_land (decision 082), beside the point of this file. */
const withoutLand = (flags: string[]) => flags.filter((f) => f !== 'connector_over_land');

test('routing starts from the corrected port (coordinates and name) and flags it; the answer cache does not serve the old port; revert restores', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('router');
    const ports = app.bosun.ctx.services.ports;
    const observed = ports.byId(ROTTERDAM)!;
    const route = () => app.api('GET', `/v1/routes/direct?from=${ROTTERDAM}&to=SGSIN`, { token: apiKey });

    const before = await route();
    assert.equal(before.status, 200, before.text);
    assert.deepEqual([before.body.data.from.lat, before.body.data.from.lon, before.body.data.from.port.name], [observed.lat, observed.lon, observed.name]);
    assert.deepEqual(withoutLand(before.body.quality_flags), []);
    const versionBefore = ports.version();

    // the Maasvlakte entrance, about 30 km west of the table's position
    const ticketId = await applyCorrection(app, apiKey, ROTTERDAM, [
      { field: 'lat', value: 51.98 },
      { field: 'lon', value: 4.0 },
      { field: 'name', value: 'Rotterdam Maasvlakte' },
    ]);
    assert.notEqual(ports.version(), versionBefore, 'the served table changed');
    const corrected = await route();
    assert.equal(corrected.status, 200, corrected.text);
    const from = corrected.body.data.from;
    assert.deepEqual([from.lat, from.lon, from.port.name, from.port.port_id], [51.98, 4.0, 'Rotterdam Maasvlakte', ROTTERDAM]);
    assert.deepEqual(corrected.body.data.geometry.coordinates[0], [4.0, 51.98], 'the line starts at the corrected point');
    assert.notDeepEqual(from.network, before.body.data.from.network, 'snapped to the network from the corrected point');
    assert.deepEqual(withoutLand(corrected.body.quality_flags), ['operator_corrected']);
    // by UN/LOCODE too, and in the planning operations
    const byLocode = await app.api('GET', '/v1/routes/direct?from=NLRTM&to=SGSIN', { token: apiKey });
    assert.deepEqual([byLocode.body.data.from.lat, byLocode.body.data.from.lon], [51.98, 4.0]);
    const explain = await app.api('GET', `/v1/routes/explain?from=${ROTTERDAM}&to=SGSIN`, { token: apiKey });
    assert.equal(explain.status, 200, explain.text);
    assert.deepEqual(withoutLand(explain.body.quality_flags), ['operator_corrected']);

    // the raw row is untouched: the observed port is still there underneath
    assert.deepEqual([ports.observed(ROTTERDAM)!.lat, ports.observed(ROTTERDAM)!.name], [observed.lat, observed.name]);

    await revert(app, ticketId);
    const restored = await route();
    assert.deepEqual([restored.body.data.from.lat, restored.body.data.from.lon, restored.body.data.from.port.name], [observed.lat, observed.lon, observed.name]);
    assert.deepEqual(restored.body.data.from.network, before.body.data.from.network);
    assert.deepEqual(withoutLand(restored.body.quality_flags), []);
  });
});

test('ports search matches the corrected name and position, keeps the observed name as an alternate; a vessel correction leaves the port table as it is', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('searcher');
    const ports = app.bosun.ctx.services.ports;
    const ticketId = await applyCorrection(app, apiKey, HOUSTON, [{ field: 'name', value: 'Port Houston Barbours Cut' }]);
    const byNew = await app.api('GET', '/v1/ports/search?q=Barbours%20Cut&country=US');
    assert.equal(byNew.status, 200, byNew.text);
    const hit = byNew.body.data.items[0];
    assert.deepEqual([hit.port_id, hit.name], [HOUSTON, 'Port Houston Barbours Cut']);
    assert.ok(hit.alternate_names.includes('Houston'), 'the observed name stays searchable');
    assert.deepEqual(
      hit.corrections.map((c: { field: string; value: unknown; ticket_id: string }) => [c.field, c.value, c.ticket_id]),
      [['name', 'Port Houston Barbours Cut', ticketId]],
    );
    assert.deepEqual(withoutLand(byNew.body.quality_flags), ['operator_corrected']);
    const byOld = await app.api('GET', '/v1/ports/search?locode=USHOU');
    assert.ok(byOld.body.data.items.some((p: { port_id: number; name: string }) => p.port_id === HOUSTON && p.name === 'Port Houston Barbours Cut'));

    const version = ports.version();
    const table = ports.table();
    // another kind of override (a vessel's) moves the override version, not the port table
    await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
    const overridesVersion = app.bosun.ctx.services.overrides.version();
    const vesselTicket = await app.api('POST', '/v1/feedback/correction', {
      token: apiKey,
      body: { subject: { kind: 'vessel', id: 'IMO:9811000' }, changes: [{ field: 'name', value: 'OCEAN PRIDE II' }], body: 'Renamed.' },
    });
    assert.equal(vesselTicket.status, 201, vesselTicket.text);
    await app.bosun.ctx.services.feedback.step(vesselTicket.body.data.ticket_id, 'accept', {}, CLI);
    await app.bosun.ctx.services.feedback.step(vesselTicket.body.data.ticket_id, 'apply', {}, CLI);
    assert.notEqual(app.bosun.ctx.services.overrides.version(), overridesVersion);
    assert.equal(ports.version(), version);
    assert.equal(ports.table(), table, 'the same array: caches keyed on it stay');

    await revert(app, ticketId);
    assert.equal(ports.byId(HOUSTON)!.name, 'Houston');
    assert.equal(ports.byId(HOUSTON)!.corrections, undefined);
    const gone = await app.api('GET', '/v1/ports/search?q=Barbours%20Cut&country=US');
    assert.ok(!gone.body.data.items.some((p: { port_id: number }) => p.port_id === HOUSTON));
  });
});

test('congestion and visit rank name the corrected port and flag it; revert restores the observed name', () =>
  withApp(async (app) => {
    const at = TEST_EPOCH - 10 * HOUR;
    await createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports).upsertCalls(
      [completedCall('c1', HOUSTON, 70, at - HOUR, 2, 6), completedCall('c2', HOUSTON, 70, at - 2 * HOUR, 1, 8)].map(callRow),
    );
    const { apiKey } = await app.registerAgent('live', ['vessels:live']);
    const congestion = () => app.api('GET', `/v1/ports/${HOUSTON}/congestion?at=${iso(at)}`, { token: apiKey });
    const rank = () => app.api('GET', `/v1/vessels/visit_rank?from=${iso(at - DAY)}&to=${iso(at)}`, { token: apiKey });
    assert.equal((await congestion()).body.data.port.name, 'Houston');

    const ticketId = await applyCorrection(app, apiKey, HOUSTON, [{ field: 'name', value: 'Port Houston' }]);
    const c = await congestion();
    assert.equal(c.status, 200, c.text);
    assert.deepEqual(c.body.data.port, { port_id: HOUSTON, name: 'Port Houston', locode: 'USHOU', country: 'US' });
    assert.equal(c.body.data.window.departures, 2, 'the figures are the port’s calls as before');
    assert.deepEqual(withoutLand(c.body.quality_flags), ['operator_corrected']);
    const r = await rank();
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.data.items.map((i: { port: { port_id: number; name: string }; calls: number }) => [i.port.port_id, i.port.name, i.calls]),
      [[HOUSTON, 'Port Houston', 2]],
    );
    assert.ok(r.body.quality_flags.includes('operator_corrected'));

    await revert(app, ticketId);
    const restored = await congestion();
    assert.equal(restored.body.data.port.name, 'Houston');
    assert.deepEqual(withoutLand(restored.body.quality_flags), []);
    assert.equal((await rank()).body.data.items[0].port.name, 'Houston');
  }));

async function ingest(app: Pick<TestApp, 'bosun'>, reports: PositionReport[]): Promise<void> {
  const fleet = app.bosun.ctx.services.fleet;
  for (const report of [...reports].sort((a, b) => a.observedAt - b.observedAt)) fleet.acceptPosition(report);
  await fleet.flush();
}

test('port-call detection uses the corrected position: a stop there is a call at the port only while the correction stands', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent('spotter');
    const runner = app.bosun.ctx.services.events.runner;
    const repo = createEventsRepo(app.bosun.ctx.store.db, app.bosun.ctx.services.ports);
    // open water 60 km north-east of Papeete: no port or anchorage point within reach
    const moved = { lat: -17.3, lon: -149.0 };
    const T0 = TEST_EPOCH - 4 * DAY;
    const callsOf = async (mmsi: number) => {
      const vslId = app.bosun.ctx.services.fleet.byMmsiNumber(mmsi)?.vslId;
      return (await repo.callsAtPort(PAPEETE.port_id, T0 - DAY, TEST_EPOCH)).filter((row) => row.vsl_id === vslId);
    };

    await ingest(app, papeeteCall(244000101, T0, moved));
    await runner.catchUp();
    assert.equal((await callsOf(244000101)).length, 0, 'before the correction the stop is at no port');

    const ticketId = await applyCorrection(app, apiKey, PAPEETE.port_id, [
      { field: 'lat', value: moved.lat },
      { field: 'lon', value: moved.lon },
    ]);
    await ingest(app, papeeteCall(244000102, T0 + DAY, moved));
    await runner.catchUp();
    const calls = await callsOf(244000102);
    assert.equal(calls.length, 1, 'a call at the corrected position');
    assert.notEqual(calls[0]!.departure, null);
    assert.ok(calls[0]!.berth_ms >= 9.9 * HOUR && calls[0]!.berth_ms <= 10.1 * HOUR, `berth ${calls[0]!.berth_ms / HOUR} h`);

    await revert(app, ticketId);
    await ingest(app, [...papeeteCall(244000103, T0 + 2 * DAY, moved), ...papeeteCall(244000104, T0 + 2 * DAY, PAPEETE)]);
    await runner.catchUp();
    assert.equal((await callsOf(244000103)).length, 0, 'after the revert the corrected position is no port again');
    assert.equal((await callsOf(244000104)).length, 1, 'and the observed position is');
  }));

test('bosun events rebuild (another process) detects with the corrections applied in the store', async () => {
  const store = childStore();
  try {
    const moved = { lat: -17.3, lon: -149.0 };
    const T0 = TEST_EPOCH - 3 * DAY;
    let bosun = await store.open();
    try {
      await ingest({ bosun }, papeeteCall(244000111, T0, moved));
      // what `bosun feedback apply` writes: the override rows and the version, in one transaction
      await bosun.ctx.store.transaction('test:port-correction', (trx) =>
        bosun.ctx.services.overrides.apply(
          'fbt_port_rebuild_test',
          'port',
          String(PAPEETE.port_id),
          [
            { field: 'lat', value: moved.lat },
            { field: 'lon', value: moved.lon },
          ],
          T0,
          trx,
        ),
      );
    } finally {
      await bosun.close();
    }
    const rebuilt = await runCli(['events', 'rebuild', '--from', iso(T0), '--to', iso(T0 + DAY)], { env: { ...store.env, LOG_LEVEL: 'silent' } });
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /written {2}1 port calls/);
    bosun = await store.open();
    try {
      const calls = await createEventsRepo(bosun.ctx.store.db, bosun.ctx.services.ports).callsAtPort(PAPEETE.port_id, T0 - DAY, T0 + 2 * DAY);
      assert.equal(calls.length, 1, 'the call is at the corrected Papeete');
    } finally {
      await bosun.close();
    }
  } finally {
    await store.cleanup();
  }
});
