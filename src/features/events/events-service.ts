import type { Caller } from '../../access/principals.js';
import type { Clock } from '../../platform/clock.js';
import { DELAY_SECONDS, LIVE_SCOPE } from '../vessels/entitlements.js';
import type { EventRunner } from './event-runner.js';
import { LIVE_DETECTOR } from './event-runner.js';
import type { EventsRepo } from './events-repo.js';
import type { PortAreasService } from './port-areas-service.js';

/**
 * The event store's reads that other features use, by name (a declared read model): they never hold the
 * repository, whose writes (calls, voyages, encounters, transits, checkpoints) belong to the detectors.
 */
function eventReads(repo: EventsRepo) {
  return {
    vesselTimeline: repo.vesselTimeline,
    encounters: repo.encounters,
    encountersInBox: repo.encountersInBox,
    callsAtPort: repo.callsAtPort,
    callsArrivedBetween: repo.callsArrivedBetween,
    callSpansArrivedBetween: repo.callSpansArrivedBetween,
    callsDepartedAt: repo.callsDepartedAt,
    transits: repo.transits,
    checkpoint: repo.checkpoint,
  };
}
export type EventReads = ReturnType<typeof eventReads>;

/** What every events operation needs: the runner, the store's reads, and what a caller may see. */
export function createEventsService(deps: { repo: EventsRepo; runner: EventRunner; areas: PortAreasService; clock: Clock }) {
  return {
    runner: deps.runner,
    reads: eventReads(deps.repo),
    /** Stored port areas (docs/decisions/116). */
    areas: deps.areas,
    /** Brings the voyage cells of [from, to) up to date with the voyages before a read of them (docs/decisions/149). */
    voyageCellsUpToDate: (range: { from: number; to: number }) => deps.repo.sumMarkedVoyageCells(range),
    /** Counts the marked visit cells of the days in [from, to) again before a visit-rank read of them (docs/decisions/161). */
    visitCellsUpToDate: (range: { from: number; to: number }) => deps.repo.countMarkedVisitCells(range),
    /** Counts the visit bounds of the vessels whose calls changed before `before` again, before a visit-rank read by vessel of a window ending there (docs/decisions/165). */
    visitBoundsUpToDate: (before: number) => deps.repo.countMarkedVisitBounds({ before }),

    /**
     * The latest moment a caller's analysis may use (docs/decisions/029-event-visibility.md): now for
     * holders of vessels:live and the operator, now − the preview delay for everyone else, so no
     * position fresher than the delay shows through an event, a count or a time.
     */
    horizon(caller: Caller): number {
      const now = deps.clock.now();
      const live = caller.kind === 'operator' || (caller.kind === 'agent' && caller.agent.scopes.has(LIVE_SCOPE));
      return live ? now : now - DELAY_SECONDS * 1000;
    },

    /** Observation time of the newest position the detectors have analysed (any process), or null before any. */
    async analysedUpTo(): Promise<number | null> {
      const own = deps.runner.status();
      if (own.holdsLease) return own.dataTime;
      return deps.repo.checkpointDataTime(LIVE_DETECTOR);
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
