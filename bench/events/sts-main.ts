/**
 * STS events and route stress latency on N days of the demo fleet (the cached store of demo-store.ts),
 * in-process HTTP (no socket), as the operator (unthrottled; its horizon is now, as for vessels:live); /v1/ping in the same run is the
 * baseline the ratios are taken against (what the HTTP layer alone costs).
 * Usage: node dist/bench/events/sts-main.js [--days 30] [--vessels 300] [--rounds 200]
 */
import { loadavg } from 'node:os';
import { openDemoFromArguments, timeGets } from './demo-store.js';

const { demo, rounds } = await openDemoFromArguments({ rounds: '200' });
const db = demo.bosun.ctx.store.db;
const encounters = await db.selectFrom('encounters').select(['vsl_a', 'zone']).execute();
const transits = await db
  .selectFrom('transits')
  .select(['zone', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy('zone')
  .execute();
console.log(
  `store: ${encounters.length} encounters, transits by gate ${transits.map((t) => `${t.zone} ${t.n}`).join(', ')}; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// the operator: no rate limit (an anonymous caller would be throttled within the first rounds); the horizon is now, as for vessels:live
const token = (await demo.bosun.ctx.services.operator.issueToken('bench')).token;

// the busiest vessel of the encounters, by vsl_id
const counts = new Map<string, number>();
for (const e of encounters) counts.set(e.vsl_a, (counts.get(e.vsl_a) ?? 0) + 1);
const busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'vsl_0000000000000000';
const zoned = encounters.find((e) => e.zone !== null)?.zone ?? 'malacca';

async function time(label: string, url: string, n = rounds): Promise<number> {
  const { first, p50, p99 } = await timeGets(demo, url, token, n);
  const items = Array.isArray(first.body.data?.items) ? `${first.body.data.items.length} items` : first.body.data?.index !== undefined ? `index ${first.body.data.index}` : '';
  console.log(`| ${label} | ${items} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${(p50 / baseline).toFixed(1)} |`);
  return p50;
}

let baseline = 1;
console.log('| request | answer | p50 ms | p99 ms | p50 / ping p50 |');
console.log('|---|---|---|---|---|');
baseline = await time('GET /v1/ping (baseline)', '/v1/ping');
await time('sts/events range=7D', '/v1/sts/events?range=7D');
await time('sts/events range=30D limit=100', '/v1/sts/events?range=30D&limit=100');
await time(`sts/events zone=${zoned} range=30D`, `/v1/sts/events?zone=${zoned}&range=30D`);
await time('sts/events bbox 90,-15,130,25 range=30D', `/v1/sts/events?zone=${encodeURIComponent('90,-15,130,25')}&range=30D`);
await time('sts/events vessel (busiest) range=30D', `/v1/sts/events?vessel=${busiest}&range=30D`);
await time('sts/events min_duration=4H range=30D', '/v1/sts/events?min_duration=4H&range=30D');

// every page of the 30 days, 20 at a time
{
  const start = performance.now();
  let pages = 0;
  let listed = 0;
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any } = await demo.api('GET', `/v1/sts/events?range=30D${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, token);
    listed += res.body.data.items.length;
    cursor = res.body.data.next_cursor;
    pages++;
  } while (cursor);
  const ms = performance.now() - start;
  console.log(`| sts/events range=30D, all pages of 20 | ${listed} items, ${pages} pages | ${(ms / pages).toFixed(2)} per page | | ${(ms / pages / baseline).toFixed(1)} |`);
}

const stressRounds = Math.max(10, Math.round(rounds / 4));
for (const [zone, range] of [
  ['gibraltar', '7D'],
  ['gibraltar', '30D'],
  ['malacca', '7D'],
  ['suez', '24H'],
] as const) {
  await time(`route_stress_index zone_key=${zone} range=${range}`, `/v1/metrics/route_stress_index?zone_key=${zone}&range=${range}`, stressRounds);
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await demo.close();
