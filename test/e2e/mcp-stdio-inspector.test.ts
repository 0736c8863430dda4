import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

const cli = join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const inspectorCli = join(PROJECT_ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');
const run = promisify(execFile);
// The inspector CLI checks for its package.json relative to the working directory but imports it relative
// to its module, so it runs from its own build directory.
const inspectorOptions = { cwd: dirname(inspectorCli), env: { PATH: process.env.PATH ?? '' }, maxBuffer: 64 * 1024 * 1024 };

async function withListeningApp(fn: (app: TestApp, baseUrl: string) => Promise<void>) {
  const app = await startTestApp();
  try {
    await fn(app, await app.bosun.http.listen({ host: '127.0.0.1', port: 0 }));
  } finally {
    await app.close();
  }
}

test('bosun mcp (stdio) serves the remote tool list and forwards calls with the key from --api-key-env', async () => {
  await withListeningApp(async (app, baseUrl) => {
    const { agentId, apiKey } = await app.registerAgent('stdio-desktop');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--base-url', baseUrl, '--api-key-env', 'DESKTOP_KEY'],
      env: { PATH: process.env.PATH ?? '', DESKTOP_KEY: apiKey, LOG_LEVEL: 'silent' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    try {
      const remote = await app.api('GET', '/v1/webmcp/tools?toolsets=default', { token: apiKey });
      const { tools } = await client.listTools();
      assert.deepEqual(tools.slice(3), remote.body.data.tools, 'the default toolsets as the remote publishes them');
      assert.deepEqual(
        tools.slice(0, 3).map((t) => t.name),
        ['list_available_toolsets', 'get_toolset_tools', 'enable_toolset'],
      );
      const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, async () => resolve()));
      const enabled = await client.callTool({ name: 'enable_toolset', arguments: { toolset: 'lanes' } });
      assert.equal(enabled.isError, false);
      await changed;
      assert.ok(
        (await client.listTools()).tools.some((t) => t.name === 'getRoutesTopLanes'),
        'the enabled toolset is listed',
      );
      // resources: the remote's documents, with the remote's own links
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === `${baseUrl}/v1/agents/quickstart`));
      const quickstart = await client.readResource({ uri: `${baseUrl}/v1/agents/quickstart` });
      assert.match(String((quickstart.contents[0] as { text: string }).text), new RegExp(`"base_url": "${baseUrl}"`));
      // prompts with arguments
      const prompt = await client.getPrompt({ name: 'vessel-to-destination', arguments: { imo: '9300001' } });
      assert.match(String((prompt.messages[0]!.content as { text: string }).text), /\{"imo":"9300001"\}/);
      const me = await client.callTool({ name: 'getAgentsMe', arguments: {} });
      assert.equal(me.isError, false);
      assert.equal((me.structuredContent as { data: { agent_id: string } }).data.agent_id, agentId, 'forwarded with the key of DESKTOP_KEY');
      const missing = await client.callTool({ name: 'getPortsByPortIdCongestion', arguments: {} });
      assert.equal(missing.isError, true);
      assert.match((missing.content as Array<{ text: string }>)[0]!.text, /arguments\.port_id is required/);
      const ports = await client.callTool({ name: 'getPortsSearch', arguments: { locode: 'SGSIN' } });
      assert.equal((ports.structuredContent as { data: { items: Array<{ locode: string }> } }).data.items[0]!.locode, 'SGSIN');
      const { prompts } = await client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['connect', 'first-help-request', 'vessel-to-destination', 'port-congestion'],
      );
    } finally {
      await client.close();
    }
  });
});

test('bosun mcp refuses a missing or malformed --base-url, and reports an unreachable one', async () => {
  const refused = await run(process.execPath, [cli, 'mcp'], { env: { PATH: process.env.PATH ?? '' } }).catch((e: { code: number; stderr: string }) => e);
  assert.equal((refused as { code: number }).code, 2);
  assert.match((refused as { stderr: string }).stderr, /--base-url must be/);
  const unreachable = await run(process.execPath, [cli, 'mcp', '--base-url', 'http://127.0.0.1:9'], { env: { PATH: process.env.PATH ?? '' } }).catch((e: { code: number; stderr: string }) => e);
  assert.equal((unreachable as { code: number }).code, 1);
  assert.match((unreachable as { stderr: string }).stderr, /bosun mcp: fetch failed/);
});

test('the MCP Inspector in CLI mode lists the tools of /mcp', async () => {
  await withListeningApp(async (app, baseUrl) => {
    const { stdout } = await run(process.execPath, [inspectorCli, `${baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/list'], inspectorOptions);
    const listed = JSON.parse(stdout) as { tools: Array<{ name: string }> };
    const defaults = await app.api('GET', '/v1/webmcp/tools?toolsets=default');
    assert.deepEqual(
      listed.tools.map((t) => t.name),
      ['list_available_toolsets', 'get_toolset_tools', 'enable_toolset', ...defaults.body.data.tools.map((t: { name: string }) => t.name)],
    );
    const { stdout: called } = await run(
      process.execPath,
      [inspectorCli, `${baseUrl}/mcp`, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'getPortsSearch', '--tool-arg', 'locode=NLRTM'],
      inspectorOptions,
    );
    assert.equal(JSON.parse(called).structuredContent.data.items[0].locode, 'NLRTM');
  });
});
