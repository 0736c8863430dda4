import { isoOrNull, type Clock } from '../../platform/clock.js';
import type { PortCall } from '../../events/port-calls.js';
import { PortAreaIndex, type StoredPortArea } from '../../events/port-areas.js';
import type { DetectionPositionRow, FleetReads } from '../../fleet/fleet-reads.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import type { PortRecord } from '../ports/port-table.js';
import { createEventDetection, emptyDetectionState, noEvents, vesselsInPort, type DetectionState, type EventDetection } from './event-detection.js';
import type { EventsRepo } from './events-repo.js';
import { callRow, fixOf, writeEvents, type EventSink, type WriteTogether } from './event-writes.js';

/** The checkpoint row of the live detector. */
export const LIVE_DETECTOR = 'events';

export interface EventRunnerDeps {
  repo: EventsRepo;
  /** Runs one batch's writes as one transaction (`writeTogetherIn(store)`). */
  together: WriteTogether;
  fleetReads: Pick<FleetReads, 'headSeq' | 'usableForDetectionAfter' | 'usableByTime' | 'shipTypes'>;
  /** The current port table (read on first use). */
  ports: () => readonly PortRecord[];
  /**
   * The stored port areas (docs/decisions/120): `version` changes whenever they do (a rebuild, an
   * operator correction, in any process); `load` reads them. Without it the detector uses the points.
   */
  areas?: { version(): Promise<string>; load(): Promise<StoredPortArea[]> };
  /** How often the areas' version is read while following the stream (wall clock; default a minute). */
  areasCheckEveryMs?: number;
  clock: Clock;
  /** This process, as the holder of the detector lease. */
  owner: string;
  /** Positions read per step. */
  batchSize?: number;
  /** How often the state is saved while following the stream (wall clock). */
  checkpointEveryMs?: number;
  /** Once caught up with the stream, the calls under way are written at most this often (wall clock; docs/decisions/078). */
  ongoingEveryMs?: number;
  leaseMs?: number;
}

export interface EventRunnerStatus {
  holdsLease: boolean;
  cursorSeq: number;
  /** Observation time up to which the store counts what was analysed: the calls under way are written up to it. */
  dataTime: number | null;
  vesselsInPort: number;
  lastStepAt: number | null;
}

export interface RebuildReport {
  from: number;
  to: number;
  positions: number;
  deleted: { calls: number; encounters: number; transits: number; loitering: number; gaps: number };
  written: { calls: number; ongoingCalls: number; encounters: number; transits: number; loitering: number; gaps: number };
}

/**
 * The first `limit` usable positions with head ≥ seq > after, in seq order: the rows of one
 * `usableForDetectionAfter(after, head, limit)`, read as queries over windows of at most `limit`
 * sequence numbers (doubled after an empty window, for a gap in seq). One query over the whole range
 * reads every row behind the cursor on PostgreSQL when the planner has no statistics for a new day's
 * partition (a bitmap scan, then a top-N sort): a detector behind by N positions then paid O(N) per
 * batch. A window costs O(limit) whatever the plan (bench/RESULTS.md, issue 31).
 */
export async function usableBatchAfter(reads: Pick<FleetReads, 'usableForDetectionAfter'>, after: number, head: number, limit: number): Promise<DetectionPositionRow[]> {
  const rows: DetectionPositionRow[] = [];
  let from = after;
  let span = limit;
  while (rows.length < limit && from < head) {
    const to = Math.min(head, from + span);
    const wanted = limit - rows.length;
    const read = await reads.usableForDetectionAfter(from, to, wanted);
    for (const row of read) rows.push(row);
    from = read.length === wanted ? read[read.length - 1]!.seq : to;
    span = read.length === 0 ? span * 2 : limit;
  }
  return rows;
}

/** Stable order for replaying a batch: by observation time, then store order. */
const byTime = (a: DetectionPositionRow, b: DetectionPositionRow) => a.observed_at - b.observed_at || a.seq - b.seq;

/**
 * Runs the event detectors over the stored position stream (docs/decisions/028): the live runner
 * follows positions by sequence number from its checkpoint, under a store lease so that one process
 * detects at a time; `rebuild` replays a time range of stored history from a fresh state.
 */
