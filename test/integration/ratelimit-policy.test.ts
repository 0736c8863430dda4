import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';

/** Issue 8 item 2: RateLimit-Policy lists every window of every policy that counts the call. */
test('RateLimit-Policy lists every window of every applied policy, on success and on 429', () =>
  withApp(async (app) => {
    const url = '/v1/bootstrap/vessels/search?q=pride';
    const expected = '600;w=60, 6;w=60, 60;w=86400';
    for (let i = 1; i <= 6; i++) {
      const res = await app.api('GET', url, { ip: '10.44.0.1' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['ratelimit-policy'], expected, 'anonymous_default, then anonymous_preview minute and day');
      assert.equal(res.headers['ratelimit-limit'], '6', 'the binding window');
      assert.equal(res.headers['ratelimit-remaining'], String(6 - i));
    }
    const refused = await app.api('GET', url, { ip: '10.44.0.1' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['ratelimit-policy'], expected);
    assert.equal(refused.headers['ratelimit-remaining'], '0');

    const { apiKey } = await app.registerAgent('policy-header');
    const keyed = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(keyed.headers['ratelimit-policy'], '1200;w=60');
  }));
