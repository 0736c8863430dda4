import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

test('vessel research answers its unavailable state: the scope cannot be granted', async () => {
  const { apiKey, agentId } = await app.registerAgent('researcher');
  const res = await app.api('GET', '/v1/harbor/vessel-research?mode=latest&mmsi=563033300', { token: apiKey });
  assert.equal(res.status, 403);
  assert.equal(res.body.errors[0].code, 'scope_required');
  assert.match(res.body.errors[0].message, /unavailable on this service/);
  await assert.rejects(app.bosun.ctx.services.agents.grantScope(agentId, 'harbor:vessel:research:read', { kind: 'cli' }), /not grantable|cannot|grant/i);
});

test('a holder of the scope (granted outside the service) gets feature_unavailable after the bounds check', async () => {
  const { apiKey, agentId } = await app.registerAgent('holder');
  await app.bosun.ctx.store.db
    .insertInto('agent_scopes')
    .values({ agent_id: agentId, scope: 'harbor:vessel:research:read', granted_by: 'database', granted_at: app.clock.now(), expires_at: null })
    .execute();
  const tooMany = await app.api('GET', '/v1/harbor/vessel-research?mode=latest&mmsi=563033300&limit=11', { token: apiKey });
  assert.equal(tooMany.body.errors[0].field, 'query.limit');
  const tooLong = await app.api('GET', '/v1/harbor/vessel-research?mode=history&mmsi=563033300&from=2026-01-01T00:00:00Z&to=2026-02-02T00:00:00Z', { token: apiKey });
  assert.match(tooLong.body.errors[0].message, /31 days/);
  const ok = await app.api('GET', '/v1/harbor/vessel-research?mode=history&mmsi=563033300&from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z', { token: apiKey });
  assert.equal(ok.status, 503);
  assert.equal(ok.body.errors[0].code, 'feature_unavailable');
});
