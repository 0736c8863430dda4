/**
 * A store holding N days of the demo fleet with its events detected, for the events benchmarks.
 * Built once per (days, vessels, seed) into bench/out/events-<days>d-<vessels>v-<seed>/ (SQLite) and
 * reopened afterwards; building reports the backfill and the detection rate.
 *
 *   const demo = await openDemoEventsStore({ days: 30, vessels: 300 });
 *   demo.bosun.ctx.services.events ... ; demo.api('GET', '/v1/sts/events?range=7D')
 *   await demo.close();
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createBosun, type Bosun } from '../../src/app/create.js';
import { DAY, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { backfill } from '../../src/sim/backfill.js';
import { BACKFILL_RATES, DemoFleet } from '../../src/sim/fleet.js';
import { seedFromText } from '../../src/sim/random.js';
import type { Db } from '../../src/store/db.js';
import type { Database } from '../../src/store/schema.js';

/** The store's last simulated moment: a fixed instant, so a rebuilt store holds the same history. */
export const DEMO_END = Date.UTC(2026, 10, 1);

export interface DemoEventsStore {
  bosun: Bosun;
  clock: ManualClock;
  from: number;
  to: number;
  /** Present when the store was built in this run. */
  build: { positions: number; backfillSeconds: number; detectSeconds: number; events: { calls: number; encounters: number; transits: number; loitering: number; gaps: number } } | null;
  /** An in-process HTTP request (no socket), as an anonymous caller unless a token is given. */
  api(method: string, url: string, token?: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function openDemoEventsStore(options: { days: number; vessels: number; seed?: string; rebuild?: boolean }): Promise<DemoEventsStore> {
  const seed = options.seed ?? 'bosun';
  const root = resolve(import.meta.dirname, '..', '..', '..');
  const dir = join(root, 'bench', 'out', `events-${options.days}d-${options.vessels}v-${seed}`);
  if (options.rebuild) rmSync(dir, { recursive: true, force: true });
  const fresh = !existsSync(join(dir, 'bosun.sqlite'));
  mkdirSync(dir, { recursive: true });
  const from = DEMO_END - options.days * DAY;
  const clock = new ManualClock(DEMO_END);
  const config = loadConfig({ LOG_LEVEL: 'silent', BOSUN_DATA_DIR: dir, BOSUN_FEEDS: '', PORT: '0', BOSUN_TELEMETRY: 'false' });
  const bosun = await createBosun(config, { clock });
  let build: DemoEventsStore['build'] = null;
  if (fresh) {
    const fleet = new DemoFleet({ seed: seedFromText(seed), vessels: options.vessels, startMs: from, rates: BACKFILL_RATES });
    const t0 = performance.now();
    const result = await backfill({ fleet, toMs: DEMO_END, sink: bosun.ctx.services.fleet, clock, flushEvery: 20_000 });
    const t1 = performance.now();
    const positions = await bosun.ctx.services.events.runner.catchUp();
    const t2 = performance.now();
    const count = (table: keyof Database) => countRows(bosun.ctx.store.db, table);
    build = {
      positions,
      backfillSeconds: (t1 - t0) / 1000,
      detectSeconds: (t2 - t1) / 1000,
      events: { calls: await count('port_calls'), encounters: await count('encounters'), transits: await count('transits'), loitering: await count('loitering_events'), gaps: await count('ais_gaps') },
    };
    void result;
  }
  return {
    bosun,
    clock,
    from,
    to: DEMO_END,
    build,
    async api(method, url, token) {
      const response = await bosun.http.inject({ method: method as 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: response.statusCode, body: response.json() };
    },
    close: () => bosun.close(),
  };
}

/** The rows of one table. */
export async function countRows(db: Db, table: keyof Database): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The store of `--days` and `--vessels` (default 300) and the `--rounds` to run, defaults as given. Prints
 * what building the store cost, and with `timed` also how long opening it took.
 */
export async function openDemoFromArguments(defaults: { days?: string; rounds: string; timed?: boolean }): Promise<{ demo: DemoEventsStore; rounds: number }> {
  const { values } = parseArgs({
    options: { days: { type: 'string', default: defaults.days ?? '30' }, vessels: { type: 'string', default: '300' }, rounds: { type: 'string', default: defaults.rounds } },
  });
  const t0 = performance.now();
  const demo = await openDemoEventsStore({ days: Number(values.days), vessels: Number(values.vessels) });
  const build = demo.build;
  if (defaults.timed) {
    console.log(`store ${values.days} days, ${values.vessels} vessels: opened in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (build)
      console.log(`built: ${build.positions} positions, backfill ${build.backfillSeconds.toFixed(0)} s, detection ${build.detectSeconds.toFixed(0)} s, events ${JSON.stringify(build.events)}`);
  } else if (build) {
    console.log(`built the store: ${build.positions} positions, ${JSON.stringify(build.events)}, backfill ${build.backfillSeconds.toFixed(1)} s, detection ${build.detectSeconds.toFixed(1)} s`);
  }
  return { demo, rounds: Number(values.rounds) };
}

/** GET `url` once (it must answer 200), then `rounds` times timed: the first answer, and the p50 and p99 in ms. */
export async function timeGets(demo: DemoEventsStore, url: string, token: string, rounds: number): Promise<{ first: { status: number; body: any }; p50: number; p99: number }> {
  const first = await demo.api('GET', url, token);
  if (first.status !== 200) throw new Error(`${url}: ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await demo.api('GET', url, token);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!;
  return { first, p50: pct(50), p99: pct(99) };
}
