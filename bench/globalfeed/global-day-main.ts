/**
 * Global-feed storage benchmark (issue 31). A SIMULATED global fleet at realistic AIS reporting rates
 * (`--mix itu`, the default: ITU-R M.1371's class A intervals by speed — 10 s below 14 kn, 6 s to 23 kn, 2 s
 * above — and 3 min moored or at anchor, class B 30 s under way and 3 min below 2 kn, with half the class A
 * fleet moored or at anchor, docs/decisions/166; `--mix dense`: every class A under way reports every 2-10 s
 * at random, a quarter of them at anchor every 3 min, class B every 30 s; vessels spread over the world's
 * oceans, labelled simulated), generated in time order for `--minutes` of simulated time and
 * written through the fleet's store path (src/fleet/fleet-repo.ts: vessel upserts skipped, positions in
 * batches, daily partitions on PostgreSQL) into a fresh store, then analysed by the event detector runner.
 * All figures come from this one run; the machine is shared, so read the ratios, not the absolutes:
 * - ingest: positions written per wall second ÷ positions generated per simulated second (× real time),
 *   and that ratio for 50,000 vessels (linear in fleet size: the rate per vessel is the generator's);
 * - detection: the live detector follows the stream while ingest runs (as the scheduler's job: a
 *   `follow` every `--follow-every-ms`); its positions per second while busy ÷ the 50,000-vessel rate,
 *   and the detection lag at the end: wall seconds from the last batch written to the detector at head;
 * - keyed lookup (newest usable position of one vessel) and port congestion (Rotterdam, the service's
 *   answer): p50 on the empty store before the run and while ingest runs, as ratios (SQLite: one of
 *   each between two batches; PostgreSQL: one of each every `--read-every-ms`, by default from a second
 *   process on the same schema that runs no feed and no detector — the scale-out shape, where serving
 *   processes are not the feed owner (reader-process.ts) — or with `--readers inline` in the ingesting
 *   process itself);
 * - bytes per stored position (SQLite: pages of positions and its indexes via dbstat; PostgreSQL: the
 *   partitions' total relation size), and the disk a 50,000-vessel day and 7/30/90-day retention take;
 * - CPU seconds per million positions ingested and detected (from the first batch to the detector at head):
 *   the ingesting process's (process.cpuUsage), the generator's share of it (the same feed generated once more
 *   alone before the run: a real feed arrives from outside, so the generator's cost is the bench's, not the
 *   product's), and the PostgreSQL backends serving the ingesting process (PostgreSQL on this machine; see
 *   cpu-cost.ts). CPU seconds depend far less on the machine's load than the wall-clock ratios do.
 * Usage: node dist/bench/globalfeed/global-day-main.js [--vessels 5000] [--minutes 10] [--store sqlite|postgres]
 *   [--follow-every-ms 2000 (0: no detector during ingest, it catches up after)] [--read-every-ms 50]
 *   [--readers process|inline (PostgreSQL; default process)]
 *   [--detector inline|process (PostgreSQL; default inline: the live detector in the ingesting process; process: in a
 *   third process on the same schema, as a serving process runs it when the feed owner has BOSUN_EVENT_DETECTION=false,
 *   docs/decisions/156; its CPU and its backends' are added to the totals)]
 *   [--shuttles 0 (vessels of the fleet that shuttle between two ports 8-15 nm apart: 30 min moored at each
 *   end, 14 kn between, so that port calls close and voyages are written while the detector follows;
 *   give --minutes 120 or more to see several)]
 *   [--pace 0 (0: ingest as fast as the store takes it; P > 0: each batch written no earlier than its simulated time
 *   ÷ P, a live feed replayed at P× real time, as a serving process sees it when the feed arrives at its own rate)]
 *   [--segment-positions 0 (PostgreSQL, N > 0: after every N positions written, one line on the segment just written:
 *   the positions stored, the partitions' bytes, CPU seconds per million of the ingesting process and of its backends,
 *   and per million positions the index and heap blocks the backends read from outside shared_buffers (pg_statio), so
 *   that the write cost can be read against the partition's size)]
 *   (postgres: DATABASE_URL; a fresh schema is created and dropped)
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { createFleetReads } from '../../src/fleet/fleet-reads.js';
import { createFleetRepo, type PositionWrite } from '../../src/fleet/fleet-repo.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { Rng } from '../../src/sim/random.js';
import { median } from '../../src/platform/stats.js';
import { distanceNm, interpolate } from '../../src/geo/distance.js';
import type { ReaderReply, ReaderRequest } from './reader-process.js';
import type { DetectorReply, DetectorRequest } from './detector-process.js';
import { forkBenchChild } from './bench-child.js';
import { startCpuCount } from './cpu-cost.js';
import { segmentReporter } from './segment-cost.js';

const { values } = parseArgs({
  options: {
    vessels: { type: 'string', default: '5000' },
    minutes: { type: 'string', default: '10' },
    store: { type: 'string', default: 'sqlite' },
    batch: { type: 'string', default: '5000' },
    'follow-every-ms': { type: 'string', default: '2000' },
    'read-every-ms': { type: 'string', default: '50' },
    readers: { type: 'string', default: 'process' },
    detector: { type: 'string', default: 'inline' },
    shuttles: { type: 'string', default: '0' },
    pace: { type: 'string', default: '0' },
    'segment-positions': { type: 'string', default: '0' },
    mix: { type: 'string', default: 'itu' },
  },
});
const VESSELS = Number(values.vessels);
const MINUTES = Number(values.minutes);
const BATCH = Number(values.batch);
const FOLLOW_EVERY_MS = Number(values['follow-every-ms']);
const READ_EVERY_MS = Number(values['read-every-ms']);
const SHUTTLES = Number(values.shuttles);
const PACE = Number(values.pace);
const SEGMENT = Number(values['segment-positions']);
const MIX = values.mix;
if (MIX !== 'itu' && MIX !== 'dense') throw new Error(`--mix itu|dense, not ${MIX}`);
const GLOBAL = 50_000;
const START = Date.UTC(2026, 10, 20, 0, 0, 0);
const root = resolve(import.meta.dirname, '..', '..', '..');

interface SimVessel {
  vslId: string;
  mmsi: number;
  kind: 'A-underway' | 'A-anchor' | 'A-moored' | 'B' | 'B-stationary';
  lat: number;
  lon: number;
  sog: number;
  cog: number;
  next: number;
  shuttle?: Shuttle;
}

/** Two ports and the cycle between them: moored at a, sailing, moored at b, sailing back. */
interface Shuttle {
  a: { lat: number; lon: number };
  b: { lat: number; lon: number };
  sailMs: number;
  offsetMs: number;
}

