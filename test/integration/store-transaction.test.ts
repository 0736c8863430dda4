import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrateToLatest, openStore, type Store } from '../../src/store/db.js';
import { agentLock, type Trx } from '../../src/store/transaction.js';
import { dropTestSchema, testConfig, usingPostgres } from '../helpers/app.js';

/**
 * store.transaction on the store under test (SQLite by default, PostgreSQL with DATABASE_URL): a
 * check-then-write under one key runs one at a time, a failure rolls everything back, and misuse
 * (a query beside the open transaction, a nested transaction) fails at once instead of hanging.
 */

async function withStores(count: number, fn: (stores: Store[]) => Promise<void>) {
  const config = testConfig();
  const stores: Store[] = [await openStore(config.database)];
  try {
    await migrateToLatest(stores[0]!);
    for (let i = 1; i < count; i++) stores.push(await openStore(config.database));
    await fn(stores);
  } finally {
    for (const store of stores) await store.close();
    await dropTestSchema(config);
  }
}

/** Lets every other pending callback and I/O completion run: the point where an unlocked check-then-write interleaves. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows written for `key` (audit rows: a table without foreign keys). */
async function ledgerCount(db: Store['db'] | Trx, key: string): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('target', '=', key)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Counts, yields, then inserts when under `limit`: a check-then-write that only a lock keeps exact. */
async function checkThenWrite(trx: Trx, key: string, limit: number): Promise<boolean> {
  const count = await ledgerCount(trx, key);
  await yieldToOthers();
  if (count >= limit) return false;
  await trx.insertInto('audit_log').values({ ts: 1, actor_kind: 'system', actor_id: null, action: 'test.write', target: key, ip: null, details: '{}' }).execute();
  return true;
}

/** A transaction under `key` that has entered and holds its lock until `release()`, then checks and writes as `checkThenWrite`. */
async function heldTransaction(store: Store, key: string, agentId: string, limit: number) {
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const hasEntered = new Promise<void>((resolve) => (entered = resolve));
  const done = store.transaction(key, async (trx) => {
    entered();
    await holding;
    return checkThenWrite(trx, agentId, limit);
  });
  await hasEntered;
  return { done, release };
}

test('interleaved async transactions under one key run one at a time: exactly the limit passes', async () => {
  await withStores(1, async ([store]) => {
    const results = await Promise.all(Array.from({ length: 12 }, () => store!.transaction(agentLock('agt_a'), (trx) => checkThenWrite(trx, 'agt_a', 3))));
    assert.equal(results.filter(Boolean).length, 3);
    assert.equal(await ledgerCount(store!.db, 'agt_a'), 3);
  });
});

test('a transaction that throws takes its writes back with it', async () => {
  await withStores(1, async ([store]) => {
    await assert.rejects(
      store!.transaction(agentLock('agt_b'), async (trx) => {
        await checkThenWrite(trx, 'agt_b', 10);
        throw new Error('the write after the quota check failed');
      }),
      /the write after the quota check failed/,
    );
    assert.equal(await ledgerCount(store!.db, 'agt_b'), 0);
    assert.equal(await store!.transaction(agentLock('agt_b'), (trx) => checkThenWrite(trx, 'agt_b', 10)), true, 'the key is free again');
  });
});

test('a transaction opened inside another fails at once (pass the open trx down instead)', async () => {
  await withStores(1, async ([store]) => {
    await assert.rejects(
      store!.transaction(agentLock('agt_c'), () => store!.transaction(agentLock('agt_d'), async () => 1)),
      /inside an open transaction/,
    );
    assert.equal(await store!.transaction(agentLock('agt_c'), async () => 'free'), 'free', 'nothing stays locked');
  });
});

test('nesting is still caught after every transaction ended (the context storage is off between transactions)', async () => {
  await withStores(1, async ([store]) => {
    assert.equal(await store!.transaction(agentLock('agt_n1'), async () => 'first'), 'first');
    await assert.rejects(
      store!.transaction(agentLock('agt_n1'), () => store!.transaction(agentLock('agt_n2'), async () => 1)),
      /inside an open transaction/,
    );
  });
});

test('PostgreSQL: a transaction that ends while another is open leaves the open one its context', { skip: usingPostgres() ? false : 'PostgreSQL only (set DATABASE_URL)' }, async () => {
  await withStores(1, async ([store]) => {
    let started!: () => void;
    const longStarted = new Promise<void>((resolve) => (started = resolve));
    const shortEnded = longStarted.then(() => store!.transaction(agentLock('agt_n5'), async () => 'short'));
    const long = store!.transaction(agentLock('agt_n3'), async () => {
      started();
      await shortEnded;
      return store!.transaction(agentLock('agt_n4'), async () => 1);
    });
    assert.equal(await shortEnded, 'short');
    await assert.rejects(long, /inside an open transaction/);
  });
});

