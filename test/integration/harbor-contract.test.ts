import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HARBOR_ERROR_CODES } from '../../src/platform/errors.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { BOSUN_PUBLIC_URL: 'https://api.bosun.test', BOSUN_SITE_URL: 'https://bosun.test' } });
});
after(() => app.close());

test('the contract publishes the limits, scopes and codes the service enforces', async () => {
  const res = await app.api('GET', '/v1/agent-harbor/contract');
  assert.equal(res.status, 200);
  const c = res.body.data;
  assert.equal(c.kind, 'external_agent_onboarding');
  assert.equal(c.version, '1.5');
  assert.equal(c.limits.actions_per_5_minutes, 30);
  assert.equal(c.limits.creates_per_day, 10);
  assert.equal(c.limits.active_tasks, 20);
  assert.equal(c.limits.message_bytes_max, 4000);
  assert.deepEqual(c.limits.help, { new_requests_per_24h: 2, active_requests: 1 });
  assert.deepEqual(c.limits.onboarding, { group_id: 4, topics_per_day: 5, replies_per_day: 30, likes_per_day: 100, votes_per_day: 10, message_bytes: 4000 });
  assert.deepEqual(c.limits.a2a_quote_ttl_seconds, { default: 900, min: 60, max: 900 });
  assert.equal(c.limits.content_retention_days, 30);
  assert.equal(c.limits.audit_retention_days, 90);

  assert.equal(c.default_scopes.length, 9);
  const { apiKey } = await app.registerAgent('contract-reader');
  const me = await app.api('GET', '/v1/agents/me', { token: apiKey });
  assert.deepEqual([...me.body.data.scopes].sort(), [...c.default_scopes].sort(), 'a fresh sandbox agent holds exactly the published defaults');

  assert.deepEqual(
    c.error_codes.map((e: { code: string }) => e.code),
    [...HARBOR_ERROR_CODES],
  );
  const byCode = Object.fromEntries(c.error_codes.map((e: { code: string; http_status: number }) => [e.code, e.http_status]));
  assert.equal(byCode.task_rate_limited, 429);
  assert.equal(byCode.help_request_not_found, 404);

  const cap = (id: string) => c.capabilities.find((x: { id: string }) => x.id === id);
  assert.equal(cap('harbor.operator_requests').endpoint, 'https://api.bosun.test/v1/harbor/operator-requests');
  assert.equal(cap('harbor.operator_requests').implemented, true);
  assert.equal(cap('payments.catalog').endpoint, 'https://bosun.test/payments');
  assert.equal(cap('harbor.knowledge_board').status, 'planned');
  assert.equal(cap('harbor.knowledge_board').implemented, false);
  assert.equal(c.payments.intents_enabled, false);
  assert.equal(c.discovery.manifest, 'https://bosun.test/.well-known/agent-harbor.json');
});

test('the manifest is served in the envelope, and bare at /agent-harbor.json, pointing at the contract', async () => {
  const res = await app.api('GET', '/.well-known/agent-harbor.json');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  assert.equal(res.body.status, 'ok', 'core 1.2: an envelope');
  const manifest = res.body.data;
  assert.equal(manifest.kind, 'external_agent_onboarding');
  assert.equal(manifest.links.contract, 'https://api.bosun.test/v1/agent-harbor/contract');
  assert.equal(manifest.links.manifest_bare, 'https://bosun.test/agent-harbor.json');
  const bare = await app.api('GET', '/agent-harbor.json');
  assert.equal(bare.status, 200);
  assert.equal(bare.body.status, undefined, 'no envelope');
  assert.deepEqual(bare.body, manifest);
  const services = await app.api('GET', '/v1/services?service_id=agent.harbor');
  assert.equal(services.body.data.services[0].links.contract, manifest.links.contract);
});
