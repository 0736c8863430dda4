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
import { createBosun, type Bosun } from '../../src/app/create.js';
import { DAY, ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { backfill } from '../../src/sim/backfill.js';
import { BACKFILL_RATES, DemoFleet } from '../../src/sim/fleet.js';
import { seedFromText } from '../../src/sim/random.js';

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
    const db = bosun.ctx.store.db;
    const count = async (table: 'port_calls' | 'encounters' | 'transits' | 'loitering_events' | 'ais_gaps') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
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
