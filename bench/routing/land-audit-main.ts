/**
 * Land audit of sea routes (issue 28, decision 081) against Natural Earth 1:10m land: routes between
 * 1,000 random pairs of large and medium ports (seeded) and from 500 random coastal points (at sea within
 * 5 km of the coast, seeded) to a random large port. Each route line, connectors included, is sampled
 * every 100 m; a route "crosses land" when a run of consecutive samples on land is longer than 0.5 km,
 * not counting the land at an end when the place itself lies on land (reported apart: its way to the coast).
 * Counted twice: on the bare mask except the declared water polygons (src/routing/waterways.ts), and
 * on the bare mask (canals and rivers the mask draws as land count as land there).
 * Usage: node dist/bench/routing/land-audit-main.js [--pairs 1000] [--coastal 500] [--seed 28]
 */
import { parseArgs } from 'node:util';
import { landIndex } from '../../src/geo/land.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { RoutingError } from '../../src/routing/engine.js';
import { lineOverLand } from '../../src/routing/line-land.js';
import { shippedSeaNetwork } from '../../src/routing/network-file.js';
import { waterwayAt } from '../../src/routing/waterways.js';

const { values } = parseArgs({ options: { pairs: { type: 'string', default: '1000' }, coastal: { type: 'string', default: '500' }, seed: { type: 'string', default: '28' } } });
const started = performance.now();
const land = landIndex();
const { engine } = shippedSeaNetwork();
const ports = readPortTableFile().ports;
let seed = Number(values.seed);
// the product in 32-bit integers: in doubles it lost its low bits and the sequence fell into a short cycle (the
// 500 coastal points of seed 28 were 48 distinct points; found by the helper of branch h-land2)
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 2147483648;
const candidates = ports.filter((p) => p.harbor_size === 'large' || p.harbor_size === 'medium');
const large = ports.filter((p) => p.harbor_size === 'large');
const mask = engine.passageMask([]);
const LIMIT_KM = 0.5;

interface Tally {
  routes: number;
  refused: Map<string, number>;
  crossingWater: number;
  crossingAny: number;
  endsOnLand: number;
  crossingMask: number;
  connectorCrossing: number;
  worst: { label: string; km: number; at: [number, number] | null }[];
  /** The slowest routes (ms): a route meeting a new place pays for its joins, water-path searches included. */
  slowest: { label: string; ms: number }[];
}
const tally = (): Tally => ({ routes: 0, refused: new Map(), crossingWater: 0, crossingAny: 0, endsOnLand: 0, crossingMask: 0, connectorCrossing: 0, worst: [], slowest: [] });

const audit = (t: Tally, a: { lat: number; lon: number }, b: { lat: number; lon: number }, label: string) => {
  let route;
  const routeStarted = performance.now();
  try {
    route = engine.route([a, b], { excludedMask: mask });
  } catch (error) {
    if (!(error instanceof RoutingError)) throw error;
    t.refused.set(error.code, (t.refused.get(error.code) ?? 0) + 1);
    return;
  } finally {
    t.slowest.push({ label, ms: performance.now() - routeStarted });
  }
  t.routes++;
  const withWater = lineOverLand(land, route.coordinates, (lon, lat) => waterwayAt(lon, lat) !== null);
  const crossing = withWater.longestInnerRunKm > LIMIT_KM;
  if (crossing) {
    t.crossingWater++;
    t.worst.push({ label, km: withWater.longestInnerRunKm, at: withWater.innerRunAt });
  }
  if (withWater.longestRunKm > LIMIT_KM) t.crossingAny++;
  if (withWater.startRunKm > LIMIT_KM || withWater.endRunKm > LIMIT_KM) t.endsOnLand++;
  if (withWater.longestInnerRunKm > LIMIT_KM || lineOverLand(land, route.coordinates).longestInnerRunKm > LIMIT_KM) t.crossingMask++;
  const leg = route.legs[0]!;
  const connectors = [
    [
      [leg.from.lon, leg.from.lat],
      [leg.from.snappedLon, leg.from.snappedLat],
    ],
    [
      [leg.to.snappedLon, leg.to.snappedLat],
      [leg.to.lon, leg.to.lat],
    ],
  ] as [number, number][][];
  // of the crossing routes, those with the run in a connector (a connector's own far end may lie on land: an end of the route)
  if (crossing && connectors.some((c) => lineOverLand(land, c, (lon, lat) => waterwayAt(lon, lat) !== null).longestInnerRunKm > LIMIT_KM)) t.connectorCrossing++;
};

const report = (title: string, t: Tally) => {
  const refused = [...t.refused].map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  console.log(`${title}: ${t.routes} routed (refused: ${refused})`);
  console.log(`  crossing > ${LIMIT_KM} km of land outside the declared waterways: ${t.crossingWater} (in a connector: ${t.connectorCrossing})`);
  console.log(`  with more than ${LIMIT_KM} km of land at an end (a place on land, its way to the coast): ${t.endsOnLand}; any run of land > ${LIMIT_KM} km, ends included: ${t.crossingAny}`);
  console.log(`  crossing > ${LIMIT_KM} km of land on the bare 1:10m mask (canals and rivers count as land): ${t.crossingMask}`);
  const slowest = t.slowest.sort((x, y) => y.ms - x.ms).slice(0, 3);
  console.log(`  slowest routes (first joins of their places included): ${slowest.map((w) => `${w.label} ${w.ms.toFixed(0)} ms`).join('; ')}`);
  for (const w of t.worst.sort((x, y) => y.km - x.km).slice(0, 8)) console.log(`    ${w.label}: ${w.km.toFixed(1)} km at ${w.at?.map((x) => x.toFixed(3)).join(',')}`);
};

const pairs = tally();
for (let i = 0; i < Number(values.pairs);) {
  const a = candidates[Math.floor(random() * candidates.length)]!;
  const b = candidates[Math.floor(random() * candidates.length)]!;
  if (a.port_id === b.port_id) continue;
  i++;
  audit(pairs, a, b, `${a.locode ?? a.port_id} ${a.name} → ${b.locode ?? b.port_id} ${b.name}`);
}
report(`${values.pairs} random port pairs (seed ${values.seed})`, pairs);

const coastal = tally();
const coastalPlaces = new Set<string>();
let tries = 0;
for (let i = 0; i < Number(values.coastal);) {
  tries++;
  const lon = random() * 360 - 180;
  const lat = random() * 130 - 60;
  if (land.isLand(lon, lat) || land.coastDistanceKm(lon, lat, 5) === Infinity) continue;
  i++;
  const b = large[Math.floor(random() * large.length)]!;
  coastalPlaces.add(`${lat},${lon}`);
  audit(coastal, { lat, lon }, b, `${lat.toFixed(3)},${lon.toFixed(3)} → ${b.locode ?? b.port_id} ${b.name}`);
}
report(`${values.coastal} random coastal points (${coastalPlaces.size} distinct; at sea within 5 km of the coast, 60° S–70° N; ${tries} draws) to a random large port`, coastal);
console.log(`audit time ${((performance.now() - started) / 1000).toFixed(0)} s`);
