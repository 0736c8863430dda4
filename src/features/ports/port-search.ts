import { distanceM, EARTH_RADIUS_M } from '../../geo/distance.js';
import { nameKey, type PortRecord } from './port-table.js';
import { editDistance } from '../../platform/edit-distance.js';

/**
 * Port search over the whole table, in memory (docs/decisions/018): names compared without
 * diacritics, case or punctuation, alternate names included, and one or two typos forgiven
 * ("Rotterdm" finds Rotterdam). Candidates for a typo come from a trigram index, so a query
 * looks at a few hundred names, not at every port.
 */
export interface PortQuery {
  /** Free text: a port name, an alternate name or a LOCODE. */
  q?: string;
  locode?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  near?: { lat: number; lon: number; radiusKm: number };
}

export type MatchKind = 'locode' | 'exact' | 'prefix' | 'contains' | 'typo' | 'near' | 'filter';

export interface PortHit {
  port: PortRecord;
  /** 0–1: how well the text matched (1 for an exact name or LOCODE, or when no text was given). */
  score: number;
  match: MatchKind;
  /** The name or alternate name that matched. */
  matched_name: string | null;
  distance_km: number | null;
}

const SIZE_RANK: Record<string, number> = { large: 4, medium: 3, small: 2, very_small: 1 };

interface NameEntry {
  port: PortRecord;
  name: string;
  key: string;
}