const MOORED_MS = 30 * 60_000;
const SHUTTLE_KN = 14;

/** Pairs of ports 8-15 nm apart (great circle), each port in one pair at most, spread over the table. */
function shuttlePairs(): Array<[{ lat: number; lon: number }, { lat: number; lon: number }]> {
  const ports = readPortTableFile().ports.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
  const used = new Set<number>();
  const pairs: Array<[{ lat: number; lon: number }, { lat: number; lon: number }]> = [];
  for (const a of ports) {
    if (used.has(a.port_id)) continue;
    const b = ports.find(
      (p) =>
        !used.has(p.port_id) &&
        p.port_id !== a.port_id &&
        Math.abs(p.lat - a.lat) < 0.3 &&
        Math.abs(p.lon - a.lon) < 0.5 &&
        distanceNm(a.lat, a.lon, p.lat, p.lon) >= 8 &&
        distanceNm(a.lat, a.lon, p.lat, p.lon) <= 15,
    );
    if (!b) continue;
    used.add(a.port_id).add(b.port_id);
    pairs.push([
      { lat: a.lat, lon: a.lon },
      { lat: b.lat, lon: b.lon },
    ]);
  }
  return pairs;
}

/** Where a shuttle is at t, how fast, which way, and whether it is moored. */
function shuttleAt(s: Shuttle, t: number): { lat: number; lon: number; sog: number; cog: number; moored: boolean } {
  const cycle = 2 * (MOORED_MS + s.sailMs);
  const k = (((t - START + s.offsetMs) % cycle) + cycle) % cycle;
  const course = (from: { lat: number; lon: number }, to: { lat: number; lon: number }) => (Math.atan2(to.lon - from.lon, to.lat - from.lat) * 180) / Math.PI;
  if (k < MOORED_MS) return { ...s.a, sog: 0, cog: 0, moored: true };
  if (k < MOORED_MS + s.sailMs) return { ...interpolate(s.a.lat, s.a.lon, s.b.lat, s.b.lon, (k - MOORED_MS) / s.sailMs), sog: SHUTTLE_KN, cog: (course(s.a, s.b) + 360) % 360, moored: false };
  if (k < 2 * MOORED_MS + s.sailMs) return { ...s.b, sog: 0, cog: 0, moored: true };
  return { ...interpolate(s.b.lat, s.b.lon, s.a.lat, s.a.lon, (k - 2 * MOORED_MS - s.sailMs) / s.sailMs), sog: SHUTTLE_KN, cog: (course(s.b, s.a) + 360) % 360, moored: false };
}

