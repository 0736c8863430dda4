import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createFleetReads, type FleetReads } from '../../src/fleet/fleet-reads.js';
import { createFleetRepo, type FleetRepo } from '../../src/fleet/fleet-repo.js';
import { type Store } from '../../src/store/db.js';
import type { Trx } from '../../src/store/transaction.js';
import { usingPostgres } from '../helpers/app.js';
import { createPositionPartitions } from '../../src/store/position-partitions.js';
import { positionRow } from '../helpers/position-rows.js';
import { withMigratedStore } from '../helpers/store.js';

/**
 * The long poll reads "positions after seq N up to the head". On PostgreSQL two writers can take
 * sequence numbers in one order and commit in the other; a reader between the two commits would move
 * its cursor past the uncommitted lower number and never see that row. Each writer and the reader run
 * on their own connection, interleaved step by step with explicit transactions (no sleeps).
 * SQLite has one connection and one writer at a time, so the interleaving cannot happen there.
 */
const skip = usingPostgres() ? false : 'PostgreSQL only (SQLite serialises writers on its one connection)';

/** Commits of the transactions a test still holds open: ended after a failed assertion, so the store can close. */
const stillOpen: Array<() => Promise<void>> = [];

const withStore = (fn: (store: Store, repo: FleetRepo, reads: FleetReads) => Promise<void>) =>
  withMigratedStore(async (store) => {
    try {
      await fn(store, createFleetRepo(store.db, store.dialect), createFleetReads(store.db));
    } finally {
      await Promise.allSettled(stillOpen.splice(0).map((commit) => commit()));
    }
  });

/** A deferred: a promise and the function that settles it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A transaction held open by the test: `run` writes inside it, `commit` ends it. */
function heldTransaction(store: Store, write: (trx: Trx) => Promise<void>) {
  const written = deferred();
  const commit = deferred();
  const done = store.db.transaction().execute(async (trx) => {
    await write(trx);
    written.resolve();
    await commit.promise;
  });
  const end = () => (commit.resolve(), done);
  stillOpen.push(end);
  return { written: written.promise, commit: end };
}

