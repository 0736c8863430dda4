import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR } from '../../src/platform/clock.js';
import { ENABLED_TOOLSETS_TTL_MS, TOOLSETS, DEFAULT_TOOLSETS } from '../../src/features/mcp/toolsets.js';
import { withApp, type TestApp } from '../helpers/app.js';

const HOST = 'agents.example.org';
const ACCEPT = 'application/json, text/event-stream';
/** The budget: tools/list of the default toolsets at most 30,000 tokens (characters ÷ 4). */
const DEFAULT_LIST_TOKEN_BUDGET = 30_000;

interface McpTool {
  name: string;
  _meta?: { 'bosun/operation': { toolset: string; access: string } };
}

function rpc(app: TestApp, method: string, params: Record<string, unknown> = {}, opts: { token?: string; url?: string; headers?: Record<string, string> } = {}) {
  return app.api('POST', opts.url ?? '/mcp', {
    ...(opts.token ? { token: opts.token } : {}),
    headers: { accept: ACCEPT, host: HOST, ...opts.headers },
    body: { jsonrpc: '2.0', id: 1, method, params },
  });
}

const toolNames = (res: { body: { result: { tools: McpTool[] } } }) => res.body.result.tools.map((t) => t.name);
const toolsetsOf = (res: { body: { result: { tools: McpTool[] } } }) => new Set(res.body.result.tools.flatMap((t) => (t._meta ? [t._meta['bosun/operation'].toolset] : [])));

/** The JSON-RPC messages of an event-stream answer, in order. */
const streamed = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { method?: string; result?: { structuredContent: Record<string, unknown> } });

test('tools/list without a choice: the default toolsets and the three meta-tools, within 30,000 tokens; every tool in one known toolset', async () => {
  await withApp(async (app) => {
    const listed = await rpc(app, 'tools/list');
    assert.equal(listed.status, 200);
    const tokens = JSON.stringify(listed.body.result).length / 4;
    assert.ok(tokens <= DEFAULT_LIST_TOKEN_BUDGET, `default tools/list is ${tokens} tokens`);
    const names = toolNames(listed);
    assert.deepEqual(names.slice(0, 3), ['list_available_toolsets', 'get_toolset_tools', 'enable_toolset']);
    assert.deepEqual([...toolsetsOf(listed)].sort(), [...DEFAULT_TOOLSETS].sort());
    assert.deepEqual([...DEFAULT_TOOLSETS], ['vessels', 'ports', 'routes', 'harbor', 'workspace']);
    // the tasks agents come for are in the default list
    for (const name of [
      'getVesselsSearch',
      'getVesselsLookup',
      'getServicesVesselHistoryRead',
      'getPortsSearch',
      'getRoutesDirect',
      'postAgentsRegister',
      'postHarborHelpRequests',
      'getWorkspaceDocuments',
    ]) {
      assert.ok(names.includes(name), name);
    }
    // every operation tool belongs to exactly one declared toolset
    const all = app.bosun.ctx.services.webmcp.tools();
    const declared = new Set(TOOLSETS.map((t) => t.name));
    for (const tool of all) assert.ok(declared.has(tool._meta['bosun/operation'].toolset), `${tool.name} is in ${tool._meta['bosun/operation'].toolset}`);
    assert.ok(
      TOOLSETS.every((t) => all.some((tool) => tool._meta['bosun/operation'].toolset === t.name)),
      'no toolset is empty',
    );
  });
});

test('operator tools: absent for anonymous callers and agent keys, even when asked for all; listed to the operator', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('no-ops');
    for (const token of [undefined, apiKey]) {
      const all = await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=all', ...(token ? { token } : {}) });
      assert.equal(all.status, 200);
      assert.ok(!toolsetsOf(all).has('operator'));
      assert.equal(all.body.result.tools.filter((t: McpTool) => t._meta?.['bosun/operation'].access === 'U').length, 0);
      const refused = await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=operator', ...(token ? { token } : {}) });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errors[0].field, 'query.toolsets');
      assert.match(refused.body.errors[0].message, /no toolset "operator"; toolsets are default, all, vessels, ports/);
      assert.doesNotMatch(refused.body.errors[0].message, /operator,|operator$/);
    }
    const operator = await app.operatorToken();
    const ops = await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=operator', token: operator });
    assert.equal(ops.status, 200);
    assert.deepEqual([...toolsetsOf(ops)], ['operator']);
    assert.ok(toolNames(ops).includes('getWebmcpDispatchAudit'));
    // an agent the operator granted ops:read sees them too
    const { apiKey: opsKey } = await app.registerAgent('ops-reader', ['ops:read']);
    assert.ok(toolNames(await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=operator', token: opsKey })).includes('getTelemetrySummary'));
  });
});