/**
 * 70 % class A, 30 % class B. `itu`: half the class A fleet under way at 6-20 kn, 35 % of it moored and 15 % at
 * anchor; half the class B fleet under way at 4-12 kn, half below 2 kn. `dense`: 75 % of class A under way at
 * 8-18 kn, 25 % at anchor; class B under way. Positions over open water bands.
 */
function fleet(rng: Rng): SimVessel[] {
  return Array.from({ length: VESSELS }, (_, i) => {
    const r = rng.next();
    const kind: SimVessel['kind'] =
      MIX === 'dense' ? (r < 0.525 ? 'A-underway' : r < 0.7 ? 'A-anchor' : 'B') : r < 0.35 ? 'A-underway' : r < 0.595 ? 'A-moored' : r < 0.7 ? 'A-anchor' : r < 0.85 ? 'B' : 'B-stationary';
    const speed = rng.next();
    return {
      vslId: `sim_${i}`,
      mmsi: 200_000_000 + i,
      kind,
      lat: -50 + rng.next() * 110,
      lon: -180 + rng.next() * 360,
      sog: kind === 'A-anchor' || kind === 'A-moored' || kind === 'B-stationary' ? 0.1 : MIX === 'dense' ? 8 + speed * 10 : kind === 'A-underway' ? 6 + speed * 14 : 4 + speed * 8,
      cog: rng.next() * 360,
      next: START + Math.floor(rng.next() * 30_000),
    };
  });
}

/** The first `SHUTTLES` vessels become class A shuttles, one per pair of ports in turn, at random points of their cycle; the pairs used. */
function withShuttles(vessels: SimVessel[], rng: Rng): number {
  if (SHUTTLES === 0) return 0;
  const pairs = shuttlePairs();
  const shuttles = Math.min(SHUTTLES, vessels.length);
  for (let i = 0; i < shuttles; i++) {
    const [a, b] = pairs[i % pairs.length]!;
    const sailMs = (distanceNm(a.lat, a.lon, b.lat, b.lon) / SHUTTLE_KN) * 3_600_000;
    vessels[i]!.kind = 'A-underway';
    vessels[i]!.shuttle = { a, b, sailMs, offsetMs: Math.floor(rng.next() * 2 * (MOORED_MS + sailMs)) };
  }
  return Math.min(shuttles, pairs.length);
}

const cpuSecondsSince = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};

/** Minutes of the feed generated alone to cost the generator (its cost per report is level from the first minutes on). */
const GENERATOR_COST_MINUTES = Math.min(MINUTES, 60);

/** CPU seconds of generating the feed's first GENERATOR_COST_MINUTES alone (a fresh fleet with the run's seed, every report dropped). */
function generatorCpuSeconds(): { seconds: number; positions: number } {
  const rng = new Rng(31);
  const vessels = fleet(rng);
  withShuttles(vessels, rng);
  const start = process.cpuUsage();
  let positions = 0;
  for (const _report of reports(vessels, rng, START + GENERATOR_COST_MINUTES * 60_000)) positions++;
  return { seconds: cpuSecondsSince(start), positions };
}

/** ITU-R M.1371 class A reporting interval under way: by speed (course changes, which shorten it, are not simulated). */
const classAUnderwayMs = (sog: number) => (sog > 23 ? 2000 : sog >= 14 ? 6000 : 10_000);

