import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

async function withApp(fn: (app: TestApp) => Promise<void>, env: Record<string, string> = {}) {
  const app = await startTestApp({ env });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const OPR = '/v1/harbor/operator-requests';
const CLI = { kind: 'cli' } as const;
const ask = (app: TestApp, token: string, subject = 'Need more access') =>
  app.api('POST', OPR, { token, body: { category: 'access_request', subject, body: 'Please.', requested_scopes: ['harbor:help:report'] } });

test('operator requests: every non-revoked agent, in every lifecycle state, creates and reads its own without default scopes', async () => {
  await withApp(async (app) => {
    const agents = app.bosun.ctx.services.agents;
    // auto-sandbox off: state registered, no grants at all
    const registered = await app.registerAgent('registered-only');
    const me = (await app.api('GET', '/v1/agents/me', { token: registered.apiKey })).body.data;
    assert.equal(me.state, 'registered');
    assert.deepEqual(me.scope_grants, []);
    const created = await ask(app, registered.apiKey);
    assert.equal(created.status, 201, created.text);
    const listed = await app.api('GET', OPR, { token: registered.apiKey });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.items.length, 1);

    // a help call without the scope advises an operator request, which now works
    const refused = await app.api('GET', '/v1/harbor/help-requests', { token: registered.apiKey });
    assert.equal(refused.status, 403);
    assert.match(refused.body.errors[0].message, /operator request/);

    for (const target of ['trial', 'trusted', 'operator_approved'] as const) {
      const agent = await app.registerAgent(`in-${target}`);
      await agents.setLifecycle(agent.agentId, target, CLI);
      assert.equal((await ask(app, agent.apiKey, `From ${target}`)).status, 201, target);
      assert.equal((await app.api('GET', OPR, { token: agent.apiKey })).body.data.items[0].subject, `From ${target}`);
    }
    const trialEnded = await app.registerAgent('trial-ended');
    await agents.setLifecycle(trialEnded.agentId, 'trial', CLI);
    app.clock.advance(7 * DAY);
    assert.equal((await app.api('GET', '/v1/agents/me', { token: trialEnded.apiKey })).body.data.state, 'trial_expired');
    assert.equal((await ask(app, trialEnded.apiKey)).status, 201);

    const revoked = await app.registerAgent('revoked');
    await agents.revoke(revoked.agentId, CLI, 'test');
    assert.equal((await ask(app, revoked.apiKey)).status, 401);
  }, { BOSUN_AUTO_SANDBOX: 'false' });
});

test('operator requests: an expired sandbox still asks; the sandbox refusal points at a request that works', async () => {
  await withApp(async (app) => {
    const agent = await app.registerAgent('expiring');
    app.clock.advance(14 * DAY);
    const refused = await app.api('GET', '/v1/harbor/help-requests', { token: agent.apiKey });
    assert.equal(refused.body.errors[0].code, 'sandbox_access_denied');
    assert.match(refused.body.errors[0].message, /operator request of category access_request/);
    const created = await ask(app, agent.apiKey);
    assert.equal(created.status, 201);
    assert.equal((await app.api('GET', `${OPR}?id=${created.body.data.id}`, { token: agent.apiKey })).status, 200);
  });
});

test('leaving the sandbox ends the automatic grants; trusted agents hold only explicitly assigned scopes', async () => {
  await withApp(async (app) => {
    const agents = app.bosun.ctx.services.agents;
    for (const target of ['trial', 'trusted', 'operator_approved'] as const) {
      const agent = await app.registerAgent(`leaving-${target}`);
      await agents.grantScope(agent.agentId, 'harbor:help:report', CLI);
      const before = (await app.api('GET', '/v1/agents/me', { token: agent.apiKey })).body.data;
      assert.equal(before.state, 'sandbox');
      assert.ok(before.sandbox_expires_at);
      assert.ok(before.scope_grants.some((g: any) => g.granted_by === 'auto_sandbox'));

      await agents.setLifecycle(agent.agentId, target, CLI);
      const after = (await app.api('GET', '/v1/agents/me', { token: agent.apiKey })).body.data;
      assert.equal(after.state, target);
      assert.equal(after.sandbox_expires_at, null, target);
      assert.deepEqual(after.scope_grants.map((g: any) => [g.scope, g.granted_by]), [['harbor:help:report', 'operator']], target);
      assert.deepEqual(after.scopes, ['harbor:help:report', 'harbor:operator_request:create', 'harbor:operator_request:read'], target);
      // the sandbox's onboarding group is gone with it
      const group = await app.api('GET', '/v1/harbor/public/groups/4/posts', { token: agent.apiKey });
      assert.equal(group.status, 403, target);
    }
  });
});