test('SQLite: readNow reads committed rows at once and declines while a transaction is open on the connection', { skip: usingPostgres() ? 'SQLite only' : false }, async () => {
  await withStores(1, async ([store]) => {
    const count = store!.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target', '=', 'agt_r')
      .compile();
    assert.deepEqual(store!.readNow!(count), [{ n: 0 }]);
    let inside: unknown = 'not run';
    await store!.transaction(agentLock('agt_r'), async (trx) => {
      await trx.insertInto('audit_log').values({ ts: 1, actor_kind: 'system', actor_id: null, action: 'test.write', target: 'agt_r', ip: null, details: '{}' }).execute();
      // the uncommitted row must not be read outside the transaction: the caller takes the asynchronous path
      inside = store!.readNow!(count);
    });
    assert.equal(inside, undefined);
    assert.deepEqual(store!.readNow!(count), [{ n: 1 }]);
  });
});

test('PostgreSQL: the store has no immediate read path', { skip: usingPostgres() ? false : 'PostgreSQL only (set DATABASE_URL)' }, async () => {
  await withStores(1, async ([store]) => assert.equal(store!.readNow, undefined));
});

test('SQLite: a query sent beside the open transaction fails at once instead of waiting for the one connection', { skip: usingPostgres() ? 'SQLite only' : false }, async () => {
  await withStores(1, async ([store]) => {
    await assert.rejects(
      store!.transaction(agentLock('agt_e'), () => ledgerCount(store!.db, 'agt_e')),
      /pass the transaction \(trx\) to the repository/,
    );
    assert.equal(await ledgerCount(store!.db, 'agt_e'), 0, 'the store works after the transaction ended');
    let later: Promise<number> | undefined;
    await store!.transaction(agentLock('agt_e'), async () => {
      // Work scheduled from inside that runs after the commit may use the store.
      later = yieldToOthers().then(() => ledgerCount(store!.db, 'agt_e'));
    });
    assert.equal(await later, 0);
  });
});

test('transactions under different keys do not wait for each other; several keys are taken together', async () => {
  await withStores(1, async ([store]) => {
    const { done: first, release: releaseFirst } = await heldTransaction(store!, agentLock('agt_f'), 'agt_f', 5);
    const both = store!.transaction([agentLock('agt_g'), agentLock('agt_f')], (trx) => checkThenWrite(trx, 'agt_g', 5));
    try {
      if (usingPostgres()) {
        // Another key proceeds while agt_f is held (on SQLite every transaction shares the one connection).
        assert.equal(await store!.transaction(agentLock('agt_h'), (trx) => checkThenWrite(trx, 'agt_h', 5)), true);
      }
    } finally {
      releaseFirst();
    }
    assert.deepEqual(await Promise.all([first, both]), [true, true]);
  });
});

test('PostgreSQL: two processes (two pools) racing on one agent are serialised by the advisory lock', { skip: usingPostgres() ? false : 'PostgreSQL only (set DATABASE_URL)' }, async () => {
  await withStores(2, async ([a, b]) => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a! : b!).transaction(agentLock('agt_x'), (trx) => checkThenWrite(trx, 'agt_x', 3))));
    assert.equal(results.filter(Boolean).length, 3);
    assert.equal(await ledgerCount(a!.db, 'agt_x'), 3);

    // Store b waits on the lock store a holds, in the database, until a commits.
    const { done: first, release } = await heldTransaction(a!, agentLock('agt_y'), 'agt_y', 1);
    const second = b!.transaction(agentLock('agt_y'), (trx) => checkThenWrite(trx, 'agt_y', 1));
    let waiting = 0;
    try {
      for (let i = 0; i < 500 && waiting === 0; i++) {
        const { rows } = await sql<{ n: string }>`
          select count(*) as n from pg_locks
          where locktype = 'advisory' and not granted and objid::bigint = (hashtextextended(${agentLock('agt_y')}, 0) & 4294967295)`.execute(a!.db);
        waiting = Number(rows[0]!.n);
      }
    } finally {
      release();
    }
    assert.ok(waiting >= 1, 'the second process waits on the advisory lock');
    assert.deepEqual(await Promise.all([first, second]), [true, false], 'the second saw the first one’s write');
  });
});
