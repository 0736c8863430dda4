import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun } from '../../src/app/create.js';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { createFleetRepo, type FleetRepo, type PositionWrite } from '../../src/fleet/fleet-repo.js';
import { identityOf } from '../../src/fleet/fleet-rows.js';
import type { VesselState } from '../../src/fleet/fleet-service.js';
import { POSITIONS_TOPIC, VESSELS_TOPIC, type PositionsEvent, type VesselsEvent } from '../../src/fleet/types.js';
import { type Store } from '../../src/store/db.js';
import { startTestApp, TEST_EPOCH, usingPostgres, type TestApp, withApp } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { positionRow } from '../helpers/position-rows.js';
import { withMigratedStore } from '../helpers/store.js';

/** Received a millisecond after it was observed. */
const bulkRow = (vslId: string, observedAt: number, extra: Partial<PositionWrite> = {}) => positionRow(vslId, observedAt, { received_at: observedAt + 1, ...extra });

/**
 * The bulk position write (COPY through a staging table on PostgreSQL, one prepared statement per row
 * on SQLite) and the vessel rows written on identity change only, with the latest fix rebuilt from
 * the stored positions when a process starts.
 */

const T0 = TEST_EPOCH - 60 * MINUTE;

const withRepo = (fn: (store: Store, repo: FleetRepo) => Promise<void>) => withMigratedStore((store) => fn(store, createFleetRepo(store.db, store.dialect)));

