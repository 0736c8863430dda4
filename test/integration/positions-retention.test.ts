import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { ManualClock } from '../../src/platform/clock.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { createFleetRepo, type PositionWrite } from '../../src/fleet/fleet-repo.js';
import { createPositionRetention } from '../../src/fleet/position-retention.js';
import { migrateToLatest, type Store } from '../../src/store/db.js';
import { createPositionPartitions, DAY_MS, dayIndexOf, partitionName, type PositionPartitions } from '../../src/store/position-partitions.js';
import { TEST_EPOCH, usingPostgres } from '../helpers/app.js';
import { withMigratedStore } from '../helpers/store.js';

const BEFORE_PARTITIONING = '20261127T0100_process_leases';
const TODAY = dayIndexOf(TEST_EPOCH);

/** A deterministic pseudo-random position (nullable fields null now and then). */
function position(i: number, observedAt: number): PositionWrite {
  const r = (k: number) => ((i * 2654435761 + k * 40503) % 1000) / 1000;
  return {
    mmsi: 200000000 + (i % 37),
    vsl_id: `vsl_${i % 37}`,
    observed_at: observedAt,
    received_at: observedAt + Math.floor(r(1) * 5000),
    lat: -60 + r(2) * 120,
    lon: -170 + r(3) * 340,
    sog: r(4) < 0.2 ? null : r(4) * 20,
    cog: r(5) < 0.2 ? null : r(5) * 360,
    heading: r(6) < 0.3 ? null : Math.floor(r(6) * 360),
    nav_status: r(7) < 0.3 ? null : Math.floor(r(7) * 15),
    msg_type: 1 + (i % 3),
    source: i % 2 ? 'demo-simulator' : 'tcp:10.0.0.1:10110',
    simulated: i % 2,
    usable: r(8) < 0.1 ? 0 : 1,
    quality_flags: r(8) < 0.1 ? '["position_jump"]' : '[]',
  };
}

/** `count` positions spread over the UTC days `days` (each vessel's times distinct). */
function positionsOver(days: readonly number[], count: number): PositionWrite[] {
  return Array.from({ length: count }, (_, i) => position(i, days[i % days.length]! * DAY_MS + 1000 * i + (i % 3) * 7));
}

async function write(store: Store, positions: PositionWrite[], partitions?: PositionPartitions): Promise<void> {
  const repo = createFleetRepo(store.db, store.dialect, partitions ?? createPositionPartitions(store.db, store.dialect));
  for (let i = 0; i < positions.length; i += 500) await repo.writeBatch([], [], positions.slice(i, i + 500));
}

const allRows = (store: Store) => store.db.selectFrom('positions').selectAll().orderBy('seq').execute();

