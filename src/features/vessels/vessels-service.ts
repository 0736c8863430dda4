import { NAVIGATION_STATUS, shipTypeText } from '../../ais/legends.js';
import type { Bus } from '../../bus/bus.js';
import { DAY, HOUR, iso, SECOND, type Clock } from '../../clock.js';
import { storedFromRow, type FleetService, type LatestFix, type VesselState } from '../../fleet/fleet-service.js';
import type { PositionRow } from '../../fleet/fleet-repo.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import { inBBox, type BBox } from '../../fleet/geo.js';
import { shipCategory, type ShipCategory } from '../../fleet/ship-types.js';
import { POSITIONS_TOPIC, type PositionsEvent, type StoredPosition } from '../../fleet/types.js';
import { openCursor, sealCursor } from '../../http/cursor-signing.js';
import { AppError } from '../../http/errors.js';
import { PREVIEW } from '../meta/preview-constants.js';
import { redactIp } from '../audit/redact-ip.js';
import { delayCutoff, DELAYED_POSITION_FLAG, entitlementRequired, liveFor, vesselAccess, type TrialRecord, type VesselAccess } from './entitlements.js';
import { LOOKUP_RETENTION_DAYS, MAX_CONCURRENT_POLLS, POLL_TIMEOUT_MAX, PREVIEW_LABEL_RETENTION_DAYS, WATCHLIST_MAX_IDS } from './limits.js';
import { identityConfidence, lowestConfidence, positionConfidence } from './confidence.js';
import { createPollHub } from './poll-hub.js';
import type { PollSlots } from './poll-slots.js';
import { parseVesselRef, type VesselRef } from './vessel-ids.js';
import type { LookupRecord, PreviewLabelRecord, VesselsRepo } from './vessels-repo.js';

export interface VesselsServiceDeps {
  fleet: FleetService;
  fleetReads: FleetReads;
  repo: VesselsRepo;
  bus: Bus;
  clock: Clock;
  pollSlots: PollSlots;
  /** The snapshot trial record of an agent (read only for callers holding snapshot:read). */
  findTrial: (agentId: string) => Promise<TrialRecord | undefined>;
  onError?: (err: unknown, context: string) => void;
}

/** Lookup records (or preview labels) buffered before a write starts on its own; otherwise written every RECORD_FLUSH_MS in background mode. */
const RECORD_BATCH = 500;
const RECORD_FLUSH_MS = 5_000;

/** A position in the shape the keyed endpoints return. */
export interface PositionView {
  lat: number;
  lon: number;
  sog_kn: number | null;
  cog_deg: number | null;
  heading_deg: number | null;
  nav_status: number | null;
  nav_status_text: string | null;
  observed_at: string;
  age_seconds: number;
  source: string;
  simulated: boolean;
  quality_flags: string[];
  /** 0-1 from the quality flags (docs/decisions/011). */
  confidence: number;
}

const SIMULATED = 'simulated_source';
const ageSeconds = (now: number, at: number) => Math.max(0, Math.floor((now - at) / 1000));
/** freshness_seconds of several records: the age of the oldest one returned (0 when none). */
const oldestAge = (ages: ReadonlyArray<number | null | undefined>) => ages.reduce<number>((max, age) => (typeof age === 'number' && age > max ? age : max), 0);
const navText = (status: number | null) => (status === null ? null : (NAVIGATION_STATUS[status] ?? null));

/** Cursors are HMAC-signed (src/http/cursor-signing.ts): a changed one answers cursor_invalid. */
function encode(text: string): string {
  return sealCursor(text);
}
function decode(cursor: string, shape: RegExp, field: string): RegExpExecArray {
  const payload = openCursor(cursor);
  const match = payload === null ? null : shape.exec(payload);
  if (!match) throw new AppError('cursor_invalid', 'cursor is not one this service issued; start again without it', { field });
  return match;
}

