import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AisDecoder } from '../../src/ais/index.js';
import { createBosun } from '../../src/app/create.js';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { POSITIONS_TOPIC, type PositionsEvent } from '../../src/fleet/types.js';
import { startTestApp, TEST_EPOCH, usingPostgres, type TestApp, withApp } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const T0 = TEST_EPOCH - 10 * MINUTE;

/** A store that outlives one Bosun instance: a temporary SQLite file, or the test's PostgreSQL schema. */
async function startPersistentApp(): Promise<{ app: TestApp; cleanup: () => void }> {
  if (usingPostgres()) return { app: await startTestApp(), cleanup: () => {} };
  const file = join(tmpdir(), `bosun-fleet-${randomBytes(6).toString('hex')}.sqlite`);
  const app = await startTestApp({ env: { DATABASE_URL: `sqlite:${file}` } });
  return { app, cleanup: () => ['', '-wal', '-shm'].forEach((s) => rmSync(file + s, { force: true })) };
}

/**
 * The positions events the bus delivers, and a wait until they hold `n` positions: a Redis bus delivers on its
 * subscriber connection after the publish has returned, so an assertion right after a flush could run before them.
 */
function positionEvents(app: TestApp): { events: PositionsEvent[]; delivered(n: number): Promise<void> } {
  const events: PositionsEvent[] = [];
  let waiting: { n: number; resolve: () => void } | null = null;
  const held = () => events.reduce((sum, e) => sum + e.positions.length, 0);
  app.bosun.ctx.bus.subscribe(POSITIONS_TOPIC, (e) => {
    events.push(e as PositionsEvent);
    if (waiting && held() >= waiting.n) waiting.resolve();
  });
  return { events, delivered: (n) => (held() >= n ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { n, resolve }))) };
}

test('positions are stored in one batch per flush, duplicates (vessel, time) ignored, then published with their seq', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const { events, delivered } = positionEvents(app);
    await app.bosun.ctx.bus.ready();
    await ingest(
      fleet,
      position(563033300, T0, 1.25, 103.8),
      position(563033300, T0 + 10 * SECOND, 1.2503, 103.8005),
      position(563033300, T0 + 10 * SECOND, 1.2503, 103.8005),
      position(244123456, T0, 51.9, 4.1),
    );
    const rows = await app.bosun.ctx.store.db.selectFrom('positions').selectAll().orderBy('seq').execute();
    assert.equal(rows.length, 3);
    assert.deepEqual(
      rows.map((r) => Number(r.observed_at)),
      [T0, T0 + 10 * SECOND, T0],
    );
    await delivered(rows.length);
    assert.equal(events.length, 1, 'one event per written batch');
    assert.deepEqual(
      events[0]!.positions.map((p) => p.seq),
      rows.map((r) => Number(r.seq)),
    );
    assert.equal(events[0]!.positions[0]!.mmsi, 563033300);
    assert.equal(events[0]!.positions[0]!.vslId, fleet.byMmsiNumber(563033300)!.vslId);

    await ingest(fleet, position(563033300, T0 + 10 * SECOND, 1.2503, 103.8005));
    assert.equal(events.length, 1, 'a batch of duplicates publishes nothing');
    const stats = fleet.stats();
    assert.equal(stats.positions_stored, 3);
    assert.equal(stats.positions_duplicate, 2);
    assert.equal(stats.vessels, 2);
    assert.equal(stats.last_observation_at, new Date(T0 + 10 * SECOND).toISOString());
    const status = await app.api('GET', '/v1/status');
    assert.equal(status.body.data.components.fleet.positions_stored, 3);
  }));

