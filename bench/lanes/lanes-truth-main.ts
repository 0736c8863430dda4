/**
 * The lanes answers on the lanes bench's store (bench/lanes/lanes-store.ts) against an independent reference: the same
 * views over the voyages paired in memory from the stored calls (test/helpers/lanes-memory-repo.ts, the per-voyage
 * computation of the property tests: no cell, no SQL). The store is built as lanes-main builds it, so most pairs of
 * calls between distant ports are too fast for the lanes' speed rule: it exercises the rule on cells of sketches
 * (docs/decisions/177). For each query (15 operations × no filter and `ship_type=cargo` × today and an `until` 3 days
 * 7 hours back, weekly-trend twice) it prints how many figures the answer gets wrong that must be exact (counts,
 * ports, shares; lists of lanes compared lane by lane, as lanes that tie in voyages are ranked by estimated vessels), the largest
 * relative error of the estimated figures (vessels, median hours, transit hours, implied speed, opportunity score),
 * and the first differences. Usage: node dist/bench/lanes/lanes-truth-main.js [--vessels 3000] [--days 90]
 */
import { parseArgs } from 'node:util';
import type { Caller } from '../../src/access/principals.js';
import { createBosun } from '../../src/app/create.js';
import { createEventsRepo } from '../../src/features/events/events-repo.js';
import { createLanesService } from '../../src/features/routes/lanes/lanes-service.js';
import { DAY, HOUR, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createMemoryLanesRepo } from '../../test/helpers/lanes-memory-repo.js';
import { storedVoyageCalls } from '../../test/helpers/voyage-rows.js';
import { lanesBenchPorts, writeLanesBenchCalls } from './lanes-store.js';

const { values } = parseArgs({ options: { vessels: { type: 'string', default: '3000' }, days: { type: 'string', default: '90' } } });
const vessels = Number(values.vessels);
const days = Number(values.days);
const now = Date.UTC(2026, 10, 1);
const clock = new ManualClock(now);
const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:', PORT: '0' }), { clock });
const { services, store } = bosun.ctx;
const ports = lanesBenchPorts(bosun);
const calls = await writeLanesBenchCalls(bosun, ports, vessels, days, now);
await createEventsRepo(store.db, services.ports).sumMarkedVoyageCells();

type Service = Record<string, (query: Record<string, unknown>, caller: Caller) => Promise<{ data: unknown }>>;
const caller: Caller = { kind: 'operator', operator: { tokenPrefix: 'lanes-truth' } };
const current = services.lanes as unknown as Service;
const reference = createLanesService({
  repo: createMemoryLanesRepo(await storedVoyageCalls(store.db)),
  events: services.events,
  ports: services.ports,
  routes: services.routes,
  clock,
  cursors: services.cursors,
}) as unknown as Service;

const from = String(ports[0]);
const to = String(ports[1]);
const until = new Date(now - 3 * DAY - 7 * HOUR).toISOString();
const queries: Array<[string, Record<string, unknown>]> = [];
for (const ship_type of [undefined, 'cargo'])
  for (const base of [{ ship_type }, { ship_type, until }])
    queries.push(
      ['topLanes', { ...base, days: 30, limit: 50 }],
      ['topLanes', { ...base, days: 90, limit: 50 }],
      ['laneDetails', { ...base, from, to, days: 90 }],
      ['laneTrends', { ...base, weeks: 13, limit: 50 }],
      ['laneHeatmap', { ...base, days: 30, cell_deg: 1 }],
      ['hubs', { ...base, days: 90 }],
      ['networkOverview', { ...base, days: 90 }],
      ['anomalyDays', { ...base, days: 90 }],
      ['stabilityForecast', { ...base }],
      ['laneVolatility', { ...base }],
      ['topPolylines', { ...base, days: 30 }],
      ['weeklySummary', { ...base, weeks: 4 }],
      ['seasonality', { ...base }],
      ['portActivityImbalance', { ...base }],
      ['destOpportunities', { ...base, from }],
    );
queries.push(['weeklyTrend', {}], ['weeklyTrend', { until }]);

/** Figures the cells estimate (sketches): compared by relative error; every other figure must be equal. */
const ESTIMATED = new Set(['vessels', 'vessels_recent', 'median_voyage_hours', 'implied_speed_kn', 'opportunity_score']);
interface Compared {
  wrong: string[];
  worstEstimate: { path: string; error: number } | null;
}
/** A lane's key when an item is one (its ports), so that lists of lanes are compared lane by lane. */
const laneOf = (item: unknown): string | null => {
  const i = item as { from?: { port_id?: number }; to?: { port_id?: number } } | null;
  return typeof i?.from?.port_id === 'number' && typeof i.to?.port_id === 'number' ? `${i.from.port_id}>${i.to.port_id}` : null;
};
function compare(actual: unknown, expected: unknown, path: string, out: Compared): void {
  // lanes that tie in voyages are ranked by their estimated vessels: a list of lanes is compared lane by lane, its
  // ranks left out, a lane in one list only (a tie at the list's end) counted wrong
  if (Array.isArray(actual) && Array.isArray(expected) && expected.length > 0 && expected.every((e) => laneOf(e) !== null)) {
    const byLane = (list: unknown[]) => new Map(list.map((item) => [laneOf(item)!, { ...(item as object), rank: undefined }]));
    const got = byLane(actual);
    for (const [lane, item] of byLane(expected)) {
      if (got.has(lane)) compare(got.get(lane), item, `${path}[${lane}]`, out);
      else out.wrong.push(`${path}: lane ${lane} missing`);
    }
    return;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) out.wrong.push(`${path}: ${actual.length} items, not ${expected.length}`);
    for (let i = 0; i < Math.min(actual.length, expected.length); i++) compare(actual[i], expected[i], `${path}[${i}]`, out);
    return;
  }
  if (actual !== null && expected !== null && typeof actual === 'object' && typeof expected === 'object') {
    for (const key of Object.keys(expected)) compare((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`, out);
    return;
  }
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (typeof actual === 'number' && typeof expected === 'number' && (ESTIMATED.has(key) || path.includes('.transit_hours.'))) {
    const error = Math.abs(actual - expected) / Math.max(Math.abs(expected), 1);
    if (error > (out.worstEstimate?.error ?? 0)) out.worstEstimate = { path, error };
    return;
  }
  if (actual !== expected) out.wrong.push(`${path}: ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
}

console.log(`${calls} port calls, ${vessels} vessels, ${days} days, ${ports.length} ports (lanes bench store; reference: the per-voyage computation)`);
console.log('| query | figures wrong (must be exact) | worst estimate (relative error, where) | first wrong figure |');
console.log('|---|---|---|---|');
let exactQueries = 0;
let worst = 0;
for (const [op, query] of queries) {
  const out: Compared = { wrong: [], worstEstimate: null };
  compare((await current[op]!(query, caller)).data, (await reference[op]!(query, caller)).data, '', out);
  if (out.wrong.length === 0) exactQueries++;
  worst = Math.max(worst, out.worstEstimate?.error ?? 0);
  const estimate = out.worstEstimate ? `${(100 * out.worstEstimate.error).toFixed(1)} % (${out.worstEstimate.path})` : '—';
  console.log(`| ${op} ${JSON.stringify(query)} | ${out.wrong.length} | ${estimate} | ${out.wrong[0] ?? ''} |`);
}
console.log(`${exactQueries} of ${queries.length} answers with every exact figure right; worst estimate ${(100 * worst).toFixed(1)} %`);
await bosun.close();
