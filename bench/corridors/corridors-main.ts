/**
 * The corridor analytics (docs/corridors.md) on a synthetic store: V vessels passing the twelve chokepoint
 * gates for D days, written through the events repo as the event runner writes its transits, into SQLite in
 * memory, or with `--store file` into a temporary SQLite file (removed at the end). Measures the operations (corridors
 * and the route stress index they read) through the HTTP stack in process against GET /v1/ping, and the peak RSS of the process.
 * Usage: node dist/bench/corridors/corridors-main.js [--days 90] [--vessels 300,3000,30000] [--rounds 20] [--budget-ms 20000] [--store memory|file] [--only <label text>,…] [--profile DIR]
 * A list of fleet sizes runs one child process per size (each its own store and peak RSS), one after another.
 *
 * Traffic: TRANSITS_PER_DAY below is the rough daily traffic of each gate in the world fleet (orders of magnitude of
 * IMF PortWatch's daily transit counts and the traffic the straits' authorities give, about 1,700 a day in all),
 * taken as the traffic of WORLD_FLEET vessels; a fleet of V vessels makes V / WORLD_FLEET of it (0.019 transits
 * per vessel-day: 5.6 a day at 300 vessels, 562 at 30,000), half each way, by vessels drawn from the fleet.
 */
import { createBosun } from '../../src/app/create.js';
import { DAY, HOUR, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { CHOKEPOINTS } from '../../src/events/chokepoints.js';
import { createEventsRepo, type TransitWrite } from '../../src/features/events/events-repo.js';
import { seedCoverage } from '../../test/helpers/fleet.js';
import { benchStore, fleetBenchOptions, peakRssMb, timeQueries, xorshift } from '../kit/fleet-bench.js';

/** Transits a day through each gate in the world fleet (rounded; Dover and Øresund from their straits' own counts). */
const TRANSITS_PER_DAY: Readonly<Record<string, number>> = {
  suez: 70,
  panama: 35,
  bosporus: 120,
  bab_el_mandeb: 70,
  malacca: 220,
  hormuz: 110,
  cape_of_good_hope: 60,
  gibraltar: 280,
  dover: 350,
  oresund: 100,
  taiwan_strait: 240,
  lombok: 30,
};
const WORLD_FLEET = 90_000;

const options = fleetBenchOptions(import.meta.url);
const { days, vessels, store } = options;
// a horizon off the hour, as a live caller's is: windows end inside an hour
const now = Date.UTC(2026, 10, 1, 13, 37, 12, 345);
const benchDb = benchStore('corridors', store);
const clock = new ManualClock(now);
const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: benchDb.databaseUrl, PORT: '0' }), { clock });
// stored positions from before the first day (the windows and days are covered) and the detector's checkpoint
await seedCoverage(bosun.ctx.services, 244000911, now - (days + 1) * DAY, now);

// the same transits in every run
const rand = xorshift();
const started = performance.now();
const events = createEventsRepo(bosun.ctx.store.db, bosun.ctx.services.ports);
let rows: TransitWrite[] = [];
let transits = 0;
let seq = 1;
// written 2,000 at a time, oldest first, as the runner writes the transits of each batch of positions
const flush = async () => {
  await events.upsertTransits(rows);
  transits += rows.length;
  rows = [];
};
const perHour = CHOKEPOINTS.map((gate) => ({ gate, rate: ((TRANSITS_PER_DAY[gate.key] ?? 0) * vessels) / WORLD_FLEET / 24 }));
for (let hour = now - days * DAY; hour < now; hour += HOUR) {
  for (const { gate, rate } of perHour) {
    // the hour's transits: the whole part of the rate, and one more with the chance of its fraction
    const count = Math.floor(rate) + (rand() < rate - Math.floor(rate) ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const exited = Math.min(now, Math.round(hour + rand() * HOUR));
      const speedKn = Math.round((8 + rand() * 8) * 10) / 10;
      const inGateMs = Math.round(((2 * gate.radiusKm) / (speedKn * 1.852)) * HOUR);
      // one transit in ten waits in the gate for up to a day
      const stoppedMs = rand() < 0.1 ? Math.round(rand() * DAY) : 0;
      rows.push({
        vsl_id: `v${Math.floor(rand() * vessels)}`,
        zone: gate.key,
        direction: gate.directions[rand() < 0.5 ? 0 : 1],
        entered_at: exited - inGateMs - stoppedMs,
        exited_at: exited,
        mean_speed_kn: speedKn,
        stopped_ms: stoppedMs,
        first_seq: seq++,
        last_seq: seq++,
        fixes: 40,
        simulated: 0,
        updated_at: now,
      });
    }
  }
  if (rows.length >= 2000) await flush();
}
await flush();
console.log(`${transits} transits, ${vessels} vessels, ${days} days; store written in ${((performance.now() - started) / 1000).toFixed(1)} s, peak RSS so far ${peakRssMb()} MB`);

const registered = await bosun.http.inject({ method: 'POST', url: '/v1/agents/register', payload: { name: 'corridors-bench', vendor: 'bench', description: 'corridors benchmark' } });
const agent = registered.json().data as { agent_id: string; api_key: string };
await bosun.ctx.services.agents.grantScope(agent.agent_id, 'vessels:live', { kind: 'cli' });
const queries: Record<string, string> = {
  'baseline: GET /v1/ping': '/v1/ping',
  'corridors 7D (with stress)': '/v1/routes/corridors',
  'corridors 30D suez (with stress)': '/v1/routes/corridors?corridor=suez&range=30D',
  'corridor-ranking transits 7D': '/v1/routes/corridor-ranking',
  'corridor-ranking slowdown 30D': '/v1/routes/corridor-ranking?by=slowdown&range=30D',
  'corridor-health 7D': '/v1/routes/corridor-health',
  'corridor-watch 24H': '/v1/routes/corridor-watch?range=24H',
  'corridor-watch 7D': '/v1/routes/corridor-watch',
  'corridor-pressure-trend 28 days': '/v1/routes/corridor-pressure-trend',
  'corridor-anomaly-score 28 days': '/v1/routes/corridor-anomaly-score',
  'corridor-stability 60 days': '/v1/routes/corridor-stability?days=60',
  'corridor-regimes 28 days': '/v1/routes/corridor-regimes',
  'route stress index 7D gibraltar': '/v1/metrics/route_stress_index?zone_key=gibraltar',
  'route stress index 30D suez': '/v1/metrics/route_stress_index?zone_key=suez&range=30D',
  'corridor-ranking stress 7D': '/v1/routes/corridor-ranking?by=stress',
};
await timeQueries(bosun.http, agent.api_key, queries, options);
console.log(`peak RSS ${peakRssMb()} MB (${vessels} vessels, store ${store === 'file' ? 'SQLite file' : 'SQLite in memory'})`);
await bosun.close();
benchDb.remove();