test('batch statements store every value exactly: awkward text, nulls, several chunks, the same statement reused', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const { events, delivered } = positionEvents(app);
    await app.bosun.ctx.bus.ready();
    const awkward = ['file:a, "b" {c} \\d\'e.nmea', 'NULL', '', 'tcp:ünïcödé ⚓'];
    const reports = Array.from({ length: 2 * 1234 }, (_, i) =>
      position(200000000 + (i % 7) + 1, T0 + i * SECOND, 1e-7 * i - 45.123456789, 179.9999999 - i * 1e-5, {
        source: awkward[i % awkward.length]!,
        sog: i % 3 === 0 ? null : i / 7,
        cog: i % 5 === 0 ? null : 359.9,
        heading: i % 2 === 0 ? null : 511,
        navStatus: i % 4 === 0 ? null : 15,
        msgType: i % 6 === 0 ? null : 18,
      }),
    );
    await ingest(fleet, ...reports.slice(0, 1234));
    await ingest(fleet, ...reports.slice(1234));
    const rows = await app.bosun.ctx.store.db.selectFrom('positions').selectAll().orderBy('seq').execute();
    assert.equal(rows.length, reports.length);
    const byKey = new Map(rows.map((r) => [`${r.vsl_id}|${Number(r.observed_at)}`, r]));
    for (const report of reports) {
      const row = byKey.get(`${fleet.byMmsiNumber(report.mmsi)!.vslId}|${report.observedAt}`);
      assert.ok(row, `position ${report.observedAt} stored`);
      assert.deepEqual(
        [row.source, row.lat, row.lon, row.sog, row.cog, row.heading, row.nav_status, row.msg_type, Number(row.received_at)],
        [report.source, report.lat, report.lon, report.sog, report.cog, report.heading, report.navStatus, report.msgType, report.receivedAt],
      );
    }
    await delivered(rows.length);
    const published = events.flatMap((e) => e.positions);
    assert.deepEqual(
      published.map((p) => p.seq),
      rows.map((r) => Number(r.seq)),
      'every stored position published once, in seq order',
    );
    assert.deepEqual(
      published.map((p) => p.source),
      rows.map((r) => r.source),
    );
  }));

test('quality flags: invalid coordinates, impossible jump (confirmed by a second fix), coarse type 27, simulated; flagged fixes are stored but never latest', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 563033300;
    await ingest(fleet, position(mmsi, T0, 1.25, 103.8));
    await ingest(fleet, position(mmsi, T0 + MINUTE, 0, 0));
    assert.equal(fleet.byMmsiNumber(mmsi)!.latest!.observedAt, T0, '0,0 does not become latest');
    // 3 nm in the two minutes since the last good fix is 90 kn: impossible.
    await ingest(fleet, position(mmsi, T0 + 2 * MINUTE, 1.25, 103.85));
    assert.equal(fleet.byMmsiNumber(mmsi)!.latest!.observedAt, T0);
    // Measured from the last good fix (T0), not from the rejected one.
    await ingest(fleet, position(mmsi, T0 + 3 * MINUTE, 1.25, 103.8015));
    assert.equal(fleet.byMmsiNumber(mmsi)!.latest!.observedAt, T0 + 3 * MINUTE, 'a plausible fix moves the latest on');
    // Far away twice in a row: the second fix confirms the first, so the vessel really is there.
    await ingest(fleet, position(mmsi, T0 + 4 * MINUTE, 2.5, 104.5));
    await ingest(fleet, position(mmsi, T0 + 5 * MINUTE, 2.5001, 104.5001));
    assert.equal(fleet.byMmsiNumber(mmsi)!.latest!.observedAt, T0 + 5 * MINUTE);
    await ingest(fleet, position(mmsi, T0 + 6 * MINUTE, 2.5002, 104.5002, { msgType: 27, heading: null }));
    await ingest(fleet, position(244123456, T0, 51.9, 4.1, { simulated: true, source: 'demo-simulator' }));
    await ingest(fleet, position(mmsi, TEST_EPOCH + 10 * MINUTE, 2.5003, 104.5003));

    const rows = await app.bosun.ctx.store.db.selectFrom('positions').select(['observed_at', 'usable', 'quality_flags']).orderBy('seq').execute();
    assert.deepEqual(
      rows.map((r) => [Number(r.observed_at) - T0, r.usable, JSON.parse(r.quality_flags)]),
      [
        [0, 1, []],
        [MINUTE, 0, ['invalid_coordinates']],
        [2 * MINUTE, 0, ['impossible_jump']],
        [3 * MINUTE, 1, []],
        [4 * MINUTE, 0, ['impossible_jump']],
        [5 * MINUTE, 1, []],
        [6 * MINUTE, 1, ['coarse_position']],
        [0, 1, ['simulated_source']],
        [20 * MINUTE, 0, ['future_timestamp']],
      ],
    );
    const latest = fleet.byMmsiNumber(mmsi)!.latest!;
    assert.equal(latest.observedAt, T0 + 6 * MINUTE);
    assert.deepEqual(latest.qualityFlags, ['coarse_position']);
    assert.equal(fleet.byMmsiNumber(244123456)!.simulated, true);
    assert.deepEqual(fleet.stats().quality_flags, { invalid_coordinates: 1, impossible_jump: 2, future_timestamp: 1, coarse_position: 1, simulated_source: 1 });
  }));

