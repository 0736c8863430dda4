/**
 * The lanes analytics (docs/lanes.md) on a synthetic store (bench/lanes/lanes-store.ts: V vessels each calling every
 * ~2 days for D days at ports drawn from the demo fleet's port lists), written through the events repo (which keeps the
 * voyages and the call counts per day, decisions 123 and 138) into SQLite in memory, or with `--store file`
 * into a temporary SQLite file (as a deployment keeps it: its pages are not all held in the process), removed
 * at the end. Measures the operations through the HTTP stack in process against GET /v1/ping, and the peak
 * RSS of the process. After each phase (store written, visit cells, visit bounds, voyage cells, answers) it prints the
 * process's memory: RSS now and its peak so far, the JS heap used, ArrayBuffers, and the SQLite database's own size
 * (page_count × page_size: all of it held in the process with the store in memory, on disk with the file store).
 * Usage: node dist/bench/lanes/lanes-main.js [--days 90] [--vessels 300,3000,30000] [--rounds 20] [--budget-ms 20000] [--store memory|file] [--only <label text>,…] [--profile DIR]
 * A list of fleet sizes runs one child process per size (each its own store and peak RSS), one after another.
 */
import { sql } from 'kysely';
import { createBosun } from '../../src/app/create.js';
import { DAY, HOUR, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { benchStore, fleetBenchOptions, peakRssMb, timeQueries } from '../kit/fleet-bench.js';
import { lanesBenchPorts, writeLanesBenchCalls } from './lanes-store.js';

const options = fleetBenchOptions(import.meta.url);
const { days, vessels, store } = options;
const started = performance.now();
const now = Date.UTC(2026, 10, 1);
const benchDb = benchStore('lanes', store);
const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: benchDb.databaseUrl, PORT: '0' }), { clock: new ManualClock(now) });
const ports = lanesBenchPorts(bosun);

const mb = (bytes: number) => (bytes / 1048576).toFixed(0);
/** The process's memory after a phase (where the peak RSS is reached, and how much of it is the database's own pages). */
const phases: string[] = [];
/** CPU time (user + system) of the process since the phase before: comparable across runs on a loaded machine, unlike wall time. */
let cpuBefore = process.cpuUsage();
const memoryAfter = async (phase: string) => {
  const cpu = process.cpuUsage(cpuBefore);
  cpuBefore = process.cpuUsage();
  const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
  const m = process.memoryUsage();
  const pages = await sql<{ page_count: number }>`pragma page_count`.execute(bosun.ctx.store.db);
  const pageSize = await sql<{ page_size: number }>`pragma page_size`.execute(bosun.ctx.store.db);
  const databaseBytes = Number(pages.rows[0]!.page_count) * Number(pageSize.rows[0]!.page_size);
  const row = `| ${phase} | ${cpuSeconds} | ${mb(m.rss)} | ${mb(process.resourceUsage().maxRSS * 1024)} | ${mb(m.heapUsed)} / ${mb(m.heapTotal)} | ${mb(m.arrayBuffers)} | ${mb(databaseBytes)} |`;
  phases.push(row);
  console.log(
    `after ${phase} (${cpuSeconds} CPU s): RSS ${mb(m.rss)} MB, peak ${mb(process.resourceUsage().maxRSS * 1024)} MB, JS heap ${mb(m.heapUsed)} / ${mb(m.heapTotal)} MB, array buffers ${mb(m.arrayBuffers)} MB, database ${mb(databaseBytes)} MB`,
  );
};
await memoryAfter('store opened');

const calls = await writeLanesBenchCalls(bosun, ports, vessels, days, now);
const voyages = await bosun.ctx.store.db
  .selectFrom('voyages')
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirst();
console.log(
  `${calls} port calls, ${Number(voyages?.n ?? 0)} voyages kept, ${vessels} vessels, ${days} days, ${ports.length} ports; store written in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS so far ${peakRssMb()} MB`,
);

await memoryAfter('store written');

// the event runner's pass after it writes, phase by phase: the visit cells and bounds counted (decisions 161, 165), the voyage cells of the marked days summed (149)
const summingStarted = performance.now();
const events = createEventsRepo(bosun.ctx.store.db, bosun.ctx.services.ports);
let phaseStarted = performance.now();
const visitDays = await events.countMarkedVisitCells();
console.log(`visit cells of ${visitDays} days counted in ${((performance.now() - phaseStarted) / 1000).toFixed(1)} s`);
await memoryAfter('visit cells counted');
phaseStarted = performance.now();
const boundVessels = await events.countMarkedVisitBounds();
console.log(`visit bounds of ${boundVessels} vessels counted in ${((performance.now() - phaseStarted) / 1000).toFixed(1)} s`);
await memoryAfter('visit bounds counted');
phaseStarted = performance.now();
const summedWeeks = await events.sumMarkedVoyageCells();
console.log(`voyage cells of ${summedWeeks} weeks summed in ${((performance.now() - phaseStarted) / 1000).toFixed(1)} s`);
await memoryAfter('voyage cells summed');
const cellCount = await bosun.ctx.store.db
  .selectFrom('voyage_cells')
  .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum<number>('exact').as('exact')])
  .executeTakeFirst();
