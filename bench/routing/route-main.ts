/**
 * Sea routing engine: network load time and memory, then the median time of one route on the four
 * reference pairs and on random pairs of ports, against `searoute-js` on the same pairs in the same
 * run; distances of both, and of marnet 100 km against 50 km (decision 032).
 * Usage: node --expose-gc dist/bench/routing/route-main.js [--pairs 1000] [--rounds 20] [--seed 11]
 * (with --expose-gc the memory retained after a collection is reported too). The random pairs are timed once each (a
 * pair's first route, which pays for places met for the first time) and then once more (joins and land tests remembered).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { RoutingError, type RoutingEngine } from '../../src/routing/engine.js';
import { engineFromLines, loadSeaNetworkFile, parseMarnetGeoJson } from '../../src/routing/network-file.js';
import { SHARED_DATA_DIR } from '../../test/helpers/shared-data.js';

const { values } = parseArgs({ options: { pairs: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '20' }, seed: { type: 'string', default: '11' } } });
const pairCount = Number(values.pairs);
const rounds = Number(values.rounds);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (2 cores, shared with other sessions)`,
);

// --- load
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heap0 = process.memoryUsage().heapUsed;
const rss0 = process.memoryUsage().rss;
const shipped = loadSeaNetworkFile();
const heap1 = process.memoryUsage().heapUsed;
const rss1 = process.memoryUsage().rss;
const engine = shipped.engine;
gc?.();
const retained = gc
  ? `; retained after GC: heap +${((process.memoryUsage().heapUsed - heap0) / 1048576).toFixed(1)} MiB, external +${(process.memoryUsage().arrayBuffers / 1048576).toFixed(1)} MiB array buffers`
  : '';
console.log(
  `shipped network (marnet ${shipped.resolutionKm} km): ${engine.graph.nodeCount} nodes, ${engine.graph.edgeCount} edges; load ${shipped.loadMs.toFixed(0)} ms; typed arrays ${(engine.bytes / 1024).toFixed(0)} KiB; heap +${((heap1 - heap0) / 1048576).toFixed(1)} MiB, RSS +${((rss1 - rss0) / 1048576).toFixed(1)} MiB (before GC)${retained}`,
);
const geo = (name: string) => readFileSync(join(SHARED_DATA_DIR, 'geo', name), 'utf8');
const loadFrom = (name: string) => {
  const t = performance.now();
  const e = engineFromLines(parseMarnetGeoJson(geo(name)));
  return { engine: e, ms: performance.now() - t };
};
const e50 = loadFrom('marnet_plus_50km.geojson');
const e100 = loadFrom('marnet_plus_100km.geojson');
console.log(`from GeoJSON: 50 km ${e50.ms.toFixed(0)} ms (${e50.engine.graph.edgeCount} edges), 100 km ${e100.ms.toFixed(0)} ms (${e100.engine.graph.edgeCount} edges)`);

const t0 = performance.now();
const require = createRequire(import.meta.url);
const searoute = require('searoute-js') as (a: unknown, b: unknown, units?: string) => { properties: { length: number }; geometry: { coordinates: number[][] } } | null;
console.log(`searoute-js load (require): ${(performance.now() - t0).toFixed(0)} ms`);
const point = (lat: number, lon: number) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lon, lat] } });
const quiet = <T>(fn: () => T): T => {
  const log = console.log;
  console.log = () => undefined; // searoute-js prints the index of the line it snaps to
  try {
    return fn();
  } finally {
    console.log = log;
  }
};

// --- pairs
const ports = readPortTableFile().ports;
const byLocode = new Map(ports.filter((x) => x.locode !== null).map((x) => [x.locode!, x]));
const at = (locode: string) => {
  const port = byLocode.get(locode)!;
  return { lat: port.lat, lon: port.lon, name: `${port.name} (${locode})` };
};
const reference = [
  [at('NLRTM'), at('SGKEP')],
  [at('CNSGH'), at('USLAX')],
  [at('USHOU'), at('NLRTM')],
  [at('BRSSZ'), at('CNQIN')],
] as const;
let seed = Number(values.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const candidates = ports.filter((x) => x.harbor_size === 'large' || x.harbor_size === 'medium');
const randomPairs: { lat: number; lon: number; name: string }[][] = [];
while (randomPairs.length < pairCount) {
  const a = candidates[Math.floor(random() * candidates.length)]!;
  const b = candidates[Math.floor(random() * candidates.length)]!;
  if (a.port_id !== b.port_id) randomPairs.push([a, b].map((x) => ({ lat: x.lat, lon: x.lon, name: x.name })));
}

const time = (fn: () => unknown, n: number) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
};
const ours = (e: RoutingEngine, a: { lat: number; lon: number }, b: { lat: number; lon: number }) => e.route([a, b], { excludedMask: e.passageMask([]) });

// warm both up
for (const [a, b] of reference) {
  ours(engine, a, b);
  quiet(() => searoute(point(a.lat, a.lon), point(b.lat, b.lon)));
}

console.log('\n| pair | Bosun 50 km nm | Bosun 100 km nm (Δ) | searoute-js "nm" (÷1.324) | Bosun median ms | searoute-js median ms | ratio |');
console.log('|---|---|---|---|---|---|---|');
for (const [a, b] of reference) {
  const d50 = ours(engine, a, b).distanceNm;
  const d100 = ours(e100.engine, a, b).distanceNm;
  const sr = quiet(() => searoute(point(a.lat, a.lon), point(b.lat, b.lon)));
  const mine = time(() => ours(engine, a, b), rounds);
  const theirs = time(() => quiet(() => searoute(point(a.lat, a.lon), point(b.lat, b.lon))), Math.max(3, Math.ceil(rounds / 4)));
  console.log(
    `| ${a.name} – ${b.name} | ${d50.toFixed(0)} | ${d100.toFixed(0)} (${(((d100 - d50) / d50) * 100).toFixed(2)} %) | ${sr ? `${sr.properties.length.toFixed(0)} (${(sr.properties.length / 1.324).toFixed(0)})` : 'none'} | ${mine.toFixed(3)} | ${theirs.toFixed(1)} | ${(theirs / mine).toFixed(0)}× |`,
  );
}

// random pairs: one timing per pair each (the median over pairs)
const mineTimes: number[] = [];
const mine100: number[] = [];
const theirTimes: number[] = [];
const deviation100: number[] = [];
let refused = 0;
let theirNone = 0;
for (const [a, b] of randomPairs) {
  let t = performance.now();
  let d50: number;
  try {
    d50 = ours(engine, a!, b!).distanceNm;
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
    refused++;
    continue;
  }
  mineTimes.push(performance.now() - t);
  t = performance.now();
  try {
    const d100 = ours(e100.engine, a!, b!).distanceNm;
    mine100.push(performance.now() - t);
    deviation100.push(Math.abs(d100 - d50) / d50);
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
  }
  t = performance.now();
  let sr: ReturnType<typeof searoute> = null;
  try {
    sr = quiet(() => searoute(point(a!.lat, a!.lon), point(b!.lat, b!.lon)));
  } catch {
    // searoute-js throws when both ports snap to one vertex
  }
  theirTimes.push(performance.now() - t);
  if (sr === null) theirNone++;
}
console.log(
  `\n${randomPairs.length} random pairs of large/medium ports (seed ${values.seed}): ${refused} refused by Bosun (point_off_network or unreachable), ${theirNone} without a searoute-js route (none found, or an exception)`,
);
console.log(`Bosun 50 km: median ${median(mineTimes).toFixed(3)} ms, p90 ${p(mineTimes, 0.9).toFixed(3)} ms, p99 ${p(mineTimes, 0.99).toFixed(3)} ms`);
console.log(
  `Bosun 100 km: median ${median(mine100).toFixed(3)} ms, p99 ${p(mine100, 0.99).toFixed(3)} ms; |100 km − 50 km| / 50 km: median ${(median(deviation100) * 100).toFixed(2)} %, p90 ${(p(deviation100, 0.9) * 100).toFixed(2)} %, p99 ${(p(deviation100, 0.99) * 100).toFixed(2)} %`,
);
console.log(`searoute-js: median ${median(theirTimes).toFixed(1)} ms, p90 ${p(theirTimes, 0.9).toFixed(1)} ms`);
console.log(`ratio of medians (searoute-js / Bosun 50 km): ${(median(theirTimes) / median(mineTimes)).toFixed(0)}×`);
// the same pairs again: every place's joins and the pull's land tests are now remembered, as in a process that has
// served routes between these ports before (searoute-js keeps nothing between calls: its times above stand)
const againTimes: number[] = [];
for (const [a, b] of randomPairs) {
  const t = performance.now();
  try {
    ours(engine, a!, b!);
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
    continue;
  }
  againTimes.push(performance.now() - t);
}
console.log(
  `Bosun 50 km, the same pairs a second time: median ${median(againTimes).toFixed(3)} ms, p90 ${p(againTimes, 0.9).toFixed(3)} ms; ratio of medians ${(median(theirTimes) / median(againTimes)).toFixed(0)}×`,
);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
