import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, withApp } from '../helpers/app.js';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { plannedOperations } from '../../src/http/planned.js';
import { buildHttpApp } from '../../src/http/app.js';

/** Issue 8 item 4: what existing clients of this interface read, and the closed endpoint kept out of public discovery. */

test('/.well-known/openapi.json is an envelope with the document in data; /openapi.json and Accept give the bare document', () =>
  withApp(async (app) => {
    const wrapped = await app.api('GET', '/.well-known/openapi.json');
    assert.equal(wrapped.status, 200);
    assert.equal(wrapped.body.status, 'ok');
    assert.equal(wrapped.body.cost_units, 0);
    assert.equal(wrapped.body.data.openapi, '3.1.0');
    assert.ok(wrapped.body.data.paths['/v1/ping'].get, 'clients read data.paths');
    assert.match(String(wrapped.headers.vary), /Accept/);

    const bare = await app.api('GET', '/openapi.json');
    assert.equal(bare.status, 200);
    assert.match(String(bare.headers['content-type']), /^application\/json/);
    assert.equal(bare.body.status, undefined, 'no envelope');
    assert.deepEqual(bare.body, wrapped.body.data);

    const negotiated = await app.api('GET', '/.well-known/openapi.json', { headers: { accept: 'application/vnd.oai.openapi+json, application/json;q=0.5' } });
    assert.equal(negotiated.status, 200);
    assert.match(String(negotiated.headers['content-type']), /^application\/vnd\.oai\.openapi\+json/);
    assert.deepEqual(negotiated.body, wrapped.body.data);
    const refused = await app.api('GET', '/.well-known/openapi.json', { headers: { accept: 'application/vnd.oai.openapi+json;q=0, application/json' } });
    assert.equal(refused.body.status, 'ok', 'q=0 does not ask for the bare form');

    const op = wrapped.body.data.paths['/.well-known/openapi.json'].get;
    assert.deepEqual(Object.keys(op.responses['200'].content).sort(), ['application/json', 'application/vnd.oai.openapi+json']);
    const caps = (await app.api('GET', '/v1/capabilities')).body.data;
    assert.equal(caps.openapi_url, 'http://localhost:80/.well-known/openapi.json');
    assert.equal(caps.openapi_bare_url, 'http://localhost:80/openapi.json');
    const quick = (await app.api('GET', '/v1/agents/quickstart')).body.data;
    assert.equal(quick.documents.openapi_bare, 'http://localhost:80/openapi.json');
  }));

test('/v1/capabilities lists a flat data.capabilities[], one entry per implemented operation', () =>
  withApp(async (app) => {
    const caps = (await app.api('GET', '/v1/capabilities')).body.data;
    const flat = caps.capabilities as Array<Record<string, unknown>>;
    assert.ok(Array.isArray(flat));
    assert.equal(flat.length, app.bosun.ctx.catalog.discoverable.length);
    assert.equal(new Set(flat.map((c) => c.operation_id)).size, flat.length, 'one entry per operation');
    const grouped = caps.sections.flatMap((s: { operations: Array<{ operation_id: string }> }) => s.operations.map((o) => o.operation_id));
    assert.deepEqual(flat.map((c) => c.operation_id).sort(), grouped.sort());
    const register = flat.find((c) => c.operation_id === 'postAgentsRegister');
    assert.deepEqual(
      { method: register?.method, path: register?.path, access: register?.access, cost: register?.cost, stability: register?.stability, scopes: register?.scopes, auth: register?.auth },
      { method: 'POST', path: '/v1/agents/register', access: 'P', cost: 0.3, stability: 'beta', scopes: [], auth: 'none' },
    );
    const ping = flat.find((c) => c.operation_id === 'getPing');
    assert.equal(ping?.free, true);
    assert.equal(typeof ping?.summary, 'string');
    const restricted = flat.find((c) => c.access === 'U');
    assert.deepEqual(restricted?.scopes, ['ops:read'], 'U operations name the scope that opens them');
  }));

