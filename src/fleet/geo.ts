const EARTH_RADIUS_NM = 3440.065;
const RAD = Math.PI / 180;

/** Great-circle distance in nautical miles. */
export function distanceNm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface BBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

/** Inside the box, edges included; a box with minLon > maxLon crosses the antimeridian. */
export function inBBox(box: BBox, lat: number, lon: number): boolean {
  if (lat < box.minLat || lat > box.maxLat) return false;
  return box.minLon <= box.maxLon ? lon >= box.minLon && lon <= box.maxLon : lon >= box.minLon || lon <= box.maxLon;
}
