import Flatbush from 'flatbush';
import { distanceM } from '../../geo/distance.js';
import type { LandIndex } from '../../geo/land.js';
import type { InfraGeometry } from './parsers.js';

export const STATUSES = ['operating', 'construction', 'proposed', 'shelved', 'cancelled', 'inactive', 'retired', 'unknown'] as const;
export type InfraStatus = (typeof STATUSES)[number];

const STATUS_OF: Record<string, InfraStatus> = {
  operating: 'operating',
  production: 'operating',
  'test site': 'operating',
  construction: 'construction',
  in_development: 'construction',
  announced: 'proposed',
  proposed: 'proposed',
  'pre-permit': 'proposed',
  permitted: 'proposed',
  approved: 'proposed',
  planned: 'proposed',
  'pre-construction': 'proposed',
  discovered: 'proposed',
  exploration: 'proposed',
  shelved: 'shelved',
  cancelled: 'cancelled',
  mothballed: 'inactive',
  idle: 'inactive',
  shut_in: 'inactive',
  retired: 'retired',
  decommissioned: 'retired',
  abandoned: 'retired',
  dismantled: 'retired',
};

/** The layer's status for a source status (PROVENANCE.md normalisation); blank, UGS and anything unknown: unknown. */
export const normaliseStatus = (raw: string): InfraStatus => STATUS_OF[raw.trim().toLowerCase()] ?? 'unknown';

/** Order in which an aggregated object takes its units' most advanced status. */
const ADVANCE: readonly InfraStatus[] = ['operating', 'construction', 'proposed', 'inactive', 'shelved', 'retired', 'cancelled', 'unknown'];
export const mostAdvanced = (statuses: InfraStatus[]): InfraStatus => ADVANCE.find((s) => statuses.includes(s)) ?? 'unknown';

export type Setting = 'offshore' | 'coastal' | 'onshore';
/** A point on land within this distance of the coast is coastal. */
export const COASTAL_KM = 10;

export function* vertices(g: InfraGeometry): Generator<[number, number]> {
  switch (g.type) {
    case 'Point':
      yield g.coordinates;
      return;
    case 'LineString':
      yield* g.coordinates;
      return;
    case 'MultiLineString':
    case 'Polygon':
      for (const part of g.coordinates) yield* part;
      return;
    case 'MultiPolygon':
      for (const polygon of g.coordinates) for (const ring of polygon) yield* ring;
  }
}

export function bboxOf(g: InfraGeometry): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of vertices(g)) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export const vertexCount = (g: InfraGeometry) => {
  let n = 0;
  for (const _ of vertices(g)) n++;
  return n;
};

/** A point that stands for the geometry: the point itself, a line's middle vertex, a polygon's outer-ring vertex mean. */
export function representativePoint(g: InfraGeometry): [number, number] {
  if (g.type === 'Point') return g.coordinates;
  if (g.type === 'LineString') return g.coordinates[Math.floor(g.coordinates.length / 2)]!;
  if (g.type === 'MultiLineString') {
    const longest = g.coordinates.reduce((a, b) => (b.length > a.length ? b : a));
    return longest[Math.floor(longest.length / 2)]!;
  }
  const ring = g.type === 'Polygon' ? g.coordinates[0]! : g.coordinates.reduce((a, b) => (b[0]!.length > a[0]!.length ? b : a))[0]!;
  const points = ring.length > 1 ? ring.slice(0, -1) : ring;
  const lon = points.reduce((s, p) => s + p[0], 0) / points.length;
  const lat = points.reduce((s, p) => s + p[1], 0) / points.length;
  return [round6(lon), round6(lat)];
}

export const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

export interface Classification {
  setting: Setting;
  /** km from the point to the coast, negative at sea; null beyond the search radius. */
  coast_km: number | null;
  on_land: boolean;
}

const COAST_SEARCH_KM = 50;

export function classifyPoint(land: LandIndex, lon: number, lat: number): Classification {
  const onLand = land.isLand(lon, lat);
  const distance = land.coastDistanceKm(lon, lat, COAST_SEARCH_KM);
  const km = Number.isFinite(distance) ? Math.round(distance * 100) / 100 : null;
  const signed = km === null ? null : onLand ? km : -km;
  return { setting: !onLand ? 'offshore' : km !== null && km <= COASTAL_KM ? 'coastal' : 'onshore', coast_km: signed, on_land: onLand };
}

/** Classifies a line or polygon by its vertices: all at sea offshore, all on land onshore/coastal by the representative point, mixed coastal. */
export function classifyGeometry(land: LandIndex, g: InfraGeometry): Classification & { sea_vertices: number; land_vertices: number } {
  const [lon, lat] = representativePoint(g);
  const base = classifyPoint(land, lon, lat);
  if (g.type === 'Point') return { ...base, sea_vertices: base.on_land ? 0 : 1, land_vertices: base.on_land ? 1 : 0 };
  let sea = 0;
  let onLand = 0;
  for (const [x, y] of vertices(g)) {
    if (land.isLand(x, y)) onLand++;
    else sea++;
  }
  const setting: Setting = onLand === 0 ? 'offshore' : sea === 0 ? (base.setting === 'offshore' ? 'coastal' : base.setting) : 'coastal';
  return { ...base, setting, sea_vertices: sea, land_vertices: onLand };
}

/** Where a line passes between land and sea: at each crossing, its vertex on the land side (the landfall). */
export function landfalls(land: LandIndex, g: InfraGeometry): Array<[number, number]> {
  const lines = g.type === 'LineString' ? [g.coordinates] : g.type === 'MultiLineString' ? g.coordinates : [];
  const out: Array<[number, number]> = [];
  for (const line of lines) {
    let previous: { vertex: [number, number]; onLand: boolean } | null = null;
    for (const vertex of line) {
      const onLand = land.isLand(vertex[0], vertex[1]);
      if (previous && onLand !== previous.onLand) out.push(onLand ? vertex : previous.vertex);
      previous = { vertex, onLand };
    }
  }
  return out;
}

export interface PortPoint {
  port_id: number;
  name: string;
  locode: string | null;
  lat: number;
  lon: number;
}

export interface NearestPort {
  port_id: number;
  name: string;
  locode: string | null;
  distance_km: number;
}

/** Nearest port of the ports table: a few nearest by index in degree space, then the great-circle nearest of them. */
export function nearestPortFinder(ports: readonly PortPoint[]): (lon: number, lat: number) => NearestPort | null {
  if (ports.length === 0) return () => null;
  const index = new Flatbush(ports.length);
  for (const p of ports) index.add(p.lon, p.lat, p.lon, p.lat);
  index.finish();
  return (lon, lat) => {
    let best: NearestPort | null = null;
    for (const i of index.neighbors(lon, lat, 8)) {
      const p = ports[i]!;
      const km = distanceM(lat, lon, p.lat, p.lon) / 1000;
      if (!best || km < best.distance_km) best = { port_id: p.port_id, name: p.name, locode: p.locode, distance_km: Math.round(km * 100) / 100 };
    }
    return best;
  };
}
