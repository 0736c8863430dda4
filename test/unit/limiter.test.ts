import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { Limiter, MemoryLimiterBackend, RedisLimiterBackend, type LimiterBackend } from '../../src/limits/limiter.js';
import { LIMIT_POLICIES } from '../../src/limits/policies.js';
import { TEST_EPOCH } from '../helpers/app.js';

const preview = LIMIT_POLICIES.anonymous_preview;

function backends(): Array<[string, () => Promise<{ backend: LimiterBackend; done: () => Promise<void> }>, false | string]> {
  return [
    ['memory', async () => ({ backend: new MemoryLimiterBackend(), done: async () => {} }), false],
    [
      'redis',
      async () => {
        const redis = new Redis(process.env.REDIS_URL!);
        const prefix = `bosun-test-${randomBytes(4).toString('hex')}:`;
        return {
          backend: new RedisLimiterBackend(redis, prefix, 500),
          done: async () => {
            const keys = await redis.keys(prefix + '*');
            if (keys.length) await redis.del(...keys);
            await redis.quit();
          },
        };
      },
      process.env.REDIS_URL ? false : 'REDIS_URL not set',
    ],
  ];
}

for (const [name, make, skip] of backends()) {
  test(`${name}: preview policy allows 6 calls a minute and refuses the 7th until the next minute`, { skip }, async () => {
    const { backend, done } = await make();
    try {
      const limiter = new Limiter(backend);
      const start = TEST_EPOCH + 10_000; // 10 s into a minute
      for (let i = 1; i <= 6; i++) {
        const d = await limiter.check(preview, 'anonymous|1.2.3.4', start + i);
        assert.equal(d.allowed, true, `call ${i}`);
        assert.equal(d.remaining, 6 - i);
      }
      const refused = await limiter.check(preview, 'anonymous|1.2.3.4', start + 7);
      assert.equal(refused.allowed, false);
      assert.equal(refused.window.name, 'minute');
      assert.equal(refused.resetInMs, MINUTE - 10_007);
      assert.equal((await limiter.check(preview, 'anonymous|5.6.7.8', start + 8)).allowed, true, 'another address has its own bucket');
      assert.equal((await limiter.check(preview, 'anonymous|1.2.3.4', TEST_EPOCH + MINUTE)).allowed, true, 'the next minute is open again');
    } finally {
      await done();
    }
  });

  test(`${name}: preview policy allows 60 calls a day and refuses the 61st; refused calls are not counted`, { skip }, async () => {
    const { backend, done } = await make();
    try {
      const limiter = new Limiter(backend);
      let t = TEST_EPOCH;
      for (let i = 1; i <= 60; i++) {
        assert.equal((await limiter.check(preview, 's', t)).allowed, true, `call ${i}`);
        // 6 per minute: after every sixth call, hammer once (refused, not counted) then move to the next minute
        if (i % 6 === 0) {
          assert.equal((await limiter.check(preview, 's', t + 1)).allowed, false);
          t += MINUTE;
        }
      }
      const refused = await limiter.check(preview, 's', t);
      assert.equal(refused.allowed, false);
      assert.equal(refused.window.name, 'day');
      assert.equal(refused.resetInMs, TEST_EPOCH + DAY - t);
      assert.equal((await limiter.check(preview, 's', TEST_EPOCH + DAY)).allowed, true, 'a new UTC day resets the count');
    } finally {
      await done();
    }
  });
}

for (const [name, make, skip] of backends()) {
  test(`${name}: admit checks the error budget and counts the policies in order in one call, counting nothing once refused`, { skip }, async () => {
    const { backend, done } = await make();
    try {
      const limiter = new Limiter(backend);
      const budget = LIMIT_POLICIES.error_budget;
      const agentDefault = LIMIT_POLICIES.agent_default;
      const guard = { policy: budget, subject: 'agt_1' };
      const checks = [
        { policy: agentDefault, subject: 'agt_1' },
        { policy: preview, subject: 'op:agt_1|1.2.3.4' },
      ];
      const t = TEST_EPOCH + 10_000;
      for (let i = 1; i <= 6; i++) {
        const { guardFull, decisions } = await limiter.admit(guard, checks, t + i);
        assert.equal(guardFull, null);
        assert.deepEqual(
          decisions.map((d) => [d.allowed, d.remaining]),
          [
            [true, 1200 - i],
            [true, 6 - i],
          ],
        );
      }
      const refused = await limiter.admit(guard, checks, t + 7);
      assert.deepEqual(
        refused.decisions.map((d) => [d.allowed, d.window.name]),
        [
          [true, 'minute'],
          [false, 'minute'],
        ],
        'the first policy counts, the second refuses',
      );
      assert.equal((await limiter.check(agentDefault, 'agt_1', t + 8)).remaining, 1200 - 8, 'seven admitted calls and this one counted');

      // a full error budget refuses before anything is counted
      for (let i = 0; i < 100; i++) await limiter.check(budget, 'agt_1', t + 9);
      const blocked = await limiter.admit(guard, checks, t + 10);
      assert.deepEqual(blocked.decisions, []);
      assert.equal(blocked.guardFull?.window.name, 'minute');
      assert.equal(blocked.guardFull?.resetInMs, MINUTE - 10_010);
      assert.equal((await limiter.check(agentDefault, 'agt_1', t + 11)).remaining, 1200 - 9, 'the refused call was not counted');
      const operator = await limiter.admit(null, [{ policy: agentDefault, subject: 'agt_1' }], t + 12);
      assert.equal(operator.guardFull, null);
      assert.equal(operator.decisions[0]!.remaining, 1200 - 10);
    } finally {
      await done();
    }
  });
}
