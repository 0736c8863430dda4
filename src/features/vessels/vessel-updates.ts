import type { Bus } from '../../bus/bus.js';
import { SECOND, type Clock } from '../../platform/clock.js';
import { storedFromRow, type FleetService } from '../../fleet/fleet-service.js';
import type { FleetReads } from '../../fleet/fleet-reads.js';
import { inBBox, type BBox } from '../../fleet/geo.js';
import { POSITIONS_TOPIC, type PositionsEvent } from '../../fleet/types.js';
import type { CursorCodec } from '../../http/cursor-codec.js';
import { AppError } from '../../platform/errors.js';
import { lowestConfidence } from './confidence.js';
import { entitlementRequired, type VesselAccess } from './entitlements.js';
import { MAX_CONCURRENT_POLLS, POLL_TIMEOUT_MAX } from './limits.js';
import { createPollHub } from './poll-hub.js';
import { createRecentPositions } from './recent-positions.js';
import type { LeaseSlots } from '../../limits/slots.js';
import { parseVesselRef, type VesselRef } from '../kit/vessel-ids.js';
import { parseBBox, splitIds } from './vessel-query.js';
import { ageSeconds, flagsFor, oldestAge, trackPoint } from './vessel-views.js';

export interface UpdatesOptions {
  since?: string;
  timeout: number;
  ids?: string;
  bbox?: string;
  limit: number;
}

export interface VesselUpdatesDeps {
  fleet: FleetService;
  fleetReads: FleetReads;
  bus: Bus;
  clock: Clock;
  cursors: CursorCodec;
  pollSlots: LeaseSlots;
  /** The vsl_id of a vessel reference given in `ids` (vessel_not_found when unknown). */
  resolveVslId: (ref: VesselRef) => Promise<string>;
}

const UPDATES_CURSOR = /^u:(\d{1,16})$/;

function eventMatches(event: PositionsEvent, after: number, filter: { vslIds?: Set<string>; bbox?: BBox }): boolean {
  return event.positions.some((p) => p.seq > after && p.usable && (!filter.vslIds || filter.vslIds.has(p.vslId)) && (!filter.bbox || inBBox(filter.bbox, p.lat, p.lon)));
}

/** The updates long poll (GET /v1/vessels/updates); waiting polls share one subscription (poll-hub.ts). */
export function createVesselUpdates(deps: VesselUpdatesDeps) {
  const { fleet, fleetReads, clock, cursors } = deps;
  const pollHub = createPollHub(deps.bus, POSITIONS_TOPIC);
  const recentPositions = createRecentPositions((after, head, filter, limit) => fleetReads.positionsAfter(after, head, { ...filter, usableOnly: true }, limit));
  const mmsiOf = (vslId: string): number => fleet.byVesselId(vslId)?.mmsi ?? 0;

  /** Long poll: answers as soon as positions after the cursor exist, or after `timeout` seconds. */
  return async function updates(options: UpdatesOptions, agentId: string, access: VesselAccess, cancelled: { onCancel(listener: () => void): void }) {
    if (!access.live) throw entitlementRequired(access, 'The updates stream');
    const bbox = parseBBox(options.bbox, 'query.bbox');
    let vslIds: string[] | undefined;
    if (options.ids !== undefined) {
      vslIds = [];
      for (const id of splitIds(options.ids, 'query.ids')) vslIds.push(await deps.resolveVslId(parseVesselRef(id, 'query.ids')));
    }
    let after = options.since === undefined ? null : Number(cursors.read(options.since, UPDATES_CURSOR, 'query.since')[1]);
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
          const rows = await recentPositions.read(from, head, { vslIds, bbox }, options.limit + 1);
          if (rows.length === 0) return null;
          const page = rows.slice(0, options.limit);
          const more = rows.length > options.limit;
          const cursor = more ? Number(page[page.length - 1]!.seq) : head;
          const items = page.map((row) => {
            const p = storedFromRow(row, mmsiOf(row.vsl_id));
            return { vsl_id: p.vslId, mmsi: p.mmsi, ...trackPoint(p) };
          });
          const data = { items, cursor: cursors.seal(`u:${cursor}`), more_available: more, timed_out: false };
          return {
            data,
            // every poll woken with this page sends the same items: serialise them once
            dataJson: JSON.stringify(data),
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
      return { data: { items: [], cursor: cursors.seal(`u:${after}`), more_available: false, timed_out: true }, qualityFlags: [] };
    } finally {
      if (timer) clearTimeout(timer);
      unsubscribe();
      await deps.pollSlots.release(agentId, lease);
    }
  };
}
