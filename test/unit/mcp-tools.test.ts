import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogView } from '../../src/catalog/catalog.js';
import { buildOpenApi } from '../../src/catalog/openapi.js';
import { ALL_ROUTES } from '../../src/features/index.js';
import { redactArguments } from '../../src/features/mcp/redact.js';
import { buildToolSet, OPERATION_META_KEY, toolRequest, toolResult } from '../../src/features/mcp/tools.js';
import { AppError } from '../../src/platform/errors.js';

const catalog = buildCatalogView(ALL_ROUTES);
const toolSet = buildToolSet(catalog);
const openapi = buildOpenApi(catalog, 'http://localhost');

test('every implemented operation of public discovery has a tool, or a documented exclusion; planned and closed ones never do', () => {
  const named = new Set(toolSet.tools.map((t) => t.name));
  for (const { entry } of catalog.discoverable) {
    const excluded = toolSet.excluded.find((e) => e.operation_id === entry.operationId);
    assert.ok(named.has(entry.operationId) !== Boolean(excluded), `${entry.operationId}: exactly one of a tool or an exclusion`);
  }
  assert.deepEqual(
    toolSet.excluded.map((e) => e.operation_id),
    ['postWebmcpDispatch', 'getExchangeMessagesStream', 'getPayments', 'getAgentsForum'],
  );
  // every catalogued operation is implemented: a catalog with one left unbound shows a planned one gets no tool
  const partial = buildCatalogView(ALL_ROUTES.filter((r) => r.operationId !== 'getRoutesCoverage'));
  assert.deepEqual(
    partial.planned.map((e) => e.operationId),
    ['getRoutesCoverage'],
  );
  assert.ok(!buildToolSet(partial).tools.some((t) => t.name === 'getRoutesCoverage'), 'a planned operation has no tool');
  assert.ok(named.has('getRoutesCoverage'));
  for (const { entry } of catalog.implemented.filter((o) => o.entry.discovery === 'closed')) assert.ok(!named.has(entry.operationId), `closed ${entry.operationId} has no tool`);
  assert.equal(toolSet.tools.length + toolSet.excluded.length, catalog.discoverable.length);
});

test("each tool's input schema is the OpenAPI operation's parameters and request body, exactly", () => {
  for (const tool of toolSet.tools) {
    const meta = tool._meta[OPERATION_META_KEY];
    const operation = (openapi.paths[meta.path] as Record<string, any>)[meta.method.toLowerCase()];
    assert.ok(operation, `${tool.name} is in OpenAPI`);
    assert.equal(operation.operationId, tool.name);
    const parameters = (operation.parameters as Array<{ name: string; in: string; required: boolean; schema: unknown }>).filter((p) => p.in === 'path' || p.in === 'query');
    const expectedProperties: Record<string, unknown> = Object.fromEntries(parameters.map((p) => [p.name, p.schema]));
    const expectedRequired = parameters.filter((p) => p.required).map((p) => p.name);
    if (operation.requestBody) {
      expectedProperties.body = operation.requestBody.content['application/json'].schema;
      expectedRequired.push('body');
    }
    assert.deepEqual(tool.inputSchema.properties, expectedProperties, `${tool.name} properties`);
    assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), expectedRequired.sort(), `${tool.name} required`);
    assert.equal(tool.inputSchema.additionalProperties, false);
    assert.deepEqual(
      meta.path_parameters,
      parameters.filter((p) => p.in === 'path').map((p) => p.name),
    );
    assert.equal(meta.cost_units_hint, operation['x-cost-units-hint']);
    assert.equal(meta.access, operation['x-access-class']);
    assert.equal(tool.annotations.readOnlyHint, meta.method === 'GET');
    assert.equal(tool.annotations.idempotentHint, meta.method !== 'POST');
  }
});

test('a tool call becomes the HTTP request of its operation', () => {
  const congestion = toolSet.byName.get('getPortsByPortIdCongestion')!;
  assert.deepEqual(toolRequest(congestion, { port_id: 31140, range: '7D', vessel_type: 'tanker' }), { method: 'GET', url: '/v1/ports/31140/congestion?range=7D&vessel_type=tanker' });
  assert.deepEqual(toolRequest(toolSet.byName.get('getHarborProfilesByAgentId')!, { agent_id: 'a/b c' }), { method: 'GET', url: '/v1/harbor/profiles/a%2Fb%20c' });
  const register = toolSet.byName.get('postAgentsRegister')!;
  assert.deepEqual(toolRequest(register, { body: { name: 'x' } }), { method: 'POST', url: '/v1/agents/register', body: { name: 'x' } });
  assert.deepEqual(toolRequest(register, {}), { method: 'POST', url: '/v1/agents/register', body: undefined });
  // unknown arguments go to the query string, where the operation refuses them by name
  assert.deepEqual(toolRequest(toolSet.byName.get('getPing')!, { surprise: true, list: [1, 2] }), { method: 'GET', url: '/v1/ping?surprise=true&list=1&list=2' });
  assert.throws(
    () => toolRequest(congestion, {}),
    (e: unknown) => e instanceof AppError && e.code === 'invalid_request' && e.options.field === 'arguments.port_id',
  );
  assert.throws(
    () => toolRequest(congestion, ['x']),
    (e: unknown) => e instanceof AppError && e.options.field === 'arguments',
  );
});

test('a tool result carries the envelope as text and structured content, isError for 4xx/5xx', () => {
  const text = JSON.stringify({ status: 'error', errors: [{ code: 'auth_required' }] });
  assert.deepEqual(toolResult(401, 'application/json; charset=utf-8', text), { content: [{ type: 'text', text }], structuredContent: JSON.parse(text), isError: true });
  assert.deepEqual(toolResult(200, 'text/html', '<p>x</p>'), { content: [{ type: 'text', text: '<p>x</p>' }], isError: false });
});

test('the dispatch audit redacts credentials at any depth, cuts long text and reduces write bodies to field names', () => {
  assert.deepEqual(redactArguments({ api_key: 'bsk_x', filter: { Authorization: 'Bearer y', q: 'rotterdam' }, note: 'x'.repeat(130) }, { write: false, bodyArgument: 'body' }), {
    api_key: '[redacted]',
    filter: { Authorization: '[redacted]', q: 'rotterdam' },
    note: `${'x'.repeat(120)}… (130 characters)`,
  });
  assert.deepEqual(redactArguments({ id: 'hr_1', body: { title: 'private', body: 'my secret plan' } }, { write: true, bodyArgument: 'body' }), {
    id: 'hr_1',
    body: { redacted: 'write body', fields: ['body', 'title'] },
  });
  assert.deepEqual(redactArguments({ body: { q: 'x' } }, { write: false, bodyArgument: 'body' }), { body: { q: 'x' } });
  assert.deepEqual(redactArguments('text', { write: true, bodyArgument: 'body' }), { arguments: '[redacted]' });
});