const interval = (v: SimVessel, rng: Rng): number => {
  if (v.shuttle) return shuttleAt(v.shuttle, v.next).moored ? 180_000 : MIX === 'dense' ? 2000 + Math.floor(rng.next() * 8000) : classAUnderwayMs(SHUTTLE_KN);
  switch (v.kind) {
    case 'A-underway':
      return MIX === 'dense' ? 2000 + Math.floor(rng.next() * 8000) : classAUnderwayMs(v.sog);
    case 'B':
      return 30_000;
    default:
      return 180_000;
  }
};

/** Every report of the fleet in [START, START + minutes), in time order (vessels kept in a binary heap by next report). */
function* reports(vessels: SimVessel[], rng: Rng, end = START + MINUTES * 60_000): Generator<PositionWrite> {
  const heap = [...vessels].sort((a, b) => a.next - b.next);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && heap[l]!.next < heap[m]!.next) m = l;
      if (r < heap.length && heap[r]!.next < heap[m]!.next) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  while (heap[0]!.next < end) {
    const v = heap[0]!;
    const t = v.next;
    const step = interval(v, rng);
    let navStatus = v.kind === 'A-anchor' ? 1 : v.kind === 'A-moored' ? 5 : 0;
    if (v.shuttle) {
      const at = shuttleAt(v.shuttle, t);
      Object.assign(v, { lat: at.lat, lon: at.lon, sog: at.sog, cog: at.cog });
      navStatus = at.moored ? 5 : 0;
    } else {
      const nm = (v.sog * step) / 3_600_000;
      v.lat = Math.max(-80, Math.min(80, v.lat + (nm / 60) * Math.cos((v.cog * Math.PI) / 180)));
      v.lon = ((v.lon + (nm / 60) * Math.sin((v.cog * Math.PI) / 180) + 540) % 360) - 180;
    }
    yield {
      mmsi: v.mmsi,
      vsl_id: v.vslId,
      observed_at: t,
      received_at: t + 500,
      lat: v.lat,
      lon: v.lon,
      sog: v.sog,
      cog: v.cog,
      heading: Math.round(v.cog),
      nav_status: navStatus,
      msg_type: v.kind === 'B' || v.kind === 'B-stationary' ? 18 : 1,
      source: 'simulated-global',
      simulated: 1,
      usable: 1,
      quality_flags: '[]',
    };
    v.next = t + step;
    down(0);
  }
}

