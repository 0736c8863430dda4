/**
 * Truth harness (issue 26): Bosun's port calls, berth/anchorage stops, congestion, encounters and
 * visit rank on a real AIS day, against a ground truth built from the same raw CSV by
 * bench/truth/ground-truth.ts (which shares no code with the detectors).
 *
 * Bosun runs its real path in-process on an in-memory SQLite store: `importAisCsv` (as `bosun import
 * ais-csv`), then the live event runner catches up (as the scheduler does on an idle server).
 *
 * Usage: node dist/bench/truth/run.js [--day houston|mississippi|both] [--at HH:MM,...] [--misses] [--areas]
 * (--areas: after detecting, rebuild the stored port areas from the day's calls and detect the day again
 * on them, as a server does once its daily areas rebuild has run: docs/decisions/120)
 * (--misses lists the cargo/tanker truth stops Bosun did not find, its cargo/tanker stops the truth does not have, and
 * the berth/anchor disagreements)
 */
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { csvSourceName, importAisCsv } from '../../src/feeds/ais-csv.js';
import { compare, type BosunDay } from './compare.js';
import { isCargoOrTanker, readDay, stationaryPairs, stopsOf } from './ground-truth.js';

const DAYS = {
  houston: { file: 'AIS_2020_01_01_houston_galveston.csv.gz', label: 'Houston/Galveston 2020-01-01' },
  mississippi: { file: 'AIS_2020_01_01_lower_mississippi.csv.gz', label: 'Lower Mississippi 2020-01-01' },
} as const;

const { values } = parseArgs({
  options: {
    day: { type: 'string', default: 'both' },
    at: { type: 'string', default: '06:00,12:00,18:00,23:30' },
    misses: { type: 'boolean', default: false },
    areas: { type: 'boolean', default: false },
  },
});
const root = resolve(import.meta.dirname, '..', '..', '..');
const names = values.day === 'both' ? (['houston', 'mississippi'] as const) : ([values.day] as Array<keyof typeof DAYS>);

/** Imports and detects the day, then hands Bosun's answers to `use` while the store is open. */
async function withBosun(path: string, dayStart: number, use: (day: BosunDay) => Promise<string[]>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-truth-'));
  // the day after, so no preview delay hides the day's last positions
  const clock = new ManualClock(dayStart + 3 * 86_400_000);
  const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', BOSUN_DATA_DIR: dir, DATABASE_URL: ':memory:', BOSUN_FEEDS: '', PORT: '0', BOSUN_TELEMETRY: 'false' }), { clock });
  try {
    const input = createReadStream(path, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));
    await importAisCsv(input, { sink: bosun.ctx.services.fleet, clock, source: csvSourceName(path) });
    const t0 = performance.now();
    await bosun.ctx.services.events.runner.catchUp();
    const detectSeconds = (performance.now() - t0) / 1000;
    if (values.areas) {
      // the areas learnt from the first pass, then the day detected again on them (the live detector's state is not used)
      await bosun.ctx.services.events.areas.rebuild();
      await bosun.ctx.services.events.runner.rebuild({ from: dayStart - 86_400_000, to: dayStart + 2 * 86_400_000 });
    }
    const db = bosun.ctx.store.db;
    const vessels = await db.selectFrom('vessels').select(['vsl_id', 'mmsi']).execute();
    const calls = await db.selectFrom('port_calls').selectAll().execute();
    const encounters = await db.selectFrom('encounters').selectAll().execute();
    const services = bosun.ctx.services;
    // the stored port areas (decision 116) built from the day's calls
    const rebuilt = await services.events.areas.rebuild();
    const areas = (await services.events.areas.repo.all()).filter((a) => a.stops > 0);
    const count = (provenance: string, kind: string) => areas.filter((a) => a.provenance === provenance && a.kind === kind).length;
    const areaLines = [
      '',
      `Port areas (bosun events areas rebuild): ${rebuilt.written.gfw} gfw and ${rebuilt.written.learnt} learnt areas from ${rebuilt.stops} stops; with stops: gfw ${count('gfw', 'berth')} berth / ${count('gfw', 'anchorage')} anchorage, learnt ${count('learnt', 'berth')} berth / ${count('learnt', 'anchorage')} anchorage`,
      `Most-used learnt areas: ${areas
        .filter((a) => a.provenance === 'learnt')
        .sort((a, b) => b.vessels - a.vessels)
        .slice(0, 6)
        .map((a) => `${services.ports.byId(a.port_id)?.name ?? a.port_id} ${a.kind} at ${a.lat.toFixed(3)}, ${a.lon.toFixed(3)} (${a.vessels} vessels, ${a.stops} stops, confidence ${a.confidence})`)
        .join('; ')}`,
    ];
    return [
      ...(await use({
        detectSeconds,
        mmsiOf: new Map(vessels.map((v) => [v.vsl_id, v.mmsi])),
        calls,
        encounters: encounters as BosunDay['encounters'],
        portName: (id) => services.ports.byId(id)?.name ?? String(id),
        chartedPoints: services.ports.table().flatMap((p) => [{ portId: p.port_id, lat: p.lat, lon: p.lon }, ...p.anchorages.map(([lat, lon]) => ({ portId: p.port_id, lat, lon }))]),
        congestion: async (portId, at) => {
          const counts = { waiting: 0, atBerth: 0 };
          for (const vessel_type of ['cargo', 'tanker'] as const) {
            const answer = await services.congestion.congestion(portId, { at: new Date(at).toISOString(), vessel_type }, { kind: 'anonymous' });
            counts.waiting += answer.data.now.waiting_at_anchor;
            counts.atBerth += answer.data.now.at_berth;
          }
          return counts;
        },
        visitRank: async (from, to) => {
          const answer = await services.congestion.visitRank({ by: 'port', from: new Date(from).toISOString(), to: new Date(to).toISOString(), limit: 15 }, { kind: 'anonymous' });
          return answer.data.items.flatMap((i) => ('port' in i ? [{ rank: i.rank, name: i.port.name ?? String(i.port.port_id), calls: i.calls, vessels: i.distinct_vessels }] : []));
        },
      })),
      ...areaLines,
    ];
  } finally {
    await bosun.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const name of names) {
  const spec = DAYS[name];
  if (!spec) throw new Error(`--day: houston, mississippi or both`);
  const path = resolve(root, '..', 'shared', 'data', 'ais', 'tracks', spec.file);
  if (!existsSync(path)) {
    console.log(`SKIPPED ${spec.label}: ${path} not found (the harness reads ../shared/data)`);
    continue;
  }
  const day = await readDay(path);
  const stops = [...day.vessels.values()].flatMap((v) => stopsOf(v, day));
  const pairs = stationaryPairs(day, stops, (a, b) => isCargoOrTanker(a.type) || isCargoOrTanker(b.type));
  const dayStart = Math.floor(day.firstT / 86_400_000) * 86_400_000;
  const times = values.at.split(',').map((hhmm) => dayStart + Date.parse(`1970-01-01T${hhmm}:00Z`));
  const lines = await withBosun(path, dayStart, async (bosun) => [
    `\n## ${spec.label} (${day.rows} rows, ${day.vessels.size} vessels; Bosun detection ${bosun.detectSeconds.toFixed(1)} s)\n`,
    ...(await compare(day, stops, pairs, bosun, times, values.misses)),
  ]);
  for (const line of lines) console.log(line);
}
