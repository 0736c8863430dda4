import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { withApp } from '../helpers/app.js';

const PUBLIC_URL = 'https://bosun.example';

test('bootstrap: the MCP URL, transport, auth, OpenAPI, quickstart and contract version from config and catalog', async () => {
  await withApp(
    async (app) => {
      const res = await app.api('GET', '/v1/webmcp/bootstrap');
      assert.equal(res.status, 200);
      const d = res.body.data;
      assert.deepEqual(d.mcp, {
        url: `${PUBLIC_URL}/mcp`,
        transport: 'streamable-http',
        protocol_version: '2025-11-25',
        session_mode: 'stateless',
        tool_count: app.bosun.ctx.services.webmcp.tools().length,
      });
      assert.equal(d.auth.register_url, `${PUBLIC_URL}/v1/agents/register`);
      assert.equal(d.openapi_url, `${PUBLIC_URL}/openapi.json`);
      assert.equal(d.quickstart_url, `${PUBLIC_URL}/v1/agents/quickstart`);
      assert.deepEqual(d.contract, { kind: 'external_agent_onboarding', version: '1.5', url: `${PUBLIC_URL}/v1/agent-harbor/contract` });
      assert.equal(d.stdio.command, `bosun mcp --base-url ${PUBLIC_URL} --api-key-env BOSUN_API_KEY`);
      assert.equal(res.body.cost_units, 0.07);
      // every URL it names answers
      for (const url of [d.openapi_url, d.quickstart_url, d.contract.url, d.tools_url, d.playbooks_url]) {
        const linked = await app.api('GET', url.slice(PUBLIC_URL.length));
        assert.equal(linked.status, 200, url);
      }
    },
    { BOSUN_PUBLIC_URL: PUBLIC_URL },
  );
});

test('tools: the generated tool list with its exclusions; planned operations absent', async () => {
  await withApp(async (app) => {
    const res = await app.api('GET', '/v1/webmcp/tools');
    assert.equal(res.status, 200);
    const names = (res.body.data.tools as Array<{ name: string }>).map((t) => t.name);
    assert.equal(res.body.data.count, names.length);
    assert.ok(names.includes('getPing'));
    assert.ok(!names.includes('getWebmcpDispatchAudit'), 'operator tools are not listed without the operator token');
    const operator = await app.api('GET', '/v1/webmcp/tools', { token: await app.operatorToken() });
    assert.ok(operator.body.data.tools.some((t: { name: string }) => t.name === 'getWebmcpDispatchAudit'));
    assert.ok(!names.includes('postWebmcpDispatch'));
    for (const planned of app.bosun.ctx.catalog.planned) assert.ok(!names.includes(planned.operationId), planned.operationId);
    assert.deepEqual(
      res.body.data.excluded.map((e: { operation_id: string }) => e.operation_id),
      ['postWebmcpDispatch', 'getExchangeMessagesStream', 'getPayments', 'getAgentsForum'],
    );
    const lookup = res.body.data.tools.find((t: { name: string }) => t.name === 'getVesselsLookup');
    assert.deepEqual(lookup._meta['bosun/operation'].query_parameters, ['id', 'imo', 'mmsi']);
    assert.equal(lookup.annotations.openWorldHint, true);
  });
});

