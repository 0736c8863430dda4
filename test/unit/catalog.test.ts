import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { CATALOG } from '../../src/catalog/entries.js';
import { buildOpenApi } from '../../src/catalog/openapi.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const tsv = sharedDataPath('../spec/endpoints.tsv');

/** The access class and scope the spec's access column implies (harbor rows state auth or a scope). */
function expectedAccess(access: string): { access: string; scope?: string } {
  if (access === 'P' || access === 'K' || access === 'U') return { access };
  if (access.startsWith('none')) return { access: 'P' };
  if (access === 'key') return { access: 'K' };
  if (access === 'harbor:task:*' || access === 'per action') return { access: 'K' };
  return { access: 'K', scope: access.split(' ')[0] };
}

test('the catalog matches spec/endpoints.tsv in method, path, stability, cost and access', { skip: tsv.skip }, () => {
  const rows = readFileSync(tsv.path, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  assert.equal(rows.length, 253);
  const specified = CATALOG.filter((e) => !e.extension);
  assert.equal(specified.length, 253);
  assert.deepEqual(
    CATALOG.filter((e) => e.extension).map((e) => `${e.method} ${e.path}`),
    ['GET /v1/ports/{port_id}/areas', 'GET /v1/events', 'GET /v1/events/{event_id}'],
    'Bosun extensions (decision 112)',
  );
  const byKey = new Map(specified.map((e) => [`${e.method} ${e.path}`, e]));
  for (const [method, path, stability, cost, access] of rows) {
    const entry = byKey.get(`${method} ${path}`);
    assert.ok(entry, `missing ${method} ${path}`);
    if (stability !== 'unstated' && stability !== 'not rated') assert.equal(entry.stability, stability, `${method} ${path} stability`);
    if (!/rated/.test(cost!)) assert.equal(entry.cost, Number(cost), `${method} ${path} cost`);
    const expected = expectedAccess(access!);
    assert.equal(entry.access, expected.access, `${method} ${path} access (${access})`);
    if (expected.scope) assert.ok(entry.scopes.includes(expected.scope), `${method} ${path} scope ${expected.scope}`);
  }
  assert.equal(new Set(CATALOG.map((e) => e.operationId)).size, CATALOG.length, 'operationIds are unique');
  for (const e of CATALOG) assert.match(e.operationId, /^[a-z][A-Za-z0-9]+$/, e.operationId);
});

test('every implemented operation has a description, response schema and at least one example; planned ones are unrouted', () => {
  const view = buildCatalogView(ALL_ROUTES);
  assert.ok(view.implemented.length >= 15);
  assert.equal(view.implemented.length + view.planned.length, CATALOG.length);
  for (const { entry, route } of view.implemented) {
    assert.ok(route.description.length >= 40, `${entry.operationId} needs a description an agent can act on`);
    assert.ok(route.examples.length >= 1, `${entry.operationId} needs an example`);
    assert.ok(route.response, `${entry.operationId} needs a response schema`);
    if (entry.method === 'GET') assert.equal(route.body, undefined, `${entry.operationId}: GET takes no body`);
  }
  assert.throws(() => buildCatalogView([...ALL_ROUTES, ALL_ROUTES[0]!]), /bound twice/);
  assert.throws(() => buildCatalogView([{ ...ALL_ROUTES[0]!, operationId: 'noSuchOperation' }]), /no catalog entry/);
});

test('the OpenAPI document is valid OpenAPI 3.1 and lists exactly the implemented operations of public discovery', async () => {
  const view = buildCatalogView(ALL_ROUTES);
  const doc = buildOpenApi(view, 'http://127.0.0.1:8080');
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  const operatorDoc = buildOpenApi(view, 'http://127.0.0.1:8080', { audience: 'operator' });
  const operatorResult = await new Validator().validate(operatorDoc);
  assert.equal(operatorResult.valid, true, JSON.stringify(operatorResult.errors, null, 1)?.slice(0, 2000));
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.0.0');
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, method: m.toUpperCase(), op: op as Record<string, unknown> })));
  const closed = view.implemented.filter((o) => o.entry.discovery === 'closed');
  assert.deepEqual(
    closed.map((o) => o.entry.path),
    ['/experimental/agent-harbor-tasks.php', '/experimental/agent-harbor-tasks.php'],
    'harbor 4.3',
  );
  assert.equal(operations.length, view.implemented.length - closed.length);
  for (const { entry } of closed) {
    assert.equal(doc.paths[entry.path]?.[entry.method.toLowerCase()], undefined, `${entry.operationId} is not public`);
    assert.ok(operatorDoc.paths[entry.path]?.[entry.method.toLowerCase()], `${entry.operationId} is in the operator document`);
  }
  for (const { entry } of view.discoverable) {
    const op = operations.find((o) => o.path === entry.path && o.method === entry.method)?.op;
    assert.ok(op, `${entry.operationId} in OpenAPI`);
    assert.equal(op['x-cost-units-hint'], entry.cost);
    assert.equal(op['x-stability'], entry.stability);
    assert.equal(op['x-access-class'], entry.access);
    assert.equal(op.operationId, entry.operationId);
    assert.equal(op['x-bosun-extension'], entry.extension, `${entry.operationId}: x-bosun-extension marks the extensions only`);
  }
  for (const planned of view.planned) assert.equal(doc.paths[planned.path]?.[planned.method.toLowerCase()], undefined, `${planned.operationId} is planned`);
  const withKey = operations.filter((o) => (o.op.parameters as Array<{ name: string; in: string }>).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'));
  assert.deepEqual(
    withKey.map((o) => o.op.operationId).sort(),
    [
      'postExchangeBounties',
      'postExchangeBountiesClaim',
      'postExchangeBountiesSubmit',
      'postExchangeClaims',
      'postExchangeMessages',
      'postExchangeSendMessage',
      'postFeedbackCorrection',
      'postFeedbackProposeMetric',
      'postFeedbackRequestData',
      'postHarborHelpRequests',
      'postHarborHelpRequestsByIdClose',
      'postHarborHelpRequestsByIdResponses',
      'postHarborHelpRequestsByIdSelect',
    ],
    'the Idempotency-Key header is declared where it is honoured',
  );
});
