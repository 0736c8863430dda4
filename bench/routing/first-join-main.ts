/**
 * First-join times of coastal places (decision 145): each place's first `engine.joins` (joins are cached per
 * place, so the first is the one that pays for any water-path search), on this build and, with --baseline,
 * on another build's dist (e.g. /work/main/dist) loaded in the same process, alternating per place.
 * Usage: node dist/bench/routing/first-join-main.js [--baseline /work/main/dist]
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { shippedSeaNetwork } from '../../src/routing/network-file.js';
import type { LatLon } from '../../src/routing/route-types.js';

const { values } = parseArgs({ options: { baseline: { type: 'string' } } });

const places: (LatLon & { name: string })[] = [
  { name: 'Mackenzie delta', lat: 68.952, lon: -133.184 },
  { name: 'Seno Otway', lat: -52.973, lon: -71.255 },
  { name: 'Baffin Island', lat: 62.761, lon: -67.006 },
  { name: 'Banana River', lat: 28.565, lon: -80.603 },
  { name: 'Bristol Bay', lat: 58.788, lon: -161.69 },
  { name: 'Gulf of Kutch', lat: 22.813, lon: 69.823 },
  { name: 'Norwegian fjord', lat: 60.504, lon: 7.028 },
  { name: 'off Rotterdam', lat: 52.05, lon: 3.6 },
];

type Joins = (point: LatLon) => { connectorNm: number; waterPath?: unknown }[];
const engine = shippedSeaNetwork().engine;
const current: Joins = (point) => engine.joins(point);
let baseline: Joins | null = null;
if (values.baseline !== undefined) {
  // the other build's module of the same source file: the same exports
  const other = (await import(`${values.baseline}/src/routing/network-file.js`)) as typeof import('../../src/routing/network-file.js');
  const baselineEngine = other.shippedSeaNetwork().engine;
  baseline = (point) => baselineEngine.joins(point);
}

const timed = (joins: Joins, place: LatLon) => {
  const started = performance.now();
  const join = joins(place)[0]!;
  return { ms: performance.now() - started, nm: join.connectorNm, water: join.waterPath !== undefined };
};
const describe = (r: { ms: number; nm: number; water: boolean }) => `${r.ms.toFixed(0).padStart(6)} ms ${r.nm.toFixed(1).padStart(6)} nm${r.water ? ' (water path)' : ''}`;

let worst = 0;
let worstBaseline = 0;
for (const place of places) {
  const base = baseline === null ? null : timed(baseline, place);
  const now = timed(current, place);
  worst = Math.max(worst, now.ms);
  if (base !== null) worstBaseline = Math.max(worstBaseline, base.ms);
  console.log(`${place.name.padEnd(16)} this build ${describe(now)}${base === null ? '' : `   baseline ${describe(base)}`}`);
}
console.log(`worst first join: this build ${worst.toFixed(0)} ms${baseline === null ? '' : `, baseline ${worstBaseline.toFixed(0)} ms (ratio ${(worst / worstBaseline).toFixed(2)})`}`);
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