test('dispatch: one tool by name with the caller key, the inner envelope returned, both calls charged', async () => {
  await withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent('dispatcher');
    const me = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getAgentsMe' } });
    assert.equal(me.status, 200);
    assert.equal(me.body.cost_units, 0.16);
    assert.deepEqual(me.body.data.operation, { method: 'GET', path: '/v1/agents/me' });
    assert.equal(me.body.data.http_status, 200);
    assert.equal(me.body.data.result.status, 'ok');
    assert.equal(me.body.data.result.data.agent_id, agentId);
    assert.equal(me.body.data.result.cost_units, 0.2);
    assert.match(me.body.data.inner_request_id, /^req_[0-9a-f]{24}$/);
    assert.notEqual(me.body.data.inner_request_id, me.body.request_id);

    // telemetry has both calls, each with its own cost
    await app.bosun.ctx.services.telemetry.flush();
    const operator = await app.operatorToken();
    const usage = await app.api('GET', '/v1/telemetry/summary', { token: operator });
    const ops = usage.body.data.operations as Array<{ operation_id: string; requests: number; cost_units: number }>;
    assert.deepEqual(
      ops
        .filter((o) => o.operation_id === 'postWebmcpDispatch' || o.operation_id === 'getAgentsMe')
        .map((o) => [o.operation_id, o.requests, o.cost_units])
        .sort(),
      [
        ['getAgentsMe', 1, 0.2],
        ['postWebmcpDispatch', 1, 0.16],
      ],
    );

    // path parameters, query and body go where the operation expects them
    const ports = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPortsSearch', arguments: { locode: 'NLRTM', limit: 1 } } });
    assert.equal(ports.body.data.result.data.items.length, 1);
    assert.equal(ports.body.data.result.data.items[0].locode, 'NLRTM');

    // the inner refusal is the inner envelope; the dispatch itself succeeded
    const unknownParam = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPortsSearch', arguments: { nonsense: 1 } } });
    assert.equal(unknownParam.status, 200);
    assert.equal(unknownParam.body.data.http_status, 400);
    assert.equal(unknownParam.body.data.result.errors[0].code, 'invalid_request');
    assert.equal(unknownParam.body.data.result.errors[0].field, 'arguments.nonsense', 'named as the tool argument it was');

    const unknown = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getNothing', arguments: {} } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].code, 'tool_not_found');
    assert.equal(unknown.body.errors[0].field, 'body.tool');
    const itself = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'postWebmcpDispatch', arguments: {} } });
    assert.equal(itself.body.errors[0].code, 'tool_not_found');
    assert.match(itself.body.errors[0].message, /tools\/call itself/);
    const missingPath = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPortsByPortIdCongestion', arguments: {} } });
    assert.equal(missingPath.status, 400);
    assert.equal(missingPath.body.errors[0].code, 'invalid_request');
    assert.equal(missingPath.body.errors[0].field, 'body.arguments.port_id');
    const notObject = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPing', arguments: [1] } });
    assert.equal(notObject.status, 400);
    assert.equal(notObject.body.errors[0].field, 'body.arguments');
  });
});

test('dispatch/health: success and error rates and latency from the recorded dispatches, over a window', async () => {
  await withApp(async (app) => {
    const empty = await app.api('GET', '/v1/webmcp/dispatch/health');
    assert.equal(empty.body.data.overall.calls, 0);
    assert.equal(empty.body.data.overall.success_rate, null);
    const { apiKey } = await app.registerAgent('health');
    await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getAgentsMe' } });
    await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPing' } });
    await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPortsByPortIdCongestion', arguments: { port_id: 'nope' } } });
    const res = await app.api('GET', '/v1/webmcp/dispatch/health?hours=1');
    const d = res.body.data;
    assert.equal(d.window.hours, 1);
    assert.equal(d.overall.calls, 3);
    assert.equal(d.overall.success_rate, 0.6667);
    assert.equal(d.overall.client_error_rate, 0.3333);
    assert.equal(d.overall.server_error_rate, 0);
    assert.equal(d.channels.dispatch.calls, 3);
    assert.equal(d.channels.mcp.calls, 0);
    assert.ok(d.overall.latency_ms.max >= d.overall.latency_ms.p50);
    assert.deepEqual(
      d.tools.map((t: { tool: string; calls: number; success_rate: number }) => [t.tool, t.calls, t.success_rate]),
      [
        ['getAgentsMe', 1, 1],
        ['getPing', 1, 1],
        ['getPortsByPortIdCongestion', 1, 0],
      ],
    );
    assert.deepEqual(d.error_codes, [{ code: 'invalid_request', count: 1 }]);
    app.clock.advance(2 * HOUR);
    assert.equal((await app.api('GET', '/v1/webmcp/dispatch/health?hours=1')).body.data.overall.calls, 0, 'outside the window');
    assert.equal((await app.api('GET', '/v1/webmcp/dispatch/health?hours=3')).body.data.overall.calls, 3);
    const bad = await app.api('GET', '/v1/webmcp/dispatch/health?hours=0');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].field, 'query.hours');
  });
});

