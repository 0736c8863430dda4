import type { CongestionCall } from '../../events/congestion.js';
import type { Stop } from '../../events/port-calls.js';
import { parseJson } from '../../store/dialect.js';
import type { Selectable } from 'kysely';
import type { AisGapsTable, EncountersTable, LoiteringEventsTable, PortCallsTable, TransitsTable } from '../../store/schema.js';

/** Stored events as the store returns them; other features read these types, never the events repository. */
export type PortCallRow = Selectable<PortCallsTable>;
export type EncounterRow = Selectable<EncountersTable>;
export type TransitRow = Selectable<TransitsTable>;
export type LoiteringRow = Selectable<LoiteringEventsTable>;
export type AisGapRow = Selectable<AisGapsTable>;

/** A stored call as the detectors and the congestion arithmetic read it (with the time of its last fix). */
export function portCallFromRow(row: PortCallRow): CongestionCall {
  return {
    lastFixAt: row.last_fix_at,
    portId: row.port_id,
    arrival: row.arrival,
    departure: row.departure,
    stops: parseJson<Stop[]>(row.stops, []),
    anchorageMs: row.anchorage_ms,
    berthMs: row.berth_ms,
    firstSeq: row.first_seq,
    lastSeq: row.last_seq,
    fixes: row.fixes,
    gaps: row.gaps,
    confidence: row.confidence,
  };
}
