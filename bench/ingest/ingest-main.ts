/**
 * Ingest benchmark: the Houston/Galveston day (401,815 MarineCadastre rows) into SQLite and into
 * PostgreSQL through Bosun, against raw inserts of the same rows in the same run: a multi-row insert in
 * both stores, plus a prepared single-row insert (SQLite) and COPY into a staging table followed by
 * insert … select skipping duplicates (PostgreSQL).
 * Usage: node dist/bench/ingest/ingest-main.js [--store sqlite|postgres|both] [--rows N]
 * PostgreSQL comes from BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import Database from 'better-sqlite3';
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createBosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';
import { csvSourceName, importAisCsv } from '../../src/feeds/ais-csv.js';
import type { AisSink, PositionReport, StaticReport } from '../../src/fleet/types.js';

const { values } = parseArgs({ options: { store: { type: 'string', default: 'both' }, rows: { type: 'string' } } });
const root = resolve(import.meta.dirname, '..', '..', '..');
const file = resolve(root, '..', 'shared', 'data', 'ais', 'tracks', 'AIS_2020_01_01_houston_galveston.csv.gz');
const out = join(root, 'bench', 'out');
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const limit = values.rows ? Number(values.rows) : undefined;
mkdirSync(out, { recursive: true });

const csvInput = () => createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));

/** The rows as the importer produces them, held in memory for the from-memory runs. */
async function loadRows(): Promise<{ positions: PositionReport[]; statics: StaticReport[] }> {
  const positions: PositionReport[] = [];
  const statics: StaticReport[] = [];
  const sink: AisSink = { acceptMessage() {}, acceptPosition: (p) => void positions.push(p), acceptStatic: (s) => void statics.push(s), flush: async () => {} };
  await importAisCsv(csvInput(), { sink, clock: { now: () => Date.now() }, source: csvSourceName(file), ...(limit ? { limit } : {}) });
  return { positions, statics };
}

const COLUMNS = ['mmsi', 'observed_at', 'lat', 'lon', 'sog', 'cog', 'heading', 'source'] as const;
const rowValues = (p: PositionReport) => [p.mmsi, p.observedAt, p.lat, p.lon, p.sog, p.cog, p.heading, p.source];

