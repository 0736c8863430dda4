import { createHash } from 'node:crypto';
import type { Caller } from '../../access/principals.js';
import { DAY, MINUTE, iso, type Clock } from '../../platform/clock.js';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { ENCOUNTER_SETTINGS, type EncounterSetting } from '../../events/encounters.js';
import type { FleetService } from '../../fleet/fleet-service.js';
import { shipCategory } from '../../fleet/ship-types.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import type { EventsService } from '../events/events-service.js';
import { resolveWindow } from '../kit/time-window.js';
import { parseVesselRef } from '../kit/vessel-ids.js';
import { flagsFor } from '../vessels/vessel-views.js';
import { correctedVessel, type Corrections } from '../kit/override-fields.js';

export const STS_DEFAULT_RANGE_MS = 7 * DAY;
export const STS_MAX_RANGE_MS = 30 * DAY;
/** Listed unless `setting` says otherwise: ships side by side at a quay are not ship-to-ship transfers (decision 077). */
export const DEFAULT_STS_SETTINGS: readonly EncounterSetting[] = ['open_sea', 'anchorage'];

/** `all` or a comma-separated list (the schema checks the words). */
const parseSettings = (text: string | undefined): readonly EncounterSetting[] =>
  text === undefined ? DEFAULT_STS_SETTINGS : text === 'all' ? ENCOUNTER_SETTINGS : ENCOUNTER_SETTINGS.filter((s) => text.split(',').includes(s));

const settingOf = (text: string): EncounterSetting => ENCOUNTER_SETTINGS.find((s) => s === text) ?? 'open_sea';

export interface StsEventsOptions {
  range?: string;
  from?: string;
  to?: string;
  zone?: string;
  vessel?: string;
  setting?: string;
  min_duration?: string;
  limit: number;
  cursor?: string;
}

type Box = { minLon: number; minLat: number; maxLon: number; maxLat: number };
type EncounterRow = Awaited<ReturnType<EventsService['reads']['encounters']>>[number];

const ZONE_KEYS = CHOKEPOINTS.map((c) => c.key);
const BOX = /^\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*$/;
const PAGE_CURSOR = /^sts:(-?\d{1,15}):(-?\d{1,15}):(-?\d{1,15}):(\d{1,15}):([0-9a-f]{16})$/;

/** A chokepoint key, or a box (minLon > maxLon: across the antimeridian). */
export function parseZone(text: string): { key: string } | { box: Box } {
  const match = BOX.exec(text);
  if (match) {
    const [minLon, minLat, maxLon, maxLat] = match.slice(1).map(Number) as [number, number, number, number];
    const lonOk = (x: number) => Number.isFinite(x) && Math.abs(x) <= 180;
    const latOk = (x: number) => Number.isFinite(x) && Math.abs(x) <= 90;
    if (!lonOk(minLon) || !lonOk(maxLon) || !latOk(minLat) || !latOk(maxLat) || minLat > maxLat) {
      throw new AppError(
        'invalid_request',
        'a zone box is minLon,minLat,maxLon,maxLat in decimal degrees (longitudes -180..180, latitudes -90..90, minLat ≤ maxLat; minLon > maxLon crosses the antimeridian)',
        { field: 'query.zone' },
      );
    }
    return { box: { minLon, minLat, maxLon, maxLat } };
  }
  const key = text.trim().toLowerCase();
  if (!ZONE_KEYS.includes(key)) throw new AppError('unknown_zone', `zone must be a chokepoint key (${ZONE_KEYS.join(', ')}) or a box minLon,minLat,maxLon,maxLat`, { field: 'query.zone' });
  return { key };
}

