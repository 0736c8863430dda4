/**
 * Event detection rate: the detector runner over a day of stored positions, from its checkpoint to
 * the head, as the live job does it (read from the store, detect, write events, save the state).
 * Two days: the real Houston/Galveston day (MarineCadastre, 401,815 positions) and a day of the demo
 * fleet. Also builds the 30-day demo store the query benchmarks use (`--days 30`).
 * Usage: node dist/bench/events/detect-main.js [--days 1] [--vessels 300] [--skip-houston]
 */
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { csvSourceName, importAisCsv } from '../../src/feeds/ais-csv.js';
import { countRows, openDemoEventsStore } from './demo-store.js';

const { values } = parseArgs({ options: { days: { type: 'string', default: '1' }, vessels: { type: 'string', default: '300' }, 'skip-houston': { type: 'boolean', default: false } } });
const root = resolve(import.meta.dirname, '..', '..', '..');

async function houston(): Promise<void> {
  const file = resolve(root, '..', 'shared', 'data', 'ais', 'tracks', 'AIS_2020_01_01_houston_galveston.csv.gz');
  const dir = join(root, 'bench', 'out', 'events-houston');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const clock = new ManualClock(Date.UTC(2020, 0, 2));
  const bosun = await createBosun(loadConfig({ LOG_LEVEL: 'silent', BOSUN_DATA_DIR: dir, BOSUN_FEEDS: '', PORT: '0', BOSUN_TELEMETRY: 'false' }), { clock });
  try {
    const input = createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip({ chunkSize: 1 << 20 }));
    await importAisCsv(input, { sink: bosun.ctx.services.fleet, clock, source: csvSourceName(file) });
    const t0 = performance.now();
    const positions = await bosun.ctx.services.events.runner.catchUp();
    const seconds = (performance.now() - t0) / 1000;
    const calls = await countRows(bosun.ctx.store.db, 'port_calls');
    const encounters = await countRows(bosun.ctx.store.db, 'encounters');
    console.log(`| Houston/Galveston day (real) | ${positions} | ${seconds.toFixed(2)} | ${Math.round(positions / seconds)} | ${calls} calls, ${encounters} encounters |`);
  } finally {
    await bosun.close();
  }
}

console.log('| day | positions analysed | seconds | positions/s | events stored |');
console.log('|---|---|---|---|---|');
if (!values['skip-houston']) await houston();
const demo = await openDemoEventsStore({ days: Number(values.days), vessels: Number(values.vessels), rebuild: true });
const b = demo.build!;
console.log(
  `| demo fleet, ${values.days} day(s) × ${values.vessels} vessels (simulated) | ${b.positions} | ${b.detectSeconds.toFixed(2)} | ${Math.round(b.positions / b.detectSeconds)} | ${b.events.calls} calls, ${b.events.encounters} encounters, ${b.events.transits} transits |`,
);
console.log(`(demo backfill into the store: ${b.backfillSeconds.toFixed(1)} s)`);
await demo.close();
