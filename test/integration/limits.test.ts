import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { startTestApp, TEST_EPOCH, withApp } from '../helpers/app.js';

test('the anonymous preview policy on a P endpoint: 6/min and 60/day per identity+IP, 429 with Retry-After and RateLimit headers', async () => {
  const app = await startTestApp({ bosun: { ratePolicyOverrides: { getPing: ['anonymous_preview'] } }, now: TEST_EPOCH + 30_000 });
  try {
    for (let i = 1; i <= 6; i++) {
      const ok = await app.api('GET', '/v1/ping', { ip: '198.51.100.7' });
      assert.equal(ok.status, 200, `call ${i}`);
      assert.equal(ok.headers['ratelimit-remaining'], String(6 - i));
      assert.equal(ok.headers['ratelimit-limit'], '6');
    }
    const refused = await app.api('GET', '/v1/ping', { ip: '198.51.100.7' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 'ip_rate_limited');
    assert.equal(refused.body.errors[0].retryable, true);
    assert.equal(refused.headers['retry-after'], '30');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    assert.equal(refused.headers['ratelimit-reset'], '30');

    const labelled = await app.api('GET', '/v1/ping', { ip: '198.51.100.7', headers: { 'x-agent-name': 'new-name', 'x-agent-vendor': 'other' } });
    assert.equal(labelled.status, 429, 'self-declared labels do not open a new bucket');
    assert.equal((await app.api('GET', '/v1/ping', { ip: '198.51.100.8' })).status, 200, 'another address is separate');
    const { apiKey } = await app.registerAgent();
    assert.equal((await app.api('GET', '/v1/ping', { ip: '198.51.100.7', token: apiKey })).status, 200, 'a verified agent is another identity');
    assert.equal((await app.api('GET', '/v1/status', { ip: '198.51.100.7' })).status, 200, 'limits are per endpoint');

    app.clock.set(TEST_EPOCH + MINUTE);
    assert.equal((await app.api('GET', '/v1/ping', { ip: '198.51.100.7' })).status, 200, 'next minute');

    // fill the day: 60 calls in all for this identity+IP
    let used = 7;
    let minute = 2;
    while (used < 60) {
      app.clock.set(TEST_EPOCH + minute * MINUTE);
      for (let i = 0; i < 6 && used < 60; i++, used++) assert.equal((await app.api('GET', '/v1/ping', { ip: '198.51.100.7' })).status, 200, `call ${used + 1}`);
      minute++;
    }
    app.clock.set(TEST_EPOCH + minute * MINUTE);
    const daily = await app.api('GET', '/v1/ping', { ip: '198.51.100.7' });
    assert.equal(daily.status, 429);
    assert.match(daily.body.errors[0].message, /60 calls per day/);
    assert.equal(Number(daily.headers['retry-after']), (DAY - minute * MINUTE) / 1000);
    app.clock.set(TEST_EPOCH + DAY);
    assert.equal((await app.api('GET', '/v1/ping', { ip: '198.51.100.7' })).status, 200, 'the next UTC day');

    const limits = await app.api('GET', '/v1/capabilities/limits');
    const policy = limits.body.data.policies.find((p: { name: string }) => p.name === 'anonymous_preview');
    assert.deepEqual(policy.windows, [
      { window: 'minute', seconds: 60, limit: 6 },
      { window: 'day', seconds: 86400, limit: 60 },
    ]);
    assert.deepEqual(policy.operations, ['getPing', 'getBootstrapVesselsSearch', 'getBootstrapVesselsLastPosition']);
    assert.equal(limits.body.data.preview.position_delay_seconds, 50400);
    assert.equal(limits.body.data.preview.max_search_results, 5);
  } finally {
    await app.close();
  }
});

test('registration is limited to 20 per hour per address', () =>
  withApp(async (app) => {
    for (let i = 0; i < 20; i++) {
      assert.equal((await app.api('POST', '/v1/agents/register', { body: { name: `agent-${i}` }, ip: '203.0.113.9' })).status, 201);
    }
    const refused = await app.api('POST', '/v1/agents/register', { body: { name: 'one-too-many' }, ip: '203.0.113.9' });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 'ip_rate_limited');
    assert.equal(await app.bosun.ctx.services.agents.count(), 20);
  }));

test('error budget: 100 failed calls in a minute refuse every call of that caller with error_rate_limited until the minute ends', async () => {
  const app = await startTestApp({ now: TEST_EPOCH + 15_000 });
  try {
    const { apiKey } = await app.registerAgent('clumsy');
    const { apiKey: other } = await app.registerAgent('careful');
    for (let i = 0; i < 100; i++) {
      const miss = await app.api('GET', '/v1/harbor/help-requests/hlp_missing', { token: apiKey });
      assert.equal(miss.status, 404, `failure ${i + 1}`);
    }
    const refused = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 'error_rate_limited');
    assert.equal(refused.headers['retry-after'], '45');
    assert.equal((await app.api('GET', '/v1/agents/me', { token: other })).status, 200, 'other agents are not affected');
    app.clock.set(TEST_EPOCH + MINUTE);
    assert.equal((await app.api('GET', '/v1/agents/me', { token: apiKey })).status, 200, 'a new minute, a new budget');

    const badKey = 'bsk_' + 'C'.repeat(43);
    for (let i = 0; i < 100; i++) assert.equal((await app.api('GET', '/v1/agents/me', { token: badKey, ip: '203.0.113.9' })).status, 401);
    const guessing = await app.api('GET', '/v1/agents/me', { token: badKey, ip: '203.0.113.9' });
    assert.equal(guessing.body.errors[0].code, 'error_rate_limited', 'key guessing from one address is cut off');
    assert.equal((await app.api('GET', '/v1/ping', { ip: '203.0.113.9' })).body.errors[0].code, 'error_rate_limited');
    assert.equal((await app.api('GET', '/v1/ping', { ip: '203.0.113.10' })).status, 200);
  } finally {
    await app.close();
  }
});