/** `minLon,minLat,maxLon,maxLat` in degrees. */
export function parseBBox(text: string | undefined, field: string): BBox | undefined {
  if (text === undefined) return undefined;
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || numbers.some((n) => !Number.isFinite(n))) {
    throw new AppError('invalid_request', 'bbox must be minLon,minLat,maxLon,maxLat in degrees', { field });
  }
  const [minLon, minLat, maxLon, maxLat] = numbers as [number, number, number, number];
  if (Math.abs(minLon) > 180 || Math.abs(maxLon) > 180 || Math.abs(minLat) > 90 || Math.abs(maxLat) > 90 || minLat > maxLat) {
    throw new AppError('invalid_request', 'bbox out of range: longitudes -180..180, latitudes -90..90, minLat <= maxLat', { field });
  }
  return { minLon, minLat, maxLon, maxLat };
}

/** ISO 8601, or epoch seconds (up to 11 digits) or milliseconds (12-13 digits). */
export function parseTime(text: string, field: string): number {
  const value = text.trim();
  let ms: number;
  if (/^\d{1,11}$/.test(value)) ms = Number(value) * 1000;
  else if (/^\d{12,13}$/.test(value)) ms = Number(value);
  else ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw new AppError('invalid_request', `${field.split('.').pop()} must be ISO 8601 or epoch seconds/milliseconds`, { field });
  return ms;
}

function splitIds(text: string, field: string): string[] {
  const ids = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (ids.length === 0) throw new AppError('invalid_request', 'give at least one id', { field });
  if (ids.length > WATCHLIST_MAX_IDS) throw new AppError('invalid_request', `at most ${WATCHLIST_MAX_IDS} ids (got ${ids.length})`, { field });
  return ids;
}

