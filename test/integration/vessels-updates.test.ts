import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { withApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { ingest, position } from '../helpers/fleet.js';

const NOW = TEST_EPOCH;

/** Runs `fn` on a fresh app with the key of an agent holding vessels:live. */
function withLiveKey(fn: (app: TestApp, key: string) => Promise<void>): Promise<void> {
  return withApp(async (app) => {
    const { apiKey } = await app.registerAgent('poller', ['vessels:live']);
    await fn(app, apiKey);
  });
}

/** Resolves with the response, or with 'pending' if it has not answered within a short wait. */
async function settled<T>(promise: Promise<T>, ms = 150): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}

const poll = (app: TestApp, key: string, query: string) => app.api('GET', `/v1/vessels/updates?${query}`, { token: key });

test('updates: without since the poll starts now; timeout=0 returns the current cursor and nothing older', async () => {
  await withLiveKey(async (app, key) => {
    await ingest(app.bosun.ctx.services.fleet, position(563033300, NOW - MINUTE, 1.2, 103.7));
    const res = await poll(app, key, 'timeout=0');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data.items, []);
    assert.equal(res.body.data.timed_out, true);
    assert.equal(res.body.data.more_available, false);
    assert.equal(typeof res.body.data.cursor, 'string');
    const again = await poll(app, key, `since=${res.body.data.cursor}&timeout=0`);
    assert.deepEqual(again.body.data.items, []);
    assert.equal(again.body.data.cursor, res.body.data.cursor);
  });
});

test('updates: a pending poll returns the position stored while it waits; the next poll with its cursor does not repeat it', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    const start = await poll(app, key, 'timeout=0');
    const pending = poll(app, key, `since=${start.body.data.cursor}&timeout=30`);
    assert.equal(await settled(pending), 'pending', 'no positions yet: the poll waits');
    await ingest(fleet, position(563033300, NOW, 1.25, 103.8));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.equal(res.body.data.timed_out, false);
    assert.equal(res.body.data.items.length, 1);
    const item = res.body.data.items[0];
    assert.equal(item.vsl_id, fleet.byMmsiNumber(563033300)!.vslId);
    assert.equal(item.mmsi, 563033300);
    assert.equal(item.lat, 1.25);
    assert.equal(item.observed_at, new Date(NOW).toISOString());

    const next = await poll(app, key, `since=${res.body.data.cursor}&timeout=0`);
    assert.deepEqual(next.body.data.items, [], 'nothing repeated');

    // Positions stored between two polls are not missed either.
    await ingest(fleet, position(563033300, NOW + 10 * SECOND, 1.2503, 103.8003), position(563033300, NOW + 20 * SECOND, 1.2506, 103.8006));
    const caughtUp = await poll(app, key, `since=${next.body.data.cursor}&timeout=5`);
    assert.deepEqual(
      caughtUp.body.data.items.map((i: { observed_at: string }) => i.observed_at),
      [new Date(NOW + 10 * SECOND).toISOString(), new Date(NOW + 20 * SECOND).toISOString()],
    );
  });
});

test('updates: limit caps an answer and more_available says so; paging by cursor loses nothing', async () => {
  await withLiveKey(async (app, key) => {
    const start = await poll(app, key, 'timeout=0');
    await ingest(app.bosun.ctx.services.fleet, ...Array.from({ length: 5 }, (_, i) => position(244000000 + i, NOW, 51 + i * 0.1, 4)));
    const first = await poll(app, key, `since=${start.body.data.cursor}&limit=3&timeout=0`);
    assert.equal(first.body.data.items.length, 3);
    assert.equal(first.body.data.more_available, true);
    const second = await poll(app, key, `since=${first.body.data.cursor}&limit=3&timeout=0`);
    assert.equal(second.body.data.items.length, 2);
    assert.equal(second.body.data.more_available, false);
    const mmsis = [...first.body.data.items, ...second.body.data.items].map((i: { mmsi: number }) => i.mmsi);
    assert.deepEqual(mmsis, [244000000, 244000001, 244000002, 244000003, 244000004]);
  });
});

test('updates: ids and bbox filters; positions of other vessels neither answer nor wake the poll for good', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    await ingest(fleet, position(563033300, NOW - MINUTE, 1.25, 103.8), position(244123456, NOW - MINUTE, 51.9, 4.1));
    const start = await poll(app, key, 'timeout=0');
    const byId = poll(app, key, `since=${start.body.data.cursor}&ids=MMSI:563033300&timeout=30`);
    const byBox = poll(app, key, `since=${start.body.data.cursor}&bbox=3,51,5,53&timeout=30`);
    await ingest(fleet, position(244123456, NOW, 51.91, 4.11));
    assert.equal(await settled(byId), 'pending', 'another vessel moved: the filtered poll keeps waiting');
    const boxed = await byBox;
    assert.deepEqual(
      boxed.body.data.items.map((i: { mmsi: number }) => i.mmsi),
      [244123456],
    );
    await ingest(fleet, position(563033300, NOW, 1.2501, 103.8001));
    const res = await byId;
    assert.deepEqual(
      res.body.data.items.map((i: { mmsi: number }) => i.mmsi),
      [563033300],
    );
    const unknown = await poll(app, key, 'ids=MMSI:999999999&timeout=0');
    assert.equal(unknown.body.errors[0].code, 'vessel_not_found');
    const malformed = await poll(app, key, 'ids=IMO:1&timeout=0');
    assert.equal(malformed.body.errors[0].code, 'invalid_vessel_id');
    const badCursor = await poll(app, key, 'since=xyz&timeout=0');
    assert.equal(badCursor.body.errors[0].code, 'cursor_invalid');
    assert.equal((await poll(app, key, 'timeout=31')).status, 400);
  });
});

test('updates: three polls per agent key at once; the fourth is rate_limited; a returned poll frees its slot', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    const start = await poll(app, key, 'timeout=0');
    const since = start.body.data.cursor;
    const open = [1, 2, 3].map(() => poll(app, key, `since=${since}&timeout=30`));
    for (const p of open) assert.equal(await settled(p), 'pending');
    const fourth = await poll(app, key, `since=${since}&timeout=0`);
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.errors[0].code, 'rate_limited');
    assert.ok(fourth.headers['retry-after']);
    const otherAgent = (await app.registerAgent('other-poller', ['vessels:live'])).apiKey;
    assert.equal((await poll(app, otherAgent, 'timeout=0')).status, 200, 'the cap is per key');

    await ingest(fleet, position(563033300, NOW, 1.25, 103.8));
    for (const p of open) assert.equal((await p).body.data.items.length, 1);
    assert.equal((await poll(app, key, `since=${since}&timeout=0`)).status, 200);
  });
});

test('updates: flagged positions advance the cursor but are not streamed', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    const start = await poll(app, key, 'timeout=0');
    await ingest(fleet, position(563033300, NOW, 0, 0));
    const res = await poll(app, key, `since=${start.body.data.cursor}&timeout=0`);
    assert.deepEqual(res.body.data.items, []);
    assert.notEqual(res.body.data.cursor, start.body.data.cursor);
  });
});