/** min_duration: whole minutes (150) or hours and minutes (2H, 90M, 2H30M), as milliseconds. */
export function parseMinDuration(text: string): number {
  const match = /^(?:([0-9]{1,5})|(?:([0-9]{1,3})[Hh])?(?:([0-9]{1,5})[Mm])?)$/.exec(text.trim());
  const ms = match && text.trim() !== '' ? (match[1] !== undefined ? Number(match[1]) : Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * MINUTE : NaN;
  if (!Number.isFinite(ms) || ms > STS_MAX_RANGE_MS) {
    throw new AppError('invalid_request', 'min_duration is minutes as an integer (150) or hours and minutes (2H, 90M, 2H30M), at most 30 days', { field: 'query.min_duration' });
  }
  return ms;
}

/** Ship-to-ship encounters from the event store (docs/decisions/020, 031), newest first. */
export function createStsService(deps: {
  events: EventsService;
  fleet: FleetService;
  cursors: CursorCodec;
  clock: Clock;
  /** Operator corrections of a vessel's identity (docs/feedback.md): the encounter's vessels are shown corrected. */
  corrections?: (vslId: string) => Corrections | undefined;
}) {
  function vesselView(vslId: string) {
    const v = correctedVessel(deps.fleet, vslId, deps.corrections);
    return { vsl_id: vslId, name: v?.name ?? null, imo: v?.imo ?? null, mmsi: v?.mmsi ?? null, flag: v?.flag ?? null, ship_type: v?.shipType ?? null, category: v ? shipCategory(v.shipType) : null };
  }

  function view(row: EncounterRow) {
    return {
      id: row.id,
      start: iso(row.start_at),
      end: iso(row.end_at),
      duration_minutes: Math.round((row.end_at - row.start_at) / MINUTE),
      median_distance_m: Math.round(row.median_distance_m * 10) / 10,
      position: { lat: row.lat, lon: row.lon },
      zone: row.zone,
      setting: settingOf(row.setting),
      vessels: [vesselView(row.vsl_a), vesselView(row.vsl_b)],
      observations: row.observations,
      evidence: { first_seq: row.first_seq, last_seq: row.last_seq },
      confidence: row.confidence,
      simulated: row.simulated === 1,
    };
  }

  /** The vsl_id of a vessel reference; vessel_not_found when the fleet has never seen it. */
  function vesselId(text: string): string {
    const ref = parseVesselRef(text, 'query.vessel');
    const state = ref.kind === 'imo' ? deps.fleet.byImoNumber(ref.imo) : ref.kind === 'mmsi' ? deps.fleet.byMmsiNumber(ref.mmsi) : deps.fleet.byVesselId(ref.vslId);
    if (!state) throw new AppError('vessel_not_found', `no vessel ${text} is known`, { field: 'query.vessel' });
    return state.vslId;
  }

  return {
    async list(caller: Caller, options: StsEventsOptions) {
      // read before the horizon: a live horizon is never before it, however long the store reads below take
      // (comparing with the clock after them flagged a live key's answer delayed_position; issue 24 item 9)
      const asked = deps.clock.now();
      const horizon = deps.events.horizon(caller);
      const zone = options.zone !== undefined ? parseZone(options.zone) : null;
      const vslId = options.vessel !== undefined ? vesselId(options.vessel) : undefined;
      const minDurationMs = options.min_duration !== undefined ? parseMinDuration(options.min_duration) : undefined;
      const settings = parseSettings(options.setting);
      let window = resolveWindow(options, { horizon, defaultRangeMs: STS_DEFAULT_RANGE_MS, maxRangeMs: STS_MAX_RANGE_MS });

      // a cursor belongs to one query (its filters, as resolved) and carries the window of its first page
      const queryHash = createHash('sha256')
        .update(JSON.stringify([options.range ?? null, options.from ?? null, options.to ?? null, zone, vslId ?? null, minDurationMs ?? null, settings]))
        .digest('hex')
        .slice(0, 16);
      let before: { endAt: number; id: number } | undefined;
      if (options.cursor !== undefined) {
        const [, from, to, endAt, id, hash] = deps.cursors.read(options.cursor, PAGE_CURSOR, 'query.cursor');
        if (hash !== queryHash) throw new AppError('cursor_invalid', 'this cursor belongs to another query; start again without cursor', { field: 'query.cursor' });
        window = { from: Number(from), to: Math.min(Number(to), horizon) };
        before = { endAt: Number(endAt), id: Number(id) };
      }

      const rows = await deps.events.reads.encounters({
        from: window.from,
        to: window.to,
        ...(vslId !== undefined ? { vslId } : {}),
        ...(zone && 'key' in zone ? { zone: zone.key } : {}),
        ...(zone && 'box' in zone ? { bbox: zone.box } : {}),
        ...(minDurationMs !== undefined ? { minDurationMs } : {}),
        settings,
        ...(before ? { before } : {}),
        limit: options.limit + 1,
      });
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      const next = rows.length > options.limit && last ? deps.cursors.seal(`sts:${window.from}:${window.to}:${last.end_at}:${last.id}:${queryHash}`) : null;
      const analysed = await deps.events.analysedUpTo();
      const seenUpTo = analysed === null ? null : Math.min(analysed, horizon);
      return {
        data: { window: { from: iso(window.from), to: iso(window.to) }, items: page.map(view), next_cursor: next, analysed_up_to: seenUpTo === null ? null : iso(seenUpTo) },
        freshnessSeconds: seenUpTo === null ? 0 : Math.max(0, Math.round((deps.clock.now() - seenUpTo) / 1000)),
        qualityFlags: flagsFor(
          page.some((r) => r.simulated === 1),
          horizon < asked,
        ),
      };
    },
  };
}
export type StsService = ReturnType<typeof createStsService>;