/** Resolves once some connection of this test is waiting for an advisory lock, or `gaveUp()` (asked in a loop, no timer). */
async function someoneWaitsForAdvisoryLock(store: Store, gaveUp: () => boolean): Promise<void> {
  while (!gaveUp()) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(store.db);
    if (rows[0]!.n > 0) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The long poll's read: head first, then the rows above the cursor up to it; returns the new cursor. */
async function poll(reads: FleetReads, after: number, seen: number[]): Promise<number> {
  const head = await reads.headSeq();
  const rows = await reads.positionsAfter(after, head, { usableOnly: true }, 1000);
  seen.push(...rows.map((row) => Number(row.seq)));
  return rows.length > 0 ? Math.max(head, ...rows.map((row) => Number(row.seq))) : Math.max(after, head);
}

test('control: without the sequence lock an interleaved commit makes the reader skip a row', { skip }, async () => {
  await withStore(async (store, repo, reads) => {
    const insertOne = async (trx: Trx, observedAt: number) => {
      const { mmsi: _mmsi, ...row } = positionRow('vsl_a', observedAt);
      await trx.insertInto('positions').values(row).execute();
    };
    await createPositionPartitions(store.db, store.dialect).createAhead(0, 0); // the day's partition on PostgreSQL
    const first = heldTransaction(store, (trx) => insertOne(trx, 1000));
    await first.written;
    const second = heldTransaction(store, (trx) => insertOne(trx, 2000));
    await second.written;
    await second.commit();
    const seen: number[] = [];
    const cursor = await poll(reads, 0, seen);
    await first.commit();
    await poll(reads, cursor, seen);
    const stored = (await reads.positionsAfter(0, Number.MAX_SAFE_INTEGER, {}, 10)).map((row) => Number(row.seq));
    assert.equal(stored.length, 2);
    assert.deepEqual(seen, [stored[1]], 'the reader saw only the later-committed row: the bug the lock prevents');
  });
});

test('two writers with an interleaved commit: the reader sees every position exactly once', { skip }, async () => {
  await withStore(async (store, repo, reads) => {
    const first = heldTransaction(store, (trx) => repo.writeBatch([], [], [positionRow('vsl_a', 1000)], trx).then(() => undefined));
    await first.written;
    // The second writer starts while the first is open: it must wait for the first to end.
    let secondWritten = false;
    const second = heldTransaction(store, (trx) =>
      repo.writeBatch([], [], [positionRow('vsl_b', 2000)], trx).then(() => {
        secondWritten = true;
      }),
    );
    await someoneWaitsForAdvisoryLock(store, () => secondWritten);
    assert.equal(secondWritten, false);

    const seen: number[] = [];
    let cursor = await poll(reads, 0, seen);
    assert.deepEqual(seen, [], 'nothing is committed yet');

    await first.commit();
    await second.written;
    cursor = await poll(reads, cursor, seen);
    await second.commit();
    cursor = await poll(reads, cursor, seen);

    const stored = (await reads.positionsAfter(0, Number.MAX_SAFE_INTEGER, {}, 10)).map((row) => ({ seq: Number(row.seq), vslId: row.vsl_id }));
    assert.deepEqual(
      stored.map((row) => row.vslId),
      ['vsl_a', 'vsl_b'],
      'sequence numbers follow commit order',
    );
    assert.deepEqual(
      seen,
      stored.map((row) => row.seq),
    );
    assert.equal(cursor, stored[1]!.seq);
  });
});

test('writers without positions take no sequence lock (a vessel-only batch does not wait for an open position write)', { skip }, async () => {
  await withStore(async (store, repo) => {
    const open = heldTransaction(store, (trx) => repo.writeBatch([], [], [positionRow('vsl_a', 1000)], trx).then(() => undefined));
    await open.written;
    const history = [{ mmsi: 366000001, vsl_id: 'vsl_a', field: 'name', old_value: 'A', new_value: 'B', changed_at: 1, source: 'test' }];
    const result = await repo.writeBatch([], history, []);
    assert.deepEqual(result.inserted, []);
    await open.commit();
  });
});

test('the detectors read the usable positions above the cursor with only the columns they use, equal to those of the whole rows (both stores)', async () => {
  await withStore(async (store, repo, reads) => {
    await createPositionPartitions(store.db, store.dialect).createAhead(0, 0);
    await repo.writeBatch(
      [],
      [],
      [
        positionRow('vsl_a', 1000, { sog: 0.4, nav_status: 5, heading: 271, simulated: 1 }),
        positionRow('vsl_b', 2000, { usable: 0, quality_flags: '["position_jump"]' }),
        positionRow('vsl_c', 3000, { lat: -33.9, lon: 151.2, sog: null, heading: null, nav_status: null }),
        positionRow('vsl_a', 4000),
      ],
    );
    const whole = await reads.positionsAfter(0, Number.MAX_SAFE_INTEGER, { usableOnly: true }, 10);
    const first = Number(whole[0]!.seq);
    const narrow = await reads.usableForDetectionAfter(first - 1, Number.MAX_SAFE_INTEGER, 2);
    assert.deepEqual(
      narrow.map((row) => ({ ...row })),
      whole
        .slice(0, 2)
        .map((row) => ({
          seq: row.seq,
          vsl_id: row.vsl_id,
          observed_at: row.observed_at,
          lat: row.lat,
          lon: row.lon,
          sog: row.sog,
          nav_status: row.nav_status,
          heading: row.heading,
          simulated: row.simulated,
        })),
    );
    assert.deepEqual(
      narrow.map((row) => row.vsl_id),
      ['vsl_a', 'vsl_c'],
      'the unusable position is left out and the limit holds',
    );
    assert.deepEqual(Object.keys(narrow[0]!).sort(), ['heading', 'lat', 'lon', 'nav_status', 'observed_at', 'seq', 'simulated', 'sog', 'vsl_id']);
  });
});