test('bad data is counted, never thrown: invalid MMSI, missing position, invalid IMO', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    await ingest(fleet, position(12345, T0, 1, 1), position(563033300, T0, Number.NaN, 1), position(563033300, Number.NaN, 1, 1), identity(563033300, T0, { imo: 9811001, name: 'X' }));
    const stats = fleet.stats();
    assert.deepEqual(stats.rejected, { invalid_mmsi: 1, no_position: 1, invalid_time: 1, store_error: 0 });
    assert.equal(stats.invalid_imo, 1);
    assert.equal(fleet.byMmsiNumber(563033300)!.imo, null);
    assert.equal(fleet.byMmsiNumber(563033300)!.name, 'X');
  }));

test('identity merges per MMSI: later reports fill and change fields; changes of name, callsign, IMO and type leave history, and voyage fields from their first value on', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 563033300;
    await ingest(fleet, position(mmsi, T0, 1.25, 103.8), identity(mmsi, T0, { name: 'OCEAN PRIDE' }));
    await ingest(fleet, identity(mmsi, T0 + MINUTE, { callsign: '9V1234', shipType: 70, lengthM: 200, beamM: 32 }));
    await ingest(fleet, identity(mmsi, T0 + 2 * MINUTE, { imo: 9811000, name: 'OCEAN PRIDE', callsign: '9V1234', shipType: 70, draughtM: 9.5, destination: 'SGSIN', eta: '2026-11-22T06:00:00Z' }));
    await ingest(fleet, identity(mmsi, T0 + 3 * MINUTE, { name: 'OCEAN GLORY', shipType: 80, source: 'tcp:10.0.0.5:10110' }));
    // An older report arriving late does not undo the newer name.
    await ingest(fleet, identity(mmsi, T0 + 90 * SECOND, { name: 'OCEAN PRIDE' }));
    const v = fleet.byMmsiNumber(mmsi)!;
    assert.equal(v.name, 'OCEAN GLORY');
    assert.equal(v.imo, 9811000);
    assert.equal(v.callsign, '9V1234');
    assert.equal(v.shipType, 80);
    assert.equal(v.flag, 'SG');
    assert.equal(v.lengthM, 200);
    assert.equal(v.draughtM, 9.5);
    assert.deepEqual(v.sources, ['tcp:10.0.0.5:10110', 'file:test.nmea'], 'feeds in order of last report');
    assert.equal(fleet.byImoNumber(9811000), v);
    const history = await app.bosun.ctx.store.db.selectFrom('vessel_identity_history').selectAll().orderBy('id').execute();
    assert.deepEqual(
      history.map((h) => [h.vsl_id, h.field, h.old_value, h.new_value, Number(h.changed_at) - T0, h.source]),
      [
        [v.vslId, 'draught_m', null, '9.5', 2 * MINUTE, 'file:test.nmea'],
        [v.vslId, 'destination', null, 'SGSIN', 2 * MINUTE, 'file:test.nmea'],
        [v.vslId, 'eta', null, '2026-11-22T06:00:00Z', 2 * MINUTE, 'file:test.nmea'],
        [v.vslId, 'name', 'OCEAN PRIDE', 'OCEAN GLORY', 3 * MINUTE, 'tcp:10.0.0.5:10110'],
        [v.vslId, 'ship_type', '70', '80', 3 * MINUTE, 'tcp:10.0.0.5:10110'],
      ],
    );
    const row = await app.bosun.ctx.store.db.selectFrom('vessels').selectAll().where('mmsi', '=', mmsi).executeTakeFirstOrThrow();
    assert.equal(row.name, 'OCEAN GLORY');
    assert.equal(row.imo, 9811000);
    assert.equal(row.pos_lat, 1.25);
  }));

