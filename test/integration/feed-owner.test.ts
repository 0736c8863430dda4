import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createFeedOwner, FEEDS_LEASE, type FeedOwner } from '../../src/feeds/feed-owner.js';
import { createLeaseRepo, type LeaseRepo } from '../../src/store/leases.js';
import { createFleetRepo } from '../../src/fleet/fleet-repo.js';
import { positionRow } from '../helpers/position-rows.js';
import { dropTestSchema, TEST_EPOCH, testConfig } from '../helpers/app.js';
import { withMigratedStore } from '../helpers/store.js';

const LEASE_MS = 30_000;

/** A migrated store (in-memory SQLite, or a fresh PostgreSQL schema when DATABASE_URL is set). */
const withLeases = (fn: (leases: LeaseRepo) => Promise<void>) => withMigratedStore((store) => fn(createLeaseRepo(store.db)));

/** Feeds that only record whether they run. */
function recordingFeeds(name: string, running: Set<string>, log: string[]) {
  return async () => {
    running.add(name);
    log.push(`${name} start`);
    return {
      stop: async () => {
        running.delete(name);
        log.push(`${name} stop`);
      },
    };
  };
}

test('lease: held until it lapses, renewed by its holder, taken the millisecond after it lapses, released at once', async () => {
  await withLeases(async (leases) => {
    const t0 = TEST_EPOCH;
    assert.equal(await leases.claim(FEEDS_LEASE, 'a', t0, LEASE_MS), true);
    assert.deepEqual(await leases.holder(FEEDS_LEASE, t0), { owner: 'a', leaseUntil: t0 + LEASE_MS, acquiredAt: t0 });
    assert.equal(await leases.claim(FEEDS_LEASE, 'b', t0 + LEASE_MS, LEASE_MS), false, 'still held at its last millisecond');
    // a renewal by the holder keeps acquired_at and moves lease_until on
    assert.equal(await leases.claim(FEEDS_LEASE, 'a', t0 + 10_000, LEASE_MS), true);
    assert.deepEqual(await leases.holder(FEEDS_LEASE, t0 + 10_000), { owner: 'a', leaseUntil: t0 + 10_000 + LEASE_MS, acquiredAt: t0 });
    assert.equal(await leases.claim(FEEDS_LEASE, 'b', t0 + 10_000 + LEASE_MS, LEASE_MS), false);
    assert.equal(await leases.claim(FEEDS_LEASE, 'b', t0 + 10_000 + LEASE_MS + 1, LEASE_MS), true, 'lapsed: taken over');
    assert.equal((await leases.holder(FEEDS_LEASE, t0 + 10_000 + LEASE_MS + 1))?.owner, 'b');
    assert.equal(await leases.claim(FEEDS_LEASE, 'a', t0 + 10_000 + LEASE_MS + 2, LEASE_MS), false, 'the old holder does not get it back');
    assert.equal(await leases.holder(FEEDS_LEASE, t0 + 10_000 + 2 * LEASE_MS + 2), null, 'nobody holds a lapsed lease');
    // a release lets another take it at once; a release by a non-holder changes nothing
    const t1 = t0 + 100_000;
    assert.equal(await leases.claim(FEEDS_LEASE, 'b', t1, LEASE_MS), true);
    await leases.release(FEEDS_LEASE, 'a', t1);
    assert.equal((await leases.holder(FEEDS_LEASE, t1))?.owner, 'b');
    await leases.release(FEEDS_LEASE, 'b', t1);
    assert.equal(await leases.holder(FEEDS_LEASE, t1), null);
    assert.equal(await leases.claim(FEEDS_LEASE, 'c', t1 + 1, LEASE_MS), true);
  });
});

test('lease: of several processes claiming a free lease at once, exactly one gets it', async () => {
  await withLeases(async (leases) => {
    const owners = ['p1', 'p2', 'p3', 'p4', 'p5'];
    const results = await Promise.all(owners.map((owner) => leases.claim(FEEDS_LEASE, owner, TEST_EPOCH, LEASE_MS)));
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal((await leases.holder(FEEDS_LEASE, TEST_EPOCH))?.owner, owners[results.indexOf(true)]);
  });
});

