/**
 * Congestion and visit rank on 30 days of the demo fleet: the latency of GET /v1/ports/{id}/congestion
 * and GET /v1/vessels/visit_rank through the HTTP stack in process (no socket), each run many times,
 * against GET /v1/ping in the same run (the stack's own cost). Also the visit rank's counting two ways:
 * reading the window's calls and grouping in JavaScript (src/events/visit-rank.ts) against the SQL
 * GROUP BY the endpoint uses (decision 030).
 * Usage: node dist/bench/events/congestion-main.js [--days 30] [--vessels 300] [--rounds 100]
 */
import { DAY } from '../../src/platform/clock.js';
import { medianHours } from '../../src/events/visit-rank.js';
import { countRows, openDemoFromArguments } from './demo-store.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';

const { demo, rounds } = await openDemoFromArguments({ rounds: '100', timed: true });

const token = (await demo.bosun.ctx.services.operator.issueToken('bench')).token;
const db = demo.bosun.ctx.store.db;
const calls = await countRows(db, 'port_calls');
const busiest = await db
  .selectFrom('port_calls')
  .select(['port_id', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy('port_id')
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
console.log(`${calls} port calls in the store; busiest port ${busiest.port_id} with ${busiest.n}`);

function percentiles(times: number[]) {
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!;
  return { p50: pct(50), p99: pct(99) };
}

async function measure(url: string): Promise<{ p50: number; p99: number; status: number }> {
  let status = 0;
  for (let i = 0; i < 3; i++) await demo.api('GET', url, token);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    status = (await demo.api('GET', url, token)).status;
    times.push(performance.now() - start);
  }
  return { ...percentiles(times), status };
}

const p = busiest.port_id;
const queries: Record<string, string> = {
  'baseline: GET /v1/ping': '/v1/ping',
  'congestion, busiest port, 24H': `/v1/ports/${p}/congestion`,
  'congestion, busiest port, 7D': `/v1/ports/${p}/congestion?range=7D`,
  'congestion, busiest port, 30D': `/v1/ports/${p}/congestion?range=30D`,
  'congestion, busiest port, 7D, vessel_type=cargo': `/v1/ports/${p}/congestion?range=7D&vessel_type=cargo`,
  'congestion, Rotterdam, 7D, 10 days back': `/v1/ports/31140/congestion?range=7D&at=${new Date(demo.to - 10 * DAY).toISOString()}`,
  'visit_rank by port, 7D': '/v1/vessels/visit_rank',
  'visit_rank by port, 30D': '/v1/vessels/visit_rank?range=30D&limit=100',
  'visit_rank by vessel, 30D': '/v1/vessels/visit_rank?by=vessel&range=30D&limit=100',
  'visit_rank by vessel at the busiest port, 30D': `/v1/vessels/visit_rank?by=vessel&port_id=${p}&range=30D`,
};
let baseline = 0;
console.log('| query | p50 ms | p99 ms | p50 / ping p50 |');
console.log('|---|---|---|---|');
for (const [label, url] of Object.entries(queries)) {
  const r = await measure(url);
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  if (baseline === 0) baseline = r.p50;
  console.log(`| ${label} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p50 / baseline).toFixed(1)} |`);
}

/** The baseline: the same ranking grouped in JavaScript over every call of the window. */
function rankPortsInJs(calls: ReadonlyArray<{ vesselId: string; portId: number; arrival: number; departure: number | null }>, limit: number) {
  const byPort = new Map<number, { calls: number; vessels: Set<string>; dwells: number[] }>();
  for (const call of calls) {
    let port = byPort.get(call.portId);
    if (!port) byPort.set(call.portId, (port = { calls: 0, vessels: new Set(), dwells: [] }));
    port.calls++;
    port.vessels.add(call.vesselId);
    if (call.departure !== null) port.dwells.push(call.departure - call.arrival);
  }
  return [...byPort]
    .map(([portId, p]) => ({ port_id: portId, calls: p.calls, distinct_vessels: p.vessels.size, median_dwell_hours: medianHours(p.dwells) }))
    .sort((a, b) => b.calls - a.calls || b.distinct_vessels - a.distinct_vessels || a.port_id - b.port_id)
    .slice(0, limit);
}

// visit rank over 30 days: read the calls and group in JavaScript vs GROUP BY in the store (the endpoint)
const from = demo.to - 30 * DAY;
const to = demo.to;
const js: number[] = [];
const sql: number[] = [];
for (let i = 0; i < rounds; i++) {
  let start = performance.now();
  const rows = await createEventsRepo(demo.bosun.ctx.store.db, demo.bosun.ctx.services.ports).callsArrivedBetween(from, to);
  rankPortsInJs(
    rows.map((r) => ({ vesselId: r.vsl_id, portId: r.port_id, arrival: r.arrival, departure: r.departure })),
    100,
  );
  js.push(performance.now() - start);
  start = performance.now();
  await db
    .selectFrom('port_calls')
    .select(['port_id', (eb) => eb.fn.countAll<number>().as('calls'), (eb) => eb.fn.count<number>('vsl_id').distinct().as('vessels')])
    .where('arrival', '>=', from)
    .where('arrival', '<', to)
    .groupBy('port_id')
    .orderBy('calls', 'desc')
    .orderBy('vessels', 'desc')
    .orderBy('port_id')
    .limit(100)
    .execute();
  sql.push(performance.now() - start);
}
const a = percentiles(js);
const b = percentiles(sql);
console.log(
  `visit rank by port, 30 days: read + group in JS p50 ${a.p50.toFixed(2)} ms p99 ${a.p99.toFixed(2)} ms; SQL GROUP BY (counts; the endpoint then reads the top ports' dwells) p50 ${b.p50.toFixed(2)} ms p99 ${b.p99.toFixed(2)} ms`,
);
await demo.close();
