import { iso } from '../../platform/clock.js';
import type { InfraFindingRow } from './infra-repo.js';
import type { LayerObject } from './layer-index.js';
import { sourceById } from './sources.js';
import { findingView } from './views.js';

/**
 * One stored object of the layer as the API shows it: the summary of a listing, the GeoJSON feature, the
 * full object with its findings. Pure functions of the object and its quality flags (the kinds of the
 * findings about it).
 */

export interface ObjectSummary {
  id: string;
  name: string;
  category: string;
  subcategory: string | null;
  status: string;
  country: string | null;
  region: string | null;
  setting: string;
  coast_km: number | null;
  capacity: number | null;
  capacity_unit: string | null;
  location_accuracy: string | null;
  start_year: number | null;
  fsru: boolean | null;
  units: number;
  nearest_port: { port_id: number; name: string; locode: string | null; distance_km: number } | null;
  point: { lon: number; lat: number };
  bbox: [number, number, number, number];
  geometry_type: string;
  url: string | null;
  derived_from: string | null;
  source: string;
  source_key: string;
  attribution: string;
  quality_flags: string[];
  distance_km?: number;
}

/** The kinds of finding about each object, each kind once, in the order of the findings. */
export function qualityFlagsByObject(findings: readonly Pick<InfraFindingRow, 'object_id' | 'kind'>[]): Map<string, string[]> {
  const flags = new Map<string, string[]>();
  for (const f of findings) {
    if (!f.object_id) continue;
    const list = flags.get(f.object_id) ?? [];
    if (!list.includes(f.kind)) list.push(f.kind);
    flags.set(f.object_id, list);
  }
  return flags;
}

export function objectSummary(o: LayerObject, qualityFlags: string[], distance: number | null = null): ObjectSummary {
  const b = o.body;
  return {
    id: o.id,
    name: o.name,
    category: o.category,
    subcategory: o.subcategory,
    status: o.status,
    country: o.country,
    region: o.region,
    setting: b.setting,
    coast_km: b.coast_km,
    capacity: b.capacity,
    capacity_unit: b.capacity_unit,
    location_accuracy: b.location_accuracy,
    start_year: b.start_year,
    fsru: b.fsru,
    units: b.units.length,
    nearest_port: b.nearest_port,
    point: { lon: o.lon, lat: o.lat },
    bbox: b.bbox,
    geometry_type: o.geometry_type,
    url: b.url,
    derived_from: b.derived_from,
    source: o.source_id,
    source_key: o.source_key,
    attribution: sourceById(o.source_id)?.attribution ?? '',
    quality_flags: qualityFlags,
    ...(distance === null ? {} : { distance_km: distance }),
  };
}

/** The object as an RFC 7946 feature: its geometry (or its point) and its summary without point and bbox as properties. */
export function objectFeature(o: LayerObject, qualityFlags: string[], distance: number | null, pointOnly: boolean) {
  const { bbox: _bbox, point: _point, ...properties } = objectSummary(o, qualityFlags, distance);
  return {
    type: 'Feature' as const,
    id: o.id,
    geometry: pointOnly ? { type: 'Point' as const, coordinates: [o.lon, o.lat] as [number, number] } : o.body.geometry,
    properties,
  };
}

/** The whole object (GET /v1/resource-infra/objects/{id}): summary, geometry, units, properties, what derives from it, its findings and provenance. */
export function objectDetail(o: LayerObject, qualityFlags: string[], findings: Parameters<typeof findingView>[0][], derived: string[]) {
  return {
    ...objectSummary(o, qualityFlags),
    geometry: o.body.geometry,
    status_raw: o.body.status_raw,
    unit_list: o.body.units,
    properties: o.body.properties,
    derived: derived,
    findings: findings.map(findingView),
    provenance: { source: o.source_id, source_key: o.source_key, first_run_id: o.first_run_id, last_changed_run_id: o.last_run_id, created_at: iso(o.created_at), updated_at: iso(o.updated_at) },
  };
}

/**
 * A FeatureCollection as text in chunks (docs/decisions/057): the head's fields first, then the features
 * serialised `chunkSize` at a time, so the document is never built whole in memory.
 */
export function* featureCollectionChunks<T>(head: Record<string, unknown>, items: readonly T[], feature: (item: T) => string, chunkSize: number): Generator<string> {
  yield `${JSON.stringify(head).slice(0, -1)},"features":[`;
  for (let i = 0; i < items.length; i += chunkSize) {
    const part = items
      .slice(i, i + chunkSize)
      .map(feature)
      .join(',');
    yield i === 0 ? part : `,${part}`;
  }
  yield ']}';
}
