import { trackPage } from './track-page.js';
import type { Bus } from '../../bus/bus.js';
import { DAY, HOUR, iso, SECOND, type Clock } from '../../platform/clock.js';
import { storedFromRow, type FleetService, type VesselState } from '../../fleet/fleet-service.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import { createDelayedFixes } from '../../fleet/delayed-fixes.js';
import { shipCategory } from '../../fleet/ship-types.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import { PREVIEW } from '../kit/preview-constants.js';
import { delayCutoff, entitlementRequired, liveFor, needsVoyageChanges, presenceFor, vesselAccess, VOYAGE_WITHHELD_FLAG, type Presence, type TrialRecord, type VesselAccess } from './entitlements.js';
import { LOOKUP_RETENTION_DAYS, PREVIEW_LABEL_RETENTION_DAYS } from './limits.js';
import { identityConfidence, lowestConfidence, positionConfidence } from './confidence.js';
import { createLookupRecorder } from './lookup-recorder.js';
import type { LeaseSlots } from '../../limits/slots.js';
import { parseVesselRef, type VesselRef } from '../kit/vessel-ids.js';
import { parseTime, splitIds } from './vessel-query.js';
import { createVesselSearch, type SearchOptions } from './vessel-search.js';
import { createVesselUpdates, type UpdatesOptions } from './vessel-updates.js';
import { ageSeconds, flagsFor, isSimulated, lastPositionData, oldestAge, positionView, previewIdentity, searchItem, trackPoint, vesselRecord, type SeenFix } from './vessel-views.js';
import type { VesselsRepo } from './vessels-repo.js';
import { correctedIdentity, correctionList, OPERATOR_CORRECTED_FLAG, type Corrections } from '../kit/override-fields.js';

export type { PositionView } from './vessel-views.js';

export interface VesselsServiceDeps {
  fleet: FleetService;
  fleetReads: FleetReads;
  repo: VesselsRepo;
  bus: Bus;
  clock: Clock;
  cursors: CursorCodec;
  pollSlots: LeaseSlots;
  /** The snapshot trial record of an agent (read only for callers holding snapshot:read). */
  findTrial: (agentId: string) => Promise<TrialRecord | undefined>;
  onError?: (err: unknown, context: string) => void;
  /** Operator corrections of a vessel's identity (docs/feedback.md): served over the observed values, flagged operator_corrected. */
  corrections?: (vslId: string) => Corrections | undefined;
}

const TRACK_CURSOR = /^p:(\d{1,16})$/;

/**
 * The vessel endpoints, composed from query parsing (vessel-query), response shaping (vessel-views),
 * search ranking (vessel-search), the updates long poll (vessel-updates) and the buffered lookup
 * records (lookup-recorder).
 */
