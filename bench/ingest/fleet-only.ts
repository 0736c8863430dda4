/**
 * The fleet service alone, from memory: the Houston day's rows (or the first N) through `acceptPosition`
 * with a flush every 5,000, as the ingest benchmark's "Bosun fleet service" line, printing wall time and
 * this process's CPU time (user + system). On a shared machine the CPU time of one process moves far less
 * with the load than wall time does; on SQLite it holds all of the store's work (PostgreSQL's server time
 * is not in it). Use it for before/after comparisons of builds, alternated.
 * Usage: node dist/bench/ingest/fleet-only.js [--store sqlite|postgres] [--rows N]   (BENCH_PG_URL for PostgreSQL)
 */
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { createBosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';
import { csvSourceName, importAisCsv } from '../../src/feeds/ais-csv.js';
import type { AisSink, PositionReport, StaticReport } from '../../src/fleet/types.js';

const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, rows: { type: 'string' } } });
const root = resolve(import.meta.dirname, '..', '..', '..');
const file = resolve(root, '..', 'shared', 'data', 'ais', 'tracks', 'AIS_2020_01_01_houston_galveston.csv.gz');
const out = join(root, 'bench', 'out');
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
mkdirSync(out, { recursive: true });

const positions: PositionReport[] = [];
const statics: StaticReport[] = [];
const sink: AisSink = { acceptMessage() {}, acceptPosition: (p) => void positions.push(p), acceptStatic: (s) => void statics.push(s), flush: async () => {} };
await importAisCsv(createReadStream(file).pipe(createGunzip()), { sink, clock: { now: () => Date.now() }, source: csvSourceName(file), ...(values.rows ? { limit: Number(values.rows) } : {}) });

const store = values.store === 'postgres' ? 'postgres' : 'sqlite';
const path = join(out, 'fleet-only.sqlite');
for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
async function dropSchema(): Promise<void> {
  const client = new pg.Client(pgUrl);
  await client.connect();
  await client.query('drop schema if exists bench_fleet_only cascade');
  await client.end();
}
if (store === 'postgres') await dropSchema();
const env = store === 'postgres' ? { DATABASE_URL: pgUrl, BOSUN_PG_SCHEMA: 'bench_fleet_only', LOG_LEVEL: 'warn' } : { DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'warn' };
const bosun = await createBosun(loadConfig(env));
const fleet = bosun.ctx.services.fleet;
try {
  for (const s of statics) fleet.acceptStatic(s);
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < positions.length; i++) {
    fleet.acceptPosition(positions[i]!);
    if (i % 5000 === 4999) await fleet.flush();
  }
  await fleet.flush();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  console.log(
    `${store} ${positions.length} positions: wall ${seconds.toFixed(2)} s (${Math.round(positions.length / seconds)}/s), cpu ${cpuSeconds.toFixed(2)} s (${Math.round(positions.length / cpuSeconds)}/cpu-s), stored ${fleet.stats().positions_stored}, load ${loadavg()[0]!.toFixed(1)}`,
  );
} finally {
  await bosun.close();
  if (store === 'postgres') await dropSchema();
}
