import Flatbush from 'flatbush';
import { clipRing, ringBox, type Box, type Ring } from '../../geo/clip.js';
import { readLandPolygons } from '../../geo/land.js';
import { rewindPolygon } from '../../geo/winding.js';

/** Natural Earth 1:10m land (public domain), via the world-atlas package: the coastline at harbour zoom. */
export const COAST_DETAIL_ATTRIBUTION = 'Natural Earth 1:10m land (public domain), via world-atlas';

/**
 * The map asks for the detailed coast from this zoom on, for boxes on a grid of GRID_DEG degrees (so
 * that neighbouring views share answers) no wider or taller than MAX_SPAN_DEG.
 */
export const COAST_DETAIL = { minZoom: 7, gridDeg: 2, maxSpanDeg: 24 } as const;
/** Four decimals of a degree (≤ 11 m): as fine as 1:10m data holds. */
const DIGITS = 4;
const q = (x: number) => Math.round(x * 10 ** DIGITS) / 10 ** DIGITS;

interface LandPolygons {
  index: Flatbush;
  polygons: Ring[][];
}

let loaded: LandPolygons | null = null;

/** The 1:10m land polygons and an index of their boxes, read on the first request (about a second). */
function landPolygons(): LandPolygons {
  if (loaded) return loaded;
  const polygons = readLandPolygons().filter((rings) => rings.length > 0 && rings[0]!.length >= 4);
  const index = new Flatbush(polygons.length);
  for (const rings of polygons) {
    const b = ringBox(rings[0]!);
    index.add(b.minLon, b.minLat, b.maxLon, b.maxLat);
  }
  index.finish();
  loaded = { index, polygons };
  return loaded;
}

/** Why a box is refused, or null when it is one the map may ask for. */
export function coastBoxProblem(box: Box): string | null {
  const values = [box.minLon, box.minLat, box.maxLon, box.maxLat];
  if (values.some((v) => !Number.isFinite(v))) return 'bbox must be four numbers: minLon,minLat,maxLon,maxLat';
  if (box.minLon < -180 || box.maxLon > 180 || box.minLat < -90 || box.maxLat > 90) return 'bbox must lie within -180..180 and -90..90';
  if (box.minLon >= box.maxLon || box.minLat >= box.maxLat) return 'bbox must have minLon < maxLon and minLat < maxLat (a box across the antimeridian is asked for as two)';
  if (box.maxLon - box.minLon > COAST_DETAIL.maxSpanDeg || box.maxLat - box.minLat > COAST_DETAIL.maxSpanDeg)
    return `bbox may span at most ${COAST_DETAIL.maxSpanDeg}° each way (the detailed coast is for close zoom)`;
  return null;
}

/** The 1:10m land inside a box, clipped to it, as one RFC 7946 MultiPolygon feature. */
export function coastDetail(box: Box) {
  const { index, polygons } = landPolygons();
  const coordinates: Ring[][] = [];
  for (const id of index.search(box.minLon, box.minLat, box.maxLon, box.maxLat)) {
    const [exterior, ...holes] = polygons[id]!;
    const outer = clipRing(exterior!, box);
    if (!outer) continue;
    const kept = [outer, ...holes.map((h) => clipRing(h, box)).filter((h): h is Ring => h !== null)].map((ring) => dedupe(ring.map(([lon, lat]) => [q(lon), q(lat)] as [number, number])));
    if (kept[0]!.length >= 4) coordinates.push(rewindPolygon(kept.filter((r) => r.length >= 4)));
  }
  return {
    type: 'FeatureCollection' as const,
    bbox: [box.minLon, box.minLat, box.maxLon, box.maxLat],
    attribution: COAST_DETAIL_ATTRIBUTION,
    features: [{ type: 'Feature' as const, properties: {}, geometry: { type: 'MultiPolygon' as const, coordinates } }],
  };
}

/** Consecutive positions equal after rounding dropped (the ring stays closed). */
function dedupe(ring: Ring): Ring {
  const out: Ring = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}
