import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { memorySlots, redisSlots } from '../../src/limits/slots.js';
import { usingRedis } from '../helpers/app.js';

/**
 * Per-agent slots (src/limits/slots.ts, shared by long polls and exchange streams) are leases that lapse on their own (issue 8 item 5): a process that dies holding
 * them does not lock the agent out, and a refused poll does not extend the leases that refused it.
 */

test('memory poll slots: max leases at once, release frees one, lapsed leases stop counting, a refusal extends nothing', async () => {
  let now = 1_000_000;
  const slots = memorySlots(() => now);
  const leases = [await slots.acquire('agt_a', 3, 60_000), await slots.acquire('agt_a', 3, 60_000), await slots.acquire('agt_a', 3, 60_000)];
  assert.ok(leases.every((l) => typeof l === 'string'));
  assert.equal(await slots.acquire('agt_a', 3, 60_000), null, 'the fourth is refused');
  assert.ok(await slots.acquire('agt_b', 3, 60_000), 'other agents are counted apart');
  await slots.release('agt_a', leases[0]!);
  const again = await slots.acquire('agt_a', 3, 60_000);
  assert.ok(again, 'a released lease frees its slot');
  // Refusals during the next minute must not push the deadlines out.
  now += 59_999;
  assert.equal(await slots.acquire('agt_a', 3, 60_000), null);
  now += 1;
  // leases[1] and [2] lapsed now (taken at t0 for 60 s); `again` was taken at t0 too.
  assert.ok(await slots.acquire('agt_a', 3, 60_000), 'lapsed leases no longer count, though never released');
  assert.ok(await slots.acquire('agt_a', 3, 60_000));
  assert.ok(await slots.acquire('agt_a', 3, 60_000));
  assert.equal(await slots.acquire('agt_a', 3, 60_000), null);
});

test(
  "Redis poll slots: a dead process's lapsed leases are pruned; a refused poll changes neither deadlines nor expiry",
  {
    skip: usingRedis() ? false : 'Redis pass only (set REDIS_URL=redis://…)',
  },
  async () => {
    const redis = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
    await redis.connect();
    const prefix = `bosun-test-${randomBytes(6).toString('hex')}:`;
    const key = `${prefix}polls:agt_x`;
    try {
      const slots = redisSlots(redis, `${prefix}polls:`, 500);
      const [seconds] = await redis.time();
      const serverNow = Number(seconds) * 1000;
      // Three leases a crashed process left behind, already past their deadlines.
      await redis.zadd(key, serverNow - 5000, 'dead1', serverNow - 4000, 'dead2', serverNow - 3000, 'dead3');
      const live = [await slots.acquire('agt_x', 3, 60_000), await slots.acquire('agt_x', 3, 60_000), await slots.acquire('agt_x', 3, 60_000)];
      assert.ok(
        live.every((l) => typeof l === 'string'),
        'the lapsed leases did not count',
      );
      assert.deepEqual((await redis.zrange(key, 0, -1)).sort(), [...live].sort(), 'and are gone');
      const scores = await redis.zrange(key, 0, -1, 'WITHSCORES');
      const ttl = await redis.pttl(key);
      assert.ok(ttl > 50_000 && ttl <= 60_000, `the key lives until the last deadline (${ttl} ms)`);
      for (let i = 0; i < 5; i++) assert.equal(await slots.acquire('agt_x', 3, 60_000), null, 'refused');
      assert.deepEqual(await redis.zrange(key, 0, -1, 'WITHSCORES'), scores, 'refusals leave the deadlines as they were');
      assert.ok((await redis.pttl(key)) <= ttl, 'and do not extend the key');
      await slots.release('agt_x', live[1]!);
      assert.ok(await slots.acquire('agt_x', 3, 1_000), 'a released lease frees its slot');
      assert.ok((await redis.pttl(key)) <= ttl, 'a shorter new lease keeps the key alive for the longest one');
      assert.ok((await redis.pttl(key)) > 50_000);
    } finally {
      await redis.del(key);
      await redis.quit();
    }
  },
);

test("memory slots: renew moves a live lease's deadline; a released or lapsed lease is not renewed back", async () => {
  let now = 0;
  const slots = memorySlots(() => now);
  const kept = (await slots.acquire('agt_s', 2, 60_000))!;
  const released = (await slots.acquire('agt_s', 2, 60_000))!;
  await slots.release('agt_s', released);
  now = 50_000;
  await slots.renew('agt_s', kept, 60_000);
  await slots.renew('agt_s', released, 60_000);
  now = 100_000;
  assert.ok(await slots.acquire('agt_s', 2, 60_000), 'the released lease did not come back');
  assert.equal(await slots.acquire('agt_s', 2, 60_000), null, 'the renewed lease still counts at 100 s (deadline 110 s)');
  now = 200_000;
  const lapsedLease = kept;
  await slots.renew('agt_s', lapsedLease, 60_000);
  assert.ok(await slots.acquire('agt_s', 2, 60_000), 'a lapsed lease is not revived by a late renewal');
  assert.ok(await slots.acquire('agt_s', 2, 60_000));
});

test('Redis slots: renew extends a live lease and the key, never re-adds a released one', { skip: usingRedis() ? false : 'Redis pass only (set REDIS_URL=redis://…)' }, async () => {
  const redis = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
  await redis.connect();
  const prefix = `bosun-test-${randomBytes(6).toString('hex')}:exchange-streams:`;
  const key = `${prefix}agt_r`;
  try {
    const slots = redisSlots(redis, prefix, 500);
    const short = (await slots.acquire('agt_r', 3, 1_000))!;
    const gone = (await slots.acquire('agt_r', 3, 1_000))!;
    await slots.release('agt_r', gone);
    await slots.renew('agt_r', short, 60_000);
    await slots.renew('agt_r', gone, 60_000);
    assert.deepEqual(await redis.zrange(key, 0, -1), [short], 'the released lease stays released');
    const ttl = await redis.pttl(key);
    assert.ok(ttl > 50_000 && ttl <= 60_000, `the key lives until the renewed deadline (${ttl} ms)`);
  } finally {
    await redis.del(key);
    await redis.quit();
  }
});