export function createVesselsService(deps: VesselsServiceDeps) {
  const { fleet, fleetReads, repo, clock } = deps;

  async function resolve(ref: VesselRef): Promise<VesselState> {
    const state =
      ref.kind === 'vsl_id' ? fleet.byVesselId(ref.vslId) : ref.kind === 'mmsi' ? fleet.byMmsiNumber(ref.mmsi) : fleet.byImoNumber(ref.imo);
    const found =
      state ??
      (await fleet.loadVessel(ref.kind === 'vsl_id' ? { vslId: ref.vslId } : ref.kind === 'mmsi' ? { mmsi: ref.mmsi } : { imo: ref.imo }));
    if (!found) {
      const label = ref.kind === 'vsl_id' ? ref.vslId : ref.kind === 'mmsi' ? `MMSI ${ref.mmsi}` : `IMO ${ref.imo}`;
      throw new AppError('vessel_not_found', `no vessel with ${label} has been observed`);
    }
    return found;
  }

  function positionView(p: LatestFix, now: number, delayed = false): PositionView {
    return {
      lat: p.lat,
      lon: p.lon,
      sog_kn: p.sog,
      cog_deg: p.cog,
      heading_deg: p.heading,
      nav_status: p.navStatus,
      nav_status_text: navText(p.navStatus),
      observed_at: iso(p.observedAt),
      age_seconds: ageSeconds(now, p.observedAt),
      source: p.source,
      simulated: p.simulated,
      quality_flags: delayed ? [...p.qualityFlags, DELAYED_POSITION_FLAG] : p.qualityFlags,
      confidence: positionConfidence(p.qualityFlags),
    };
  }

  /**
   * The position a caller may see: the live latest with the entitlement; otherwise the newest usable
   * position at least the preview delay old (the in-memory latest when it is that old already, else
   * one indexed store query), or null.
   */
  async function visibleFix(v: VesselState, access: VesselAccess, now: number): Promise<{ fix: LatestFix | null; delayed: boolean }> {
    if (liveFor(access, v)) return { fix: v.latest, delayed: false };
    if (v.latest === null) return { fix: null, delayed: true };
    const cutoff = delayCutoff(now);
    if (v.latest.observedAt <= cutoff) return { fix: v.latest, delayed: true };
    const row = await fleetReads.newestUsableAtOrBefore(v.vslId, cutoff);
    return { fix: row ? storedFromRow(row, v.mmsi) : null, delayed: true };
  }

  /** visibleFix for many vessels, a few store queries at a time. */
  async function visibleFixes(vessels: VesselState[], access: VesselAccess, now: number) {
    const out: Array<{ fix: LatestFix | null; delayed: boolean }> = [];
    const CONCURRENT = 16;
    for (let i = 0; i < vessels.length; i += CONCURRENT) {
      out.push(...(await Promise.all(vessels.slice(i, i + CONCURRENT).map((v) => visibleFix(v, access, now)))));
    }
    return out;
  }

  function vesselRecord(v: VesselState) {
    return {
      vsl_id: v.vslId,
      mmsi: v.mmsi,
      imo: v.imo,
      name: v.name,
      callsign: v.callsign,
      flag: v.flag,
      ship_type: v.shipType,
      ship_type_text: v.shipType === null ? null : shipTypeText(v.shipType),
      category: shipCategory(v.shipType),
      length_m: v.lengthM,
      beam_m: v.beamM,
      draught_m: v.draughtM,
      destination: v.destination,
      eta: v.eta,
      simulated: v.simulated,
      sources: [...v.sources],
      first_seen_at: iso(v.firstSeenAt),
      last_seen_at: iso(v.lastSeenAt),
      confidence: identityConfidence(v),
    };
  }

  function lastPositionData(v: VesselState, seen: { fix: LatestFix | null; delayed: boolean }, now: number) {
    return {
      vsl_id: v.vslId,
      mmsi: v.mmsi,
      imo: v.imo,
      name: v.name,
      simulated: v.simulated,
      position: seen.fix ? positionView(seen.fix, now, seen.delayed) : null,
    };
  }

  const isSimulated = (v: VesselState) => v.simulated || (v.latest?.simulated ?? false);
  const flagsFor = (simulated: boolean, delayed = false) => [...(simulated ? [SIMULATED] : []), ...(delayed ? [DELAYED_POSITION_FLAG] : [])];

  // Reads are hot paths: their lookup records and preview labels are buffered and written in batches.
  let pendingLookups: LookupRecord[] = [];
  let pendingLabels: PreviewLabelRecord[] = [];
  let recordTimer: NodeJS.Timeout | null = null;
  async function flushRecords(): Promise<void> {
    const lookups = pendingLookups;
    const labels = pendingLabels;
    pendingLookups = [];
    pendingLabels = [];
    await Promise.all([repo.recordLookups(lookups), repo.recordPreviewLabels(labels)]);
  }
  const flushRecordsInBackground = () => void flushRecords().catch((err) => deps.onError?.(err, 'vessel lookup records or preview labels not written'));

  async function recordLookups(vessels: VesselState[], agentId: string, operationId: string): Promise<void> {
    const at = clock.now();
    for (const v of vessels) pendingLookups.push({ vsl_id: v.vslId, agent_id: agentId, operation_id: operationId, at });
    if (pendingLookups.length >= RECORD_BATCH) flushRecordsInBackground();
  }

  function trackPoint(p: StoredPosition) {
    return {
      observed_at: iso(p.observedAt),
      lat: p.lat,
      lon: p.lon,
      sog_kn: p.sog,
      cog_deg: p.cog,
      heading_deg: p.heading,
      nav_status: p.navStatus,
      source: p.source,
      simulated: p.simulated,
      quality_flags: p.qualityFlags,
      confidence: positionConfidence(p.qualityFlags),
    };
  }

  // ---- search ----

  type SearchKey = [number, string, string];
  const NAME_LAST = '\u{10FFFF}';

  function matchRank(v: VesselState, q: string | null): number | null {
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

  const compareKeys = (a: SearchKey, b: SearchKey) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);

  const normalizeQ = (q: string | undefined) => (q === undefined ? null : q.trim().toUpperCase().replace(/^(IMO|MMSI)[: ]?(?=\d)/, '') || null);
  const searchKey = (v: VesselState, q: string | undefined): SearchKey => [matchRank(v, normalizeQ(q)) ?? 0, v.name?.toUpperCase() ?? NAME_LAST, v.vslId];
  const cursorOf = (key: SearchKey) => encode(`s:${key[0]}:${Buffer.from(key[1], 'utf8').toString('hex')}:${key[2]}`);

  function searchVessels(options: { q?: string; category?: ShipCategory; flag?: string; bbox?: BBox; limit: number; cursor?: string }) {
    const q = normalizeQ(options.q);
    const flag = options.flag?.toUpperCase();
    let after: SearchKey | null = null;
    if (options.cursor !== undefined) {
      const m = decode(options.cursor, /^s:(\d{1,2}):([0-9a-f]*):(vsl_[0-9a-f]{16})$/, 'query.cursor');
      after = [Number(m[1]), Buffer.from(m[2]!, 'hex').toString('utf8'), m[3]!];
    }
    const matches: Array<{ key: SearchKey; vessel: VesselState }> = [];
    for (const v of fleet.vessels()) {
      if (options.category !== undefined && shipCategory(v.shipType) !== options.category) continue;
      if (flag !== undefined && v.flag !== flag) continue;
      if (options.bbox !== undefined && (v.latest === null || !inBBox(options.bbox, v.latest.lat, v.latest.lon))) continue;
      const rank = matchRank(v, q);
      if (rank === null) continue;
      const key: SearchKey = [rank, v.name?.toUpperCase() ?? NAME_LAST, v.vslId];
      if (after !== null && compareKeys(key, after) <= 0) continue;
      matches.push({ key, vessel: v });
    }
    matches.sort((a, b) => compareKeys(a.key, b.key));
    const page = matches.slice(0, options.limit);
    const last = page[page.length - 1];
    const nextCursor = matches.length > options.limit && last ? cursorOf(last.key) : null;
    return { vessels: page.map((m) => m.vessel), nextCursor };
  }

  /** A search hit's position: lat/lon, observed_at, age_seconds (plus quality_flags when delayed). */
  function searchPosition(seen: { fix: LatestFix | null; delayed: boolean }, now: number) {
    if (!seen.fix) return null;
    const flags = seen.delayed ? [...seen.fix.qualityFlags, DELAYED_POSITION_FLAG] : seen.fix.qualityFlags;
    return { lat: seen.fix.lat, lon: seen.fix.lon, observed_at: iso(seen.fix.observedAt), age_seconds: ageSeconds(now, seen.fix.observedAt), quality_flags: flags };
  }

  /**
   * Search with the positions the caller may see. With the entitlement (or without bbox) the page is
   * cut on identity as before; under the delay a bbox applies to the delayed position, so candidates
   * are checked in order, a few store queries at a time, until the page is full.
   */
  async function searchVisible(
    options: { q?: string; category?: ShipCategory; flag?: string; bbox?: BBox; limit: number; cursor?: string },
    access: VesselAccess,
    now: number,
  ) {
    if (options.bbox === undefined || access.live) {
      const { vessels, nextCursor } = searchVessels(options);
      return { vessels, nextCursor, fixes: await visibleFixes(vessels, access, now) };
    }
    const bbox = options.bbox;
    // Every identity match in order; the bbox is checked on what the caller may see.
    const { vessels: candidates } = searchVessels({ ...options, bbox: undefined, limit: Number.MAX_SAFE_INTEGER });
    const vessels: VesselState[] = [];
    const fixes: Array<{ fix: LatestFix | null; delayed: boolean }> = [];
    let more = false;
    const CHUNK = 64;
    outer: for (let i = 0; i < candidates.length; i += CHUNK) {
      const chunk = candidates.slice(i, i + CHUNK).filter((v) => v.latest !== null);
      const seen = await visibleFixes(chunk, access, now);
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
    const nextCursor = more && last ? cursorOf(searchKey(last, options.q)) : null;
    return { vessels, nextCursor, fixes };
  }

  // ---- updates ----

  async function positionsSince(after: number, head: number, filter: { vslIds?: string[]; bbox?: BBox }, limit: number) {
    const rows = await fleetReads.positionsAfter(after, head, { ...filter, usableOnly: true }, limit + 1);
    return rows;
  }

  function eventMatches(event: PositionsEvent, after: number, filter: { vslIds?: Set<string>; bbox?: BBox }): boolean {
    return event.positions.some(
      (p) => p.seq > after && p.usable && (!filter.vslIds || filter.vslIds.has(p.vslId)) && (!filter.bbox || inBBox(filter.bbox, p.lat, p.lon)),
    );
  }

  const pollHub = createPollHub(deps.bus, POSITIONS_TOPIC);

  function mmsiOf(vslId: string): number {
    return fleet.byVesselId(vslId)?.mmsi ?? 0;
  }

  return {
    /** Writes buffered lookup records and preview labels every few seconds (serve). */
    start(): void {
      if (recordTimer) return;
      recordTimer = setInterval(flushRecordsInBackground, RECORD_FLUSH_MS);
      recordTimer.unref();
    },

    async stop(): Promise<void> {
      if (recordTimer) clearInterval(recordTimer);
      recordTimer = null;
      await flushRecords();
    },

    flushRecords,

    /** What this agent may read (vessels:live, a snapshot trial, or delayed positions only). */
    access(agent: Parameters<typeof vesselAccess>[0]): Promise<VesselAccess> {
      return vesselAccess(agent, deps.findTrial, clock.now());
    },

    async lookup(ref: VesselRef, agentId: string, access: VesselAccess) {
      const v = await resolve(ref);
      await recordLookups([v], agentId, 'getVesselsLookup');
      const now = clock.now();
      const seen = await visibleFix(v, access, now);
      const dataAge = ageSeconds(now, v.lastSeenAt);
      return {
        data: {
          vessel: vesselRecord(v),
          latest_position: seen.fix ? positionView(seen.fix, now, seen.delayed) : null,
          data_age_seconds: dataAge,
        },
        // the oldest data returned: the position served when there is one (older than the newest observation)
        freshnessSeconds: seen.fix ? Math.max(dataAge, ageSeconds(now, seen.fix.observedAt)) : dataAge,
        confidence: lowestConfidence([identityConfidence(v), seen.fix ? positionConfidence(seen.fix.qualityFlags) : null]),
        qualityFlags: flagsFor(isSimulated(v), seen.delayed),
      };
    },

    async lastPosition(ref: VesselRef, agentId: string, access: VesselAccess) {
      const v = await resolve(ref);
      await recordLookups([v], agentId, 'getVesselsLastPosition');
      const now = clock.now();
      const data = lastPositionData(v, await visibleFix(v, access, now), now);
      return {
        data,
        freshnessSeconds: data.position?.age_seconds ?? 0,
        confidence: data.position?.confidence ?? null,
        qualityFlags: [...new Set([...flagsFor(isSimulated(v), !liveFor(access, v)), ...(data.position?.quality_flags ?? [])])],
      };
    },

    async search(options: { q?: string; category?: ShipCategory; flag?: string; bbox?: BBox; limit: number; cursor?: string }, access: VesselAccess) {
      const now = clock.now();
      const { vessels, nextCursor, fixes } = await searchVisible(options, access, now);
      const delayed = vessels.some((v) => !liveFor(access, v));
      const oldest = fixes.reduce<number | null>((min, f) => (f.fix === null ? min : min === null ? f.fix.observedAt : Math.min(min, f.fix.observedAt)), null);
      return {
        data: {
          items: vessels.map((v, i) => ({
            vsl_id: v.vslId,
            mmsi: v.mmsi,
            imo: v.imo,
            name: v.name,
            callsign: v.callsign,
            flag: v.flag,
            ship_type: v.shipType,
            category: shipCategory(v.shipType),
            simulated: isSimulated(v),
            latest_position: searchPosition(fixes[i]!, now),
            confidence: identityConfidence(v),
          })),
          next_cursor: nextCursor,
        },
        ...(oldest !== null ? { freshnessSeconds: ageSeconds(now, oldest) } : {}),
        confidence: lowestConfidence(vessels.map(identityConfidence)),
        qualityFlags: flagsFor(vessels.some(isSimulated), delayed),
      };
    },

    async watchlist(idsText: string, agentId: string, access: VesselAccess) {
      const ids = splitIds(idsText, 'query.ids');
      const now = clock.now();
      const found: VesselState[] = [];
      const items = [];
      let delayed = false;
      let oldest: number | null = null;
      for (const id of ids) {
        try {
          const v = await resolve(parseVesselRef(id, 'query.ids'));
          found.push(v);
          const seen = await visibleFix(v, access, now);
          delayed ||= seen.delayed;
          if (seen.fix) oldest = oldest === null ? seen.fix.observedAt : Math.min(oldest, seen.fix.observedAt);
          items.push({ id, status: 'ok' as const, result: lastPositionData(v, seen, now), error: null });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          items.push({ id, status: 'error' as const, result: null, error: { code: err.code, message: err.message } });
        }
      }
      await recordLookups([...new Set(found)], agentId, 'getVesselsWatchlist');
      return {
        data: { items, found: found.length, errors: items.length - found.length },
        ...(oldest !== null ? { freshnessSeconds: ageSeconds(now, oldest) } : {}),
        confidence: lowestConfidence(items.map((i) => i.result?.position?.confidence)),
        qualityFlags: flagsFor(found.some(isSimulated), delayed),
      };
    },

    async positions(
      ref: VesselRef,
      options: { from?: string; to?: string; limit: number; cursor?: string; downsample?: number; includeFlagged: boolean },
      agentId: string,
      access: VesselAccess,
    ) {
      if (!access.live) throw entitlementRequired(access, 'Position history');
      const v = await resolve(ref);
      const now = clock.now();
      const to = options.to !== undefined ? parseTime(options.to, 'query.to') : now;
      const from = options.from !== undefined ? parseTime(options.from, 'query.from') : to - DAY;
      if (from > to) throw new AppError('invalid_request', 'from must not be after to', { field: 'query.from' });
      const after = options.cursor === undefined ? null : Number(decode(options.cursor, /^p:(\d{1,16})$/, 'query.cursor')[1]);
      await recordLookups([v], agentId, 'getVesselsByVslIdPositions');

      const limit = options.limit;
      let points: PositionRow[];
      let nextAfter: number | null = null;
      if (options.downsample === undefined) {
        const rows = await fleetReads.track(v.vslId, { from, to, after }, options.includeFlagged, limit + 1);
        points = rows.slice(0, limit);
        if (rows.length > limit) nextAfter = Number(points[points.length - 1]!.observed_at);
      } else {
        const bucketMs = options.downsample * SECOND;
        const bucketOf = (t: number) => Math.floor(t / bucketMs);
        points = [];
        let scanAfter = after;
        let lastBucket: number | null = null;
        const CHUNK = 1000;
        for (;;) {
          const rows = await fleetReads.track(v.vslId, { from, to, after: scanAfter }, options.includeFlagged, CHUNK);
          for (const row of rows) {
            const bucket = bucketOf(Number(row.observed_at));
            if (bucket === lastBucket) continue;
            lastBucket = bucket;
            points.push(row);
            if (points.length > limit) break;
          }
          if (points.length > limit || rows.length < CHUNK) break;
          scanAfter = Number(rows[rows.length - 1]!.observed_at);
        }
        if (points.length > limit) {
          points = points.slice(0, limit);
          nextAfter = (bucketOf(Number(points[points.length - 1]!.observed_at)) + 1) * bucketMs - 1;
        }
      }
      const items = points.map((row) => trackPoint(storedFromRow(row, v.mmsi)));
      return {
        data: {
          vsl_id: v.vslId,
          mmsi: v.mmsi,
          from: iso(from),
          to: iso(to),
          downsample_seconds: options.downsample ?? null,
          items,
          next_cursor: nextAfter === null ? null : encode(`p:${nextAfter}`),
        },
        freshnessSeconds: oldestAge(points.map((row) => ageSeconds(now, Number(row.observed_at)))),
        confidence: lowestConfidence(items.map((i) => i.confidence)),
        qualityFlags: flagsFor(items.some((i) => i.simulated) || v.simulated),
      };
    },

    /** Long poll: answers as soon as positions after the cursor exist, or after `timeout` seconds. */
    async updates(
      options: { since?: string; timeout: number; ids?: string; bbox?: string; limit: number },
      agentId: string,
      access: VesselAccess,
      cancelled: { onCancel(listener: () => void): void },
    ) {
      if (!access.live) throw entitlementRequired(access, 'The updates stream');
      const bbox = parseBBox(options.bbox, 'query.bbox');
      let vslIds: string[] | undefined;
      if (options.ids !== undefined) {
        vslIds = [];
        for (const id of splitIds(options.ids, 'query.ids')) vslIds.push((await resolve(parseVesselRef(id, 'query.ids'))).vslId);
      }
      let after = options.since === undefined ? null : Number(decode(options.since, /^u:(\d{1,16})$/, 'query.since')[1]);
      const timeoutMs = Math.min(options.timeout, POLL_TIMEOUT_MAX) * SECOND;
      const lease = await deps.pollSlots.acquire(agentId, MAX_CONCURRENT_POLLS, timeoutMs + 30 * SECOND);
      if (!lease) {
        throw new AppError('rate_limited', `at most ${MAX_CONCURRENT_POLLS} long polls per agent key at once; wait for one to return`, {
          headers: { 'retry-after': String(Math.max(1, options.timeout)) },
        });
      }
      const vslIdSet = vslIds ? new Set(vslIds) : undefined;
      // One wake-up for everything that can end a wait: a matching stored position, the timeout,
      // or the caller going away.
      let signalled = false;
      let timedOut = timeoutMs === 0;
      let gone = false;
      let wake: (() => void) | null = null;
      const signal = () => {
        signalled = true;
        wake?.();
      };
      const unsubscribe = pollHub.add({
        matches: (payload) => {
          const event = payload as PositionsEvent;
          return Boolean(event && Array.isArray(event.positions) && eventMatches(event, after ?? 0, { vslIds: vslIdSet, bbox }));
        },
        wake: signal,
      });
      const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), signal()), timeoutMs) : null;
      cancelled.onCancel(() => ((gone = true), signal()));
      try {
        await pollHub.ready();
        for (;;) {
          signalled = false;
          // Polls woken together share these reads (same cursor, filters and limit: one query, one mapping).
          const head = await pollHub.shared(`head:${pollHub.generation()}`, () => fleetReads.headSeq());
          if (after === null) after = head;
          const from = after;
          const answer = await pollHub.shared(`rows:${from}:${head}:${options.limit}:${vslIds?.join(',') ?? ''}:${options.bbox ?? ''}`, async () => {
            const rows = await positionsSince(from, head, { vslIds, bbox }, options.limit);
            if (rows.length === 0) return null;
            const page = rows.slice(0, options.limit);
            const more = rows.length > options.limit;
            const cursor = more ? Number(page[page.length - 1]!.seq) : head;
            const items = page.map((row) => {
              const p = storedFromRow(row, mmsiOf(row.vsl_id));
              return { vsl_id: p.vslId, mmsi: p.mmsi, ...trackPoint(p) };
            });
            return {
              data: { items, cursor: encode(`u:${cursor}`), more_available: more, timed_out: false },
              freshnessSeconds: oldestAge(page.map((row) => ageSeconds(clock.now(), Number(row.observed_at)))),
              confidence: lowestConfidence(items.map((i) => i.confidence)),
              qualityFlags: flagsFor(items.some((i) => i.simulated)),
            };
          });
          if (answer) return answer;
          // Nothing matched up to head: later polls need not scan those rows again.
          after = head;
          if (timedOut || gone) break;
          if (!signalled) await new Promise<void>((resolveWait) => (wake = resolveWait));
          wake = null;
        }
        return { data: { items: [], cursor: encode(`u:${after}`), more_available: false, timed_out: true }, qualityFlags: [] };
      } finally {
        if (timer) clearTimeout(timer);
        unsubscribe();
        await deps.pollSlots.release(agentId, lease);
      }
    },

    async popular(window: '24h' | '7d', limit: number) {
      await flushRecords();
      const since = clock.now() - (window === '7d' ? 7 * DAY : 24 * HOUR);
      const rows = await repo.popular(since, limit);
      const items = rows.map((row, i) => {
        const v = fleet.byVesselId(row.vsl_id);
        return {
          rank: i + 1,
          vsl_id: row.vsl_id,
          mmsi: v?.mmsi ?? null,
          imo: v?.imo ?? null,
          name: v?.name ?? null,
          flag: v?.flag ?? null,
          category: v ? shipCategory(v.shipType) : null,
          lookups: row.lookups,
          agents: row.agents,
        };
      });
      const simulated = rows.some((row) => {
        const v = fleet.byVesselId(row.vsl_id);
        return v !== undefined && v.simulated;
      });
      return { data: { window, since: iso(since), items }, qualityFlags: flagsFor(simulated) };
    },

    previewSearch(q: string, limit: number) {
      const { vessels } = searchVessels({ q, limit });
      return {
        data: {
          items: vessels.map((v) => ({
            vsl_id: v.vslId,
            mmsi: v.mmsi,
            imo: v.imo,
            name: v.name,
            callsign: v.callsign,
            flag: v.flag,
            category: shipCategory(v.shipType),
            simulated: v.simulated,
          })),
          note: `Identity only. Delayed positions (at least ${PREVIEW.positionDelaySeconds} s old): GET /v1/bootstrap/vessels/last_position?imo=…`,
        },
        qualityFlags: flagsFor(vessels.some((v) => v.simulated)),
      };
    },

    /**
     * The newest usable position at least PREVIEW.positionDelaySeconds old. A vessel without one
     * answers exactly like an unknown IMO, after the same one store query.
     */
    async previewLastPosition(imoText: string) {
      const ref = parseVesselRef(imoText, 'query.imo', 'imo') as { kind: 'imo'; imo: number };
      const now = clock.now();
      const cutoff = now - PREVIEW.positionDelaySeconds * SECOND;
      const v = fleet.byImoNumber(ref.imo);
      const row = await fleetReads.newestUsableAtOrBefore(v?.vslId ?? '', cutoff);
      if (!v || !row) {
        throw new AppError('vessel_not_found', `no position at least ${PREVIEW.positionDelaySeconds} s old is available for this IMO`, { field: 'query.imo' });
      }
      const observedAt = Number(row.observed_at);
      const simulated = v.simulated || row.simulated === 1;
      return {
        data: {
          vessel: {
            vsl_id: v.vslId,
            mmsi: v.mmsi,
            imo: v.imo,
            name: v.name,
            callsign: v.callsign,
            flag: v.flag,
            category: shipCategory(v.shipType),
            simulated,
          },
          position: {
            lat: row.lat,
            lon: row.lon,
            sog_kn: row.sog,
            cog_deg: row.cog,
            heading_deg: row.heading,
            nav_status: row.nav_status,
            observed_at: iso(observedAt),
            age_seconds: ageSeconds(now, observedAt),
          },
          position_delay_seconds: PREVIEW.positionDelaySeconds,
        },
        freshnessSeconds: ageSeconds(now, observedAt),
        confidence: positionConfidence(storedFromRow(row, v.mmsi).qualityFlags),
        qualityFlags: flagsFor(simulated),
      };
    },

    /** Self-declared labels of a preview call; unverified, never used for access. */
    recordPreviewLabels(operationId: string, name: string | undefined, vendor: string | undefined, ip: string): void {
      const clean = (s: string | undefined) => (s === undefined ? null : s.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 100) || null);
      const agentName = clean(name);
      const agentVendor = clean(vendor);
      if (agentName === null && agentVendor === null) return;
      pendingLabels.push({ at: clock.now(), operation_id: operationId, agent_name: agentName, agent_vendor: agentVendor, ip: redactIp(ip) });
      if (pendingLabels.length >= RECORD_BATCH) flushRecordsInBackground();
    },

    async enforceRetention() {
      await flushRecords();
      const now = clock.now();
      const lookups = await repo.deleteLookupsBefore(now - LOOKUP_RETENTION_DAYS * DAY);
      const labels = await repo.deletePreviewLabelsBefore(now - PREVIEW_LABEL_RETENTION_DAYS * DAY);
      return { lookups_deleted: lookups, preview_labels_deleted: labels };
    },
  };
}

export type VesselsService = ReturnType<typeof createVesselsService>;
