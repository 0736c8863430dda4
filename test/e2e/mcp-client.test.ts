import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { recordProducedCodes } from '../helpers/produced-codes.js';

/** The official SDK client over a real socket against /mcp (stateless Streamable HTTP). */
async function connect(baseUrl: string, apiKey?: string): Promise<Client> {
  const client = new Client({ name: 'bosun-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), apiKey ? { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } } : {});
  await client.connect(transport);
  return client;
}

interface Envelope {
  status: string;
  data: any;
  errors: Array<{ code: string }>;
  cost_units: number;
}

function envelopeOf(result: Awaited<ReturnType<Client['callTool']>>): Envelope {
  const envelope = result.structuredContent as unknown as Envelope;
  recordProducedCodes(envelope);
  assert.equal((result.content as Array<{ type: string; text: string }>)[0]!.type, 'text');
  assert.deepEqual(JSON.parse((result.content as Array<{ text: string }>)[0]!.text), envelope, 'the text content is the same envelope');
  return envelope;
}

async function withListeningApp(env: Record<string, string>, fn: (app: TestApp, baseUrl: string) => Promise<void>) {
  const app = await startTestApp({ env });
  try {
    const address = await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    await fn(app, address);
  } finally {
    await app.close();
  }
}

test('SDK client: tools/list is the catalog, P tool without a key, K tool with and without a key, refused scope, a limit', async () => {
  await withListeningApp({ BOSUN_AUTO_SANDBOX: 'false' }, async (app, baseUrl) => {
    const anonymous = await connect(baseUrl);
    try {
      assert.equal(anonymous.getServerVersion()?.name, 'bosun');
      const listed = await anonymous.listTools();
      const names = listed.tools.map((t) => t.name);
      const excluded = app.bosun.ctx.services.webmcp.excluded().map((e) => e.operation_id);
      assert.deepEqual(
        excluded,
        ['postWebmcpDispatch', 'getExchangeMessagesStream', 'getPayments', 'getAgentsForum'],
        'only the documented exclusions (the two HTML pages, the stream, dispatch itself)',
      );
      const expected = app.bosun.ctx.catalog.discoverable.filter((o) => o.entry.access !== 'U' && !excluded.includes(o.entry.operationId)).map((o) => o.entry.operationId);
      const everything = await app.api('GET', '/v1/webmcp/tools');
      assert.deepEqual(
        everything.body.data.tools.map((t: { name: string }) => t.name),
        expected,
        'one tool per implemented operation of public discovery, in catalog order (operator tools only for the operator)',
      );
      assert.equal(app.bosun.ctx.catalog.planned.length, 0, 'every catalogued operation is implemented (planned ones never become tools: test/unit/mcp-tools.test.ts)');
      assert.deepEqual(names.slice(0, 3), ['list_available_toolsets', 'get_toolset_tools', 'enable_toolset'], 'the toolset meta-tools first');
      const published = await app.api('GET', '/v1/webmcp/tools?toolsets=default');
      assert.deepEqual(listed.tools.slice(3), published.body.data.tools, 'GET /v1/webmcp/tools?toolsets=default is identical to tools/list of the default toolsets');
      const ping = (everything.body.data.tools as typeof listed.tools).find((t) => t.name === 'getPing')!;
      assert.deepEqual(ping.annotations, { title: ping.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      const register = listed.tools.find((t) => t.name === 'postAgentsRegister')!;
      assert.equal(register.annotations?.readOnlyHint, false);
      assert.equal(register.annotations?.idempotentHint, false);
      assert.deepEqual(register.inputSchema.required, ['body']);

      // P tool, no key: the envelope of GET /v1/ports/search, charged as over HTTP
      const ports = envelopeOf(await anonymous.callTool({ name: 'getPortsSearch', arguments: { locode: 'NLRTM' } }));
      assert.equal(ports.status, 'ok');
      assert.equal(ports.cost_units, 0.45);
      assert.equal(ports.data.items[0].locode, 'NLRTM');

      // K tool without a key: auth_required, reported as a tool error
      const noKey = await anonymous.callTool({ name: 'getAgentsMe', arguments: {} });
      assert.equal(noKey.isError, true);
      assert.equal(envelopeOf(noKey).errors[0]!.code, 'auth_required');

      // bad arguments are refused by the operation's own validation, naming the field
      const badArgs = await anonymous.callTool({ name: 'getPortsSearch', arguments: { limit: 'many' } });
      assert.equal(badArgs.isError, true);
      const badEnvelope = envelopeOf(badArgs);
      assert.equal(badEnvelope.errors[0]!.code, 'invalid_request');
      assert.match(JSON.stringify(badEnvelope.errors[0]), /arguments\.limit/);

      // an unknown tool is a JSON-RPC error, not a tool result
      await assert.rejects(anonymous.callTool({ name: 'getNothing', arguments: {} }), /getNothing/);

      // the anonymous preview limit (6 a minute per identity and address) holds through MCP
      for (let i = 0; i < 6; i++) assert.equal(envelopeOf(await anonymous.callTool({ name: 'getBootstrapVesselsSearch', arguments: { q: 'pride' } })).status, 'ok', `preview call ${i + 1}`);
      const limited = await anonymous.callTool({ name: 'getBootstrapVesselsSearch', arguments: { q: 'pride' } });
      assert.equal(limited.isError, true);
      assert.equal(envelopeOf(limited).errors[0]!.code, 'ip_rate_limited');
    } finally {
      await anonymous.close();
    }

    const { agentId, apiKey } = await app.registerAgent('mcp-keyed');
    const keyed = await connect(baseUrl, apiKey);
    try {
      const me = envelopeOf(await keyed.callTool({ name: 'getAgentsMe', arguments: {} }));
      assert.equal(me.status, 'ok');
      assert.equal(me.data.agent_id, agentId, 'the key of the MCP request is the key of the tool call');
      // without harbor:help:read (no auto sandbox) listing help requests is refused exactly as over HTTP
      const refused = await keyed.callTool({ name: 'getHarborHelpRequests', arguments: {} });
      assert.equal(refused.isError, true);
      assert.equal(envelopeOf(refused).errors[0]!.code, 'scope_required');
    } finally {
      await keyed.close();
    }

    const wrong = await connect(baseUrl, 'bsk_' + 'Z'.repeat(43));
    try {
      const invalid = await wrong.callTool({ name: 'getAgentsMe', arguments: {} });
      assert.equal(envelopeOf(invalid).errors[0]!.code, 'auth_invalid');
    } finally {
      await wrong.close();
    }

    // every call above was recorded on the mcp channel with its caller
    await app.bosun.ctx.services.telemetry.flush();
    const operator = await app.operatorToken();
    const audit = await app.api('GET', '/v1/webmcp/dispatch/audit?channel=mcp&limit=100', { token: operator });
    assert.equal(audit.status, 200);
    const items = audit.body.data.items as Array<{ tool: string; caller: { kind: string; agent_id: string | null }; error_code: string | null }>;
    assert.equal(items.length, 13, 'every tool call but the unknown tool');
    assert.deepEqual(
      items
        .filter((i) => i.caller.agent_id === agentId)
        .map((i) => [i.tool, i.error_code])
        .sort(),
      [
        ['getAgentsMe', null],
        ['getHarborHelpRequests', 'scope_required'],
      ],
    );
  });
});

test('SDK client: resources (OpenAPI, harbor contract, quickstart, docs) and prompts (the playbooks)', async () => {
  await withListeningApp({}, async (_app, baseUrl) => {
    const client = await connect(baseUrl);
    try {
      const { resources } = await client.listResources();
      const uris = resources.map((r) => r.uri);
      assert.deepEqual(uris.slice(0, 3), [`${baseUrl}/openapi.json`, `${baseUrl}/v1/agent-harbor/contract`, `${baseUrl}/v1/agents/quickstart`]);
      assert.ok(uris.includes('bosun://docs/mcp.md'), 'docs/mcp.md is published');
      const openapi = await client.readResource({ uri: `${baseUrl}/openapi.json` });
      const document = JSON.parse((openapi.contents[0] as { text: string }).text);
      assert.equal(document.openapi, '3.1.0');
      assert.ok(document.paths['/v1/webmcp/dispatch'].post);
      const contract = JSON.parse(((await client.readResource({ uri: `${baseUrl}/v1/agent-harbor/contract` })).contents[0] as { text: string }).text);
      assert.equal(contract.version, '1.5');
      await assert.rejects(client.readResource({ uri: 'bosun://nothing' }), /no resource/);

      const { prompts } = await client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['connect', 'first-help-request', 'vessel-to-destination', 'port-congestion'],
      );
      const prompt = await client.getPrompt({ name: 'port-congestion' });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      assert.match(text, /1\. getPortsSearch with arguments \{"locode":"NLRTM"\}/);
      assert.match(text, /2\. getPortsByPortIdCongestion/);
    } finally {
      await client.close();
    }
  });
});

test('/mcp is POST only (stateless): GET and DELETE answer 405 with Allow: POST', async () => {
  await withListeningApp({}, async (_app, baseUrl) => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(new URL('/mcp', baseUrl), { method, headers: { accept: 'text/event-stream' } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
      assert.match(((await res.json()) as { error: { message: string } }).error.message, /stateless/);
    }
  });
});
