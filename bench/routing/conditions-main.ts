/**
 * Route conditions (advisory, risk-flags) latency on N days of the demo fleet (the cached store of
 * bench/events/demo-store.ts), in-process HTTP (no socket), with a vessels:live key (horizon now).
 * GET /v1/routes/direct of the same pair in the same run is the baseline: the ratio is what reading
 * the event layer along the route adds to planning it.
 * Usage: node dist/bench/routing/conditions-main.js [--days 7] [--vessels 300] [--rounds 50]
 */
import { loadavg } from 'node:os';
import { openDemoFromArguments, timeGets } from '../events/demo-store.js';

const { demo, rounds } = await openDemoFromArguments({ days: '7', rounds: '50' });
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average before: ${load()}`);
// a key holding vessels:live (horizon now); one per pair keeps each under the agent limit of 1,200 calls a minute (the clock stands still)
async function liveKey(name: string): Promise<string> {
  const response = await demo.bosun.http.inject({
    method: 'POST',
    url: '/v1/agents/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name, vendor: 'bench', description: 'route conditions benchmark' }),
    remoteAddress: `10.9.${name.length}.7`,
  });
  const data = response.json().data as { agent_id: string; api_key: string };
  await demo.bosun.ctx.services.agents.grantScope(data.agent_id, 'vessels:live', { kind: 'cli' });
  return data.api_key;
}
let token = '';

async function time(url: string): Promise<{ p50: number; p99: number; answer: string }> {
  const { first, p50, p99 } = await timeGets(demo, url, token, rounds);
  const d = first.body.data;
  const answer = Array.isArray(d.flags) ? `${d.flags.length} flags` : Array.isArray(d.summary) ? `${d.summary.length} sentences` : `${d.distance_nm} nm`;
  return { p50, p99, answer };
}

console.log('| pair | request | answer | p50 ms | p99 ms | p50 / direct p50 |');
console.log('|---|---|---|---|---|---|');
for (const pair of ['from=NLRTM&to=SGSIN', 'from=USHOU&to=NLRTM', 'from=CNSGH&to=USLAX']) {
  token = await liveKey(`bench-${pair}`);
  const base = await time(`/v1/routes/direct?${pair}`);
  console.log(`| ${pair} | direct (baseline) | ${base.answer} | ${base.p50.toFixed(2)} | ${base.p99.toFixed(2)} | 1 |`);
  for (const op of ['risk-flags', 'advisory']) {
    for (const range of ['7D', '24H']) {
      const t = await time(`/v1/routes/${op}?${pair}&range=${range}`);
      console.log(`| ${pair} | ${op} range=${range} | ${t.answer} | ${t.p50.toFixed(2)} | ${t.p99.toFixed(2)} | ${(t.p50 / base.p50).toFixed(1)} |`);
    }
  }
}
console.log(`load average after: ${load()}`);
await demo.close();
