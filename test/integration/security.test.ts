import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVERY_AGENT_SCOPES } from '../../src/access/scopes.js';
import { startTestApp, type ApiResponse } from '../helpers/app.js';

/**
 * Generated from the catalog (DESIGN §14): for every implemented operation, the access class and scopes
 * it declares are what the server enforces, and malformed input gets a 4xx envelope, never a 500.
 */
function concretePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, 'zz_missing_0');
}

test('catalog-generated security checks for every implemented operation', async () => {
  const app = await startTestApp({ env: { BOSUN_AUTO_SANDBOX: 'false' } });
  try {
    const { apiKey: noScopes } = await app.registerAgent('no-scopes');
    const operator = await app.operatorToken();
    const wrongKey = 'bsk_' + 'B'.repeat(43);
    let checked = 0;
    for (const { entry } of app.bosun.ctx.catalog.implemented) {
      // each operation's deliberate failures land in a fresh minute of the error budget
      app.clock.advance(61_000);
      const url = concretePath(entry.path);
      const label = `${entry.method} ${entry.path}`;
      const bad = await app.api(entry.method, url, { token: wrongKey });
      assert.match(String(bad.headers['www-authenticate']), /^Bearer realm="bosun", error="invalid_token"/, `${label} wrong key: the challenge`);
      if (entry.access === 'P') {
        // a stale key on a public operation is answered as anonymous (docs/decisions/010)
        assert.notEqual(bad.status, 401, `${label} wrong key on a public operation`);
        if (bad.body?.status === 'ok') assert.ok(bad.body.quality_flags.includes('credential_ignored'), label);
      } else {
        assert.equal(bad.status, 401, `${label} wrong key`);
        assert.equal(bad.body.errors[0].code, 'auth_invalid', label);
      }

      if (entry.access === 'K' || entry.access === 'U') {
        const none = await app.api(entry.method, url);
        assert.equal(none.status, 401, `${label} without key`);
        assert.equal(none.body.errors[0].code, 'auth_required', label);
        assert.equal(none.headers['www-authenticate'], 'Bearer realm="bosun"', label);
        const labelsOnly = await app.api(entry.method, url, { headers: { 'x-agent-name': 'someone', 'x-agent-vendor': 'x' } });
        assert.equal(labelsOnly.status, 401, `${label}: identity headers never authenticate`);
      }
      // Every non-revoked agent holds the operator-request scopes (EVERY_AGENT_SCOPES), so those operations never answer scope_required.
      if (entry.access === 'K' && entry.scopes.some((scope) => !EVERY_AGENT_SCOPES.includes(scope))) {
        const missing = await app.api(entry.method, url, { token: noScopes });
        assert.equal(missing.status, 403, `${label} missing scope`);
        assert.equal(missing.body.errors[0].code, 'scope_required', label);
      }
      if (entry.access === 'K') {
        const asOperator = await app.api(entry.method, url, { token: operator });
        assert.equal(asOperator.status, 403, `${label} operator on an agent operation`);
        assert.equal(asOperator.body.errors[0].code, 'agent_key_required', label);
      }
      if (entry.access === 'U') {
        const asAgent = await app.api(entry.method, url, { token: noScopes });
        assert.equal(asAgent.status, 403, `${label} as agent`);
        assert.equal(asAgent.body.errors[0].code, 'operator_required', label);
        const asOperator = await app.api(entry.method, url, { token: operator });
        assert.ok(asOperator.status < 400, `${label} as operator: ${asOperator.status} ${asOperator.text.slice(0, 200)}`);
      }
      const token = entry.access === 'U' ? operator : entry.access === 'K' ? (await app.registerAgent('malformed')).apiKey : undefined;
      const junkQuery = await app.api(entry.method, `${url}?zz_unknown_param=%00%ff`, { token });
      assert.ok(junkQuery.status >= 400 && junkQuery.status < 500, `${label} junk query → 4xx, got ${junkQuery.status}`);
      assert.equal(junkQuery.body.status, 'error', label);
      if (entry.method !== 'GET') {
        for (const rawBody of ['{', 'null', '"text"', '{"a":', '[]', '{"name":{"$gt":""}}']) {
          const res: ApiResponse = await app.api(entry.method, url, { token, rawBody, headers: { 'content-type': 'application/json' } });
          assert.ok(res.status >= 400 && res.status < 500, `${label} body ${rawBody} → 4xx, got ${res.status}`);
          assert.equal(res.body.status, 'error');
        }
      }
      checked++;
    }
    assert.equal(checked, app.bosun.ctx.catalog.implemented.length);
  } finally {
    await app.close();
  }
});