export function createEventRunner(deps: EventRunnerDeps) {
  const batchSize = deps.batchSize ?? 2000;
  const checkpointEveryMs = deps.checkpointEveryMs ?? 30_000;
  const leaseMs = deps.leaseMs ?? 60_000;
  const ongoingEveryMs = deps.ongoingEveryMs ?? 5_000;
  const areasCheckEveryMs = deps.areasCheckEveryMs ?? 60_000;
  let detection: { table: readonly PortRecord[]; areas: PortAreaIndex | null; detectors: EventDetection } | null = null;
  /** The stored areas as last loaded (null: none loaded yet, or none stored), their version, when it was last read. */
  let areaIndex: PortAreaIndex | null = null;
  let areaVersion: string | null = null;
  let areasCheckedAt = -Infinity;
  /**
   * The detectors over the current port table and stored areas: rebuilt when either changes (a port
   * import, an areas rebuild or correction); the state carries on (it holds no geography).
   */
  const detectors = (): EventDetection => {
    const table = deps.ports();
    if (detection?.table !== table || detection.areas !== areaIndex) detection = { table, areas: areaIndex, detectors: createEventDetection(table, undefined, areaIndex) };
    return detection.detectors;
  };
  /** Reads the areas' version (at most every `areasCheckEveryMs` unless forced) and loads the areas when it changed. */
  async function refreshAreas(now: number, force = false): Promise<void> {
    if (!deps.areas || (!force && now - areasCheckedAt < areasCheckEveryMs)) return;
    areasCheckedAt = now;
    const version = await deps.areas.version();
    if (version === areaVersion) return;
    const rows = await deps.areas.load();
    areaIndex = rows.length > 0 ? new PortAreaIndex(rows) : null;
    areaVersion = version;
  }

  let state: DetectionState | null = null;
  let cursorSeq = 0;
  let holdsLease = false;
  let leaseUntil = 0;
  let lastCheckpointAt = 0;
  let lastOngoingAt = 0;
  /** The state's data time when the calls under way were last written: what an answer from the store stands on. */
  let countedTo: number | null = null;
  let lastStepAt: number | null = null;
  /** Vessels whose ongoing call changed since it was last written. */
  const changedInPort = new Set<string>();
  /** Calls completed since the last checkpoint ("vessel|arrival"): rewritten with their departure, not to be removed. */
  const endedAsCall = new Set<string>();
  let running: Promise<unknown> = Promise.resolve();
  const sink: EventSink = { repo: deps.repo, shipTypes: (vslIds) => deps.fleetReads.shipTypes(vslIds), together: deps.together };

  /** Writes (or rewrites) the calls under way of the given vessels; removes written ones that ended as no call. */
  async function writeOngoing(current: DetectionState, vessels: Iterable<string>, endedAsCall: ReadonlySet<string>, now: number, keep: (start: number) => boolean = () => true): Promise<number> {
    const rows: Array<{ vslId: string; call: PortCall }> = [];
    const gone: Array<{ vslId: string; arrival: number }> = [];
    for (const vslId of vessels) {
      const call = detectors().ongoing(current, vslId);
      const written = current.written[vslId];
      if (written !== undefined && written !== call?.arrival) {
        // the written call ended: as a call (already rewritten with its departure) or as none (removed)
        if (!endedAsCall.has(`${vslId}|${written}`)) gone.push({ vslId, arrival: written });
        delete current.written[vslId];
      }
      if (call && keep(call.arrival)) {
        rows.push({ vslId, call });
        current.written[vslId] = call.arrival;
      }
    }
    if (gone.length === 0 && rows.length === 0) return 0;
    const types = rows.length > 0 ? await deps.fleetReads.shipTypes([...new Set(rows.map((r) => r.vslId))]) : new Map<string, number | null>();
    await deps.together(async (ex) => {
      if (gone.length > 0) await deps.repo.deleteCalls(gone, ex);
      if (rows.length > 0)
        await deps.repo.upsertCalls(
          rows.map(({ vslId, call }) => callRow(vslId, call, types.get(vslId) ?? null, current.simulated[vslId] ?? false, current.calls[vslId]?.last?.t ?? call.arrival, now)),
          ex,
        );
    });
    return rows.length;
  }

  async function restore(): Promise<void> {
    const saved = await deps.repo.checkpoint(LIVE_DETECTOR);
    cursorSeq = saved?.cursor_seq ?? 0;
    const restored = parseJson<Partial<DetectionState> | null>(saved?.state, null);
    state = restored && restored.calls ? { ...emptyDetectionState(), ...restored } : emptyDetectionState();
    countedTo = saved?.data_time ?? null;
  }

  async function ensureLease(now: number): Promise<boolean> {
    if (holdsLease && now < leaseUntil - leaseMs / 2) return true;
    const held = await deps.repo.claimLease(LIVE_DETECTOR, deps.owner, now, leaseMs);
    if (held && !holdsLease) await restore(); // another process may have moved the checkpoint on
    holdsLease = held;
    leaseUntil = held ? now + leaseMs : 0;
    return held;
  }

  /** Writes the calls under way that changed: from then on the store counts everything analysed. */
  async function flushOngoing(now: number): Promise<void> {
    if (!state) return;
    const dataTime = state.dataTime;
    await writeOngoing(state, changedInPort, endedAsCall, now);
    changedInPort.clear();
    endedAsCall.clear();
    countedTo = dataTime;
    lastOngoingAt = now;
  }

  async function checkpoint(now: number): Promise<void> {
    if (!state || !holdsLease) return;
    await flushOngoing(now);
    const saved = await deps.repo.saveCheckpoint(LIVE_DETECTOR, deps.owner, { cursorSeq, state: jsonText(state), dataTime: state.dataTime }, now);
    if (!saved) holdsLease = false;
    lastCheckpointAt = now;
  }

  /** Pairs not seen together for the parting time have parted: the next fix would end them, an import's last ones never get one. */
  async function flushParted(current: DetectionState, now: number): Promise<void> {
    const parted = noEvents();
    detectors().flushEncounters(current, now, parted);
    if (parted.encounters.length > 0) await writeEvents(sink, parted, now);
  }

  /** One batch of the stream; the number of positions read (0: caught up, or another process holds the lease). */
  async function step(): Promise<number> {
    const now = deps.clock.now();
    lastStepAt = now;
    if (!(await ensureLease(now))) return 0;
    await refreshAreas(now);
    const current = state!;
    const head = await deps.fleetReads.headSeq();
    if (head <= cursorSeq) {
      // nothing new: what was analysed is written now (an import on an idle server counts at once)
      if (changedInPort.size > 0 || endedAsCall.size > 0) await flushOngoing(now);
      await flushParted(current, now);
      return 0;
    }
    const rows = await usableBatchAfter(deps.fleetReads, cursorSeq, head, batchSize);
    const found = noEvents();
    const detect = detectors();
    for (const row of [...rows].sort(byTime)) {
      const fix = fixOf(row);
      detect.push(current, fix, found);
      if (current.calls[fix.vslId]?.call) changedInPort.add(fix.vslId);
    }
    for (const call of found.calls) {
      endedAsCall.add(`${call.vslId}|${call.arrival}`);
      changedInPort.add(call.vslId);
    }
    await writeEvents(sink, found, now);
    cursorSeq = rows.length === batchSize ? rows[rows.length - 1]!.seq : head;
    if (now - lastCheckpointAt >= checkpointEveryMs) await checkpoint(now);
    // caught up (an import on an idle server, or the live feed): the calls under way count at once, not at the next checkpoint
    else if (rows.length < batchSize && changedInPort.size > 0 && now - lastOngoingAt >= ongoingEveryMs) await flushOngoing(now);
    else if (changedInPort.size === 0 && endedAsCall.size === 0) countedTo = current.dataTime;
    return rows.length;
  }

  function status(): EventRunnerStatus {
    return { holdsLease, cursorSeq, dataTime: countedTo, vesselsInPort: state ? vesselsInPort(state).length : 0, lastStepAt };
  }

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = running.then(fn, fn);
    running = next.catch(() => {});
    return next;
  };

  return {
    /** One step of the live detector. */
    step: () => serial(step),

    /** The stored areas changed in this process (rebuilt, corrected): the next step reads them. */
    areasChanged(): void {
      areasCheckedAt = -Infinity;
    },

    /** Steps until caught up or `budgetMs` has passed (the scheduler's job, every two seconds). */
    follow: (budgetMs: number) =>
      serial(async () => {
        const start = deps.clock.now();
        let total = 0;
        for (;;) {
          const read = await step();
          total += read;
          if (read < batchSize || deps.clock.now() - start >= budgetMs) break;
        }
        // the lanes' voyage cells of the days just written, summed here rather than by the next request (decision 149)
        if (total > 0) await deps.repo.sumMarkedVoyageCells();
        return total;
      }),

    /** Reads the stream up to its head and saves the state: what the store holds is analysed. */
    catchUp: () =>
      serial(async () => {
        let total = 0;
        for (;;) {
          const read = await step();
          total += read;
          if (read < batchSize) break;
        }
        if (state && holdsLease) await flushParted(state, deps.clock.now());
        await checkpoint(deps.clock.now());
        await deps.repo.sumMarkedVoyageCells();
        return total;
      }),

    /** Saves the state and gives the lease up (process stop). */
    stop: () =>
      serial(async () => {
        if (!holdsLease) return;
        await checkpoint(deps.clock.now());
        await deps.repo.releaseLease(LIVE_DETECTOR, deps.owner);
        holdsLease = false;
      }),

    /** For /v1/status (component `events`). */
    statusReporter: () => ({
      name: 'events',
      report: () => {
        const s = status();
        return { holds_lease: s.holdsLease, cursor_seq: s.cursorSeq, analysed_to: isoOrNull(s.dataTime), vessels_in_port: s.vesselsInPort, last_step_at: isoOrNull(s.lastStepAt) };
      },
    }),

    status,

    /**
     * Replays stored positions observed in [from − warm-up, to] from a fresh state, after deleting the
     * events that began in [from, to]; writes the events that began in the range (calls still under way
     * at `to` as ongoing). The live detector's checkpoint is not touched.
     */
    rebuild: (range: { from: number; to: number; warmupMs?: number; onProgress?: (positions: number, t: number) => void }) =>
      serial(async (): Promise<RebuildReport> => {
        const now = deps.clock.now();
        const warmup = range.warmupMs ?? 12 * 3_600_000;
        const keep = (start: number) => start >= range.from && start <= range.to;
        await refreshAreas(now, true);
        const deleted = await deps.repo.deleteStartedBetween(range.from, range.to);
        const replay = emptyDetectionState();
        const written = { calls: 0, ongoingCalls: 0, encounters: 0, transits: 0, loitering: 0, gaps: 0 };
        let after: { observedAt: number; seq: number } | null = null;
        let positions = 0;
        for (;;) {
          const rows = await deps.fleetReads.usableByTime(range.from - warmup, range.to, after, batchSize);
          if (rows.length === 0) break;
          const found = noEvents();
          const detect = detectors();
          for (const row of rows) detect.push(replay, fixOf(row), found);
          const n = await writeEvents(sink, found, now, keep);
          written.calls += n.calls;
          written.encounters += n.encounters;
          written.transits += n.transits;
          written.loitering += n.loitering;
          written.gaps += n.gaps;
          positions += rows.length;
          const last = rows[rows.length - 1]!;
          after = { observedAt: last.observed_at, seq: last.seq };
          range.onProgress?.(positions, last.observed_at);
          if (rows.length < batchSize) break;
        }
        const found = noEvents();
        detectors().flushEncounters(replay, Infinity, found);
        // a run still slow and offshore at the end of the range ends at its last fix (the live detector rewrites one with the same start)
        detectors().flushLoitering(replay, found);
        const n = await writeEvents(sink, found, now, keep);
        written.encounters += n.encounters;
        written.loitering += n.loitering;
        written.ongoingCalls = await writeOngoing(replay, vesselsInPort(replay), new Set(), now, keep);
        await deps.repo.sumMarkedVoyageCells();
        return { from: range.from, to: range.to, positions, deleted, written };
      }),
  };
}
export type EventRunner = ReturnType<typeof createEventRunner>;
