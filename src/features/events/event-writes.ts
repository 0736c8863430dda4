import type { PortCall } from '../../events/port-calls.js';
import type { DetectionPositionRow, FleetReads } from '../../fleet/fleet-reads.js';
import type { Store } from '../../store/db.js';
import { jsonText } from '../../store/dialect.js';
import type { Executor } from '../../store/transaction.js';
import type { DetectedEvents, DetectionFix } from './event-detection.js';
import type { AisGapWrite, EncounterWrite, EventsRepo, LoiteringWrite, PortCallWrite, TransitWrite } from './events-repo.js';

/**
 * What the detectors read and write: a stored position as the fix they take, each event they find as the
 * row the events repository stores, and the writing of a batch of found events.
 */

/**
 * Where found events go: the events repository, with the fleet's ship types for the port calls, and `together`,
 * which runs one batch's writes as one transaction (one commit, not one per statement: the detector following a
 * feed on PostgreSQL spent most of its time waiting on a WAL flush per statement, docs/decisions/174).
 */
export interface EventSink {
  repo: EventsRepo;
  shipTypes: FleetReads['shipTypes'];
  together: WriteTogether;
}

/** Runs `write` as one transaction of derived rows (src/store/dialect.ts `derivedCommit`). */
export type WriteTogether = (write: (ex: Executor) => Promise<void>) => Promise<void>;

/** One transaction, without lock keys (the detector's lease already makes its process the one writer), committing as derived rows. */
export function writeTogetherIn(store: Pick<Store, 'transaction' | 'dialect'>): WriteTogether {
  return (write) =>
    store.transaction([], async (trx) => {
      await store.dialect.derivedCommit()?.execute(trx);
      await write(trx);
    });
}

export const fixOf = (row: DetectionPositionRow): DetectionFix => ({
  seq: row.seq,
  vslId: row.vsl_id,
  t: row.observed_at,
  lat: row.lat,
  lon: row.lon,
  sog: row.sog,
  navStatus: row.nav_status,
  heading: row.heading,
  simulated: row.simulated === 1,
});

export function callRow(vslId: string, call: PortCall, shipType: number | null, simulated: boolean, lastFixAt: number, now: number): PortCallWrite {
  return {
    vsl_id: vslId,
    port_id: call.portId,
    ship_type: shipType,
    arrival: call.arrival,
    departure: call.departure,
    last_fix_at: lastFixAt,
    anchorage_ms: call.anchorageMs,
    berth_ms: call.berthMs,
    stops: jsonText(call.stops),
    first_seq: call.firstSeq,
    last_seq: call.lastSeq,
    fixes: call.fixes,
    gaps: call.gaps,
    confidence: call.confidence,
    simulated: simulated ? 1 : 0,
    updated_at: now,
  };
}

export function encounterWrite(e: DetectedEvents['encounters'][number], now: number): EncounterWrite {
  return {
    vsl_a: e.vessels[0],
    vsl_b: e.vessels[1],
    start_at: e.start,
    end_at: e.end,
    median_distance_m: e.medianDistanceM,
    lat: e.lat,
    lon: e.lon,
    zone: e.zone,
    setting: e.setting,
    observations: e.observations,
    first_seq: e.firstSeq,
    last_seq: e.lastSeq,
    confidence: e.confidence,
    simulated: e.simulated ? 1 : 0,
    updated_at: now,
  };
}

export function transitWrite(t: DetectedEvents['transits'][number], now: number): TransitWrite {
  return {
    vsl_id: t.vslId,
    zone: t.zone,
    direction: t.direction,
    entered_at: t.entered,
    exited_at: t.exited,
    mean_speed_kn: t.meanSpeedKn,
    stopped_ms: t.stoppedMs,
    first_seq: t.firstSeq,
    last_seq: t.lastSeq,
    fixes: t.fixes,
    simulated: t.simulated ? 1 : 0,
    updated_at: now,
  };
}

export function loiteringWrite(l: DetectedEvents['loitering'][number], now: number): LoiteringWrite {
  return {
    vsl_id: l.vslId,
    start_at: l.start,
    end_at: l.end,
    lat: l.lat,
    lon: l.lon,
    mean_speed_kn: l.meanSpeedKn,
    distance_nm: l.distanceNm,
    min_shore_nm: l.minShoreNm,
    fixes: l.fixes,
    first_seq: l.firstSeq,
    last_seq: l.lastSeq,
    simulated: l.simulated ? 1 : 0,
    updated_at: now,
  };
}

export function gapWrite(g: DetectedEvents['gaps'][number], now: number): AisGapWrite {
  return {
    vsl_id: g.vslId,
    start_at: g.start,
    end_at: g.end,
    start_lat: g.startLat,
    start_lon: g.startLon,
    end_lat: g.endLat,
    end_lon: g.endLon,
    distance_nm: g.distanceNm,
    implied_speed_kn: g.impliedSpeedKn,
    start_shore_nm: g.startShoreNm,
    end_shore_nm: g.endShoreNm,
    near_shore: g.nearShore ? 1 : 0,
    first_seq: g.firstSeq,
    last_seq: g.lastSeq,
    simulated: g.simulated ? 1 : 0,
    updated_at: now,
  };
}

/** Writes the events found whose start `keep` accepts (all by default); the counts written, by kind. */
export async function writeEvents(
  sink: EventSink,
  found: DetectedEvents,
  now: number,
  keep: (start: number) => boolean = () => true,
): Promise<{ calls: number; encounters: number; transits: number; loitering: number; gaps: number }> {
  const calls = found.calls.filter((c) => keep(c.arrival));
  const encounters = found.encounters.filter((e) => keep(e.start));
  const transits = found.transits.filter((t) => keep(t.entered));
  const loitering = found.loitering.filter((l) => keep(l.start));
  const gaps = found.gaps.filter((g) => keep(g.start));
  const types = calls.length > 0 ? await sink.shipTypes([...new Set(calls.map((c) => c.vslId))]) : new Map<string, number | null>();
  if (calls.length + encounters.length + transits.length + loitering.length + gaps.length > 0)
    await sink.together(async (ex) => {
      await sink.repo.upsertCalls(
        calls.map((c) => callRow(c.vslId, c, types.get(c.vslId) ?? null, c.simulated, c.departure ?? c.arrival, now)),
        ex,
      );
      await sink.repo.upsertEncounters(
        encounters.map((e) => encounterWrite(e, now)),
        ex,
      );
      await sink.repo.upsertTransits(
        transits.map((t) => transitWrite(t, now)),
        ex,
      );
      await sink.repo.upsertLoitering(
        loitering.map((l) => loiteringWrite(l, now)),
        ex,
      );
      await sink.repo.upsertGaps(
        gaps.map((g) => gapWrite(g, now)),
        ex,
      );
    });
  return { calls: calls.length, encounters: encounters.length, transits: transits.length, loitering: loitering.length, gaps: gaps.length };
}
