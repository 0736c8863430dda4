import { NAVIGATION_STATUS, shipTypeText } from '../../ais/legends.js';
import type { Bus } from '../../bus/bus.js';
import { DAY, HOUR, iso, SECOND, type Clock } from '../../clock.js';
import { storedFromRow, type FleetService, type LatestFix, type VesselState } from '../../fleet/fleet-service.js';
import type { FleetRepo, PositionRow } from '../../fleet/fleet-repo.js';
import { inBBox, type BBox } from '../../fleet/geo.js';
import { shipCategory, type ShipCategory } from '../../fleet/ship-types.js';
import { POSITIONS_TOPIC, type PositionsEvent, type StoredPosition } from '../../fleet/types.js';
import { AppError } from '../../http/errors.js';
import { PREVIEW } from '../meta/preview-constants.js';
import { redactIp } from '../audit/redact-ip.js';
import { LOOKUP_RETENTION_DAYS, MAX_CONCURRENT_POLLS, POLL_TIMEOUT_MAX, PREVIEW_LABEL_RETENTION_DAYS, WATCHLIST_MAX_IDS } from './limits.js';
import { createPollHub } from './poll-hub.js';
import type { PollSlots } from './poll-slots.js';
import { parseVesselRef, type VesselRef } from './vessel-ids.js';
import type { LookupRecord, PreviewLabelRecord, VesselsRepo } from './vessels-repo.js';

export interface VesselsServiceDeps {
  fleet: FleetService;
  fleetRepo: FleetRepo;
  repo: VesselsRepo;
  bus: Bus;
  clock: Clock;
  pollSlots: PollSlots;
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
}

const SIMULATED = 'simulated_source';
const ageSeconds = (now: number, at: number) => Math.max(0, Math.floor((now - at) / 1000));
const navText = (status: number | null) => (status === null ? null : (NAVIGATION_STATUS[status] ?? null));

function encode(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
function decode(cursor: string, shape: RegExp, field: string): RegExpExecArray {
  const match = /^[A-Za-z0-9_-]+$/.test(cursor) ? shape.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
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
  const { fleet, fleetRepo, repo, clock } = deps;

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

  function positionView(p: LatestFix, now: number): PositionView {
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
      quality_flags: p.qualityFlags,
    };
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
    };
  }

  function lastPositionData(v: VesselState, now: number) {
    return {
      vsl_id: v.vslId,
      mmsi: v.mmsi,
      imo: v.imo,
      name: v.name,
      simulated: v.simulated,
      position: v.latest ? positionView(v.latest, now) : null,
    };
  }

  const isSimulated = (v: VesselState) => v.simulated || (v.latest?.simulated ?? false);
  const flagsFor = (simulated: boolean) => (simulated ? [SIMULATED] : []);

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

  function searchVessels(options: { q?: string; category?: ShipCategory; flag?: string; bbox?: BBox; limit: number; cursor?: string }) {
    const q = options.q === undefined ? null : options.q.trim().toUpperCase().replace(/^(IMO|MMSI)[: ]?(?=\d)/, '') || null;
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
    const nextCursor =
      matches.length > options.limit && last
        ? encode(`s:${last.key[0]}:${Buffer.from(last.key[1], 'utf8').toString('hex')}:${last.key[2]}`)
        : null;
    return { vessels: page.map((m) => m.vessel), nextCursor };
  }

  // ---- updates ----

  async function positionsSince(after: number, head: number, filter: { vslIds?: string[]; bbox?: BBox }, limit: number) {
    const rows = await fleetRepo.positionsAfter(after, head, { ...filter, usableOnly: true }, limit + 1);
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

    async lookup(ref: VesselRef, agentId: string) {
      const v = await resolve(ref);
      await recordLookups([v], agentId, 'getVesselsLookup');
      const now = clock.now();
      return {
        data: {
          vessel: vesselRecord(v),
          latest_position: v.latest ? positionView(v.latest, now) : null,
          data_age_seconds: ageSeconds(now, v.lastSeenAt),
        },
        freshnessSeconds: ageSeconds(now, v.lastSeenAt),
        qualityFlags: flagsFor(isSimulated(v)),
      };
    },

    async lastPosition(ref: VesselRef, agentId: string) {
      const v = await resolve(ref);
      await recordLookups([v], agentId, 'getVesselsLastPosition');
      const now = clock.now();
      const data = lastPositionData(v, now);
      return {
        data,
        freshnessSeconds: data.position?.age_seconds ?? 0,
        qualityFlags: [...new Set([...flagsFor(isSimulated(v)), ...(data.position?.quality_flags ?? [])])],
      };
    },

    search(options: { q?: string; category?: ShipCategory; flag?: string; bbox?: BBox; limit: number; cursor?: string }) {
      const now = clock.now();
      const { vessels, nextCursor } = searchVessels(options);
      return {
        data: {
          items: vessels.map((v) => ({
            vsl_id: v.vslId,
            mmsi: v.mmsi,
            imo: v.imo,
            name: v.name,
            callsign: v.callsign,
            flag: v.flag,
            ship_type: v.shipType,
            category: shipCategory(v.shipType),
            simulated: isSimulated(v),
            latest_position: v.latest
              ? { lat: v.latest.lat, lon: v.latest.lon, observed_at: iso(v.latest.observedAt), age_seconds: ageSeconds(now, v.latest.observedAt) }
              : null,
          })),
          next_cursor: nextCursor,
        },
        qualityFlags: flagsFor(vessels.some(isSimulated)),
      };
    },

    async watchlist(idsText: string, agentId: string) {
      const ids = splitIds(idsText, 'query.ids');
      const now = clock.now();
      const found: VesselState[] = [];
      const items = [];
      for (const id of ids) {
        try {
          const v = await resolve(parseVesselRef(id, 'query.ids'));
          found.push(v);
          items.push({ id, status: 'ok' as const, result: lastPositionData(v, now), error: null });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          items.push({ id, status: 'error' as const, result: null, error: { code: err.code, message: err.message } });
        }
      }
      await recordLookups([...new Set(found)], agentId, 'getVesselsWatchlist');
      return {
        data: { items, found: found.length, errors: items.length - found.length },
        qualityFlags: flagsFor(found.some(isSimulated)),
      };
    },

    async positions(
      ref: VesselRef,
      options: { from?: string; to?: string; limit: number; cursor?: string; downsample?: number; includeFlagged: boolean },
      agentId: string,
    ) {
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
        const rows = await fleetRepo.track(v.vslId, { from, to, after }, options.includeFlagged, limit + 1);
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
          const rows = await fleetRepo.track(v.vslId, { from, to, after: scanAfter }, options.includeFlagged, CHUNK);
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
        qualityFlags: flagsFor(items.some((i) => i.simulated) || v.simulated),
      };
    },

    /** Long poll: answers as soon as positions after the cursor exist, or after `timeout` seconds. */
    async updates(
      options: { since?: string; timeout: number; ids?: string; bbox?: string; limit: number },
      agentId: string,
      cancelled: { onCancel(listener: () => void): void },
    ) {
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
          const head = await pollHub.shared(`head:${pollHub.generation()}`, () => fleetRepo.headSeq());
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
      const row = await repo.newestUsableAtOrBefore(v?.vslId ?? '', cutoff);
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
