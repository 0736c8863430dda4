/**
 * The frame the fleet-size benchmarks share (lanes-main, corridors-main): their arguments, one child process per
 * fleet size, a fixed pseudo-random sequence, the SQLite store (in memory or a temporary file), and the timed rounds
 * of each query through the HTTP stack in process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';

export interface FleetBenchOptions {
  days: number;
  vessels: number;
  rounds: number;
  /** Rounds of one query stop early after this long (the slow ones of a large fleet). */
  budgetMs: number;
  store: 'memory' | 'file';
  /** Only the operations whose label holds one of these texts (comma-separated; the baseline always): for a profile of a few answers. */
  only: string;
  /** When given, a CPU profile of each query's timed rounds (not the store's writing) is written there: `<vessels>-<label>.cpuprofile`. */
  profileDir: string | null;
}

/**
 * The options of a fleet benchmark. Given a list of fleet sizes (`--vessels 300,3000,30000`) it runs the script
 * once per size, one child process after another (each its own store and peak RSS), and exits.
 */
export function fleetBenchOptions(scriptUrl: string): FleetBenchOptions {
  const { values } = parseArgs({
    options: {
      days: { type: 'string', default: '90' },
      vessels: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '20' },
      'budget-ms': { type: 'string', default: '20000' },
      store: { type: 'string', default: 'memory' },
      only: { type: 'string', default: '' },
      profile: { type: 'string', default: '' },
    },
  });
  const store = values.store;
  if (store !== 'memory' && store !== 'file') throw new Error(`--store memory|file, not ${store}`);
  const sizes = values.vessels.split(',').map(Number);
  if (sizes.length > 1) {
    for (const n of sizes) {
      const args = ['--days', values.days, '--vessels', String(n), '--rounds', values.rounds, '--budget-ms', values['budget-ms'], '--store', store, '--only', values.only, '--profile', values.profile];
      const child = spawnSync(process.execPath, [fileURLToPath(scriptUrl), ...args], { stdio: 'inherit' });
      if (child.status !== 0) process.exit(child.status ?? 1);
    }
    process.exit(0);
  }
  return {
    days: Number(values.days),
    vessels: sizes[0]!,
    rounds: Number(values.rounds),
    budgetMs: Number(values['budget-ms']),
    store,
    only: values.only,
    profileDir: values.profile === '' ? null : values.profile,
  };
}

/** A fixed pseudo-random sequence in [0, 1) (xorshift), so every run writes the same store. */
export function xorshift(seed = 0x9e3779b9): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** The bench's SQLite store: in memory, or a file in a temporary directory (as a deployment keeps it), removed by `remove`. */
export function benchStore(name: string, store: FleetBenchOptions['store']): { databaseUrl: string; remove(): void } {
  if (store === 'memory') return { databaseUrl: ':memory:', remove: () => {} };
  const dir = mkdtempSync(join(tmpdir(), `bosun-${name}-bench-`));
  return { databaseUrl: `sqlite:${join(dir, `${name}.sqlite`)}`, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The process's peak RSS so far, in MB. */
export const peakRssMb = (): string => (process.resourceUsage().maxRSS / 1024).toFixed(0);

/** Nearest-rank percentile of unsorted times, as the fleet benchmarks have always reported it. */
const pct = (times: readonly number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor((times.length * p) / 100))]!;

/**
 * Times each query (label → URL, a "baseline: …" label first) through the HTTP stack in process, with the token, and
 * prints one table row per query: the answer's size, the first request, p50 and p99 wall ms, the CPU p50 of the
 * process per request (user + system: SQLite runs in it, and CPU time is steadier than wall time on a shared
 * machine), the rounds run and the peak RSS once they are done (where the peak is reached).
 */
export async function timeQueries(
  http: FastifyInstance,
  token: string,
  queries: Readonly<Record<string, string>>,
  options: Pick<FleetBenchOptions, 'vessels' | 'rounds' | 'budgetMs' | 'only' | 'profileDir'>,
): Promise<void> {
  const only = options.only.split(',').filter((text) => text !== '');
  const profiling = options.profileDir === null ? null : { dir: options.profileDir, session: new Session() };
  if (profiling) {
    mkdirSync(profiling.dir, { recursive: true });
    profiling.session.connect();
    await profiling.session.post('Profiler.enable');
  }
  const api = async (url: string) => {
    const res = await http.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, bytes: res.rawPayload.length };
  };
  console.log('| query | answer KB | first ms | p50 ms | p99 ms | CPU p50 ms | rounds | peak RSS MB after |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [label, url] of Object.entries(queries)) {
    if (only.length > 0 && !only.some((text) => label.includes(text)) && !label.startsWith('baseline')) continue;
    const start = performance.now();
    const { status, bytes } = await api(url);
    const first = performance.now() - start;
    if (status !== 200) throw new Error(`${url}: ${status}`);
    const times: number[] = [];
    const cpuTimes: number[] = [];
    if (profiling) await profiling.session.post('Profiler.start');
    const began = performance.now();
    for (let i = 0; i < options.rounds && (i < 3 || performance.now() - began < options.budgetMs); i++) {
      const s = performance.now();
      const cpu = process.cpuUsage();
      await api(url);
      const used = process.cpuUsage(cpu);
      times.push(performance.now() - s);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    if (profiling) {
      const { profile } = await profiling.session.post('Profiler.stop');
      writeFileSync(join(profiling.dir, `${options.vessels}-${label.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`), JSON.stringify(profile));
    }
    console.log(
      `| ${label} | ${(bytes / 1024).toFixed(1)} | ${first.toFixed(1)} | ${pct(times, 50).toFixed(1)} | ${pct(times, 99).toFixed(1)} | ${pct(cpuTimes, 50).toFixed(1)} | ${times.length} | ${peakRssMb()} |`,
    );
  }
  profiling?.session.disconnect();
}
