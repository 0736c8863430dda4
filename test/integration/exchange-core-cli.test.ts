import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestAppWithCli } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { createClaim, errorCode, reputation } from './exchange-core-support.js';

test('bosun exchange hide|restore claim ID: the one-shot CLI knows the core kinds; the author pays the penalty and gets it back', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('exchange-core-cli');
  try {
    const bosun = (...args: string[]) => runCli(['exchange', ...args], { env });
    const [a, b] = [await app.registerAgent('cli-a'), await app.registerAgent('cli-b')];
    const claim = await createClaim(app, a);
    const hidden = await bosun('hide', 'claim', claim, '--reason', 'misleading');
    assert.equal(hidden.status, 0, hidden.stderr);
    assert.equal(hidden.stdout.trim(), `claim ${claim} hidden`);
    assert.equal(errorCode(await app.api('GET', `/v1/exchange/claims/${claim}`, { token: b.apiKey })), 'claim_not_found');
    assert.equal((await reputation(app, a)).reputation, -19);
    const restored = await bosun('restore', 'claim', claim);
    assert.equal(restored.status, 0, restored.stderr);
    assert.equal((await app.api('GET', `/v1/exchange/claims/${claim}`, { token: b.apiKey })).status, 200);
    assert.equal((await reputation(app, a)).reputation, 1);
    const unknown = await bosun('hide', 'bounty', 'bty_missing', '--reason', 'spam');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no bounty bty_missing/);
  } finally {
    await cleanup();
  }
});
