/**
 * Great-circle helpers on a spherical Earth. Angles in degrees, distances in metres unless the name
 * says nautical miles. The one place distances are computed (docs/decisions/014).
 */

/** The IUGG mean Earth radius R1 (3440.069 NM). */
export const EARTH_RADIUS_M = 6_371_008.8;
export const METRES_PER_NM = 1852;

export interface LatLon {
  lat: number;
  lon: number;
}

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Longitude wrapped to [-180, 180). */
export function normalizeLon(lon: number): number {
  const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
  return wrapped;
}

/** Haversine distance in metres. */
export function distanceM(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const dLat = (bLat - aLat) * RAD;
  const dLon = (bLon - aLon) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Haversine distance in nautical miles. */
export function distanceNm(aLat: number, aLon: number, bLat: number, bLon: number): number {
  return distanceM(aLat, aLon, bLat, bLon) / METRES_PER_NM;
}

/** The great-circle lengths (nm) of the legs of a path of [lon, lat] points: legs[k] from point k to point k + 1. */
export function pathLegsNm(points: readonly (readonly [number, number])[]): number[] {
  const legs: number[] = [];
  for (let k = 1; k < points.length; k++) legs.push(distanceNm(points[k - 1]![1], points[k - 1]![0], points[k]![1], points[k]![0]));
  return legs;
}

/** The great-circle length (nm) of a path of [lon, lat] points. */
export function pathLengthNm(points: readonly (readonly [number, number])[]): number {
  return pathLegsNm(points).reduce((sum, nm) => sum + nm, 0);
}

/** Initial great-circle bearing from a to b, degrees true in [0, 360). */
export function bearingDeg(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const φ1 = aLat * RAD;
  const φ2 = bLat * RAD;
  const Δλ = (bLon - aLon) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (Math.atan2(y, x) * DEG + 360) % 360;
}

/** The point `distance` metres from a along the initial bearing. */
export function destinationPoint(lat: number, lon: number, bearing: number, distance: number): LatLon {
  const δ = distance / EARTH_RADIUS_M;
  const θ = bearing * RAD;
  const φ1 = lat * RAD;
  const λ1 = lon * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: φ2 * DEG, lon: normalizeLon(λ2 * DEG) };
}

/** The point at `fraction` (0–1) of the great circle from a to b. */
export function interpolate(aLat: number, aLon: number, bLat: number, bLon: number, fraction: number): LatLon {
  const out = { lat: 0, lon: 0 };
  greatCircle(aLat, aLon, bLat, bLon).pointAt(fraction, out);
  return out;
}

/** The great circle from a to b, prepared for many points along it (the ends' trigonometry done once). */
export interface GreatCircle {
  /** Writes into `out` the point at `fraction` (0–1), exactly as `interpolate` gives it; no allocation. */
  pointAt(fraction: number, out: LatLon): void;
}

export function greatCircle(aLat: number, aLon: number, bLat: number, bLon: number): GreatCircle {
  const φ1 = aLat * RAD;
  const λ1 = aLon * RAD;
  const φ2 = bLat * RAD;
  const λ2 = bLon * RAD;
  const δ = distanceM(aLat, aLon, bLat, bLon) / EARTH_RADIUS_M;
  const sinδ = Math.sin(δ);
  const cosφ1 = Math.cos(φ1);
  const cosφ2 = Math.cos(φ2);
  const cosλ1 = Math.cos(λ1);
  const cosλ2 = Math.cos(λ2);
  const sinλ1 = Math.sin(λ1);
  const sinλ2 = Math.sin(λ2);
  const sinφ1 = Math.sin(φ1);
  const sinφ2 = Math.sin(φ2);
  return {
    pointAt(fraction, out) {
      if (δ < 1e-12) {
        out.lat = aLat;
        out.lon = aLon;
        return;
      }
      const A = Math.sin((1 - fraction) * δ) / sinδ;
      const B = Math.sin(fraction * δ) / sinδ;
      const x = A * cosφ1 * cosλ1 + B * cosφ2 * cosλ2;
      const y = A * cosφ1 * sinλ1 + B * cosφ2 * sinλ2;
      const z = A * sinφ1 + B * sinφ2;
      out.lat = Math.atan2(z, Math.sqrt(x * x + y * y)) * DEG;
      out.lon = normalizeLon(Math.atan2(y, x) * DEG);
    },
  };
}

/**
 * Distance in metres from p to the great-circle segment a–b (cross-track when the foot of the
 * perpendicular falls inside the segment, else the nearer end).
 */
export function distanceToSegmentM(p: LatLon, a: LatLon, b: LatLon): number {
  const dAP = distanceM(a.lat, a.lon, p.lat, p.lon);
  const dAB = distanceM(a.lat, a.lon, b.lat, b.lon);
  if (dAB < 1) return dAP;
  const δ13 = dAP / EARTH_RADIUS_M;
  const θ13 = bearingDeg(a.lat, a.lon, p.lat, p.lon) * RAD;
  const θ12 = bearingDeg(a.lat, a.lon, b.lat, b.lon) * RAD;
  const crossTrack = Math.asin(Math.sin(δ13) * Math.sin(θ13 - θ12));
  const alongTrack = Math.acos(Math.max(-1, Math.min(1, Math.cos(δ13) / Math.cos(crossTrack)))) * Math.sign(Math.cos(θ13 - θ12));
  if (alongTrack < 0 || alongTrack * EARTH_RADIUS_M > dAB) {
    return Math.min(dAP, distanceM(b.lat, b.lon, p.lat, p.lon));
  }
  return Math.abs(crossTrack) * EARTH_RADIUS_M;
}

/**
 * Where point p comes closest to the segment a–b, as a fraction of it (0 at a, 1 at b), in a local
 * equirectangular plane whose longitudes are scaled by `k` (the cosine of the latitude): for short segments.
 * Coordinates are [lon, lat] degrees, as x and y.
 */
export function closestFractionOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number, k: number): number {
  const ux = (bx - ax) * k;
  const uy = by - ay;
  const len2 = ux * ux + uy * uy;
  return len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * k * ux + (py - ay) * uy) / len2));
}
