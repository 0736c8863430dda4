import { AppError } from '../../platform/errors.js';
import { STATUSES } from './classify.js';
import type { LayerFilter } from './layer-index.js';
import { INFRA_CATEGORIES } from './sources.js';
import { NEAR_RADIUS_DEFAULT_KM } from './schemas.js';

export interface FilterQuery {
  bbox?: string;
  near?: string;
  radius_km?: number;
  category?: string;
  status?: string;
  country?: string;
  source?: string;
  setting?: string;
}

const numbers = (text: string, count: number, field: string) => {
  const parts = text.split(',').map((p) => p.trim());
  const values = parts.map(Number);
  if (parts.length !== count || parts.some((p) => p === '') || values.some((v) => !Number.isFinite(v)))
    throw new AppError('invalid_request', `${field} takes ${count} comma-separated numbers`, { field });
  return values;
};

const list = (text: string, allowed: readonly string[], field: string) => {
  const values = text.split(',').map((v) => v.trim());
  const unknown = values.filter((v) => !allowed.includes(v));
  if (unknown.length) throw new AppError('invalid_request', `unknown ${field} ${unknown.join(', ')}; use ${allowed.join(', ')}`, { field });
  return values;
};

/** The layer filter of a query, invalid_request naming the field for anything malformed. */
export function parseFilter(q: FilterQuery): LayerFilter {
  const filter: LayerFilter = {};
  if (q.bbox !== undefined) {
    const [minLon, minLat, maxLon, maxLat] = numbers(q.bbox, 4, 'bbox') as [number, number, number, number];
    if ([minLon, maxLon].some((x) => x < -180 || x > 180) || [minLat, maxLat].some((y) => y < -90 || y > 90) || minLat > maxLat)
      throw new AppError('invalid_request', 'bbox is minLon,minLat,maxLon,maxLat within -180..180 and -90..90, minLat <= maxLat', { field: 'bbox' });
    filter.bbox = [minLon, minLat, maxLon, maxLat];
  }
  if (q.near !== undefined) {
    const [lat, lon] = numbers(q.near, 2, 'near') as [number, number];
    if (Math.abs(lat) > 90 || Math.abs(lon) > 180) throw new AppError('invalid_request', 'near is lat,lon within -90..90 and -180..180', { field: 'near' });
    filter.near = { lat, lon, radiusKm: q.radius_km ?? NEAR_RADIUS_DEFAULT_KM };
  } else if (q.radius_km !== undefined) throw new AppError('invalid_request', 'radius_km needs near', { field: 'radius_km' });
  if (q.category !== undefined)
    filter.categories = list(
      q.category,
      INFRA_CATEGORIES.map((c) => c.id),
      'category',
    );
  if (q.status !== undefined) filter.statuses = list(q.status, STATUSES, 'status');
  if (q.country !== undefined) filter.country = q.country.trim();
  if (q.source !== undefined) filter.source = q.source;
  if (q.setting !== undefined) filter.setting = q.setting;
  return filter;
}