test('feed owner: one process runs the feeds; its holder dies, another takes over after the lease lapses; the old one stops when it returns', async () => {
  await withLeases(async (leases) => {
    const clock = new ManualClock(TEST_EPOCH);
    const running = new Set<string>();
    const log: string[] = [];
    const owner = (name: string): FeedOwner => createFeedOwner({ leases, owner: name, clock, leaseMs: LEASE_MS, start: recordingFeeds(name, running, log) });
    const [a, b, c] = [owner('a'), owner('b'), owner('c')];
    assert.deepEqual([await a.tick(), await b.tick(), await c.tick()], [true, false, false]);
    assert.deepEqual([...running], ['a']);
    // a renews every third of the lease; the others keep serving
    for (let i = 0; i < 5; i++) {
      clock.advance(LEASE_MS / 3);
      assert.deepEqual([await a.tick(), await b.tick(), await c.tick()], [true, false, false]);
    }
    assert.deepEqual([...running], ['a']);
    // a dies (stops ticking, feeds gone with its process): nobody may take over before its lease lapses
    const diedAt = clock.now();
    running.delete('a');
    clock.set(diedAt + LEASE_MS);
    assert.deepEqual([await b.tick(), await c.tick()], [false, false]);
    assert.equal(running.size, 0);
    clock.set(diedAt + LEASE_MS + 1);
    assert.deepEqual([await b.tick(), await c.tick()], [true, false]);
    assert.deepEqual([...running], ['b']);
    assert.equal(b.status().acquisitions, 1);
    assert.equal(b.status().since, diedAt + LEASE_MS + 1);
    // a was only stalled (a long pause) and ticks again: it finds b holding and stops its feeds
    running.add('a');
    assert.equal(await a.tick(), false);
    assert.deepEqual([...running], ['b']);
    assert.equal(a.status().losses, 1);
    assert.equal(a.status().holdsLease, false);
    // a clean stop releases the lease: c takes over at its next tick, without waiting
    clock.advance(1000);
    await b.stop();
    assert.equal(running.size, 0);
    assert.equal(await c.tick(), true);
    assert.deepEqual([...running], ['c']);
    assert.equal(await b.tick(), false, 'a stopped owner never claims again');
    assert.deepEqual(log, ['a start', 'b start', 'a stop', 'b stop', 'c start']);
  });
});

test('feed owner: a renewal that fails keeps the feeds until the held lease runs out, then stops them', async () => {
  await withLeases(async (leases) => {
    const clock = new ManualClock(TEST_EPOCH);
    const running = new Set<string>();
    let storeDown = false;
    const flaky: Pick<LeaseRepo, 'claim' | 'release' | 'holder'> = {
      claim: (...args) => (storeDown ? Promise.reject(new Error('store unavailable')) : leases.claim(...args)),
      release: (...args) => leases.release(...args),
      holder: (...args) => leases.holder(...args),
    };
    const a = createFeedOwner({ leases: flaky, owner: 'a', clock, leaseMs: LEASE_MS, start: recordingFeeds('a', running, []) });
    assert.equal(await a.tick(), true);
    storeDown = true;
    clock.advance(LEASE_MS - 1);
    await assert.rejects(a.tick(), /store unavailable/);
    assert.deepEqual([...running], ['a'], 'still inside the held lease: feeds keep running');
    clock.advance(1);
    await assert.rejects(a.tick(), /store unavailable/);
    assert.equal(running.size, 0, 'the lease ran out unrenewed: another process may hold it now');
    assert.equal(a.status().losses, 1);
    storeDown = false;
    assert.equal(await a.tick(), true, 'taken again once the store answers and nobody else holds it');
    assert.deepEqual([...running], ['a']);
  });
});

