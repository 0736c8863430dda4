import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY } from '../../src/platform/clock.js';
import { startTestApp, usingPostgres, usingRedis, type TestApp } from '../helpers/app.js';

/**
 * Each process caches agent principals by key (docs/decisions/016). Two apps on one store stand for
 * two processes: every change made through A — revocation, rotation, a grant or its removal — holds
 * for B's very next request although B answered the same key from its cache just before.
 */
async function withTwoApps(fn: (a: TestApp, b: TestApp) => Promise<void>) {
  const suffix = randomBytes(6).toString('hex');
  const sqliteFile = join(tmpdir(), `bosun-principal-cache-${suffix}.sqlite`);
  const env: Record<string, string> = usingPostgres() ? { BOSUN_PG_SCHEMA: `t_${suffix}` } : { DATABASE_URL: `sqlite:${sqliteFile}` };
  if (usingRedis()) env.BOSUN_REDIS_PREFIX = `bosun-test-${suffix}:`;
  const a = await startTestApp({ env });
  const b = await startTestApp({ env });
  try {
    await fn(a, b);
  } finally {
    await b.bosun.close();
    await a.close();
    for (const ext of ['', '-wal', '-shm']) rmSync(sqliteFile + ext, { force: true });
  }
}

const me = (app: TestApp, key: string) => app.api('GET', '/v1/agents/me', { token: key });

test('a key revoked through one process is refused by the next request to another that had it cached', async () => {
  await withTwoApps(async (a, b) => {
    const { agentId, apiKey } = await a.registerAgent('cache-revoke');
    assert.equal((await me(b, apiKey)).status, 200);
    assert.equal((await me(b, apiKey)).status, 200);
    await a.bosun.ctx.services.agents.revoke(agentId, { kind: 'cli' }, 'test');
    const refused = await me(b, apiKey);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.errors[0].code, 'auth_invalid');
  });
});

test('a rotated key is refused and its successor accepted by another process at once', async () => {
  await withTwoApps(async (a, b) => {
    const { agentId, apiKey } = await a.registerAgent('cache-rotate');
    assert.equal((await me(b, apiKey)).status, 200);
    const rotated = await a.bosun.ctx.services.agents.rotateKey(agentId, { kind: 'cli' });
    assert.equal((await me(b, apiKey)).status, 401);
    assert.equal((await me(b, rotated.apiKey)).status, 200);
  });
});

test('a scope granted or removed through one process decides the next request to another', async () => {
  await withTwoApps(async (a, b) => {
    const { agentId, apiKey } = await a.registerAgent('cache-scopes');
    const restricted = () => b.api('GET', '/v1/telemetry/summary', { token: apiKey });
    const groups = () => b.api('GET', '/v1/harbor/public/groups', { token: apiKey });
    assert.equal((await restricted()).body.errors[0].code, 'operator_required');
    assert.equal((await groups()).status, 200);
    await a.bosun.ctx.services.agents.grantScope(agentId, 'ops:read', { kind: 'cli' });
    assert.equal((await restricted()).status, 200);
    await a.bosun.ctx.services.agents.revokeScope(agentId, 'ops:read', { kind: 'cli' });
    assert.equal((await restricted()).body.errors[0].code, 'operator_required');
    await a.bosun.ctx.services.agents.revokeScope(agentId, 'harbor:public:read', { kind: 'cli' });
    assert.equal((await groups()).body.errors[0].code, 'scope_required');
  });
});

test('a cached principal ends when its sandbox ends, with no change in the store', async () => {
  await withTwoApps(async (a, b) => {
    const { apiKey } = await a.registerAgent('cache-expiry');
    const groups = () => b.api('GET', '/v1/harbor/public/groups', { token: apiKey });
    assert.equal((await groups()).status, 200);
    const describe = await me(b, apiKey);
    const sandboxEnds = Date.parse(describe.body.data.sandbox_expires_at);
    b.clock.set(sandboxEnds - 1);
    assert.equal((await groups()).status, 200);
    b.clock.set(sandboxEnds);
    assert.equal((await groups()).body.errors[0].code, 'sandbox_access_denied');
    assert.ok(sandboxEnds > a.clock.now() + DAY);
  });
});
