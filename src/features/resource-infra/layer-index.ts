import Flatbush from 'flatbush';
import { distanceM } from '../../geo/distance.js';
import { vertices } from './classify.js';
import type { InfraObjectRow } from './infra-repo.js';
import type { StoredBody } from './pipeline.js';

/** A stored object with its body parsed, as the queries see it. */
export interface LayerObject extends Omit<InfraObjectRow, 'body'> {
  body: StoredBody;
  /** Length of the stored body JSON (the map profile's size estimate). */
  bytes: number;
}

export interface LayerFilter {
  bbox?: [number, number, number, number];
  near?: { lat: number; lon: number; radiusKm: number };
  categories?: string[];
  statuses?: string[];
  country?: string;
  source?: string;
  setting?: string;
}

/** The whole layer in memory, with a bounding-box index (flatbush) over every object's geometry. */
export interface LayerIndex {
  version: number;
  objects: LayerObject[];
  byId: Map<string, LayerObject>;
  /** Matching objects: by id, or by distance when `near` is given (then with distance_km). */
  query(filter: LayerFilter): Array<{ object: LayerObject; distance_km: number | null }>;
}

export function buildLayerIndex(version: number, rows: InfraObjectRow[]): LayerIndex {
  const objects: LayerObject[] = rows.map((r) => ({ ...r, body: JSON.parse(r.body) as StoredBody, bytes: r.body.length }));
  const index = objects.length ? new Flatbush(objects.length) : null;
  for (const o of objects) index!.add(o.body.bbox[0], o.body.bbox[1], o.body.bbox[2], o.body.bbox[3]);
  index?.finish();
  const byId = new Map(objects.map((o) => [o.id, o]));

  const search = (minX: number, minY: number, maxX: number, maxY: number): number[] => {
    if (!index) return [];
    if (minX <= maxX) return index.search(minX, minY, maxX, maxY);
    return [...index.search(minX, minY, 180, maxY), ...index.search(-180, minY, maxX, maxY)];
  };

  return {
    version,
    objects,
    byId,
    query(filter) {
      let candidates: number[];
      if (filter.near) {
        const { lat, lon, radiusKm } = filter.near;
        const dLat = radiusKm / 111.2;
        const dLon = Math.min(180, radiusKm / (111.2 * Math.max(0.01, Math.cos((lat * Math.PI) / 180))));
        const wrap = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
        candidates = dLon >= 180 ? search(-180, lat - dLat, 180, lat + dLat) : search(wrap(lon - dLon), Math.max(-90, lat - dLat), wrap(lon + dLon), Math.min(90, lat + dLat));
      } else candidates = objects.map((_, i) => i);
      if (filter.bbox) {
        const inBox = new Set(search(...filter.bbox));
        candidates = candidates.filter((i) => inBox.has(i));
      }
      const categories = filter.categories ? new Set(filter.categories) : null;
      const statuses = filter.statuses ? new Set(filter.statuses) : null;
      const country = filter.country?.toLowerCase();
      const out: Array<{ object: LayerObject; distance_km: number | null }> = [];
      for (const i of candidates) {
        const o = objects[i]!;
        if (categories && !categories.has(o.category)) continue;
        if (statuses && !statuses.has(o.status)) continue;
        if (country && (o.country ?? '').toLowerCase() !== country) continue;
        if (filter.source && o.source_id !== filter.source) continue;
        if (filter.setting && o.body.setting !== filter.setting) continue;
        let distance: number | null = null;
        if (filter.near) {
          let best = Infinity;
          for (const [x, y] of vertices(o.body.geometry)) best = Math.min(best, distanceM(filter.near.lat, filter.near.lon, y, x) / 1000);
          if (best > filter.near.radiusKm) continue;
          distance = Math.round(best * 100) / 100;
        }
        out.push({ object: o, distance_km: distance });
      }
      if (filter.near) out.sort((a, b) => a.distance_km! - b.distance_km! || (a.object.id < b.object.id ? -1 : 1));
      else out.sort((a, b) => (a.object.id < b.object.id ? -1 : 1));
      return out;
    },
  };
}