test('vsl_id and live state survive a restart; two instances on one store agree on one vsl_id per MMSI', async () => {
  const { app, cleanup } = await startPersistentApp();
  let second: Awaited<ReturnType<typeof createBosun>> | null = null;
  let third: Awaited<ReturnType<typeof createBosun>> | null = null;
  try {
    const fleet = app.bosun.ctx.services.fleet;
    await ingest(fleet, position(563033300, T0, 1.25, 103.8), identity(563033300, T0, { name: 'OCEAN PRIDE', imo: 9811000 }));
    const vslId = fleet.byMmsiNumber(563033300)!.vslId;
    assert.match(vslId, /^vsl_[0-9a-f]{16}$/);

    second = await createBosun(app.config, { clock: app.clock });
    const restored = second.ctx.services.fleet.byVesselId(vslId)!;
    assert.equal(restored.mmsi, 563033300);
    assert.equal(restored.name, 'OCEAN PRIDE');
    assert.equal(second.ctx.services.fleet.byImoNumber(9811000), restored);
    assert.deepEqual(restored.latest && [restored.latest.lat, restored.latest.lon, restored.latest.observedAt], [1.25, 103.8, T0]);
    assert.equal(second.ctx.services.fleet.stats().positions_stored, 1);

    // A new vessel seen by two instances before either has stored it.
    third = await createBosun(app.config, { clock: app.clock });
    second.ctx.services.fleet.acceptPosition(position(244123456, T0, 51.9, 4.1));
    third.ctx.services.fleet.acceptPosition(position(244123456, T0 + SECOND, 51.9001, 4.1001));
    // better-sqlite3 blocks the thread while it waits for a lock, so on one SQLite file in one
    // process the two writes take turns; on PostgreSQL they race for real.
    if (usingPostgres()) await Promise.all([second.ctx.services.fleet.flush(), third.ctx.services.fleet.flush()]);
    else {
      await second.ctx.services.fleet.flush();
      await third.ctx.services.fleet.flush();
    }
    const a = second.ctx.services.fleet.byMmsiNumber(244123456)!.vslId;
    const b = third.ctx.services.fleet.byMmsiNumber(244123456)!.vslId;
    assert.equal(a, b);
    const rows = await app.bosun.ctx.store.db.selectFrom('positions').select(['vsl_id']).where('vsl_id', '=', a).execute();
    assert.equal(rows.length, 2);
    assert.equal((await app.bosun.ctx.store.db.selectFrom('vessels').select('vsl_id').where('mmsi', '=', 244123456).execute()).length, 1);
  } finally {
    await third?.close();
    await second?.close();
    await app.close();
    cleanup();
  }
});

const volume = sharedDataPath('ais/volume/ais-nmea-sample.log');

test('real AISHub capture through AisDecoder + acceptMessage: 71,904 positions (gpsdecode count), one vessel per MMSI', { skip: volume.skip }, () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const decoder = new AisDecoder({ keepSentences: false });
    const mmsis = new Set<number>();
    let lineNo = 0;
    let nonVessel = 0;
    for (const line of readFileSync(volume.path, 'utf8').split('\n')) {
      lineNo++;
      for (const message of decoder.push(line)) {
        const t = T0 - 3 * MINUTE + lineNo * 2;
        const type = message.fields.type;
        if ([4, 9, 11, 21].includes(type)) nonVessel++;
        else if (message.flag === null && message.fields.mmsi >= 100_000_000 && message.fields.mmsi <= 999_999_999) {
          const hasPosition = [1, 2, 3, 18, 19, 27].includes(type) && message.fields.lat !== null && message.fields.lon !== null;
          const isStatic = type === 5 || type === 19 || (type === 24 && message.fields.part !== undefined);
          if (hasPosition || isStatic) mmsis.add(message.fields.mmsi);
        }
        fleet.acceptMessage(message, { observedAt: t, receivedAt: t, source: 'file:ais-nmea-sample.log', simulated: false });
      }
      if (lineNo % 20_000 === 0) await fleet.flush();
    }
    await fleet.flush();
    const stats = fleet.stats();
    assert.equal(stats.positions_stored, 71_904, 'positions of types 1/2/3/18/19/27 with a 9-digit MMSI and an available lat/lon (counted from gpsdecode -u output)');
    assert.equal(stats.positions_duplicate, 0);
    assert.equal(stats.ignored_messages.non_vessel_station, nonVessel);
    assert.equal(stats.vessels, mmsis.size);
    const stored = await app.bosun.ctx.store.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 71_904);
    const vessels = await app.bosun.ctx.store.db
      .selectFrom('vessels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(vessels.n), mmsis.size);
    const named = [...fleet.vessels()].filter((v) => v.name !== null).length;
    assert.ok(named > 1000, `${named} vessels with a name from types 5/19/24`);
  }),
);