const visitBoundCount = await bosun.ctx.store.db
  .selectFrom('vessel_visit_bounds')
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirst();
const laneCellCount = await bosun.ctx.store.db
  .selectFrom('voyage_lane_cells')
  .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('voyage_list').as('exact')])
  .executeTakeFirst();
console.log(
  `the runner's pass (visit cells, visit bounds, voyage cells of ${summedWeeks} weeks) in ${((performance.now() - summingStarted) / 1000).toFixed(1)} s: ${Number(cellCount?.n ?? 0)} cells, ${Number(cellCount?.exact ?? 0)} exact; ${Number(laneCellCount?.n ?? 0)} lane cells, ${Number(laneCellCount?.exact ?? 0)} exact; ${Number(visitBoundCount?.n ?? 0)} visit bounds (decision 165); peak RSS so far ${peakRssMb()} MB`,
);

const registered = await bosun.http.inject({ method: 'POST', url: '/v1/agents/register', payload: { name: 'lanes-bench', vendor: 'bench', description: 'lanes benchmark' } });
const agent = registered.json().data as { agent_id: string; api_key: string };
await bosun.ctx.services.agents.grantScope(agent.agent_id, 'vessels:live', { kind: 'cli' });
const queries: Record<string, string> = {
  'baseline: GET /v1/ping': '/v1/ping',
  'top-lanes 30 days': '/v1/routes/top-lanes?days=30',
  'top-lanes 90 days': '/v1/routes/top-lanes?days=90&limit=50',
  'lane-details 90 days': `/v1/routes/lane-details?from=${ports[0]}&to=${ports[1]}&days=90`,
  'lane-trends 13 weeks (26 read)': '/v1/routes/lane-trends?weeks=13',
  'lane-heatmap 30 days, 1°': '/v1/routes/lane-heatmap?days=30&cell_deg=1',
  'hubs 90 days': '/v1/routes/hubs?days=90',
  'network-overview 90 days': '/v1/routes/network-overview?days=90',
  'anomaly-days 90 days': '/v1/routes/anomaly-days?days=90',
  'stability-forecast 12 weeks': '/v1/routes/stability-forecast',
  'lane-volatility 56 days': '/v1/routes/lane-volatility',
  'top-polylines 30 days': '/v1/routes/top-polylines?days=30',
  'weekly-summary 4 weeks': '/v1/routes/weekly-summary',
  'weekly-trend 8 weeks': '/v1/routes/weekly-trend',
  'seasonality 90 days': '/v1/routes/seasonality',
  'port-activity-imbalance 30 days': '/v1/routes/port-activity-imbalance',
  'dest-opportunities 30 days (60 read)': `/v1/routes/dest-opportunities?from=${ports[0]}`,
  // visit rank (issue 31, decision 161): its window is at most 30 days; the horizon is midnight, so the
  // "off the day" window (bounds at 13:37:12.345) shows what the partial days at a window's bounds cost
  'visit-rank by port 7 days': '/v1/vessels/visit_rank?range=7D',
  'visit-rank by port 30 days': '/v1/vessels/visit_rank?range=30D&limit=50',
  'visit-rank by port 30 days, terminals': '/v1/vessels/visit_rank?range=30D&terminals=true&limit=50',
  'visit-rank by port 29 days off the day': `/v1/vessels/visit_rank?from=${new Date(now - 30 * DAY + 13 * HOUR + 37 * 60_000 + 12_345).toISOString()}&to=${new Date(now - DAY + 13 * HOUR + 37 * 60_000 + 12_345).toISOString()}&limit=50`,
  'visit-rank by vessel 30 days': '/v1/vessels/visit_rank?by=vessel&range=30D&limit=50',
  'visit-rank by vessel at one port 30 days': `/v1/vessels/visit_rank?by=vessel&port_id=${ports[0]}&range=30D`,
};
await timeQueries(bosun.http, agent.api_key, queries, options);
await memoryAfter('answers');
console.log('| after | CPU s of the phase | RSS MB | peak RSS MB | JS heap used / total MB | array buffers MB | database MB |');
console.log('|---|---|---|---|---|---|---|');
for (const row of phases) console.log(row);
console.log(`peak RSS ${peakRssMb()} MB (${vessels} vessels, store ${store === 'file' ? 'SQLite file' : 'SQLite in memory'})`);
await bosun.close();
benchDb.remove();
