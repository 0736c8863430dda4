/**
 * Cold routes of two builds of the engine in one process, pair by pair (decision 152): this build and the one in
 * another worktree (built with tsc), on route-main's random pairs, each route timed once (its pair's first route)
 * after a searoute-js route of the same pair, as in route-main where searoute-js runs between Bosun's routes and
 * fills the caches. The two builds take turns going first. Under a load of 5–10 the medians of two separate
 * route-main runs differ by ±20 % from run to run; side by side in one process both meet the same load.
 * Usage: node dist/bench/routing/cold-ab-main.js --base /work/wt-base [--pairs 1000] [--seed 11]
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import * as thisEngineModule from '../../src/routing/engine.js';
import * as thisNetworkModule from '../../src/routing/network-file.js';

const { values } = parseArgs({ options: { base: { type: 'string' }, pairs: { type: 'string', default: '1000' }, seed: { type: 'string', default: '11' } } });
if (values.base === undefined) throw new Error('give --base <worktree built with tsc>');

interface Build {
  name: string;
  engine: thisEngineModule.RoutingEngine;
  isRoutingError: (error: unknown) => boolean;
  wallMs: number[];
  cpuMs: number[];
}
const build = (name: string, engines: typeof thisEngineModule, networks: typeof thisNetworkModule): Build => ({
  name,
  engine: networks.loadSeaNetworkFile().engine,
  isRoutingError: (error) => error instanceof engines.RoutingError,
  wallMs: [],
  cpuMs: [],
});
const baseDist = join(resolve(values.base), 'dist', 'src', 'routing');
const base = build(
  `base (${values.base})`,
  (await import(pathToFileURL(join(baseDist, 'engine.js')).href)) as typeof thisEngineModule,
  (await import(pathToFileURL(join(baseDist, 'network-file.js')).href)) as typeof thisNetworkModule,
);
const current = build('this build', thisEngineModule, thisNetworkModule);

const require = createRequire(import.meta.url);
const searoute = require('searoute-js') as (a: unknown, b: unknown) => unknown;
const point = (lat: number, lon: number) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lon, lat] } });
const theirs = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const log = console.log;
  console.log = () => undefined; // searoute-js prints the index of the line it snaps to
  try {
    searoute(point(a.lat, a.lon), point(b.lat, b.lon));
  } catch {
    // searoute-js throws when both ports snap to one vertex
  } finally {
    console.log = log;
  }
};

// the pairs of route-main (same seed, same draw)
const ports = readPortTableFile().ports;
let seed = Number(values.seed);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const candidates = ports.filter((x) => x.harbor_size === 'large' || x.harbor_size === 'medium');
const pairs: { lat: number; lon: number }[][] = [];
while (pairs.length < Number(values.pairs)) {
  const a = candidates[Math.floor(random() * candidates.length)]!;
  const b = candidates[Math.floor(random() * candidates.length)]!;
  if (a.port_id !== b.port_id) pairs.push([a, b].map((x) => ({ lat: x.lat, lon: x.lon })));
}
const byLocode = new Map(ports.filter((x) => x.locode !== null).map((x) => [x.locode!, x]));
const reference = [
  ['NLRTM', 'SGKEP'],
  ['CNSGH', 'USLAX'],
  ['USHOU', 'NLRTM'],
  ['BRSSZ', 'CNQIN'],
].map((pair) => pair.map((locode) => byLocode.get(locode)!));

const route = (x: Build, a: { lat: number; lon: number }, b: { lat: number; lon: number }) => x.engine.route([a, b], { excludedMask: x.engine.passageMask([]) });
// both warmed up as in route-main: the land index built, the code compiled
for (const x of [base, current]) for (const [a, b] of reference) for (let i = 0; i < 20; i++) route(x, a!, b!);
for (const [a, b] of reference) theirs(a!, b!);

const timed = (x: Build, a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  try {
    route(x, a, b);
  } catch (error) {
    if (!x.isRoutingError(error)) throw error;
    return;
  }
  x.wallMs.push(performance.now() - t);
  const used = process.cpuUsage(cpu);
  x.cpuMs.push((used.user + used.system) / 1000);
};
const loadAtStart = loadavg()[0]!;
pairs.forEach(([a, b], i) => {
  for (const x of i % 2 === 0 ? [base, current] : [current, base]) {
    theirs(a!, b!);
    timed(x, a!, b!);
  }
});
const median = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  return s.length === 0 ? NaN : (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};
for (const x of [base, current]) console.log(`${x.name}: ${x.wallMs.length} cold routes, median wall ${median(x.wallMs).toFixed(3)} ms, median CPU ${median(x.cpuMs).toFixed(3)} ms`);
console.log(
  `this build / base: wall ${(median(current.wallMs) / median(base.wallMs)).toFixed(3)}, CPU ${(median(current.cpuMs) / median(base.cpuMs)).toFixed(3)}; load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`,
);
