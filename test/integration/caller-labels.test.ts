import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withApp } from '../helpers/app.js';
import { seedSampleVessel } from '../helpers/fleet.js';

/** Issue 8 item 2: a stale Authorization header on public operations; identity_verified: false wherever X-Agent-* labels are echoed. */

test('a stale key on a public operation is answered as anonymous with credential_ignored and a WWW-Authenticate hint', () =>
  withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent('soon-revoked');
    await app.bosun.ctx.services.agents.revoke(agentId, { kind: 'cli' }, 'test: stale key');
    for (const url of ['/v1/ping', '/v1/capabilities', '/.well-known/openapi.json']) {
      const res = await app.api('GET', url, { token: apiKey });
      assert.equal(res.status, 200, `${url}: ${res.text}`);
      assert.equal(res.body.policy.usage_tier, 'anonymous', url);
      assert.deepEqual(res.body.quality_flags, ['credential_ignored'], url);
      assert.match(String(res.headers['www-authenticate']), /^Bearer realm="bosun", error="invalid_token", error_description="unknown or revoked API key/);
    }
    const bare = await app.api('GET', '/openapi.json', { headers: { authorization: 'Token nonsense' } });
    assert.equal(bare.status, 200, 'generic tools with a stale header still read the document');
    assert.match(String(bare.headers['www-authenticate']), /invalid_token/);

    const keyed = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(keyed.status, 401, 'agent operations keep refusing the key');
    assert.equal(keyed.body.errors[0].code, 'auth_invalid');
    assert.match(String(keyed.headers['www-authenticate']), /invalid_token/);

    const fine = await app.api('GET', '/v1/ping');
    assert.deepEqual(fine.body.quality_flags, [], 'no flag without a credential');
    assert.equal(fine.headers['www-authenticate'], undefined);
    const audit = await app.bosun.ctx.store.db.selectFrom('audit_log').select('action').where('action', '=', 'security.auth_invalid').execute();
    assert.ok(audit.length >= 4, 'every ignored credential is still audited');
  }));

test('the preview echoes X-Agent-* labels with identity_verified: false', () =>
  withApp(async (app) => {
    await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
    const headers = { 'x-agent-name': 'Scout\u0007 One', 'x-agent-vendor': 'acme' };
    const search = await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { headers });
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(search.body.data.declared_identity, { agent_name: 'Scout One', agent_vendor: 'acme', identity_verified: false });
    const last = await app.api('GET', '/v1/bootstrap/vessels/last_position?imo=9811000', { headers });
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(last.body.data.declared_identity, { agent_name: 'Scout One', agent_vendor: 'acme', identity_verified: false });
    const none = await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean');
    assert.deepEqual(none.body.data.declared_identity, { agent_name: null, agent_vendor: null, identity_verified: false });
  }));