test('a planned operation answers operation_planned (501) with its catalog entry; a typo answers route_not_found', async () => {
  const app = await startTestApp();
  // Every catalogued operation is implemented: an HTTP app over the same services with one GET left unbound shows the planned answer.
  const PLANNED = 'getRoutesCoverage';
  const http = buildHttpApp({ ...app.bosun.ctx, catalog: buildCatalogView(ALL_ROUTES.filter((r) => r.operationId !== PLANNED)) });
  try {
    assert.equal(app.bosun.ctx.catalog.planned.length, 0, 'every catalogued operation is implemented');
    assert.equal((await app.api('GET', '/v1/routes/coverage')).body.errors[0].code, 'auth_required', 'the full app routes it (an agent key is needed)');
    const entry = app.bosun.ctx.catalog.byOperationId.get(PLANNED)!;
    const plannedPath = entry.path;
    const reply = await http.inject({ method: 'GET', url: plannedPath });
    const planned = { status: reply.statusCode, body: reply.json() };
    assert.equal(planned.status, 501);
    assert.equal(planned.body.status, 'error');
    assert.equal(planned.body.errors[0].code, 'operation_planned');
    assert.equal(planned.body.errors[0].retryable, false);
    assert.deepEqual(planned.body.data.operation, {
      operation_id: entry.operationId,
      method: 'GET',
      path: plannedPath,
      section: entry.section,
      access: entry.access,
      cost: entry.cost,
      stability: entry.stability,
      scopes: [...entry.scopes],
      summary: entry.summary,
      status: 'planned',
    });
    // path parameters match too
    const partial = plannedOperations(buildCatalogView(ALL_ROUTES.filter((r) => r.operationId !== 'getWorkspaceDocumentsByName')));
    const withParam = partial.find('GET', '/v1/workspace/documents/zz_doc');
    assert.equal(withParam?.error.code, 'operation_planned', 'path parameters match too');
    assert.equal(withParam?.data.operation.operation_id, 'getWorkspaceDocumentsByName');
    assert.equal(partial.find('GET', '/v1/workspace/documents/zz_doc/extra'), null);

    const typo = await http.inject({ method: 'GET', url: `${plannedPath}-trnd` });
    assert.equal(typo.statusCode, 404);
    assert.equal(typo.json().errors[0].code, 'route_not_found');
    const wrongMethod = await http.inject({ method: 'DELETE', url: plannedPath });
    assert.equal(wrongMethod.statusCode, 404, 'only the catalogued method is planned');
  } finally {
    await http.close();
    await app.close();
  }
});

test('the closed production-task endpoint is out of public discovery; the operator OpenAPI lists it', () =>
  withApp(async (app) => {
    const closed = '/experimental/agent-harbor-tasks.php';
    const publicDoc = (await app.api('GET', '/.well-known/openapi.json')).body.data;
    assert.equal(publicDoc.paths[closed], undefined);
    assert.ok(!JSON.stringify((await app.api('GET', '/openapi.json')).body).includes('agent-harbor-tasks.php'));
    const caps = (await app.api('GET', '/v1/capabilities')).body.data;
    assert.ok(!JSON.stringify(caps).includes('agent-harbor-tasks.php'), 'not in capabilities');
    assert.equal(caps.counts.implemented, app.bosun.ctx.catalog.implemented.length - 2);
    const services = (await app.api('GET', '/v1/services')).body.data;
    assert.ok(!JSON.stringify(services).includes('agent-harbor-tasks.php'), 'not in services');
    const examples = (await app.api('GET', '/v1/capabilities/examples')).body.data;
    assert.ok(!JSON.stringify(examples).includes('agent-harbor-tasks.php'), 'not in examples');

    const { apiKey } = await app.registerAgent('curious');
    assert.equal((await app.api('GET', '/.well-known/openapi.json', { token: apiKey })).body.data.paths[closed], undefined, 'agents see the public document');
    const operator = await app.operatorToken();
    const operatorDoc = (await app.api('GET', '/.well-known/openapi.json', { token: operator })).body.data;
    assert.equal(operatorDoc.paths[closed].get['x-discovery'], 'closed');
    assert.equal(operatorDoc.paths[closed].post['x-discovery'], 'closed');
    // still served to its assigned agents: a key without the scope meets scope_required, not route_not_found
    const call = await app.api('GET', closed, { token: apiKey });
    assert.notEqual(call.body.errors?.[0]?.code, 'route_not_found');
  }));
