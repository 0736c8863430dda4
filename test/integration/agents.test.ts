import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DAY } from '../../src/platform/clock.js';
import { DEFAULT_SCOPES } from '../../src/access/scopes.js';
import { startTestApp, withApp } from '../helpers/app.js';

test('registration returns a key once, stores only its hash, and grants the nine default sandbox scopes', () =>
  withApp(async (app) => {
    const res = await app.api('POST', '/v1/agents/register', { body: { name: 'alpha', vendor: 'Acme', description: 'vessel planner' } });
    assert.equal(res.status, 201);
    const data = res.body.data;
    assert.match(data.agent_id, /^agt_[0-9a-f]{20}$/);
    assert.match(data.api_key, /^bsk_[A-Za-z0-9_-]{43}$/);
    assert.equal(data.state, 'sandbox');
    assert.deepEqual([...data.scopes].sort(), [...DEFAULT_SCOPES].sort());
    assert.equal(data.scopes.length, 9);
    assert.equal(data.sandbox_expires_at, new Date(app.clock.now() + 14 * DAY).toISOString());
    assert.equal(res.body.cost_units, 0.3);

    const stored = await sql<{ key_hash: string }>`select key_hash from agents where agent_id = ${data.agent_id}`.execute(app.bosun.ctx.store.db);
    assert.equal(stored.rows.length, 1);
    assert.notEqual(stored.rows[0]!.key_hash, data.api_key);
    assert.match(stored.rows[0]!.key_hash, /^[0-9a-f]{64}$/);
    const anywhere = await sql<{ n: number }>`select count(*) as n from agents where key_hash = ${data.api_key} or key_prefix = ${data.api_key} or name = ${data.api_key}`.execute(
      app.bosun.ctx.store.db,
    );
    assert.equal(Number(anywhere.rows[0]!.n), 0);

    const me = await app.api('GET', '/v1/agents/me', { token: data.api_key });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.agent_id, data.agent_id);
    assert.equal(me.body.data.name, 'alpha');
    assert.equal(me.body.data.vendor, 'Acme');
    assert.equal(me.body.policy.usage_tier, 'free');
    assert.ok(!me.text.includes(data.api_key), 'GET /v1/agents/me never returns the key');
    assert.equal(me.body.data.key_prefix, data.api_key.slice(0, 12));
  }));

test('registration input is validated with a field-level error', () =>
  withApp(async (app) => {
    const cases: Array<[unknown, string]> = [
      [{}, 'body.name'],
      [{ name: 'x' }, 'body.name'],
      [{ name: 'a'.repeat(65) }, 'body.name'],
      [{ name: 'ok-name', vendor: '' }, 'body.vendor'],
      [{ name: 'ok-name', description: 'd'.repeat(1001) }, 'body.description'],
      [{ name: 'bad\u0007name' }, 'body.name'],
      [{ name: 'ok-name', admin: true }, 'body.admin'],
      [{ name: 42 }, 'body.name'],
    ];
    for (const [body, field] of cases) {
      const res = await app.api('POST', '/v1/agents/register', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.errors[0].code, 'invalid_request');
      assert.equal(res.body.errors[0].field, field, JSON.stringify(body));
      assert.equal(res.body.cost_units, 0);
    }
    assert.equal(await app.bosun.ctx.services.agents.count(), 0, 'no agent was created by invalid input');
  }));

test('with auto-sandbox off an agent is registered without grants; it may still send operator requests', async () => {
  const app = await startTestApp({ env: { BOSUN_AUTO_SANDBOX: 'false' } });
  try {
    const res = await app.api('POST', '/v1/agents/register', { body: { name: 'beta' } });
    assert.equal(res.body.data.state, 'registered');
    assert.deepEqual(res.body.data.scopes, ['harbor:operator_request:create', 'harbor:operator_request:read']);
    assert.equal(res.body.data.sandbox_expires_at, null);
  } finally {
    await app.close();
  }
});

test('a sandbox ends after 14 days: state sandbox_expired and the default scopes lapse', () =>
  withApp(async (app) => {
    const { apiKey } = await app.registerAgent();
    app.clock.advance(14 * DAY - 1);
    let me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(me.body.data.state, 'sandbox');
    assert.equal(me.body.data.scopes.length, 9);
    app.clock.advance(1);
    me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(me.body.data.state, 'sandbox_expired');
    assert.deepEqual(me.body.data.scopes, ['harbor:operator_request:create', 'harbor:operator_request:read'], 'only the operator-request scopes every agent holds');
  }));