test('migration to daily partitions keeps every row, its seq and the sequence; later writes continue after it', async () => {
  await withMigratedStore(
    async (store) => {
      // written by the code before this migration: plain inserts into the unpartitioned table
      const rows = positionsOver([TODAY - 40, TODAY - 3, TODAY - 2, TODAY, TODAY + 1], 900).map(({ mmsi: _mmsi, ...row }) => row);
      for (let i = 0; i < rows.length; i += 100)
        await store.db
          .insertInto('positions')
          .values(rows.slice(i, i + 100))
          .execute();
      await store.db.deleteFrom('positions').where('seq', 'in', [5, 6, 7]).execute(); // gaps in seq survive
      const before = await allRows(store);
      assert.equal(before.length, 897);
      const applied = await migrateToLatest(store);
      assert.ok(applied.includes('20261127T0200_positions_by_day'));
      assert.deepEqual(await allRows(store), before);
      if (store.dialect.name === 'postgres') {
        const kind = await sql<{ relkind: string }>`select relkind from pg_class where oid = 'positions'::regclass`.execute(store.db);
        assert.equal(kind.rows[0]!.relkind, 'p');
        const partitions = await createPositionPartitions(store.db, store.dialect).list();
        assert.deepEqual(
          partitions.map((p) => p.name),
          [TODAY - 40, TODAY - 3, TODAY - 2, TODAY, TODAY + 1].map(partitionName),
        );
        const indexes = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = ${partitionName(TODAY)} and schemaname = current_schema() order by indexdef`.execute(
          store.db,
        );
        assert.equal(indexes.rows.length, 3, 'each partition has its own (vsl_id, observed_at), (observed_at, seq) and (seq) indexes');
        assert.ok(indexes.rows.some((r) => /UNIQUE INDEX .* \(vsl_id, observed_at\)/.test(r.indexdef)));
      }
      // new writes: seq continues after the highest migrated one, a duplicate is still dropped, a new day gets its partition
      const maxBefore = Math.max(...before.map((r) => r.seq));
      await write(store, [position(1, (TODAY + 9) * DAY_MS + 5), { ...position(0, before[0]!.observed_at), vsl_id: before[0]!.vsl_id }]);
      const after = await allRows(store);
      assert.equal(after.length, 898);
      assert.ok(after[after.length - 1]!.seq > maxBefore);
      assert.equal(after[after.length - 1]!.observed_at, (TODAY + 9) * DAY_MS + 5);
    },
    { upTo: BEFORE_PARTITIONING },
  );
});

test('partitions: created ahead by the job, once, whichever process asks; writers create a missing day', { skip: usingPostgres() ? false : 'PostgreSQL only (SQLite keeps one table)' }, async () => {
  await withMigratedStore(async (store) => {
    const a = createPositionPartitions(store.db, store.dialect);
    const b = createPositionPartitions(store.db, store.dialect);
    const created = await Promise.all([a.createAhead(TEST_EPOCH, 3), b.createAhead(TEST_EPOCH + 1000, 3)]);
    assert.equal(created[0] + created[1], 4, 'today and three days ahead, created once between the two');
    assert.deepEqual(
      (await a.list()).map((p) => p.name),
      [0, 1, 2, 3].map((i) => partitionName(TODAY + i)),
    );
    assert.equal(await a.createAhead(TEST_EPOCH, 3), 0);
    await write(store, positionsOver([TODAY - 1, TODAY + 2], 10), b);
    assert.equal((await a.list()).length, 5);
    assert.equal((await allRows(store)).length, 10);
  });
});

test('retention drops whole partitions older than the cutoff without locking readers or writers out of positions', { skip: usingPostgres() ? false : 'PostgreSQL only (partitions)' }, async () => {
  await withMigratedStore(async (store, config) => {
    const days = [TODAY - 5, TODAY - 4, TODAY - 3, TODAY - 2, TODAY - 1, TODAY];
    await write(store, positionsOver(days, 600));
    const clock = new ManualClock(TEST_EPOCH + 3_600_000);
    const partitions = createPositionPartitions(store.db, store.dialect);
    const retention = createPositionRetention({ db: store.db, dialect: store.dialect, partitions, clock, settings: { retentionDays: 3, thinAfterDays: null, thinMinutes: 10 } });
    const [url, schema] = config.database.kind === 'postgres' ? [config.database.url, config.database.schema] : ['', ''];
    const connect = async () => {
      const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await client.connect();
      return client;
    };
    const [longReader, reader, watcher] = [await connect(), await connect(), await connect()];
    try {
      // a long transaction reading every partition, the ones retention drops included
      await longReader.query('begin');
      assert.equal(Number((await longReader.query('select count(*) as n from positions')).rows[0].n), 600);
      const run = retention.run();
      let settled = false;
      void run.finally(() => (settled = true));
      // wait until the detach is waiting for the long transaction (it cannot finish before that commits)
      for (let i = 0; i < 500; i++) {
        const waiting = await watcher.query(
          `select 1 from pg_stat_activity where query ilike 'alter table positions detach partition%concurrently%' and state = 'active' and wait_event_type is not null`,
        );
        if (waiting.rows.length > 0) break;
        await new Promise((r) => setImmediate(r));
      }
      assert.equal(settled, false);
      // meanwhile new readers and writers are not blocked: they would fail on lock_timeout if they were
      await reader.query(`set lock_timeout = '2s'`);
      const read = await reader.query('select count(*) as n from positions where observed_at >= $1', [(TODAY - 3) * DAY_MS]);
      assert.equal(Number(read.rows[0].n), 400);
      await reader.query(`insert into positions (vsl_id, observed_at, received_at, lat, lon, source, simulated, usable, quality_flags) values ('vsl_new', $1, $1, 1, 1, 'test', 0, 1, '[]')`, [
        TODAY * DAY_MS + 99,
      ]);
      const exclusive = await watcher.query(`select l.mode, l.granted from pg_locks l where l.relation = 'positions'::regclass and l.mode = 'AccessExclusiveLock'`);
      assert.deepEqual(exclusive.rows, [], 'nobody holds or waits for an exclusive lock on positions');
      await longReader.query('commit');
      const report = await run;
      assert.deepEqual(report.partitionsDropped, [partitionName(TODAY - 5), partitionName(TODAY - 4)]);
      assert.equal(report.cutoff, (TODAY - 3) * DAY_MS);
      const left = await allRows(store);
      assert.equal(left.length, 401);
      assert.ok(left.every((r) => r.observed_at >= (TODAY - 3) * DAY_MS));
      assert.deepEqual(
        (await partitions.list()).map((p) => p.name),
        [TODAY - 3, TODAY - 2, TODAY - 1, TODAY].map(partitionName),
      );
      // a later run finds nothing more to drop
      assert.deepEqual((await retention.run()).partitionsDropped, []);
    } finally {
      await longReader.query('rollback').catch(() => {});
      await Promise.all([longReader.end(), reader.end(), watcher.end()]);
    }
  });
});

test('retention keeps exactly the positions from the cutoff day on (SQLite: deletes in batches)', async () => {
  await withMigratedStore(async (store) => {
    const days = [TODAY - 10, TODAY - 8, TODAY - 7, TODAY - 1, TODAY];
    await write(store, positionsOver(days, 203));
    const before = await allRows(store);
    const cutoff = (TODAY - 7) * DAY_MS;
    const clock = new ManualClock(TEST_EPOCH + 5 * 3_600_000);
    const partitions = createPositionPartitions(store.db, store.dialect);
    const retention = createPositionRetention({ db: store.db, dialect: store.dialect, partitions, clock, batchSize: 7, settings: { retentionDays: 7, thinAfterDays: null, thinMinutes: 10 } });
    const report = await retention.run();
    assert.equal(report.cutoff, cutoff);
    const expected = before.filter((r) => r.observed_at >= cutoff);
    assert.deepEqual(await allRows(store), expected);
    if (store.dialect.name === 'sqlite') assert.equal(report.rowsDeleted, before.length - expected.length);
    else assert.deepEqual(report.partitionsDropped, [partitionName(TODAY - 10), partitionName(TODAY - 8)]);
  });
});

test('thinning keeps the first position of each vessel in each bucket of an old day, once per day, and leaves recent days alone', async () => {
  await withMigratedStore(async (store) => {
    const old = (TODAY - 3) * DAY_MS;
    const recent = TODAY * DAY_MS;
    const fixes: PositionWrite[] = [];
    // two vessels every 70 s for 2 hours on an old day and on today
    for (const base of [old, recent])
      for (let t = 0; t < 7_200_000; t += 70_000) for (const v of [0, 1]) fixes.push({ ...position(v, base + t + v * 13_000), vsl_id: `vsl_${v}`, mmsi: 200000000 + v });
    await write(store, fixes);
    const clock = new ManualClock(TEST_EPOCH + 3_600_000);
    const retention = createPositionRetention({
      db: store.db,
      dialect: store.dialect,
      partitions: createPositionPartitions(store.db, store.dialect),
      clock,
      settings: { retentionDays: null, thinAfterDays: 2, thinMinutes: 10 },
    });
    const report = await retention.run();
    assert.ok(report.daysThinned.includes(TODAY - 3));
    assert.ok(!report.daysThinned.includes(TODAY - 2), 'a day only thins once it is wholly older than 2 days');
    const rows = await allRows(store);
    const oldRows = rows.filter((r) => r.observed_at < recent);
    const expected = fixes
      .filter((f) => f.observed_at < recent)
      .filter((f, _i, all) => !all.some((g) => g.vsl_id === f.vsl_id && g.observed_at < f.observed_at && Math.floor(g.observed_at / 600_000) === Math.floor(f.observed_at / 600_000)))
      .map((f) => `${f.vsl_id}@${f.observed_at}`)
      .sort();
    assert.deepEqual(oldRows.map((r) => `${r.vsl_id}@${r.observed_at}`).sort(), expected);
    assert.equal(expected.length, 24, 'one per vessel per 10 minutes over two hours');
    assert.equal(rows.length - oldRows.length, fixes.length / 2, 'today untouched');
    assert.equal(report.rowsDeleted, fixes.length / 2 - 24);
    const again = await retention.run();
    assert.equal(again.rowsDeleted, 0);
    assert.deepEqual(again.daysThinned, []);
  });
});

test('configuration: retention and thinning are validated together', () => {
  const positions = (env: Record<string, string>) => loadConfig({ DATABASE_URL: ':memory:', ...env }).positions;
  assert.deepEqual(positions({}), { retentionDays: null, thinAfterDays: null, thinMinutes: 10 });
  assert.deepEqual(positions({ BOSUN_RETENTION_DAYS: '30', BOSUN_THIN_AFTER_DAYS: '7', BOSUN_THIN_MINUTES: '5' }), { retentionDays: 30, thinAfterDays: 7, thinMinutes: 5 });
  assert.throws(
    () => positions({ BOSUN_RETENTION_DAYS: '7', BOSUN_THIN_AFTER_DAYS: '7' }),
    (e: unknown) => e instanceof ConfigError && /BOSUN_THIN_AFTER_DAYS: must be less than BOSUN_RETENTION_DAYS/.test(e.message),
  );
  assert.throws(() => positions({ BOSUN_THIN_MINUTES: '0' }), /BOSUN_THIN_MINUTES: must be 1-1440/);
  assert.throws(() => positions({ BOSUN_RETENTION_DAYS: '-1' }), /BOSUN_RETENTION_DAYS/);
});