export function createVesselsService(deps: VesselsServiceDeps) {
  const { fleet, fleetReads, repo, clock, cursors } = deps;
  const recorder = createLookupRecorder({ repo, clock, onError: deps.onError });
  const delayedFixes = createDelayedFixes(fleetReads, deps.bus);
  const correctionsOf = deps.corrections ?? (() => undefined);
  /** The vessel as served: its corrections laid over a copy of the observed identity. */
  const served = (v: VesselState): VesselState => correctedIdentity(v, correctionsOf(v.vslId));
  /** Records carry `corrections` only when some field is corrected. */
  const withCorrections = <R extends object>(record: R, corrections: Corrections | undefined) => (corrections?.size ? { ...record, corrections: correctionList(corrections) } : record);
  const correctedFlag = (vessels: readonly VesselState[]): string[] => (vessels.some((v) => (correctionsOf(v.vslId)?.size ?? 0) > 0) ? [OPERATOR_CORRECTED_FLAG] : []);

  async function resolve(ref: VesselRef): Promise<VesselState> {
    const state = ref.kind === 'vsl_id' ? fleet.byVesselId(ref.vslId) : ref.kind === 'mmsi' ? fleet.byMmsiNumber(ref.mmsi) : fleet.byImoNumber(ref.imo);
    const found = state ?? (await fleet.loadVessel(ref.kind === 'vsl_id' ? { vslId: ref.vslId } : ref.kind === 'mmsi' ? { mmsi: ref.mmsi } : { imo: ref.imo }));
    if (!found) {
      const label = ref.kind === 'vsl_id' ? ref.vslId : ref.kind === 'mmsi' ? `MMSI ${ref.mmsi}` : `IMO ${ref.imo}`;
      throw new AppError('vessel_not_found', `no vessel with ${label} has been observed`);
    }
    return found;
  }

  /**
   * The position a caller may see: the live latest with the entitlement; otherwise the newest usable
   * position at least the preview delay old (the in-memory latest when it is that old already, else
   * the delayed-fix cache), or null.
   */
  async function visibleFix(v: VesselState, access: VesselAccess, now: number): Promise<SeenFix> {
    if (liveFor(access, v)) return { fix: v.latest, delayed: false };
    if (v.latest === null) return { fix: null, delayed: true };
    const cutoff = delayCutoff(now);
    if (v.latest.observedAt <= cutoff) return { fix: v.latest, delayed: true };
    const row = await delayedFixes.atOrBefore(v.vslId, cutoff);
    return { fix: row ? storedFromRow(row, v.mmsi) : null, delayed: true };
  }

  /** When the vessel was heard and its voyage, as this caller may see them (the voyage changes after the cutoff read only when needed). */
  async function presenceOf(v: VesselState, access: VesselAccess, seen: SeenFix, now: number): Promise<Presence> {
    const live = liveFor(access, v);
    const changes = needsVoyageChanges(v, live, now) ? await fleetReads.voyageChangesAfter(v.vslId, delayCutoff(now)) : [];
    return presenceFor(v, live, seen.fix?.observedAt ?? null, now, changes);
  }

  /** visibleFix for many vessels, a few store queries at a time. */
  async function visibleFixes(vessels: VesselState[], access: VesselAccess, now: number): Promise<SeenFix[]> {
    const out: SeenFix[] = [];
    const CONCURRENT = 16;
    for (let i = 0; i < vessels.length; i += CONCURRENT) {
      out.push(...(await Promise.all(vessels.slice(i, i + CONCURRENT).map((v) => visibleFix(v, access, now)))));
    }
    return out;
  }

  // search matches the identity as served: a corrected name is found, the observed one no longer (docs/feedback.md)
  const vesselSearch = createVesselSearch({
    vessels: function* () {
      for (const v of fleet.vessels()) yield served(v);
    },
    cursors,
    visibleFixes,
  });
  const longPoll = createVesselUpdates({ ...deps, resolveVslId: async (ref) => (await resolve(ref)).vslId });

  return {
    /** Writes buffered lookup records and preview labels every few seconds (serve). */
    start: recorder.start,
    async stop() {
      delayedFixes.stop();
      await recorder.stop();
    },
    /** Follows stored positions on the bus so that delayed positions are answered from memory (createBosun). */
    followPositions: delayedFixes.start,
    flushRecords: recorder.flush,

    /** What this agent may read (vessels:live, a snapshot trial, or delayed positions only). */
    access(agent: Parameters<typeof vesselAccess>[0]): Promise<VesselAccess> {
      return vesselAccess(agent, deps.findTrial, clock.now());
    },

    /** A vessel as served (operator corrections laid over it) and the position this caller may see (live, or delayed per decision 007); records no lookup. */
    async visible(ref: VesselRef, access: VesselAccess): Promise<{ vessel: VesselState } & SeenFix> {
      const v = await resolve(ref);
      return { vessel: served(v), ...(await visibleFix(v, access, clock.now())) };
    },

    /** visible, with when the vessel was heard and its voyage as this caller may see them (decision 109). */
    async visibleWithPresence(ref: VesselRef, access: VesselAccess): Promise<{ vessel: VesselState; presence: Presence } & SeenFix> {
      const v = await resolve(ref);
      const now = clock.now();
      const seen = await visibleFix(v, access, now);
      return { vessel: served(v), presence: await presenceOf(v, access, seen, now), ...seen };
    },

    async lookup(ref: VesselRef, agentId: string, access: VesselAccess) {
      const v = await resolve(ref);
      recorder.recordLookups([v], agentId, 'getVesselsLookup');
      const now = clock.now();
      const seen = await visibleFix(v, access, now);
      const presence = await presenceOf(v, access, seen, now);
      const dataAge = presence.lastSeenAt === null ? null : ageSeconds(now, presence.lastSeenAt);
      return {
        data: {
          vessel: withCorrections(vesselRecord(served(v), presence), correctionsOf(v.vslId)),
          latest_position: seen.fix ? positionView(seen.fix, now, seen.delayed) : null,
          data_age_seconds: dataAge,
        },
        // the oldest data returned: the position served when there is one (older than the newest observation)
        freshnessSeconds: Math.max(dataAge ?? 0, seen.fix ? ageSeconds(now, seen.fix.observedAt) : 0),
        confidence: lowestConfidence([identityConfidence(v), seen.fix ? positionConfidence(seen.fix.qualityFlags) : null]),
        qualityFlags: [...flagsFor(isSimulated(v), seen.delayed), ...(presence.voyageWithheld ? [VOYAGE_WITHHELD_FLAG] : []), ...correctedFlag([v])],
      };
    },

    async lastPosition(ref: VesselRef, agentId: string, access: VesselAccess) {
      const v = await resolve(ref);
      recorder.recordLookups([v], agentId, 'getVesselsLastPosition');
      const now = clock.now();
      const data = lastPositionData(served(v), await visibleFix(v, access, now), now);
      return {
        data,
        freshnessSeconds: data.position?.age_seconds ?? 0,
        confidence: data.position?.confidence ?? null,
        qualityFlags: [...new Set([...flagsFor(isSimulated(v), !liveFor(access, v)), ...(data.position?.quality_flags ?? []), ...correctedFlag([v])])],
      };
    },

    async search(options: SearchOptions, access: VesselAccess) {
      const now = clock.now();
      const { vessels, nextCursor, fixes } = await vesselSearch.visible(options, access, now);
      const delayed = vessels.some((v) => !liveFor(access, v));
      const oldest = fixes.reduce<number | null>((min, f) => (f.fix === null ? min : min === null ? f.fix.observedAt : Math.min(min, f.fix.observedAt)), null);
      return {
        data: {
          items: vessels.map((v, i) => searchItem(served(v), fixes[i]!, now)),
          next_cursor: nextCursor,
        },
        ...(oldest !== null ? { freshnessSeconds: ageSeconds(now, oldest) } : {}),
        confidence: lowestConfidence(vessels.map(identityConfidence)),
        qualityFlags: [...flagsFor(vessels.some(isSimulated), delayed), ...correctedFlag(vessels)],
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
          items.push({ id, status: 'ok' as const, result: lastPositionData(served(v), seen, now), error: null });
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          items.push({ id, status: 'error' as const, result: null, error: { code: err.code, message: err.message } });
        }
      }
      recorder.recordLookups([...new Set(found)], agentId, 'getVesselsWatchlist');
      return {
        data: { items, found: found.length, errors: items.length - found.length },
        ...(oldest !== null ? { freshnessSeconds: ageSeconds(now, oldest) } : {}),
        confidence: lowestConfidence(items.map((i) => i.result?.position?.confidence)),
        qualityFlags: [...flagsFor(found.some(isSimulated), delayed), ...correctedFlag(found)],
      };
    },

    async positions(ref: VesselRef, options: { from?: string; to?: string; limit: number; cursor?: string; downsample?: number; includeFlagged: boolean }, agentId: string, access: VesselAccess) {
      if (!access.live) throw entitlementRequired(access, 'Position history');
      const v = await resolve(ref);
      const now = clock.now();
      const to = options.to !== undefined ? parseTime(options.to, 'query.to') : now;
      const from = options.from !== undefined ? parseTime(options.from, 'query.from') : to - DAY;
      if (from > to) throw new AppError('invalid_request', 'from must not be after to', { field: 'query.from' });
      const after = options.cursor === undefined ? null : Number(cursors.read(options.cursor, TRACK_CURSOR, 'query.cursor')[1]);
      recorder.recordLookups([v], agentId, 'getVesselsByVslIdPositions');

      const { points, nextAfter } = await trackPage(fleetReads.track, v.vslId, { from, to, after }, options.includeFlagged, options.limit, options.downsample);
      const items = points.map((row) => trackPoint(storedFromRow(row, v.mmsi)));
      return {
        data: {
          vsl_id: v.vslId,
          mmsi: v.mmsi,
          from: iso(from),
          to: iso(to),
          downsample_seconds: options.downsample ?? null,
          items,
          next_cursor: nextAfter === null ? null : cursors.seal(`p:${nextAfter}`),
        },
        freshnessSeconds: oldestAge(points.map((row) => ageSeconds(now, Number(row.observed_at)))),
        confidence: lowestConfidence(items.map((i) => i.confidence)),
        qualityFlags: flagsFor(items.some((i) => i.simulated) || v.simulated),
      };
    },

    /** Long poll: answers as soon as positions after the cursor exist, or after `timeout` seconds. */
    updates(options: UpdatesOptions, agentId: string, access: VesselAccess, cancelled: { onCancel(listener: () => void): void }) {
      return longPoll(options, agentId, access, cancelled);
    },

    async popular(window: '24h' | '7d', limit: number) {
      await recorder.flush();
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
      const { vessels } = vesselSearch.byIdentity({ q, limit });
      return {
        data: {
          items: vessels.map((v) => previewIdentity(v)),
          note: `Identity only. Delayed positions (at least ${PREVIEW.positionDelaySeconds} s old): GET /v1/bootstrap/vessels/last_position?imo=…`,
        },
        qualityFlags: [...flagsFor(vessels.some((v) => v.simulated)), ...correctedFlag(vessels)],
      };
    },

    /**
     * The newest usable position at least PREVIEW.positionDelaySeconds old. A vessel without one
     * answers exactly like an unknown IMO, through the same delayed-fix cache.
     */
    async previewLastPosition(imoText: string) {
      const ref = parseVesselRef(imoText, 'query.imo', 'imo') as { kind: 'imo'; imo: number };
      const now = clock.now();
      const cutoff = now - PREVIEW.positionDelaySeconds * SECOND;
      const v = fleet.byImoNumber(ref.imo);
      const row = await delayedFixes.atOrBefore(v?.vslId ?? '', cutoff);
      if (!v || !row) {
        throw new AppError('vessel_not_found', `no position at least ${PREVIEW.positionDelaySeconds} s old is available for this IMO`, { field: 'query.imo' });
      }
      const observedAt = Number(row.observed_at);
      const simulated = v.simulated || row.simulated === 1;
      return {
        data: {
          vessel: previewIdentity(served(v), simulated),
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
        qualityFlags: [...flagsFor(simulated), ...correctedFlag([v])],
      };
    },

    /** Self-declared labels of a preview call; unverified, never used for access. */
    recordPreviewLabels: recorder.recordPreviewLabels,

    async enforceRetention() {
      await recorder.flush();
      const now = clock.now();
      const lookups = await repo.deleteLookupsBefore(now - LOOKUP_RETENTION_DAYS * DAY);
      const labels = await repo.deletePreviewLabelsBefore(now - PREVIEW_LABEL_RETENTION_DAYS * DAY);
      return { lookups_deleted: lookups, preview_labels_deleted: labels };
    },
  };
}

export type VesselsService = ReturnType<typeof createVesselsService>;