test('key rotation invalidates the old key at once; revocation blocks the agent', () =>
  withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent();
    const { apiKey: newKey } = await app.bosun.ctx.services.agents.rotateKey(agentId, { kind: 'cli' });
    assert.notEqual(newKey, apiKey);
    const old = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(old.status, 401);
    assert.equal(old.body.errors[0].code, 'auth_invalid');
    const fresh = await app.api('GET', '/v1/agents/me', { token: newKey });
    assert.equal(fresh.status, 200);
    assert.ok(fresh.body.data.key_rotated_at);

    await app.bosun.ctx.services.agents.revoke(agentId, { kind: 'cli' }, 'test');
    const revoked = await app.api('GET', '/v1/agents/me', { token: newKey });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body.errors[0].code, 'auth_invalid');

    const audit = await app.bosun.ctx.services.audit.list({ limit: 20 });
    const actions = audit.map((a) => a.action);
    assert.ok(actions.includes('agent.key_rotate'));
    assert.ok(actions.includes('agent.revoke'));
    assert.ok(actions.includes('security.auth_invalid'));
  }));

test('operator scope grants take effect, planned scopes cannot be granted, snapshot:read lasts 7 days', () =>
  withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent();
    const agents = app.bosun.ctx.services.agents;
    await assert.rejects(agents.grantScope(agentId, 'harbor:knowledge:read', { kind: 'cli' }), /cannot be granted/);
    await assert.rejects(agents.grantScope(agentId, 'made:up', { kind: 'cli' }), /cannot be granted/);
    const grant = await agents.grantScope(agentId, 'snapshot:read', { kind: 'cli' });
    assert.equal(grant.expires_at, new Date(app.clock.now() + 7 * DAY).toISOString());
    let me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.ok(me.body.data.scopes.includes('snapshot:read'));
    app.clock.advance(7 * DAY);
    me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.ok(!me.body.data.scopes.includes('snapshot:read'));
  }));

test('identity headers never authenticate', () =>
  withApp(async (app) => {
    const { agentId } = await app.registerAgent('labelled');
    const res = await app.api('GET', '/v1/agents/me', { headers: { 'x-agent-name': 'labelled', 'x-agent-vendor': 'tests', 'x-agent-id': agentId } });
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].code, 'auth_required');
  }));

test('lifecycle: sandbox → trial by approval (7 days, then trial_expired) → trusted; sandbox rights end with the sandbox', () =>
  withApp(async (app) => {
    const { apiKey, agentId } = await app.registerAgent('lifecycle');
    const agents = app.bosun.ctx.services.agents;
    app.clock.advance(14 * DAY);
    const expired = await app.api('GET', '/v1/harbor/help-requests', { token: apiKey });
    assert.equal(expired.status, 403);
    assert.equal(expired.body.errors[0].code, 'sandbox_access_denied', 'an expired sandbox says why, not just "scope"');
    assert.equal((await app.api('GET', '/v1/harbor/operator-requests', { token: apiKey })).status, 200, 'operator requests stay open to expired sandboxes');

    const moved = await agents.setLifecycle(agentId, 'trial', { kind: 'cli' });
    assert.equal(moved.from, 'sandbox_expired');
    assert.equal(moved.trial_expires_at, new Date(app.clock.now() + 7 * DAY).toISOString());
    assert.equal((await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data.state, 'trial');
    app.clock.advance(7 * DAY);
    assert.equal((await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data.state, 'trial_expired');
    await agents.setLifecycle(agentId, 'trusted', { kind: 'cli' });
    const me = (await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data;
    assert.equal(me.state, 'trusted');
    assert.deepEqual(me.scopes, ['harbor:operator_request:create', 'harbor:operator_request:read'], 'trust grants no scope by itself; every agent may send operator requests');
    assert.deepEqual(me.scope_grants, []);
    await assert.rejects(agents.setLifecycle(agentId, 'trial', { kind: 'cli' }), /cannot enter a trial/);
  }));

test('a key resolves to its current grants on every call: expiry at the exact edge, scope revocation, rotation, revocation', () =>
  withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent();
    const agents = app.bosun.ctx.services.agents;
    await agents.grantScope(agentId, 'snapshot:read', { kind: 'cli' });
    const scopes = async (key: string) => [...((await agents.authenticate(key))?.scopes ?? [])];
    assert.ok((await scopes(apiKey)).includes('snapshot:read'));
    app.clock.advance(7 * DAY - 1);
    assert.ok((await scopes(apiKey)).includes('snapshot:read'));
    app.clock.advance(1);
    assert.ok(!(await scopes(apiKey)).includes('snapshot:read'));

    await agents.grantScope(agentId, 'snapshot:read', { kind: 'cli' });
    assert.ok((await scopes(apiKey)).includes('snapshot:read'));
    await agents.revokeScope(agentId, 'snapshot:read', { kind: 'cli' });
    assert.ok(!(await scopes(apiKey)).includes('snapshot:read'));
    const names = await scopes(apiKey);
    assert.deepEqual(names, [...names].sort());

    const { apiKey: rotated } = await agents.rotateKey(agentId, { kind: 'cli' });
    assert.equal(await agents.authenticate(apiKey), undefined);
    assert.equal((await agents.authenticate(rotated))?.agentId, agentId);
    await agents.revoke(agentId, { kind: 'cli' }, 'test');
    assert.equal(await agents.authenticate(rotated), undefined);
  }));
