import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { feature, mesh } from 'topojson-client';
import type { GeometryObject, Topology } from 'topojson-specification';
import { rewindPolygon } from '../../geo/winding.js';

/** Natural Earth 1:50m land and country borders (public domain), via the world-atlas package. */
export const BASEMAP_ATTRIBUTION = 'Natural Earth 1:50m land and borders (public domain), via world-atlas';
/** Two decimals of a degree (≤ 1.1 km): finer than 1:50m data holds, a third of the bytes of full precision. */
const DIGITS = 2;

type Ring = Array<[number, number]>;

export interface Basemap {
  /** {"land": FeatureCollection, "borders": FeatureCollection} as JSON, and gzipped. */
  raw: Buffer;
  gzip: Buffer;
}

const require = createRequire(import.meta.url);
let built: Basemap | null = null;

const q = (x: number) => Math.round(x * 10 ** DIGITS) / 10 ** DIGITS;

/**
 * A ring that crosses the antimeridian and comes back (Chukotka, Fiji, Wrangel Island) is unwrapped
 * past ±180° so that it does not draw a band across the map; a ring that crosses once (Antarctica,
 * round the pole) is left as it is. Consecutive points equal after rounding are dropped.
 */
export function unwrapRing(ring: Ring): Ring {
  let jumps = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i]![0] - ring[i - 1]![0]) > 180) jumps++;
  const out: Ring = [];
  let offset = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon, lat] = ring[i]!;
    if (i > 0 && jumps % 2 === 0) {
      const d = lon - ring[i - 1]![0];
      if (d > 180) offset -= 360;
      else if (d < -180) offset += 360;
    }
    const p: [number, number] = [q(lon + offset), q(lat)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/** Land polygons and country borders as GeoJSON, converted from TopoJSON once per process (first request). */
export function buildBasemap(): Basemap {
  if (built) return built;
  const land = require('world-atlas/land-50m.json') as Topology;
  const countries = require('world-atlas/countries-50m.json') as Topology;
  const landFeatures = feature(land, land.objects.land as GeometryObject) as unknown as { features: Array<{ geometry: { type: string; coordinates: unknown } }> };
  const polygons: Ring[][] = [];
  for (const f of landFeatures.features) {
    const g = f.geometry;
    const list = g.type === 'Polygon' ? [g.coordinates as Ring[]] : (g.coordinates as Ring[][]);
    for (const rings of list) {
      const kept = rings.map(unwrapRing).filter((r) => r.length >= 4);
      // topojson winds exterior rings clockwise; RFC 7946 §3.1.6 wants them counter-clockwise (docs/decisions/091)
      if (kept.length > 0) polygons.push(rewindPolygon(kept));
    }
  }
  const borders = mesh(countries, countries.objects.countries as GeometryObject, (a, b) => a !== b);
  const lines = (borders.coordinates as Ring[]).map((line) => line.map(([lon, lat]) => [q(lon), q(lat)] as [number, number])).filter((l) => l.length >= 2);
  const doc = {
    attribution: BASEMAP_ATTRIBUTION,
    land: { type: 'FeatureCollection', attribution: BASEMAP_ATTRIBUTION, features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: polygons } }] },
    borders: { type: 'FeatureCollection', attribution: BASEMAP_ATTRIBUTION, features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates: lines } }] },
  };
  const json = Buffer.from(JSON.stringify(doc));
  built = { raw: json, gzip: gzipSync(json, { level: 9 }) };
  return built;
}