test('choosing toolsets: the query parameter and the X-MCP-Toolsets header; GET /v1/webmcp/tools answers the same selection', async () => {
  await withApp(async (app) => {
    const byQuery = await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=lanes,feedback' });
    assert.deepEqual([...toolsetsOf(byQuery)], ['lanes', 'feedback']);
    const byHeader = await rpc(app, 'tools/list', {}, { headers: { 'x-mcp-toolsets': 'lanes, feedback' } });
    assert.deepEqual(toolNames(byHeader), toolNames(byQuery));
    const published = await app.api('GET', '/v1/webmcp/tools?toolsets=lanes,feedback');
    assert.deepEqual(
      published.body.data.tools.map((t: McpTool) => t.name),
      toolNames(byQuery).slice(3),
    );
    const lanes = published.body.data.toolsets.find((t: { name: string }) => t.name === 'lanes');
    assert.equal(lanes.tool_count, published.body.data.tools.filter((t: McpTool) => t._meta!['bosun/operation'].toolset === 'lanes').length);
    const bad = await app.api('GET', '/v1/webmcp/tools?toolsets=lanez');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].message, /no toolset "lanez"/);
  });
});

test('enable_toolset: list_changed before the result, the toolset listed next time for this caller only, forgotten after 24 hours', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('enabler');
    const { apiKey: other } = await app.registerAgent('bystander');
    const described = await rpc(app, 'tools/call', { name: 'get_toolset_tools', arguments: { toolset: 'exchange' } }, { token: apiKey });
    assert.equal(described.body.result.isError, false);
    assert.ok(described.body.result.structuredContent.tools.some((t: { name: string }) => t.name === 'postExchangeMessages'));
    assert.ok(!toolsetsOf(await rpc(app, 'tools/list', {}, { token: apiKey })).has('exchange'), 'describing does not enable');

    const enabled = await rpc(app, 'tools/call', { name: 'enable_toolset', arguments: { toolset: 'exchange' } }, { token: apiKey });
    assert.equal(enabled.status, 200);
    assert.match(String(enabled.headers['content-type']), /text\/event-stream/);
    const messages = streamed(enabled.text);
    assert.equal(messages[0]!.method, 'notifications/tools/list_changed');
    const answer = messages[1]!.result!.structuredContent;
    assert.equal(answer.already_enabled, false);
    assert.deepEqual(answer.active_toolsets, [...DEFAULT_TOOLSETS, 'exchange']);
    assert.equal(answer.lasting_choice, `http://${HOST}/mcp?toolsets=${[...DEFAULT_TOOLSETS, 'exchange'].join(',')}`);

    assert.ok(toolsetsOf(await rpc(app, 'tools/list', {}, { token: apiKey })).has('exchange'));
    assert.ok(!toolsetsOf(await rpc(app, 'tools/list', {}, { token: other })).has('exchange'), 'another agent keeps the defaults');
    const listedSets = await rpc(app, 'tools/call', { name: 'list_available_toolsets', arguments: {} }, { token: apiKey });
    const exchange = listedSets.body.result.structuredContent.toolsets.find((t: { name: string }) => t.name === 'exchange');
    assert.equal(exchange.enabled, true);

    const again = streamed((await rpc(app, 'tools/call', { name: 'enable_toolset', arguments: { toolset: 'exchange' } }, { token: apiKey })).text);
    assert.equal(again.length, 1, 'enabling twice changes nothing: no notification');
    assert.equal(again[0]!.result!.structuredContent.already_enabled, true);

    app.clock.advance(ENABLED_TOOLSETS_TTL_MS - HOUR);
    assert.ok(toolsetsOf(await rpc(app, 'tools/list', {}, { token: apiKey })).has('exchange'), 'still there just before 24 h');
    app.clock.advance(HOUR);
    assert.ok(!toolsetsOf(await rpc(app, 'tools/list', {}, { token: apiKey })).has('exchange'), 'forgotten at 24 h');

    const unknown = streamed((await rpc(app, 'tools/call', { name: 'enable_toolset', arguments: { toolset: 'operator' } }, { token: apiKey })).text);
    assert.equal(unknown[0]!.result!.structuredContent.status, 'error');
    assert.match(String((unknown[0]!.result!.structuredContent.errors as Array<{ message: string }>)[0]!.message), /arguments.toolset must name one of the toolsets: vessels, ports/);
  });
});

