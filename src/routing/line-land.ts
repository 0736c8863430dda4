/**
 * How much of a route line lies on land (Natural Earth 1:10m), for the land audit of issue 28 (decision
 * 081): the line is sampled every 100 m along the great circle of each segment (stretches whose whole
 * neighbourhood is open sea are recognised without sampling), and the land it crosses is measured as
 * runs of consecutive samples on land. A point exempted by `water` (a declared waterway) is not land.
 */
import { distanceM, greatCircle, interpolate, normalizeLon } from '../geo/distance.js';
import type { LandIndex } from '../geo/land.js';

export interface LineLand {
  /** Length of the line's samples on land (km). */
  overLandKm: number;
  /** The longest run of consecutive samples on land (km) and where it starts ([lon, lat]). */
  longestRunKm: number;
  runAt: [number, number] | null;
  /** Land at the ends: the run from the first point when it lies on land, the run to the last point when it does (km). */
  startRunKm: number;
  endRunKm: number;
  /** The longest run that neither starts at the first point nor ends at the last: land the line crosses (km). */
  longestInnerRunKm: number;
  innerRunAt: [number, number] | null;
}

const STEP_KM = 0.1;
const OPEN_SEA_TEST_KM = 100;

/**
 * Measures the land a line of [lon, lat] points crosses. With `stopAboveRunKm`, the walk stops as soon as a
 * run of land exceeds it (the answer then only says that: `longestRunKm` above the limit).
 */
export function lineOverLand(land: LandIndex, coordinates: readonly (readonly [number, number])[], water: (lon: number, lat: number) => boolean = () => false, stopAboveRunKm = Infinity): LineLand {
  const result: LineLand = { overLandKm: 0, longestRunKm: 0, runAt: null, startRunKm: 0, endRunKm: 0, longestInnerRunKm: 0, innerRunAt: null };
  let stopped = false;
  let run = 0;
  let runStart: [number, number] | null = null;
  let runFromStart = false;
  const endRun = () => {
    if (run > 0 && !runFromStart && run > result.longestInnerRunKm) {
      result.longestInnerRunKm = run;
      result.innerRunAt = runStart;
    }
    if (runFromStart) result.startRunKm = run;
    run = 0;
    runFromStart = false;
  };
  const onLand = (lon: number, lat: number) => {
    const x = normalizeLon(lon);
    return land.isLand(x, lat) && !water(x, lat);
  };
  const sample = (lon: number, lat: number, lengthKm: number) => {
    if (onLand(lon, lat)) {
      if (run === 0) runStart = [normalizeLon(lon), lat];
      run += lengthKm;
      result.overLandKm += lengthKm;
      if (run > result.longestRunKm) {
        result.longestRunKm = run;
        result.runAt = runStart;
        stopped = run > stopAboveRunKm;
      }
    } else {
      endRun();
    }
  };
  const segment = (a: readonly [number, number], b: readonly [number, number]) => {
    const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
    if (lengthKm === 0) return;
    if (lengthKm > OPEN_SEA_TEST_KM) {
      const m = interpolate(a[1], a[0], b[1], b[0], 0.5);
      segment(a, [m.lon, m.lat]);
      if (!stopped) segment([m.lon, m.lat], b);
      return;
    }
    const arc = greatCircle(a[1], a[0], b[1], b[0]);
    const p = { lat: 0, lon: 0 };
    arc.pointAt(0.5, p);
    if (!land.isLand(normalizeLon(p.lon), p.lat) && land.coastDistanceKm(normalizeLon(p.lon), p.lat, lengthKm / 2 + 0.1) === Infinity) {
      endRun();
      return;
    }
    const n = Math.max(1, Math.ceil(lengthKm / STEP_KM));
    for (let i = 1; i <= n && !stopped; i++) {
      arc.pointAt(i / n, p);
      sample(p.lon, p.lat, lengthKm / n);
    }
  };
  const first = coordinates[0];
  if (first !== undefined && onLand(first[0], first[1])) {
    run = 1e-9;
    runStart = [normalizeLon(first[0]), first[1]];
    runFromStart = true;
  }
  for (let i = 1; i < coordinates.length && !stopped; i++) segment(coordinates[i - 1]!, coordinates[i]!);
  if (stopped) return result;
  if (run > 0) {
    // the line ends on land: its last run is land at the end, not land crossed (unless it also started the line)
    if (runFromStart) result.startRunKm = run;
    result.endRunKm = run;
  } else endRun();
  return result;
}
