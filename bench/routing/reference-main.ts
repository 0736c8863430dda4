/**
 * Sea routes against independent references (issue 28, decision 080): the published distances of
 * src/routing/reference-pairs.ts (each with its source) and, for pairs whose great circle stays at sea,
 * the great circle itself. Nothing is judged against the engine's own output.
 * Usage: node dist/bench/routing/reference-main.js
 */
import { distanceNm } from '../../src/geo/distance.js';
import { landIndex } from '../../src/geo/land.js';
import { readPortTableFile } from '../../src/features/ports/port-table-file.js';
import { createRoutesService } from '../../src/features/routes/routes-service.js';
import { lineOverLand } from '../../src/routing/line-land.js';
import { shippedSeaNetwork } from '../../src/routing/network-file.js';
import { OPEN_OCEAN_GC_FACTOR, REFERENCE_MAX_TOLERANCE, REFERENCE_MEDIAN_TOLERANCE, REFERENCE_PAIRS, referenceDeviation, SHORT_SEA_TOLERANCE } from '../../src/routing/reference-pairs.js';
import { interpolate } from '../../src/geo/distance.js';

const ports = readPortTableFile().ports;
const routes = createRoutesService({ ports: () => ports });
const { engine } = shippedSeaNetwork();
const land = landIndex();

/** True when the great circle between the two places stays at sea outside 10 km of each end. */
const greatCircleAtSea = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const d = distanceNm(a.lat, a.lon, b.lat, b.lon) * 1.852;
  if (d < 80) return false;
  const line: [number, number][] = [];
  const n = Math.ceil(d / 20);
  for (let i = 0; i <= n; i++) {
    const f = 10 / d + ((d - 20) / d) * (i / n);
    const p = interpolate(a.lat, a.lon, b.lat, b.lon, f);
    line.push([p.lon, p.lat]);
  }
  return lineOverLand(land, line).overLandKm === 0;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

console.log('| pair | published nm | source | Bosun nm | deviation | great circle nm | Bosun / GC | GC at sea | passages |');
console.log('|---|---|---|---|---|---|---|---|---|');
const deviations: number[] = [];
const failures: string[] = [];
for (const pair of REFERENCE_PAIRS) {
  const a = routes.resolvePlace(pair.from, 'from');
  const b = routes.resolvePlace(pair.to, 'to');
  let distance: number | null = null;
  let passages = '';
  try {
    const route = engine.route([a, b], { excludedMask: engine.passageMask(pair.avoid ? [pair.avoid] : []) });
    distance = route.distanceNm;
    passages = route.passages.map((p) => p.id).join(', ');
  } catch (error) {
    passages = `error: ${(error as Error).message}`;
  }
  const gc = distanceNm(a.lat, a.lon, b.lat, b.lon);
  const atSea = greatCircleAtSea(a, b);
  const deviation = distance === null ? null : referenceDeviation(distance, pair.published_nm);
  if (deviation !== null) deviations.push(Math.abs(deviation));
  const limit = pair.short_sea ? SHORT_SEA_TOLERANCE : REFERENCE_MAX_TOLERANCE;
  if (deviation === null || Math.abs(deviation) > limit) failures.push(`${pair.label}: ${deviation === null ? 'no route' : `${(deviation * 100).toFixed(1)} %`} (limit ${limit * 100} %)`);
  if (distance !== null && atSea && !pair.short_sea && distance / gc > OPEN_OCEAN_GC_FACTOR)
    failures.push(`${pair.label}: ${(distance / gc).toFixed(3)} × the great circle, which stays at sea (limit ${OPEN_OCEAN_GC_FACTOR})`);
  const published = pair.published_nm.min === pair.published_nm.max ? `${pair.published_nm.min}` : `${pair.published_nm.min}–${pair.published_nm.max}`;
  console.log(
    `| ${pair.label} (${pair.from}–${pair.to}${pair.avoid ? `, avoid ${pair.avoid}` : ''}) | ${published} | ${pair.source} | ${distance === null ? '—' : distance.toFixed(1)} | ${deviation === null ? '—' : `${(deviation * 100).toFixed(1)} %`} | ${gc.toFixed(0)} | ${distance === null ? '—' : (distance / gc).toFixed(3)} | ${atSea ? 'yes' : 'no'} | ${passages} |`,
  );
}
const med = median(deviations);
console.log(`\n${REFERENCE_PAIRS.length} pairs: median |deviation| ${(med * 100).toFixed(2)} % (limit ${REFERENCE_MEDIAN_TOLERANCE * 100} %), max ${(Math.max(...deviations) * 100).toFixed(2)} %`);
if (med > REFERENCE_MEDIAN_TOLERANCE) failures.unshift(`median ${(med * 100).toFixed(2)} % beyond ${REFERENCE_MEDIAN_TOLERANCE * 100} %`);
console.log(failures.length === 0 ? 'all references met' : `${failures.length} references not met:\n  ${failures.join('\n  ')}`);