test("no localhost link in any MCP answer: links are built from the request's own host", async () => {
  await withApp(async (app) => {
    const answers: string[] = [];
    const keep = (res: { status: number; text: string }) => {
      assert.ok(res.status < 500, res.text);
      answers.push(res.text);
      return res;
    };
    keep(await rpc(app, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } }));
    keep(await rpc(app, 'tools/list', {}, { url: '/mcp?toolsets=all' }));
    const listed = keep(await rpc(app, 'resources/list'));
    const uris = (listed as unknown as { body: { result: { resources: Array<{ uri: string }> } } }).body.result.resources.map((r) => r.uri);
    assert.ok(uris.includes(`http://${HOST}/v1/agents/quickstart`));
    for (const uri of uris) keep(await rpc(app, 'resources/read', { uri }));
    keep(await rpc(app, 'prompts/list'));
    for (const name of ['connect', 'first-help-request', 'vessel-to-destination', 'port-congestion']) keep(await rpc(app, 'prompts/get', { name }));
    const registered = keep(await rpc(app, 'tools/call', { name: 'postAgentsRegister', arguments: { body: { name: 'linker', vendor: 'tests', description: 'checks links' } } }));
    const apiKey = (registered as unknown as { body: { result: { structuredContent: { data: { api_key: string } } } } }).body.result.structuredContent.data.api_key;
    for (const name of ['getWebmcpBootstrap', 'getAgentsQuickstart', 'getAgentHarborContract', 'getWellKnownAgentHarborJson', 'getCapabilities', 'getServices', 'getAgentsMe', 'getHarborDiscovery']) {
      keep(await rpc(app, 'tools/call', { name, arguments: {} }, { token: apiKey }));
    }
    // the same through plain-HTTP dispatch
    const dispatched = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, headers: { host: HOST }, body: { tool: 'getAgentsQuickstart' } });
    assert.equal(dispatched.status, 200);
    answers.push(dispatched.text);
    const all = answers.join('\n');
    assert.deepEqual([...all.matchAll(/.{120}localhost.{60}/g)].map((m) => m[0]).slice(0, 8), []);
    assert.ok((all.match(new RegExp(`http://${HOST.replace(/\./g, '\\.')}/`, 'g')) ?? []).length > 50, 'the answers hold links, all on the called host');
  });
});

test('tool errors name the tool arguments, not the HTTP query, path or body', async () => {
  await withApp(async (app) => {
    const { apiKey } = await app.registerAgent('arguer');
    const unknown = await rpc(app, 'tools/call', { name: 'getPortsSearch', arguments: { locode: 'NLRTM', colour: 'red' } });
    assert.equal(unknown.body.result.isError, true);
    const error = unknown.body.result.structuredContent.errors[0];
    assert.equal(error.field, 'arguments.colour');
    assert.match(error.message, /^arguments\.colour /);
    const missing = await rpc(app, 'tools/call', { name: 'postHarborHelpRequests', arguments: { body: { body: 'no title here' } } }, { token: apiKey });
    const fields = missing.body.result.structuredContent.errors.map((e: { field: string }) => e.field);
    assert.ok(
      fields.every((f: string) => f.startsWith('arguments.body.')),
      fields.join(', '),
    );
    assert.doesNotMatch(missing.body.result.content[0].text, /"(query|body)\./);
  });
});

test('prompts take arguments: vessel-to-destination takes an IMO, port-congestion a UN/LOCODE; a bad value is invalid params', async () => {
  await withApp(async (app) => {
    const prompts = (await rpc(app, 'prompts/list')).body.result.prompts as Array<{ name: string; arguments: Array<{ name: string; required: boolean }> }>;
    assert.deepEqual(
      prompts.find((p) => p.name === 'vessel-to-destination')!.arguments.map((a) => [a.name, a.required]),
      [['imo', false]],
    );
    const chosen = await rpc(app, 'prompts/get', { name: 'vessel-to-destination', arguments: { imo: '9300001' } });
    const text = chosen.body.result.messages[0].content.text as string;
    assert.match(text, /getVesselsLookup with arguments \{"imo":"9300001"\}/);
    const port = await rpc(app, 'prompts/get', { name: 'port-congestion', arguments: { locode: 'SGSIN' } });
    assert.match(port.body.result.messages[0].content.text, /getPortsSearch with arguments \{"locode":"SGSIN"\}/);
    const bad = await rpc(app, 'prompts/get', { name: 'vessel-to-destination', arguments: { imo: '12' } });
    assert.equal(bad.body.error.code, -32602);
    assert.match(bad.body.error.message, /argument imo: .*7 digits/);
    const extra = await rpc(app, 'prompts/get', { name: 'connect', arguments: { imo: '9300001' } });
    assert.equal(extra.body.error.code, -32602);
    assert.match(extra.body.error.message, /connect takes no arguments, not imo/);
  });
});
