// Port call and encounter rows as the detectors write them, for tests that seed the event store:
// a test names what it is about and takes the defaults for the rest.
import type { Insertable } from 'kysely';
import type { EncountersTable, PortCallsTable, TransitsTable } from '../../src/store/schema.js';

const HOUR = 3_600_000;
let nextSeq = 1;

type PortCallWrite = Insertable<PortCallsTable>;
type EncounterWrite = Insertable<EncountersTable>;

/**
 * A port call: a cargo ship (70), open unless `departure` is given, its last fix at departure (an hour after
 * arrival while open), 10 fixes, confidence 0.9, real data; sequence numbers from a counter of this module.
 */
export function portCallRow(call: Pick<PortCallWrite, 'vsl_id' | 'port_id' | 'arrival' | 'updated_at'> & Partial<PortCallWrite>): PortCallWrite {
  const departure = call.departure ?? null;
  return {
    ship_type: 70,
    departure,
    last_fix_at: departure ?? call.arrival + HOUR,
    anchorage_ms: 0,
    berth_ms: 0,
    stops: '[]',
    first_seq: nextSeq++,
    last_seq: nextSeq++,
    fixes: 10,
    gaps: 0,
    confidence: 0.9,
    simulated: 0,
    ...call,
  };
}

/** An encounter of three hours ending at `end_at`, 200 m apart, 36 observations, confidence 1, real data, open sea. */
export function encounterRow(encounter: Pick<EncounterWrite, 'vsl_a' | 'vsl_b' | 'end_at' | 'lat' | 'lon' | 'updated_at'> & Partial<EncounterWrite>): EncounterWrite {
  return {
    start_at: encounter.end_at - 3 * HOUR,
    median_distance_m: 200,
    zone: null,
    observations: 36,
    first_seq: nextSeq++,
    last_seq: nextSeq++,
    confidence: 1,
    simulated: 0,
    ...encounter,
  };
}

type TransitWrite = Insertable<TransitsTable>;

/** A transit of four hours through `zone` that left it at `exited_at`, eastbound, never stopped, 40 fixes, real data. */
export function transitRow(transit: Pick<TransitWrite, 'vsl_id' | 'zone' | 'exited_at' | 'updated_at'> & Partial<TransitWrite>): TransitWrite {
  return {
    direction: 'eastbound',
    entered_at: transit.exited_at - 4 * HOUR,
    mean_speed_kn: 12,
    stopped_ms: 0,
    first_seq: nextSeq++,
    last_seq: nextSeq++,
    fixes: 40,
    simulated: 0,
    ...transit,
  };
}
