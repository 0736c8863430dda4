/** Route geometry as GeoJSON (RFC 7946). */

export type RouteGeometry = { type: 'LineString'; coordinates: [number, number][] } | { type: 'MultiLineString'; coordinates: [number, number][][] };

const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon);

/**
 * Unwrapped [lon, lat] coordinates (continuous longitudes, as the engine returns them) as a GeoJSON
 * geometry: a LineString, or, when the route crosses the antimeridian, a MultiLineString cut at ±180°
 * (RFC 7946 §3.1.9) with the crossing latitude interpolated.
 */
export function toGeoJsonGeometry(coords: readonly [number, number][]): RouteGeometry {
  const parts: [number, number][][] = [];
  let part: [number, number][] = [];
  const add = (lon: number, lat: number) => {
    const last = part[part.length - 1];
    if (last === undefined || last[0] !== lon || last[1] !== lat) part.push([lon, lat]);
  };
  const worldOf = (lon: number) => Math.floor((lon + 180) / 360);
  for (let i = 0; i < coords.length; i++) {
    const [lon, lat] = coords[i]!;
    if (i > 0) {
      const [pLon, pLat] = coords[i - 1]!;
      const wp = worldOf(pLon);
      const wq = worldOf(lon);
      if (wp !== wq) {
        const boundary = 360 * Math.max(wp, wq) - 180;
        const t = (boundary - pLon) / (lon - pLon);
        const cLat = pLat + t * (lat - pLat);
        const eastward = wq > wp;
        add(eastward ? 180 : -180, cLat);
        if (part.length >= 2) parts.push(part);
        part = [[eastward ? -180 : 180, cLat]];
        if (t === 1) continue;
      }
    }
    add(wrap(lon), lat);
  }
  if (part.length >= 2) parts.push(part);
  if (parts.length <= 1) return { type: 'LineString', coordinates: parts[0] ?? coords.map(([lon, lat]) => [wrap(lon), lat]) };
  return { type: 'MultiLineString', coordinates: parts };
}