function rawSqlite(positions: PositionReport[], mode: 'multi-row' | 'single-row'): number {
  const path = join(out, 'raw.sqlite');
  rmSync(path, { force: true });
  rmSync(path + '-wal', { force: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    `create table positions (seq integer primary key autoincrement, mmsi integer not null, observed_at integer not null, lat real, lon real, sog real, cog real, heading real, source text, unique (mmsi, observed_at))`,
  );
  const perStatement = 500;
  const statement = (n: number) =>
    db.prepare(
      `insert or ignore into positions (${COLUMNS.join(',')}) values ${Array(n)
        .fill(`(${COLUMNS.map(() => '?').join(',')})`)
        .join(',')}`,
    );
  const full = statement(perStatement);
  const one = statement(1);
  const start = performance.now();
  const batch = 2000;
  for (let i = 0; i < positions.length; i += batch) {
    const rows = positions.slice(i, i + batch);
    db.transaction(() => {
      if (mode === 'single-row') {
        for (const p of rows) one.run(rowValues(p));
        return;
      }
      for (let j = 0; j < rows.length; j += perStatement) {
        const part = rows.slice(j, j + perStatement);
        (part.length === perStatement ? full : statement(part.length)).run(...part.flatMap(rowValues));
      }
    })();
  }
  const seconds = (performance.now() - start) / 1000;
  db.close();
  return seconds;
}

/** COPY text of the raw rows (numbers and plain source names: nothing to escape). */
const copyLine = (p: PositionReport) =>
  rowValues(p)
    .map((v) => (v === null ? '\\N' : String(v)))
    .join('\t') + '\n';

async function copyIn(client: pg.Client, text: string, data: string): Promise<void> {
  const stream = client.query(copyFrom(text));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}

async function rawPostgres(positions: PositionReport[], mode: 'multi-row' | 'copy'): Promise<number> {
  const client = new pg.Client(pgUrl);
  await client.connect();
  await client.query('drop schema if exists bench_raw cascade; create schema bench_raw');
  await client.query(
    `create table bench_raw.positions (seq bigserial primary key, mmsi bigint not null, observed_at bigint not null, lat double precision, lon double precision, sog double precision, cog double precision, heading double precision, source text, unique (mmsi, observed_at))`,
  );
  const batch = 2000;
  const start = performance.now();
  for (let i = 0; i < positions.length; i += batch) {
    const rows = positions.slice(i, i + batch);
    if (mode === 'copy') {
      // The duplicate-skipping form Bosun needs: COPY into a staging table, then insert … select.
      await client.query('begin');
      await client.query(
        `create temporary table if not exists raw_in (${COLUMNS.map((c) => `${c} ${c === 'source' ? 'text' : c === 'mmsi' || c === 'observed_at' ? 'bigint' : 'double precision'}`).join(',')}) on commit delete rows`,
      );
      await copyIn(client, `copy raw_in (${COLUMNS.join(',')}) from stdin`, rows.map(copyLine).join(''));
      await client.query(`insert into bench_raw.positions (${COLUMNS.join(',')}) select ${COLUMNS.join(',')} from raw_in on conflict do nothing`);
      await client.query('commit');
      continue;
    }
    const params: unknown[] = [];
    const tuples = rows.map(
      (p) =>
        `(${rowValues(p)
          .map((v) => (params.push(v), `$${params.length}`))
          .join(',')})`,
    );
    await client.query(`insert into bench_raw.positions (${COLUMNS.join(',')}) values ${tuples.join(',')} on conflict do nothing`, params);
  }
  const seconds = (performance.now() - start) / 1000;
  await client.query('drop schema bench_raw cascade');
  await client.end();
  return seconds;
}

function storeEnv(store: 'sqlite' | 'postgres', tag: string): Record<string, string> {
  if (store === 'postgres') return { DATABASE_URL: pgUrl, BOSUN_PG_SCHEMA: `bench_${tag}`, LOG_LEVEL: 'warn' };
  const path = join(out, `bosun-${tag}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return { DATABASE_URL: `sqlite:${path}`, LOG_LEVEL: 'warn' };
}

async function dropPgSchema(schema: string): Promise<void> {
  const client = new pg.Client(pgUrl);
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

/** Bosun end to end: gunzip + CSV parsing + fleet service + store, as `bosun import ais-csv` runs it. */
async function bosunImport(store: 'sqlite' | 'postgres'): Promise<{ seconds: number; rows: number }> {
  if (store === 'postgres') await dropPgSchema('bench_import');
  const bosun = await createBosun(loadConfig(storeEnv(store, 'import')));
  try {
    const start = performance.now();
    const summary = await importAisCsv(csvInput(), { sink: bosun.ctx.services.fleet, clock: bosun.ctx.clock, source: csvSourceName(file), ...(limit ? { limit } : {}) });
    await bosun.ctx.services.fleet.flush();
    return { seconds: (performance.now() - start) / 1000, rows: summary.positions };
  } finally {
    await bosun.close();
    if (store === 'postgres') await dropPgSchema('bench_import');
  }
}

/** Bosun from memory: the same in-memory rows as the raw insert, through the fleet service. */
async function bosunFromMemory(store: 'sqlite' | 'postgres', rows: { positions: PositionReport[]; statics: StaticReport[] }): Promise<number> {
  if (store === 'postgres') await dropPgSchema('bench_memory');
  const bosun = await createBosun(loadConfig(storeEnv(store, 'memory')));
  const fleet = bosun.ctx.services.fleet;
  try {
    for (const s of rows.statics) fleet.acceptStatic(s);
    const start = performance.now();
    for (let i = 0; i < rows.positions.length; i++) {
      fleet.acceptPosition(rows.positions[i]!);
      if (i % 5000 === 4999) await fleet.flush();
    }
    await fleet.flush();
    return (performance.now() - start) / 1000;
  } finally {
    await bosun.close();
    if (store === 'postgres') await dropPgSchema('bench_memory');
  }
}

const stores = values.store === 'both' ? (['sqlite', 'postgres'] as const) : [values.store as 'sqlite' | 'postgres'];
const rows = await loadRows();
const n = rows.positions.length;
const rate = (seconds: number) => Math.round(n / seconds).toLocaleString('en-US');
console.log(`rows: ${n.toLocaleString('en-US')} positions, ${rows.statics.length} identity reports; node ${process.version}`);
console.log('store     run                                   seconds  positions/s');
for (const store of stores) {
  const raw = store === 'sqlite' ? rawSqlite(rows.positions, 'multi-row') : await rawPostgres(rows.positions, 'multi-row');
  console.log(`${store.padEnd(9)} raw multi-row insert (from memory)    ${raw.toFixed(2).padStart(7)}  ${rate(raw).padStart(11)}`);
  const raw2 = store === 'sqlite' ? rawSqlite(rows.positions, 'single-row') : await rawPostgres(rows.positions, 'copy');
  console.log(`${store.padEnd(9)} ${(store === 'sqlite' ? 'raw prepared single-row insert' : 'raw COPY + insert…select').padEnd(36)}  ${raw2.toFixed(2).padStart(7)}  ${rate(raw2).padStart(11)}`);
  const memory = await bosunFromMemory(store, rows);
  const floor = Math.min(raw, raw2);
  console.log(`${store.padEnd(9)} Bosun fleet service (from memory)     ${memory.toFixed(2).padStart(7)}  ${rate(memory).padStart(11)}   ratio ${(floor / memory).toFixed(2)} (to the faster floor)`);
  const imported = await bosunImport(store);
  console.log(`${store.padEnd(9)} Bosun import ais-csv (gzip file)      ${imported.seconds.toFixed(2).padStart(7)}  ${rate(imported.seconds).padStart(11)}`);
}
