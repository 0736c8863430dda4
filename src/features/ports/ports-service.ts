import { createHash } from 'node:crypto';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../http/errors.js';
import { createPortSearchIndex, type PortHit, type PortQuery, type PortSearchIndex } from './port-search.js';
import { readPortTableFile } from './port-table-file.js';
import { NEAR_RADIUS_DEFAULT_KM } from './schemas.js';

export interface PortsSearchOptions {
  q?: string;
  name?: string;
  locode?: string;
  country?: string;
  near?: string;
  radius_km?: number;
  limit: number;
  cursor?: string;
}

const PAGE_CURSOR = /^ps:(\d{1,7}):([0-9a-f]{16})$/;

function parseNear(text: string): { lat: number; lon: number } {
  const parts = text.split(',').map((p) => p.trim());
  const [lat, lon] = parts.map(Number) as [number, number];
  if (parts.length !== 2 || parts.some((p) => p === '') || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new AppError('invalid_request', 'near must be lat,lon in decimal degrees (latitude -90..90, longitude -180..180)', { field: 'query.near' });
  }
  return { lat, lon };
}

function view(hit: PortHit) {
  const { port } = hit;
  return {
    port_id: port.port_id,
    name: port.name,
    alternate_names: port.alternate_names,
    country: port.country,
    locode: port.locode,
    lat: port.lat,
    lon: port.lon,
    harbor_size: port.harbor_size,
    harbor_type: port.harbor_type,
    sources: port.sources,
    anchorage_points: port.anchorages.length,
    flags: port.flags,
    conflict: port.conflict ?? null,
    match: { kind: hit.match, score: Math.round(hit.score * 1000) / 1000, matched_name: hit.matched_name },
    distance_km: hit.distance_km,
  };
}

/** The port table and its search (docs/decisions/018); the table is read from the shipped file on first use. */
export function createPortsService(deps: { cursors: CursorCodec; load?: () => ReturnType<typeof readPortTableFile> }) {
  let index: PortSearchIndex | null = null;
  let attribution: string[] = [];
  const table = () => {
    if (!index) {
      const file = (deps.load ?? readPortTableFile)();
      index = createPortSearchIndex(file.ports);
      attribution = file.attribution;
    }
    return index;
  };

  return {
    search(options: PortsSearchOptions) {
      const text = options.q ?? options.name;
      if (text === undefined && options.locode === undefined && options.country === undefined && options.near === undefined) {
        throw new AppError('invalid_request', 'give q (or name), locode, country or near', { field: 'query.q' });
      }
      if (options.radius_km !== undefined && options.near === undefined) throw new AppError('invalid_request', 'radius_km needs near', { field: 'query.radius_km' });
      const query: PortQuery = {
        ...(text !== undefined ? { q: text } : {}),
        ...(options.locode !== undefined ? { locode: options.locode } : {}),
        ...(options.country !== undefined ? { country: options.country } : {}),
        ...(options.near !== undefined ? { near: { ...parseNear(options.near), radiusKm: options.radius_km ?? NEAR_RADIUS_DEFAULT_KM } } : {}),
      };
      // a cursor belongs to one query: its hash travels in the signed cursor
      const queryHash = createHash('sha256').update(JSON.stringify(query)).digest('hex').slice(0, 16);
      let offset = 0;
      if (options.cursor !== undefined) {
        const [, at, hash] = deps.cursors.read(options.cursor, PAGE_CURSOR, 'query.cursor');
        if (hash !== queryHash) throw new AppError('cursor_invalid', 'this cursor belongs to another query; start again without cursor', { field: 'query.cursor' });
        offset = Number(at);
      }
      const hits = table().search(query);
      const page = hits.slice(offset, offset + options.limit);
      const next = offset + page.length < hits.length ? deps.cursors.seal(`ps:${offset + page.length}:${queryHash}`) : null;
      return { data: { items: page.map(view), total: hits.length, next_cursor: next, attribution }, freshnessSeconds: 0, qualityFlags: [] as string[] };
    },
  };
}

export type PortsService = ReturnType<typeof createPortsService>;