test('dispatch/audit: who dispatched what, redacted, paged, operator only, with retention (three agents)', () =>
  withApp(async (app) => {
    const alice = await app.registerAgent('alice');
    const bob = await app.registerAgent('bob');
    const carol = await app.registerAgent('carol');
    await app.api('POST', '/v1/webmcp/dispatch', { token: alice.apiKey, body: { tool: 'getAgentsMe' } });
    app.clock.advance(1000);
    await app.api('POST', '/v1/webmcp/dispatch', {
      token: bob.apiKey,
      body: { tool: 'postHarborProfiles', arguments: { body: { display_name: 'Bob the planner', summary: 'private plans', public: false } } },
    });
    app.clock.advance(1000);
    await app.api('POST', '/v1/webmcp/dispatch', { token: carol.apiKey, body: { tool: 'getPortsSearch', arguments: { q: 'rotterdam', api_key: 'bsk_leaked' } } });

    // agents, even ones that dispatched, cannot read the audit; the health view names nobody
    for (const agent of [alice, bob, carol]) {
      const refused = await app.api('GET', '/v1/webmcp/dispatch/audit', { token: agent.apiKey });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.errors[0].code, 'operator_required');
    }
    const health = await app.api('GET', '/v1/webmcp/dispatch/health');
    for (const agent of [alice, bob, carol]) assert.ok(!health.text.includes(agent.agentId));
    assert.ok(!health.text.includes('private plans') && !health.text.includes('bsk_leaked'));

    const operator = await app.operatorToken();
    const all = await app.api('GET', '/v1/webmcp/dispatch/audit', { token: operator });
    assert.equal(all.status, 200);
    const items = all.body.data.items;
    assert.deepEqual(
      items.map((i: { tool: string; caller: { agent_id: string } }) => [i.tool, i.caller.agent_id]),
      [
        ['getPortsSearch', carol.agentId],
        ['postHarborProfiles', bob.agentId],
        ['getAgentsMe', alice.agentId],
      ],
    );
    assert.deepEqual(items[0].arguments, { q: 'rotterdam', api_key: '[redacted]' });
    assert.equal(items[0].http_status, 400, 'api_key is not a parameter of the port search');
    assert.equal(items[0].outcome, 'error');
    assert.equal(items[0].error_code, 'invalid_request');
    assert.deepEqual(items[1].arguments, { body: { redacted: 'write body', fields: ['display_name', 'public', 'summary'] } });
    assert.ok(!all.text.includes('private plans'));
    assert.equal(items[2].outcome, 'ok');
    assert.equal(items[2].cost_units, 0.2);
    assert.equal(items[2].channel, 'dispatch');
    assert.equal(all.body.data.retention_days, 30);

    const firstPage = await app.api('GET', '/v1/webmcp/dispatch/audit?limit=2', { token: operator });
    assert.equal(firstPage.body.data.items.length, 2);
    const secondPage = await app.api('GET', `/v1/webmcp/dispatch/audit?limit=2&cursor=${encodeURIComponent(firstPage.body.data.next_cursor)}`, { token: operator });
    assert.deepEqual(
      secondPage.body.data.items.map((i: { tool: string }) => i.tool),
      ['getAgentsMe'],
    );
    assert.equal(secondPage.body.data.next_cursor, null);
    const forged = await app.api('GET', '/v1/webmcp/dispatch/audit?cursor=abc.def', { token: operator });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.errors[0].code, 'cursor_invalid');
    const onlyBob = await app.api('GET', `/v1/webmcp/dispatch/audit?agent_id=${bob.agentId}&tool=postHarborProfiles&channel=dispatch`, { token: operator });
    assert.equal(onlyBob.body.data.items.length, 1);

    // retention: 30 days
    app.clock.advance(30 * DAY - 1500);
    assert.equal(await app.bosun.ctx.services.webmcp.enforceRetention(), 1, 'only the oldest is past 30 days');
    app.clock.advance(2 * DAY);
    assert.equal(await app.bosun.ctx.services.webmcp.enforceRetention(), 2);
    assert.equal((await app.api('GET', '/v1/webmcp/dispatch/audit', { token: operator })).body.data.items.length, 0);
  }));