test('feed owner: feeds that fail to start give the lease back', async () => {
  await withLeases(async (leases) => {
    const clock = new ManualClock(TEST_EPOCH);
    const a = createFeedOwner({ leases, owner: 'a', clock, leaseMs: LEASE_MS, start: () => Promise.reject(new Error('port in use')) });
    await assert.rejects(a.tick(), /port in use/);
    assert.equal(a.holds(), false);
    assert.equal(await leases.holder(FEEDS_LEASE, clock.now()), null);
  });
});

test('serve: of two processes on one store only the lease holder runs its feeds; the other takes over when it stops', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-feed-owner-'));
  const base = testConfig();
  const env = {
    LOG_LEVEL: 'silent',
    PORT: '0',
    BOSUN_FEEDS: 'tcp-listen://127.0.0.1:0',
    ...(base.database.kind === 'postgres' ? { DATABASE_URL: base.database.url, BOSUN_PG_SCHEMA: base.database.schema } : { DATABASE_URL: `sqlite:${join(dir, 'bosun.sqlite')}` }),
  };
  const clock = new ManualClock(TEST_EPOCH);
  const a = await createBosun(loadConfig(env), { clock, background: true });
  const b = await createBosun(loadConfig(env), { clock, background: true }).catch(async (e) => {
    await a.close();
    throw e;
  });
  const status = async (bosun: typeof a) => (await bosun.http.inject({ method: 'GET', url: '/v1/status' })).json().data.components;
  try {
    const [sa, sb] = [await status(a), await status(b)];
    assert.equal(sa.feed_owner.holds_lease, true);
    assert.equal(sa.feeds.sources.length, 1);
    assert.equal(sa.feeds.sources[0].kind, 'tcp-server');
    assert.equal(sb.feed_owner.holds_lease, false);
    assert.deepEqual(sb.feeds.sources, []);
    assert.equal(sb.feed_owner.held_until, null);
    await a.close();
    await b.scheduler.runNow('feed_lease');
    const after = await status(b);
    assert.equal(after.feed_owner.holds_lease, true);
    assert.equal(after.feed_owner.acquisitions, 1);
    assert.equal(after.feeds.sources.length, 1);
  } finally {
    await a.close();
    await b.close();
    await dropTestSchema(base);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve: a process with BOSUN_EVENT_DETECTION=false never detects; another on the same store detects what it wrote', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-detection-switch-'));
  const base = testConfig();
  const env = {
    LOG_LEVEL: 'silent',
    PORT: '0',
    BOSUN_FEEDS: 'none',
    ...(base.database.kind === 'postgres' ? { DATABASE_URL: base.database.url, BOSUN_PG_SCHEMA: base.database.schema } : { DATABASE_URL: `sqlite:${join(dir, 'bosun.sqlite')}` }),
  };
  const clock = new ManualClock(TEST_EPOCH);
  const feedOwner = await createBosun(loadConfig({ ...env, BOSUN_EVENT_DETECTION: 'false' }), { clock, background: true });
  const detector = await createBosun(loadConfig(env), { clock, background: true }).catch(async (e) => {
    await feedOwner.close();
    throw e;
  });
  try {
    assert.equal(feedOwner.ctx.config.eventDetection, false);
    await assert.rejects(feedOwner.scheduler.runNow('event_detection'), /no job event_detection/);
    const written = await createFleetRepo(feedOwner.ctx.store.db, feedOwner.ctx.store.dialect).writeBatch(
      [],
      [],
      [0, 1, 2].map((i) => positionRow('vsl_switch', TEST_EPOCH - (3 - i) * 60_000)),
    );
    assert.equal(written.inserted.length, 3);
    await detector.scheduler.runNow('event_detection');
    const runner = detector.ctx.services.events.runner.status();
    assert.equal(runner.holdsLease, true);
    assert.equal(runner.cursorSeq, Math.max(...written.inserted.map((row) => row.seq)), 'the detecting process read the positions the other wrote');
    assert.equal(feedOwner.ctx.services.events.runner.status().holdsLease, false);
  } finally {
    await feedOwner.close();
    await detector.close();
    await dropTestSchema(base);
    rmSync(dir, { recursive: true, force: true });
  }
});
