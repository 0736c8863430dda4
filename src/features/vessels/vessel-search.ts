import { inBBox, type BBox } from '../../fleet/geo.js';
import type { VesselState } from '../../fleet/fleet-service.js';
import { shipCategory, type ShipCategory } from '../../fleet/ship-types.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import type { VesselAccess } from './entitlements.js';
import type { SeenFix } from './vessel-views.js';

/**
 * Vessel search: a hit ranks 0 for an exact name, callsign, IMO or MMSI, 1 for a prefix, 2 for a name
 * containing the query; hits sort by rank, then name (unnamed last), then vsl_id. The sort key is the
 * cursor, so a page starts strictly after the last hit of the previous one.
 */

export interface SearchOptions {
  q?: string;
  category?: ShipCategory;
  flag?: string;
  bbox?: BBox;
  limit: number;
  cursor?: string;
}

/** [rank, upper-case name or NAME_LAST, vsl_id] */
export type SearchKey = [number, string, string];
export type Searchable = Pick<VesselState, 'vslId' | 'name' | 'callsign' | 'imo' | 'mmsi'>;

const NAME_LAST = '\u{10FFFF}';
const SEARCH_CURSOR = /^s:(\d{1,2}):([0-9a-f]*):(vsl_[0-9a-f]{16})$/;

/** Upper case, trimmed, an `IMO`/`MMSI` prefix before digits dropped; null for no query. */
export const normalizeQuery = (q: string | undefined): string | null =>
  q === undefined
    ? null
    : q
        .trim()
        .toUpperCase()
        .replace(/^(IMO|MMSI)[: ]?(?=\d)/, '') || null;

/** The best rank of a vessel for a normalized query (0 without one), or null when it does not match. */
export function matchRank(v: Searchable, q: string | null): number | null {
  if (q === null) return 0;
  let best: number | null = null;
  const consider = (rank: number) => {
    if (best === null || rank < best) best = rank;
  };
  const name = v.name?.toUpperCase() ?? null;
  if (name !== null) {
    if (name === q) consider(0);
    else if (name.startsWith(q)) consider(1);
    else if (name.includes(q)) consider(2);
  }
  const callsign = v.callsign?.toUpperCase() ?? null;
  if (callsign !== null) {
    if (callsign === q) consider(0);
    else if (callsign.startsWith(q)) consider(1);
  }
  if (/^\d+$/.test(q)) {
    for (const number of [v.imo, v.mmsi]) {
      if (number === null) continue;
      const digits = String(number);
      if (digits === q) consider(0);
      else if (digits.startsWith(q)) consider(1);
    }
  }
  return best;
}

export const compareKeys = (a: SearchKey, b: SearchKey) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);

export const searchKey = (v: Searchable, q: string | null, rank = matchRank(v, q) ?? 0): SearchKey => [rank, v.name?.toUpperCase() ?? NAME_LAST, v.vslId];

export const encodeSearchCursor = (cursors: CursorCodec, key: SearchKey) => cursors.seal(`s:${key[0]}:${Buffer.from(key[1], 'utf8').toString('hex')}:${key[2]}`);

export function decodeSearchCursor(cursors: CursorCodec, cursor: string): SearchKey {
  const m = cursors.read(cursor, SEARCH_CURSOR, 'query.cursor');
  return [Number(m[1]), Buffer.from(m[2]!, 'hex').toString('utf8'), m[3]!];
}

/** The hits after `after`, in order, at most `limit`; `more` when further hits exist. */
export function rankVessels<V extends Searchable & Pick<VesselState, 'shipType' | 'flag' | 'latest'>>(
  vessels: Iterable<V>,
  options: Omit<SearchOptions, 'cursor' | 'limit'>,
  after: SearchKey | null,
  limit: number,
): { vessels: V[]; lastKey: SearchKey | null; more: boolean } {
  const q = normalizeQuery(options.q);
  const flag = options.flag?.toUpperCase();
  const matches: Array<{ key: SearchKey; vessel: V }> = [];
  for (const v of vessels) {
    if (options.category !== undefined && shipCategory(v.shipType) !== options.category) continue;
    if (flag !== undefined && v.flag !== flag) continue;
    if (options.bbox !== undefined && (v.latest === null || !inBBox(options.bbox, v.latest.lat, v.latest.lon))) continue;
    const rank = matchRank(v, q);
    if (rank === null) continue;
    const key = searchKey(v, q, rank);
    if (after !== null && compareKeys(key, after) <= 0) continue;
    matches.push({ key, vessel: v });
  }
  matches.sort((a, b) => compareKeys(a.key, b.key));
  const page = matches.slice(0, limit);
  return { vessels: page.map((m) => m.vessel), lastKey: page[page.length - 1]?.key ?? null, more: matches.length > limit };
}

export interface VesselSearchDeps {
  vessels: () => Iterable<VesselState>;
  cursors: CursorCodec;
  /** The positions the caller may see, in the order of the vessels given. */
  visibleFixes: (vessels: VesselState[], access: VesselAccess, now: number) => Promise<SeenFix[]>;
}

export function createVesselSearch(deps: VesselSearchDeps) {
  const { cursors } = deps;

  /** Search on identity (and the latest position for bbox). */
  function byIdentity(options: SearchOptions) {
    const after = options.cursor === undefined ? null : decodeSearchCursor(cursors, options.cursor);
    const { vessels, lastKey, more } = rankVessels(deps.vessels(), options, after, options.limit);
    return { vessels, nextCursor: more && lastKey ? encodeSearchCursor(cursors, lastKey) : null };
  }

  /**
   * Search with the positions the caller may see. With the entitlement (or without bbox) the page is
   * cut on identity as before; under the delay a bbox applies to the delayed position, so candidates
   * are checked in order, a few store queries at a time, until the page is full.
   */
  async function visible(options: SearchOptions, access: VesselAccess, now: number) {
    if (options.bbox === undefined || access.live) {
      const { vessels, nextCursor } = byIdentity(options);
      return { vessels, nextCursor, fixes: await deps.visibleFixes(vessels, access, now) };
    }
    const bbox = options.bbox;
    // Every identity match in order; the bbox is checked on what the caller may see.
    const { vessels: candidates } = byIdentity({ ...options, bbox: undefined, limit: Number.MAX_SAFE_INTEGER });
    const vessels: VesselState[] = [];
    const fixes: SeenFix[] = [];
    let more = false;
    const CHUNK = 64;
    outer: for (let i = 0; i < candidates.length; i += CHUNK) {
      const chunk = candidates.slice(i, i + CHUNK).filter((v) => v.latest !== null);
      const seen = await deps.visibleFixes(chunk, access, now);
      for (let j = 0; j < chunk.length; j++) {
        const fix = seen[j]!.fix;
        if (fix === null || !inBBox(bbox, fix.lat, fix.lon)) continue;
        if (vessels.length === options.limit) {
          more = true;
          break outer;
        }
        vessels.push(chunk[j]!);
        fixes.push(seen[j]!);
      }
    }
    const last = vessels[vessels.length - 1];
    const nextCursor = more && last ? encodeSearchCursor(cursors, searchKey(last, normalizeQuery(options.q))) : null;
    return { vessels, nextCursor, fixes };
  }

  return { byIdentity, visible };
}