const postgres = values.store === 'postgres';
const schema = `bench_global_${randomBytes(4).toString('hex')}`;
const dir = join(root, 'bench', 'out', 'globalfeed');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const env: Record<string, string> = { LOG_LEVEL: 'silent', BOSUN_FEEDS: 'none', PORT: '0', BOSUN_TELEMETRY: 'false', BOSUN_DATA_DIR: dir };
if (postgres) {
  if (!process.env.DATABASE_URL?.startsWith('postgres')) throw new Error('--store postgres needs DATABASE_URL');
  Object.assign(env, { DATABASE_URL: process.env.DATABASE_URL, BOSUN_PG_SCHEMA: schema });
}
const clock = new ManualClock(START + MINUTES * 60_000);
const bosun = await createBosun(loadConfig(env), { clock });
try {
  const store = bosun.ctx.store;
  const repo = createFleetRepo(store.db, store.dialect);
  const reads = createFleetReads(store.db);
  const rng = new Rng(31);
  const generatorCpu = generatorCpuSeconds();
  const vessels = fleet(rng);
  const shuttlePairsUsed = withShuttles(vessels, rng);

  // keyed lookup and port congestion on the empty store before the run (no ingest, no detector running)
  const pick = new Rng(7); // its own generator: lookups do not change the fleet's reports
  const lookup = async (): Promise<number> => {
    const v = vessels[Math.floor(pick.next() * vessels.length)]!;
    const t0 = performance.now();
    await reads.newestUsableAtOrBefore(v.vslId, START + MINUTES * 60_000);
    return performance.now() - t0;
  };
  const rotterdam = readPortTableFile().ports.find((port) => port.locode === 'NLRTM')!;
  const congestion = async (): Promise<number> => {
    const t0 = performance.now();
    await bosun.ctx.services.congestion.congestion(rotterdam.port_id, {}, { kind: 'anonymous' });
    return performance.now() - t0;
  };
  const quiet: number[] = [];
  const quietCongestion: number[] = [];
  const readerProcess = postgres && values.readers === 'process' ? await startReaderProcess() : null;
  if (values.detector === 'process' && !postgres) throw new Error('--detector process needs --store postgres');
  const detectorProcess =
    values.detector === 'process'
      ? await forkBenchChild<DetectorRequest, DetectorReply>(join(import.meta.dirname, 'detector-process.js'), [String(START + MINUTES * 60_000), String(FOLLOW_EVERY_MS)], { ...process.env, ...env })
      : null;
  if (readerProcess) {
    readerProcess.send({ kind: 'quiet', rounds: 200 });
    const timings = await readerProcess.timings('quiet');
    quiet.push(...timings.lookups);
    quietCongestion.push(...timings.congestion);
  } else {
    for (let i = 0; i < 200; i++) {
      quiet.push(await lookup());
      quietCongestion.push(await congestion());
      if (postgres) await sleep(READ_EVERY_MS); // paced as the concurrent loop below is
    }
  }

  // ingest, with lookups interleaved (one between two batches, and a concurrent loop on PostgreSQL)
  let generated = 0;
  let batch: PositionWrite[] = [];
  const busy: number[] = [];
  const busyCongestion: number[] = [];
  let ingesting = true;
  readerProcess?.send({ kind: 'busy' });
  const readers = readerProcess
    ? Promise.resolve()
    : postgres
      ? (async () => {
          while (ingesting) {
            busy.push(await lookup());
            busyCongestion.push(await congestion());
            await sleep(READ_EVERY_MS);
          }
        })()
      : Promise.resolve();
  // the live detector, as the scheduler runs it (the manual clock never ends a follow's budget: each follow runs to head)
  const runner = bosun.ctx.services.events.runner;
  let detected = 0;
  let detectMs = 0;
  const detector = (async () => {
    while (ingesting && FOLLOW_EVERY_MS > 0 && !detectorProcess) {
      const f0 = performance.now();
      detected += await runner.follow(1000);
      detectMs += performance.now() - f0;
      if (ingesting) await sleep(FOLLOW_EVERY_MS);
    }
  })();
  const countOf = async (table: 'port_calls' | 'voyages') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const cpuCount = postgres ? await startCpuCount(store.db) : null;
  const cpuStart = process.cpuUsage();
  const segments = postgres && cpuCount && SEGMENT > 0 ? await segmentReporter(store.db, cpuCount, SEGMENT) : null;
  detectorProcess?.send({ kind: 'follow' });
  const t0 = performance.now();
  for (const report of reports(vessels, rng)) {
    batch.push(report);
    generated++;
    if (batch.length >= BATCH) {
      await repo.writeBatch([], [], batch);
      if (segments && generated >= segments.next) await segments.report(generated);
      if (PACE > 0) {
        const due = t0 + (report.observed_at - START) / PACE;
        if (due > performance.now()) await sleep(due - performance.now());
      }
      batch = [];
      if (!postgres) {
        busy.push(await lookup());
        busyCongestion.push(await congestion());
        // better-sqlite3 answers synchronously: the detector gets its turns between batches
        await sleep(0);
      }
    }
  }
  if (batch.length > 0) await repo.writeBatch([], [], batch);
  const ingestEnd = performance.now();
  const ingestSeconds = (ingestEnd - t0) / 1000;
  detectorProcess?.send({ kind: 'finish' });
  let backlog = (await reads.headSeq()) - runner.status().cursorSeq;
  let [callsWhileFollowing, voyagesWhileFollowing] = [await countOf('port_calls'), await countOf('voyages')];
  ingesting = false;
  await readers;
  if (readerProcess) {
    readerProcess.send({ kind: 'stop' });
    const timings = await readerProcess.timings('busy');
    busy.push(...timings.lookups);
    busyCongestion.push(...timings.congestion);
  }
  await detector;
  // detection lag at the end: the last batch is written; the detector reaches head (and checkpoints)
  const d0 = performance.now();
  const detectorDone = detectorProcess ? await detectorProcess.next('done') : null;
  if (detectorDone) {
    detected += detectorDone.detected;
    detectMs += detectorDone.busyMs;
    backlog = detectorDone.backlogAtFinish;
    [callsWhileFollowing, voyagesWhileFollowing] = [detectorDone.portCallsAtFinish, detectorDone.voyagesAtFinish];
    detectorProcess!.send({ kind: 'close' });
  } else {
    detected += await runner.catchUp();
    detectMs += performance.now() - d0;
  }
  const lagSeconds = (performance.now() - ingestEnd) / 1000;
  const cpu = cpuCount ? await cpuCount.stop() : { processSeconds: cpuSecondsSince(cpuStart), backendSeconds: null, autovacuumSeconds: null };
  const detectorCpu = detectorDone?.cpu ?? null;
  const analysed = detected;
  // the same answers on the same data once nothing runs: what the data adds, apart from the ingest's contention
  const after: number[] = [];
  const afterCongestion: number[] = [];
  if (readerProcess) {
    readerProcess.send({ kind: 'quiet', rounds: 200 });
    const timings = await readerProcess.timings('quiet');
    after.push(...timings.lookups);
    afterCongestion.push(...timings.congestion);
    readerProcess.send({ kind: 'close' });
  } else {
    for (let i = 0; i < 200; i++) {
      after.push(await lookup());
      afterCongestion.push(await congestion());
      if (postgres) await sleep(READ_EVERY_MS);
    }
  }
  const detectSeconds = detectMs / 1000;

  // bytes per stored position
  let bytes: number;
  if (postgres) {
    const { rows } = await sql<{
      bytes: string;
    }>`select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent join pg_namespace n on n.oid = p.relnamespace where p.relname = 'positions' and n.nspname = current_schema()`.execute(
      store.db,
    );
    bytes = Number(rows[0]!.bytes);
  } else {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    const { rows } = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name in ('positions', 'positions_vessel_time', 'positions_observed_at')`.execute(store.db);
    bytes = Number(rows[0]!.bytes);
  }
  const stored = Number(
    (
      await store.db
        .selectFrom('positions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const [portCalls, voyages] = [await countOf('port_calls'), await countOf('voyages')];

  const simSeconds = MINUTES * 60;
  const ratePerVessel = generated / simSeconds / VESSELS;
  const globalRate = ratePerVessel * GLOBAL;
  const ingestRate = stored / ingestSeconds;
  const perPosition = bytes / stored;
  const dayGb = (globalRate * 86_400 * perPosition) / 1e9;
  const quietP50 = median(quiet) ?? NaN;
  const busyP50 = median(busy) ?? NaN;
  const quietCongestionP50 = median(quietCongestion) ?? NaN;
  const busyCongestionP50 = median(busyCongestion) ?? NaN;
  console.log(
    `store ${postgres ? 'PostgreSQL (daily partitions)' : 'SQLite'}; simulated fleet ${VESSELS} vessels (mix ${MIX}), ${MINUTES} min; ingest ${PACE > 0 ? `paced at ${PACE}× real time` : 'as fast as the store takes it'}; machine load ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    `generated ${generated} positions (${(generated / simSeconds).toFixed(0)}/s simulated, ${ratePerVessel.toFixed(3)}/s per vessel → ${globalRate.toFixed(0)}/s for ${GLOBAL} vessels); stored ${stored}`,
  );
  console.log(
    `ingest ${ingestSeconds.toFixed(1)} s: ${ingestRate.toFixed(0)} positions/s = ${(ingestRate / (generated / simSeconds)).toFixed(1)}× real time for ${VESSELS} vessels, ${(ingestRate / globalRate).toFixed(2)}× for ${GLOBAL}`,
  );
  console.log(
    `detector (following the ingest${detectorProcess ? ', in its own process' : ', in the ingesting process'}) busy ${detectSeconds.toFixed(1)} s for ${analysed} positions: ${(analysed / detectSeconds).toFixed(0)}/s = ${(analysed / detectSeconds / globalRate).toFixed(2)}× the ${GLOBAL}-vessel rate`,
  );
  console.log(
    `events written: ${portCalls} port calls, ${voyages} voyages (${callsWhileFollowing} and ${voyagesWhileFollowing} by the detector following the ingest, before its catch-up at the end)${SHUTTLES > 0 ? `; ${Math.min(SHUTTLES, VESSELS)} shuttles between ${shuttlePairsUsed} port pairs` : ''}`,
  );
  console.log(`detection lag at the end: ${backlog} positions behind head when the last batch was written, at head ${lagSeconds.toFixed(2)} s later`);
  console.log(
    `readers: ${readerProcess ? 'a second process on the same schema (no feed, no detector)' : postgres ? 'a concurrent loop in the ingesting process' : 'between two batches, in the ingesting process'}`,
  );
  const afterP50 = median(after) ?? NaN;
  const afterCongestionP50 = median(afterCongestion) ?? NaN;
  console.log(
    `keyed lookup p50 ${quietP50.toFixed(2)} ms on the empty store, ${busyP50.toFixed(2)} ms during ingest (${(busyP50 / quietP50).toFixed(2)}×, ${busy.length} lookups), ${afterP50.toFixed(2)} ms on the same data after it (${(busyP50 / afterP50).toFixed(2)}× that)`,
  );
  console.log(
    `port congestion (Rotterdam) p50 ${quietCongestionP50.toFixed(2)} ms on the empty store, ${busyCongestionP50.toFixed(2)} ms during ingest (${(busyCongestionP50 / quietCongestionP50).toFixed(2)}×, ${busyCongestion.length} answers), ${afterCongestionP50.toFixed(2)} ms on the same data after it (${(busyCongestionP50 / afterCongestionP50).toFixed(2)}× that)`,
  );
  const perMillion = (seconds: number) => ((seconds / stored) * 1e6).toFixed(2);
  const generatorShare = (generatorCpu.seconds / generatorCpu.positions) * stored;
  console.log(
    `CPU from the first batch to the detector at head: ingesting process ${cpu.processSeconds.toFixed(1)} s (${perMillion(cpu.processSeconds)} s per million positions; the generator alone ${perMillion(generatorShare)} (costed on its first ${GENERATOR_COST_MINUTES} min), the rest ${perMillion(cpu.processSeconds - generatorShare)})${readerProcess ? '' : ' (the readers run in it too)'}; its PostgreSQL backends ${cpu.backendSeconds === null ? 'not readable' : `${cpu.backendSeconds.toFixed(1)} s (${perMillion(cpu.backendSeconds)} per million)`}${cpu.autovacuumSeconds ? `; autovacuum ${cpu.autovacuumSeconds.toFixed(1)} s` : ''}`,
  );
  if (detectorCpu) {
    console.log(
      `CPU of the detecting process over the same span: ${detectorCpu.processSeconds.toFixed(1)} s (${perMillion(detectorCpu.processSeconds)} s per million positions); its PostgreSQL backends ${detectorCpu.backendSeconds === null ? 'not readable' : `${detectorCpu.backendSeconds.toFixed(1)} s (${perMillion(detectorCpu.backendSeconds)} per million)`}`,
    );
  }
  if (cpu.backendSeconds !== null && (!detectorCpu || detectorCpu.backendSeconds !== null)) {
    const detecting = detectorCpu ? detectorCpu.processSeconds + detectorCpu.backendSeconds! : 0;
    console.log(
      `CPU per million positions ingested and detected, without the generator: ${perMillion(cpu.processSeconds - generatorShare + cpu.backendSeconds + detecting)} s (${detectorCpu ? 'both processes + their backends' : 'process + backends'})`,
    );
  }
  console.log(`bytes per stored position ${perPosition.toFixed(1)} (positions and its indexes: ${(bytes / 1e6).toFixed(1)} MB)`);
  console.log(
    `projection for ${GLOBAL} vessels at these rates: ${((globalRate * 86_400) / 1e6).toFixed(1)} M positions/day, ${dayGb.toFixed(1)} GB/day; retention 7 d ${(dayGb * 7).toFixed(0)} GB, 30 d ${(dayGb * 30).toFixed(0)} GB, 90 d ${(dayGb * 90).toFixed(0)} GB`,
  );

  /** The serving process: forked on the migrated schema, answering while this one ingests. */
  async function startReaderProcess() {
    const child = await forkBenchChild<ReaderRequest, ReaderReply>(join(import.meta.dirname, 'reader-process.js'), [String(VESSELS), String(START + MINUTES * 60_000), String(READ_EVERY_MS)], {
      ...process.env,
      ...env,
    });
    return {
      send: child.send,
      timings: async (phase: 'quiet' | 'busy') => {
        const reply = await child.next('timings');
        if (reply.phase !== phase) throw new Error(`reader process sent ${reply.phase} timings, expected ${phase}`);
        return reply;
      },
    };
  }
} finally {
  await bosun.close();
  if (postgres) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}