test('status: serving, counts of tools, resources and prompts, stateless sessions, calls since start and over 24 h', async () => {
  await withApp(async (app) => {
    const before = await app.api('GET', '/v1/webmcp/status');
    assert.equal(before.status, 200);
    const d = before.body.data;
    assert.equal(d.server.state, 'serving');
    assert.equal(d.server.session_mode, 'stateless');
    assert.equal(d.tools, app.bosun.ctx.services.webmcp.tools().length);
    assert.equal(d.resources, 5);
    assert.equal(d.prompts, 4);
    assert.deepEqual(d.sessions, { mode: 'stateless', active: 0, initialized_since_start: 0, requests_since_start: 0 });
    assert.deepEqual(d.calls, { since_start: { mcp: 0, dispatch: 0 }, last_24h: { mcp: 0, dispatch: 0, errors: 0 } });
    const { apiKey } = await app.registerAgent('status');
    await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getPing' } });
    await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getAgentsMe', arguments: { x: 1 } } });
    const initialize = await app.api('POST', '/mcp', {
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
    });
    assert.equal(initialize.status, 200);
    assert.equal(initialize.body.result.serverInfo.name, 'bosun');
    const after = (await app.api('GET', '/v1/webmcp/status')).body.data;
    assert.deepEqual(after.sessions, { mode: 'stateless', active: 0, initialized_since_start: 1, requests_since_start: 1 });
    assert.deepEqual(after.calls, { since_start: { mcp: 0, dispatch: 2 }, last_24h: { mcp: 0, dispatch: 2, errors: 1 } });
    app.clock.advance(DAY + 1);
    assert.deepEqual((await app.api('GET', '/v1/webmcp/status')).body.data.calls.last_24h, { mcp: 0, dispatch: 0, errors: 0 });
  });
});

test('the MCP transport: every message recorded in telemetry as "mcp transport" and limited to 600 per minute per caller, at the edge', async () => {
  await withApp(async (app) => {
    const { apiKey, agentId } = await app.registerAgent('mcp-limit');
    const ping = (token?: string, ip?: string) =>
      app.api('POST', '/mcp', { ...(token ? { token } : {}), ...(ip ? { ip } : {}), headers: { accept: 'application/json, text/event-stream' }, body: { jsonrpc: '2.0', id: 7, method: 'ping' } });
    for (let i = 0; i < 600; i++) {
      const answer = await ping(apiKey);
      if (answer.status !== 200) assert.fail(`message ${i + 1} of 600 answered ${answer.status}: ${answer.text}`);
    }
    const refused = await ping(apiKey);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 'rate_limited');
    assert.match(refused.body.errors[0].message, /mcp_messages reached: 600 calls per minute/);
    assert.equal(refused.headers['retry-after'], '60');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    // another caller (no key, its own address) is counted apart
    const anonymous = await ping(undefined, '10.99.0.1');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(anonymous.body, { jsonrpc: '2.0', id: 7, result: {} });
    app.clock.advance(60_000);
    assert.equal((await ping(apiKey)).status, 200, 'the next minute admits the agent again');

    await app.bosun.ctx.services.telemetry.flush();
    const summary = await app.bosun.ctx.services.telemetry.summary(1);
    const transport = summary.operations.find((o: { operation_id: string }) => o.operation_id === 'mcp transport');
    assert.deepEqual(transport, { operation_id: 'mcp transport', requests: 603, errors: 1, cost_units: 0 });
    assert.ok(summary.error_codes.some((c: { code: string; count: number }) => c.code === 'rate_limited' && c.count === 1));
    assert.equal(summary.distinct_agents, 1, `only ${agentId} sent a key`);
  });
});
