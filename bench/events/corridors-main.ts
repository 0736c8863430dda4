/**
 * Corridor analytics latency on N days of the demo fleet (the cached store of demo-store.ts), in-process
 * HTTP (no socket), as an agent holding vessels:live; /v1/ping in the same run is the baseline.
 * Usage: node dist/bench/events/corridors-main.js [--days 30] [--vessels 300] [--rounds 50]
 */
import { loadavg } from 'node:os';
import { openDemoFromArguments, timeGets } from './demo-store.js';

const { demo, rounds } = await openDemoFromArguments({ rounds: '50' });
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
// an agent holding vessels:live (the operations take agent keys; its horizon is now)
const { row, apiKey: token } = await demo.bosun.ctx.services.agents.register({ name: 'bench-corridors' }, null);
await demo.bosun.ctx.services.agents.grantScope(row.agent_id, 'vessels:live', { kind: 'cli' });

async function time(label: string, url: string): Promise<number> {
  const { p50, p99 } = await timeGets(demo, url, token, rounds);
  console.log(`| ${label} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${(p50 / baseline).toFixed(1)} |`);
  return p50;
}

let baseline = 1;
console.log('| request | p50 ms | p99 ms | p50 / ping p50 |');
console.log('|---|---|---|---|');
baseline = await time('GET /v1/ping (baseline)', '/v1/ping');
for (const path of [
  'corridors?range=7D',
  'corridors?range=30D',
  'corridor-ranking?by=transits&range=30D',
  'corridor-ranking?by=stress&range=7D',
  'corridor-health?range=30D',
  'corridor-watch?range=7D',
  'corridor-pressure-trend?days=28',
  'corridor-anomaly-score?days=60',
  'corridor-stability?days=28',
  'corridor-regimes?days=28',
]) {
  await time(path, `/v1/routes/${path}`);
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await demo.close();