function trigrams(key: string): Set<string> {
  const padded = `  ${key} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/** Typos forgiven for a query of this many characters. */
const typoBudget = (length: number) => (length < 4 ? 0 : length < 8 ? 1 : 2);

export interface PortSearchIndex {
  /** Every hit for the query, best first. */
  search(query: PortQuery): PortHit[];
  byId(portId: number): PortRecord | undefined;
  size(): number;
}

const RAD = Math.PI / 180;

/**
 * Ports in 1° cells, for searches near a point without text: the cells a circle can reach are
 * bounded exactly (no port further than the radius lies outside them), so the ports in them,
 * filtered by distance, are the brute-force answer.
 */
class CellGrid {
  private readonly cells = new Map<number, PortRecord[]>();
  constructor(ports: readonly PortRecord[]) {
    for (const port of ports) {
      const key = CellGrid.key(Math.floor(port.lat), Math.floor(port.lon));
      const cell = this.cells.get(key);
      if (cell) cell.push(port);
      else this.cells.set(key, [port]);
    }
  }

  /** Cell rows -90..90 (a port at 90° sits in row 90), columns -180..180. */
  private static key(row: number, column: number): number {
    return (row + 90) * 361 + (column + 180);
  }

  /** Every port within `radiusKm` of the point, and possibly some further ones. */
  around(lat: number, lon: number, radiusKm: number): PortRecord[] {
    const angle = (radiusKm * 1000) / EARTH_RADIUS_M;
    // a point within the radius differs from the centre by at most the angle in latitude; in
    // longitude by asin(sin(angle)/cos(lat)) unless the circle reaches over a pole (then any)
    const dLat = angle / RAD + 1e-6;
    const south = lat - dLat;
    const north = lat + dLat;
    const sinRatio = Math.sin(Math.min(angle, Math.PI / 2)) / Math.cos(lat * RAD);
    const allLongitudes = angle >= Math.PI / 2 || north >= 90 || south <= -90 || sinRatio >= 1;
    const dLon = allLongitudes ? 180 : Math.asin(sinRatio) / RAD + 1e-6;
    const rows = [Math.max(-90, Math.floor(south)), Math.min(90, Math.floor(north))] as const;
    const out: PortRecord[] = [];
    const columns = new Set<number>();
    if (allLongitudes || dLon >= 180) for (let c = -180; c <= 180; c++) columns.add(c);
    else {
      const west = Math.floor(lon - dLon);
      const east = Math.floor(lon + dLon);
      for (let c = west; c <= east; c++) {
        const wrapped = ((((c + 180) % 360) + 360) % 360) - 180;
        columns.add(wrapped);
        // a port at exactly 180° sits in column 180, the twin of column -180
        if (wrapped === -180) columns.add(180);
      }
    }
    for (let row = rows[0]; row <= rows[1]; row++) for (const column of columns) for (const port of this.cells.get(CellGrid.key(row, column)) ?? []) out.push(port);
    return out;
  }
}

export function createPortSearchIndex(ports: readonly PortRecord[]): PortSearchIndex {
  const entries: NameEntry[] = [];
  const grid = new CellGrid(ports);
  const byCountry = new Map<string, PortRecord[]>();
  for (const port of ports) {
    if (port.country === null) continue;
    const list = byCountry.get(port.country);
    if (list) list.push(port);
    else byCountry.set(port.country, [port]);
  }
  const byTrigram = new Map<string, number[]>();
  const byLocode = new Map<string, PortRecord[]>();
  const byId = new Map<number, PortRecord>();
  for (const port of ports) {
    byId.set(port.port_id, port);
    if (port.locode) byLocode.set(port.locode, [...(byLocode.get(port.locode) ?? []), port]);
    for (const name of [port.name, ...port.alternate_names]) {
      const key = nameKey(name);
      if (key === '') continue;
      const index = entries.push({ port, name, key }) - 1;
      for (const gram of trigrams(key)) {
        const list = byTrigram.get(gram);
        if (list) list.push(index);
        else byTrigram.set(gram, [index]);
      }
    }
  }

  function textMatches(text: string): Map<PortRecord, Omit<PortHit, 'distance_km'>> {
    const best = new Map<PortRecord, Omit<PortHit, 'distance_km'>>();
    const offer = (hit: Omit<PortHit, 'distance_km'>) => {
      const current = best.get(hit.port);
      if (!current || hit.score > current.score) best.set(hit.port, hit);
    };
    const code = text.replace(/\s+/g, '').toUpperCase();
    for (const port of byLocode.get(code) ?? []) offer({ port, score: 1, match: 'locode', matched_name: null });
    const key = nameKey(text);
    if (key === '') return best;
    // Candidates share trigrams with the query; a name within the typo budget shares at least
    // (trigrams − 4 × typos) of them (an adjacent transposition, one typo, can break four).
    const grams = trigrams(key);
    const shared = new Map<number, number>();
    for (const gram of grams) for (const index of byTrigram.get(gram) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
    const budget = typoBudget(key.length);
    const needed = Math.max(1, grams.size - 4 * budget);
    for (const [index, count] of shared) {
      const entry = entries[index]!;
      if (entry.key === key) offer({ port: entry.port, score: 1, match: 'exact', matched_name: entry.name });
      else if (entry.key.startsWith(key)) offer({ port: entry.port, score: 0.85 + 0.1 * (key.length / entry.key.length), match: 'prefix', matched_name: entry.name });
      else if (key.length >= 4 && entry.key.includes(key)) offer({ port: entry.port, score: 0.7 + 0.1 * (key.length / entry.key.length), match: 'contains', matched_name: entry.name });
      else if (count >= needed && budget > 0) {
        const distance = editDistance(key, entry.key, budget);
        if (distance <= budget) offer({ port: entry.port, score: 0.75 - 0.15 * distance, match: 'typo', matched_name: entry.name });
        else if (entry.key.length > key.length) {
          // a typo in the first part of a longer name ("Rotterdm Europoort")
          const head = editDistance(key, entry.key.slice(0, key.length), budget);
          if (head <= budget) offer({ port: entry.port, score: 0.6 - 0.1 * head, match: 'typo', matched_name: entry.name });
        }
      }
    }
    return best;
  }

  return {
    search(query) {
      let candidates: Array<Omit<PortHit, 'distance_km'>>;
      if (query.q !== undefined && query.q.trim() !== '') candidates = [...textMatches(query.q).values()];
      else if (query.locode !== undefined)
        candidates = (byLocode.get(query.locode.replace(/\s+/g, '').toUpperCase()) ?? []).map((port) => ({ port, score: 1, match: 'locode' as const, matched_name: null }));
      else {
        // no text: only the ports a filter can keep (the grid's cells near the point, or the country's ports)
        const pool = query.near ? grid.around(query.near.lat, query.near.lon, query.near.radiusKm) : query.country !== undefined ? (byCountry.get(query.country.toUpperCase()) ?? []) : ports;
        candidates = pool.map((port) => ({ port, score: 1, match: query.near ? ('near' as const) : ('filter' as const), matched_name: null }));
      }

      const locode = query.locode?.replace(/\s+/g, '').toUpperCase();
      const country = query.country?.toUpperCase();
      const hits: PortHit[] = [];
      for (const candidate of candidates) {
        const { port } = candidate;
        if (locode !== undefined && port.locode !== locode) continue;
        if (country !== undefined && port.country !== country) continue;
        let distanceKm: number | null = null;
        if (query.near) {
          distanceKm = distanceM(query.near.lat, query.near.lon, port.lat, port.lon) / 1000;
          if (distanceKm > query.near.radiusKm) continue;
          distanceKm = Math.round(distanceKm * 10) / 10;
        }
        hits.push({ ...candidate, distance_km: distanceKm });
      }
      return hits.sort(
        (a, b) =>
          b.score - a.score ||
          (query.near ? a.distance_km! - b.distance_km! : 0) ||
          (SIZE_RANK[b.port.harbor_size ?? ''] ?? 0) - (SIZE_RANK[a.port.harbor_size ?? ''] ?? 0) ||
          b.port.sources.length - a.port.sources.length ||
          a.port.port_id - b.port.port_id,
      );
    },
    byId: (portId) => byId.get(portId),
    size: () => ports.length,
  };
}
