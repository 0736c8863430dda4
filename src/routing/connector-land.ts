/**
 * The land a connector crosses (decision 082): the straight join from a place to the network, sampled
 * every 200 m along its great circle against Natural Earth 1:10m land outside the declared waterways.
 */
import { destinationPoint, distanceM, greatCircle, normalizeLon } from '../geo/distance.js';
import type { LandIndex } from '../geo/land.js';
import { waterwayAt } from './waterways.js';

/** A connector crossing no more land than this (km) counts as at sea (the coast drawn at 1:10m). */
export const CONNECTOR_LAND_TOLERANCE_KM = 0.5;
const STEP_KM = 0.2;

/** Km of the connector from a to b ([lon, lat]) on land; the count stops once it exceeds `stopAboveKm`. */
export function connectorOverLandKm(land: LandIndex, a: readonly [number, number], b: readonly [number, number], stopAboveKm: number): number {
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  const n = Math.max(1, Math.ceil(lengthKm / STEP_KM));
  const step = lengthKm / n;
  let over = 0;
  const path = greatCircle(a[1], a[0], b[1], b[0]);
  const p = { lat: 0, lon: 0 };
  for (let i = 0; i <= n; i++) {
    path.pointAt(i / n, p);
    const lon = normalizeLon(p.lon);
    if (land.isLand(lon, p.lat) && waterwayAt(lon, p.lat) === null) {
      over += i === 0 || i === n ? step / 2 : step;
      if (over > stopAboveKm) return over;
    }
  }
  return over;
}

/** Deeper inland than this (km), a position given as lat,lon is refused with the nearest coastal point (decision 082). */
export const POSITION_INLAND_REFUSED_KM = 1;

/** The point at sea nearest to a point on land (searched just beyond its distance to the coast), or null beyond `maxKm`. */
export function nearestCoastalPoint(land: LandIndex, lon: number, lat: number, maxKm = 2000): { lat: number; lon: number; distanceKm: number } | null {
  const d = land.coastDistanceKm(lon, lat, maxKm);
  if (!Number.isFinite(d)) return null;
  for (const extra of [0.2, 1, 3, 10]) {
    let best: { lat: number; lon: number } | null = null;
    let bestKm = Infinity;
    for (let bearing = 0; bearing < 360; bearing += 0.5) {
      const p = destinationPoint(lat, lon, bearing, (d + extra) * 1000);
      if (land.isLand(p.lon, p.lat) || waterwayAt(p.lon, p.lat) !== null) continue;
      const km = distanceM(lat, lon, p.lat, p.lon) / 1000;
      if (km < bestKm) {
        bestKm = km;
        best = p;
      }
    }
    if (best !== null) return { lat: best.lat, lon: best.lon, distanceKm: bestKm };
  }
  return null;
}
