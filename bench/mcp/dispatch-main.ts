/**
 * What a tool call costs over calling the operation directly: GET /v1/agents/me as a direct call,
 * through POST /v1/webmcp/dispatch, and as an MCP tools/call with the SDK client; in-process inject
 * for the first two, a real socket (direct fetch vs MCP client) for the last pair. Sequential calls,
 * rounds alternated, best round reported; ratio = direct time / tool-call time (1.0 = no overhead).
 * Usage: node dist/bench/mcp/dispatch-main.js [--calls 400] [--rounds 3]
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '400' }, rounds: { type: 'string', default: '3' } } });
const calls = Number(values.calls);
const rounds = Number(values.rounds);

const clock = new ManualClock(Date.UTC(2026, 10, 24));
const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:', PORT: '0', BOSUN_TELEMETRY: 'true' }), { clock });
const baseUrl = await bosun.http.listen({ host: '127.0.0.1', port: 0 });
const registered = await bosun.http.inject({ method: 'POST', url: '/v1/agents/register', payload: { name: 'bench', vendor: 'bench', description: 'bench' } });
const apiKey = JSON.parse(registered.body).data.api_key as string;
const authorization = `Bearer ${apiKey}`;

const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { Authorization: authorization } } }));

// every limit window is fresh for each measured run (1,200 calls a minute per agent)
const fresh = () => clock.advance(61 * 60_000);

const variants: Record<string, () => Promise<number>> = {
  'direct GET /v1/agents/me (inject)': async () => (await bosun.http.inject({ method: 'GET', url: '/v1/agents/me', headers: { authorization } })).statusCode,
  'POST /v1/webmcp/dispatch getAgentsMe (inject)': async () =>
    (await bosun.http.inject({ method: 'POST', url: '/v1/webmcp/dispatch', headers: { authorization, 'content-type': 'application/json' }, payload: '{"tool":"getAgentsMe"}' })).statusCode,
  'direct GET /v1/agents/me (socket, fetch)': async () => (await fetch(`${baseUrl}/v1/agents/me`, { headers: { authorization } }).then(async (r) => (await r.arrayBuffer(), r))).status,
  'MCP tools/call getAgentsMe (socket, SDK client)': async () => ((await client.callTool({ name: 'getAgentsMe', arguments: {} })).isError ? 500 : 200),
};

const best: Record<string, number> = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, run] of Object.entries(variants)) {
    fresh();
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      const status = await run();
      if (status !== 200) throw new Error(`${name}: status ${status}`);
    }
    const perCall = ((performance.now() - started) * 1000) / calls;
    best[name] = Math.min(best[name] ?? Infinity, perCall);
  }
}
const names = Object.keys(variants);
console.log('| call | µs per call (best round) | ratio direct / this |');
console.log('|---|---|---|');
for (const [i, name] of names.entries()) {
  const baseline = best[names[i < 2 ? 0 : 2]!]!;
  console.log(`| ${name} | ${best[name]!.toFixed(0)} | ${(baseline / best[name]!).toFixed(2)} |`);
}
await client.close();
await bosun.close();