test('bulk position write: duplicates within and across batches are skipped and told apart, seqs follow the input order', async () => {
  await withRepo(async (store, repo) => {
    const first = await repo.writeBatch([], [], [bulkRow('vsl_a', T0), bulkRow('vsl_b', T0), bulkRow('vsl_a', T0), bulkRow('vsl_a', T0 + SECOND, { lat: 1 })]);
    assert.deepEqual(
      first.inserted.map(({ vsl_id, observed_at }) => [vsl_id, observed_at]),
      [
        ['vsl_a', T0],
        ['vsl_b', T0],
        ['vsl_a', T0 + SECOND],
      ],
      'the second (vsl_a, T0) of the batch is a duplicate',
    );
    const seqs = first.inserted.map((p) => p.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
    assert.equal(new Set(seqs).size, 3);

    const second = await repo.writeBatch([], [], [bulkRow('vsl_a', T0 + SECOND, { lat: 2 }), bulkRow('vsl_c', T0), bulkRow('vsl_b', T0)]);
    assert.deepEqual(
      second.inserted.map(({ vsl_id, observed_at }) => [vsl_id, observed_at]),
      [['vsl_c', T0]],
      'rows stored by an earlier batch are duplicates',
    );
    assert.ok(second.inserted[0]!.seq > Math.max(...seqs), 'a later batch takes higher seqs');

    const stored = await store.db.selectFrom('positions').select(['seq', 'vsl_id', 'observed_at', 'lat', 'received_at']).orderBy('seq').execute();
    assert.deepEqual(
      stored.map((r) => [Number(r.seq), r.vsl_id, Number(r.observed_at), r.lat, Number(r.received_at)]),
      [
        [seqs[0], 'vsl_a', T0, 29.3, T0 + 1],
        [seqs[1], 'vsl_b', T0, 29.3, T0 + 1],
        [seqs[2], 'vsl_a', T0 + SECOND, 1, T0 + SECOND + 1],
        [second.inserted[0]!.seq, 'vsl_c', T0, 29.3, T0 + 1],
      ],
      'the first of two duplicates is the one kept',
    );
  });
});

test('bulk position write: a batch that meets stored rows stores only its new ones; reported seqs and places are the stored rows, in batch order', async () => {
  await withRepo(async (store, repo) => {
    const storedRows = async () =>
      (await store.db.selectFrom('positions').select(['seq', 'vsl_id', 'observed_at', 'lat']).orderBy('seq').execute()).map((r) => [Number(r.seq), r.vsl_id, Number(r.observed_at), r.lat]);
    const reported = (result: Awaited<ReturnType<FleetRepo['writeBatch']>>, rows: PositionWrite[]) =>
      [...result.inserted].sort((a, b) => a.seq - b.seq).map((p) => [p.seq, rows[p.index]!.vsl_id, rows[p.index]!.observed_at, rows[p.index]!.lat]);

    const first = [bulkRow('vsl_a', T0), bulkRow('vsl_b', T0), bulkRow('vsl_a', T0 + SECOND)];
    const r1 = await repo.writeBatch([], [], first);
    assert.deepEqual(r1.inserted.map((p) => p.index).sort(), [0, 1, 2]);
    const seqs1 = [...r1.inserted].sort((a, b) => a.index - b.index).map((p) => p.seq);
    assert.ok(seqs1[0]! < seqs1[1]! && seqs1[1]! < seqs1[2]!, 'seqs follow the batch order');
    assert.deepEqual(await storedRows(), reported(r1, first));

    // Meets a stored row (vsl_a, T0): nothing of a failed attempt may remain, the new rows are stored once.
    const second = [bulkRow('vsl_c', T0, { lat: 3 }), bulkRow('vsl_a', T0, { lat: 9 }), bulkRow('vsl_d', T0, { lat: 4 })];
    const r2 = await repo.writeBatch([], [], second);
    assert.deepEqual(r2.inserted.map((p) => p.index).sort(), [0, 2]);
    assert.ok(Math.min(...r2.inserted.map((p) => p.seq)) > seqs1[2]!);

    // A fresh batch afterwards.
    const third = [bulkRow('vsl_e', T0, { lat: 5 }), bulkRow('vsl_e', T0 + SECOND, { lat: 6 })];
    const r3 = await repo.writeBatch([], [], third);
    assert.equal(r3.inserted.length, 2);
    assert.ok(Math.min(...r3.inserted.map((p) => p.seq)) > Math.max(...r2.inserted.map((p) => p.seq)));

    assert.deepEqual(await storedRows(), [...reported(r1, first), ...reported(r2, second), ...reported(r3, third)], 'the store holds exactly the reported rows under the reported seqs');
    assert.equal((await storedRows()).filter(([, vslId, at]) => vslId === 'vsl_a' && at === T0).length, 1);
  });
});

test('bulk position write: text with COPY separators and escapes, nulls and extreme numbers are stored exactly', async () => {
  await withRepo(async (store, repo) => {
    const sources = ['tab\there', 'new\nline', 'cr\rhere', 'back\\slash', '\\N', 'trailing\\', '\\.', '', 'NULL', '"quoted", ünïcödé ⚓'];
    const rows = sources.map((source, i) =>
      bulkRow('vsl_text', T0 + i * SECOND, {
        source,
        lat: i === 0 ? -89.99999999999999 : 1e-300 * i,
        lon: i === 1 ? 179.99999999999997 : -0.1 - 0.2,
        sog: i % 2 === 0 ? null : 102.3,
        cog: null,
        heading: i === 2 ? 511 : null,
        nav_status: i % 3 === 0 ? null : 15,
        msg_type: null,
        quality_flags: i === 3 ? '["jump","tab\\there"]' : '[]',
      }),
    );
    const result = await repo.writeBatch([], [], rows);
    assert.equal(result.inserted.length, rows.length);
    const stored = await store.db.selectFrom('positions').selectAll().orderBy('observed_at').execute();
    assert.deepEqual(
      stored.map((r) => [r.source, r.lat, r.lon, r.sog, r.cog, r.heading, r.nav_status, r.msg_type, r.quality_flags]),
      rows.map((r) => [r.source, r.lat, r.lon, r.sog, r.cog, r.heading, r.nav_status, r.msg_type, r.quality_flags]),
    );
  });
});

/** A store that outlives one Bosun instance: a temporary SQLite file, or the test's PostgreSQL schema. */
async function startPersistentApp(): Promise<{ app: TestApp; cleanup: () => void }> {
  if (usingPostgres()) return { app: await startTestApp(), cleanup: () => {} };
  const file = join(tmpdir(), `bosun-bulk-${randomBytes(6).toString('hex')}.sqlite`);
  const app = await startTestApp({ env: { DATABASE_URL: `sqlite:${file}` } });
  return { app, cleanup: () => ['', '-wal', '-shm'].forEach((s) => rmSync(file + s, { force: true })) };
}

const live = (s: VesselState) => ({ vslId: s.vslId, mmsi: s.mmsi, name: s.name, firstSeenAt: s.firstSeenAt, lastSeenAt: s.lastSeenAt, sources: s.sources, latest: s.latest });

test('vessel rows are written on identity change only; a restart rebuilds the same latest fixes and last sightings from the positions', async () => {
  const { app, cleanup } = await startPersistentApp();
  let restarted: Awaited<ReturnType<typeof createBosun>> | null = null;
  try {
    const fleet = app.bosun.ctx.services.fleet;
    const a = 563033300;
    const b = 244123456;
    await ingest(fleet, identity(a, T0, { name: 'OCEAN PRIDE' }), position(a, T0, 1.25, 103.8), position(b, T0, 51.9, 4.1));
    // Position-only batches: the latest fix moves on, then a newer but unusable fix (0,0) that must not become latest.
    await ingest(fleet, position(a, T0 + MINUTE, 1.2505, 103.8005, { sog: 11.5, navStatus: 5 }), position(b, T0 + MINUTE, 51.9002, 4.1003));
    await ingest(fleet, position(a, T0 + 2 * MINUTE, 0, 0), position(b, T0 + 2 * MINUTE, 51.9004, 4.1006, { source: 'file:other.nmea' }));
    await ingest(fleet, position(b, T0 + 3 * MINUTE, 51.9006, 4.1009, { source: 'file:other.nmea' }));

    const vessels = await app.bosun.ctx.store.db.selectFrom('vessels').select(['mmsi', 'pos_observed_at', 'last_seen_at']).orderBy('mmsi').execute();
    assert.deepEqual(
      vessels.map((v) => [Number(v.mmsi), Number(v.pos_observed_at), Number(v.last_seen_at)]),
      [
        [b, T0 + 2 * MINUTE, T0 + 2 * MINUTE],
        [a, T0, T0],
      ],
      'a vessel row is rewritten when the vessel is created or a new source appears (b), not for its positions alone',
    );

    const before = [...fleet.vessels()].map(live);
    assert.deepEqual(
      before.map((s) => [s.mmsi, s.latest?.observedAt, s.lastSeenAt]),
      [
        [a, T0 + MINUTE, T0 + 2 * MINUTE],
        [b, T0 + 3 * MINUTE, T0 + 3 * MINUTE],
      ],
    );
    restarted = await createBosun(app.config, { clock: app.clock });
    const after = [...restarted.ctx.services.fleet.vessels()].map(live).sort((x, y) => before.findIndex((s) => s.mmsi === x.mmsi) - before.findIndex((s) => s.mmsi === y.mmsi));
    assert.deepEqual(after, before, 'identity, sources, last sighting and latest fix (with its speed, status and flags) survive the restart');
    const loaded = await restarted.ctx.services.fleet.loadVessel({ mmsi: a });
    assert.equal(loaded?.latest?.observedAt, T0 + MINUTE);
  } finally {
    await restarted?.close();
    await app.close();
    cleanup();
  }
});

test('a vessel another process created is loaded on demand with the latest fix from its stored positions', async () => {
  const { app, cleanup } = await startPersistentApp();
  let other: Awaited<ReturnType<typeof createBosun>> | null = null;
  try {
    other = await createBosun(app.config, { clock: app.clock });
    const mmsi = 636012345;
    await ingest(app.bosun.ctx.services.fleet, position(mmsi, T0, 10, 20));
    await ingest(app.bosun.ctx.services.fleet, position(mmsi, T0 + MINUTE, 10.001, 20.001));
    const loaded = await other.ctx.services.fleet.loadVessel({ mmsi });
    assert.deepEqual(loaded && [loaded.latest?.lat, loaded.latest?.lon, loaded.latest?.observedAt, loaded.lastSeenAt], [10.001, 20.001, T0 + MINUTE, T0 + MINUTE]);
  } finally {
    await other?.close();
    await app.close();
    cleanup();
  }
});

test('another process: its positions move last_seen_at on, and a later identity event (sent on identity change only) does not move it back', () =>
  withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 563033300;
    await ingest(fleet, position(mmsi, T0, 1.25, 103.8));
    const state = fleet.byMmsiNumber(mmsi)!;
    const remote = { origin: 'elsewhere' };
    const stored = { seq: 99, vslId: state.vslId, mmsi, observedAt: T0 + 5 * MINUTE, receivedAt: T0 + 5 * MINUTE, lat: 1.26, lon: 103.81, sog: 10, cog: 90, heading: 90 };
    // Delivered after the fleet's own handler (subscribed at start), on the in-memory bus and on Redis alike;
    // on Redis the fleet's own event of the ingest above may still be on its way, hence the origin check.
    const delivered = (topic: string) =>
      new Promise<void>((resolve) => {
        const off = app.bosun.ctx.bus.subscribe(topic, (payload) => {
          if ((payload as { origin?: string }).origin !== remote.origin) return;
          off();
          resolve();
        });
      });
    let received = delivered(POSITIONS_TOPIC);
    await app.bosun.ctx.bus.publish(POSITIONS_TOPIC, {
      ...remote,
      positions: [{ ...stored, navStatus: 0, msgType: 1, source: 'tcp:other', simulated: false, usable: true, qualityFlags: [] }],
    } satisfies PositionsEvent);
    await received;
    assert.equal(state.lastSeenAt, T0 + 5 * MINUTE);
    assert.equal(state.latest?.observedAt, T0 + 5 * MINUTE);
    received = delivered(VESSELS_TOPIC);
    await app.bosun.ctx.bus.publish(VESSELS_TOPIC, { ...remote, vessels: [{ ...identityOf(state), name: 'OCEAN PRIDE', lastSeenAt: T0 + MINUTE }] } satisfies VesselsEvent);
    await received;
    assert.equal(state.name, 'OCEAN PRIDE');
    assert.equal(state.lastSeenAt, T0 + 5 * MINUTE);
  }));
