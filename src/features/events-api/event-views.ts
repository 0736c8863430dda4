import { iso, isoOrNull } from '../../platform/clock.js';
import { CHOKEPOINTS } from '../../events/chokepoints.js';
import { GFW_ENCOUNTER_PARAMETERS } from '../../events/encounters.js';
import { GFW_GAP_PARAMETERS, GFW_LOITERING_PARAMETERS } from '../../events/loitering-gaps.js';
import { GFW_PORT_CALL_PARAMETERS, type Stop } from '../../events/port-calls.js';
import { distanceM } from '../../geo/distance.js';
import { inBBox } from '../../fleet/geo.js';
import { parseJson } from '../../store/dialect.js';
import type { AisGapRow, EncounterRow, LoiteringRow, PortCallRow, TransitRow } from '../events/event-rows.js';
import type { parseZone } from '../sts/sts-service.js';

/**
 * The stored events as GET /v1/events shows them, one shape for the five types (docs/decisions/112), and
 * the ports and chokepoint zones an area holds. Pure functions of the row and what it names: the vessel's
 * identity (vesselView) and the port.
 */

export interface EventVessel {
  vsl_id: string;
  mmsi: number | null;
  imo: number | null;
  name: string | null;
}
export type VesselViewOf = (vslId: string) => EventVessel;
export interface EventPort {
  lat: number;
  lon: number;
  name: string;
  locode: string | null;
}
export interface EventPortPoint {
  port_id: number;
  lat: number;
  lon: number;
}
export type EventArea = ReturnType<typeof parseZone>;

/** The published parameters each detector runs with (docs/decisions/019, 020, 021), as listed with every event. */
const PORT_CALL_DETECTOR = {
  name: 'port_call',
  parameters: {
    source: 'Global Fishing Watch port visits',
    enter_m: GFW_PORT_CALL_PARAMETERS.enterM,
    exit_m: GFW_PORT_CALL_PARAMETERS.exitM,
    stop_below_kn: GFW_PORT_CALL_PARAMETERS.stopBelowKn,
    move_above_kn: GFW_PORT_CALL_PARAMETERS.moveAboveKn,
    min_stop_seconds: GFW_PORT_CALL_PARAMETERS.minStopMs / 1000,
    gap_seconds: GFW_PORT_CALL_PARAMETERS.gapMs / 1000,
  },
};
const ENCOUNTER_DETECTOR = {
  name: 'encounter',
  parameters: {
    source: 'Global Fishing Watch encounters',
    max_distance_m: GFW_ENCOUNTER_PARAMETERS.maxDistanceM,
    min_duration_seconds: GFW_ENCOUNTER_PARAMETERS.minDurationMs / 1000,
    max_speed_kn: GFW_ENCOUNTER_PARAMETERS.maxSpeedKn,
    min_port_distance_m: GFW_ENCOUNTER_PARAMETERS.minPortDistanceM,
    near_port_max_distance_m: GFW_ENCOUNTER_PARAMETERS.nearPortMaxDistanceM,
    near_port_min_duration_seconds: GFW_ENCOUNTER_PARAMETERS.nearPortMinDurationMs / 1000,
  },
};
const LOITERING_DETECTOR = {
  name: 'loitering',
  parameters: {
    source: 'Global Fishing Watch loitering',
    max_mean_speed_kn: GFW_LOITERING_PARAMETERS.maxSpeedKn,
    min_duration_seconds: GFW_LOITERING_PARAMETERS.minDurationMs / 1000,
    min_shore_distance_nm: GFW_LOITERING_PARAMETERS.minShoreNm,
    max_silence_seconds: GFW_LOITERING_PARAMETERS.maxSilenceMs / 1000,
    shore: 'Natural Earth 1:10m land',
  },
};
const GAP_DETECTOR = {
  name: 'ais_gap',
  parameters: {
    source: 'Global Fishing Watch AIS gaps',
    min_gap_seconds: GFW_GAP_PARAMETERS.minGapMs / 1000,
    near_shore_nm: GFW_GAP_PARAMETERS.nearShoreNm,
    shore: 'Natural Earth 1:10m land',
  },
};
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The type-specific fields every event carries, null unless its type fills them (decision 112). Spread where `zone`
 * stands; a type's own values given after it keep this order in the answer.
 */
const NO_DETAILS = { zone: null, setting: null, direction: null, port: null, stops: null, durations: null, loitering: null, gap: null };

const evidenceOf = (observations: number, row: { first_seq: number; last_seq: number }, gaps: number | null = null) => ({
  observations,
  first_seq: row.first_seq,
  last_seq: row.last_seq,
  gaps,
});
const transitDetector = (zone: string) => {
  const gate = CHOKEPOINTS.find((c) => c.key === zone);
  return { name: 'chokepoint_transit', parameters: { source: 'Bosun chokepoint gates (IMF PortWatch centres)', radius_km: gate?.radiusKm ?? 0, axis_deg: gate?.axisDeg ?? 0 } };
};

export function portCallView(row: PortCallRow, port: EventPort | undefined, vesselView: VesselViewOf, horizon: number) {
  const stops = parseJson<Stop[]>(row.stops, []);
  return {
    event_id: `pc_${row.id}`,
    type: 'port_call' as const,
    vessel: vesselView(row.vsl_id),
    other_vessel: null,
    start_at: iso(row.arrival),
    end_at: isoOrNull(row.departure),
    duration_seconds: Math.max(0, Math.round(((row.departure ?? horizon) - row.arrival) / 1000)),
    position: port ? { lat: port.lat, lon: port.lon } : null,
    ...NO_DETAILS,
    port: { port_id: row.port_id, name: port?.name ?? null, locode: port?.locode ?? null },
    stops: stops.map((s) => ({ kind: s.kind, start_at: iso(s.start), end_at: iso(s.end), position: { lat: s.lat, lon: s.lon }, nav_status: s.navStatus })),
    durations: { anchorage_seconds: Math.round(row.anchorage_ms / 1000), berth_seconds: Math.round(row.berth_ms / 1000) },
    evidence: evidenceOf(row.fixes, row, row.gaps),
    confidence: row.confidence,
    detector: PORT_CALL_DETECTOR,
    simulated: row.simulated === 1,
  };
}

export function encounterView(row: EncounterRow, vesselView: VesselViewOf, asked: readonly string[] | undefined) {
  // the vessel asked for first, the other second
  const swap = asked !== undefined && !asked.includes(row.vsl_a) && asked.includes(row.vsl_b);
  return {
    event_id: `enc_${row.id}`,
    type: 'encounter' as const,
    vessel: vesselView(swap ? row.vsl_b : row.vsl_a),
    other_vessel: vesselView(swap ? row.vsl_a : row.vsl_b),
    start_at: iso(row.start_at),
    end_at: iso(row.end_at),
    duration_seconds: Math.round((row.end_at - row.start_at) / 1000),
    position: { lat: row.lat, lon: row.lon },
    ...NO_DETAILS,
    zone: row.zone,
    setting: row.setting,
    evidence: evidenceOf(row.observations, row),
    confidence: row.confidence,
    detector: ENCOUNTER_DETECTOR,
    simulated: row.simulated === 1,
  };
}

export function transitView(row: TransitRow, vesselView: VesselViewOf) {
  const gate = CHOKEPOINTS.find((c) => c.key === row.zone);
  return {
    event_id: `tr_${row.id}`,
    type: 'chokepoint_transit' as const,
    vessel: vesselView(row.vsl_id),
    other_vessel: null,
    start_at: iso(row.entered_at),
    end_at: iso(row.exited_at),
    duration_seconds: Math.round((row.exited_at - row.entered_at) / 1000),
    position: gate ? { lat: gate.lat, lon: gate.lon } : null,
    ...NO_DETAILS,
    zone: row.zone,
    direction: row.direction,
    evidence: evidenceOf(row.fixes, row),
    confidence: null,
    detector: transitDetector(row.zone),
    simulated: row.simulated === 1,
  };
}

export function loiteringView(row: LoiteringRow, vesselView: VesselViewOf) {
  return {
    event_id: `lt_${row.id}`,
    type: 'loitering' as const,
    vessel: vesselView(row.vsl_id),
    other_vessel: null,
    start_at: iso(row.start_at),
    end_at: iso(row.end_at),
    duration_seconds: Math.round((row.end_at - row.start_at) / 1000),
    position: { lat: row.lat, lon: row.lon },
    ...NO_DETAILS,
    loitering: { mean_speed_kn: round(row.mean_speed_kn, 2), distance_nm: round(row.distance_nm, 2), min_shore_distance_nm: round(row.min_shore_nm, 1) },
    evidence: evidenceOf(row.fixes, row),
    confidence: null,
    detector: LOITERING_DETECTOR,
    simulated: row.simulated === 1,
  };
}

export function gapView(row: AisGapRow, vesselView: VesselViewOf) {
  return {
    event_id: `gap_${row.id}`,
    type: 'ais_gap' as const,
    vessel: vesselView(row.vsl_id),
    other_vessel: null,
    start_at: iso(row.start_at),
    end_at: iso(row.end_at),
    duration_seconds: Math.round((row.end_at - row.start_at) / 1000),
    position: { lat: row.start_lat, lon: row.start_lon },
    ...NO_DETAILS,
    gap: {
      start_position: { lat: row.start_lat, lon: row.start_lon },
      end_position: { lat: row.end_lat, lon: row.end_lon },
      distance_nm: round(row.distance_nm, 2),
      implied_speed_kn: round(row.implied_speed_kn, 2),
      start_shore_distance_nm: round(row.start_shore_nm, 1),
      end_shore_distance_nm: round(row.end_shore_nm, 1),
      near_shore: row.near_shore === 1,
    },
    evidence: evidenceOf(2, row),
    confidence: null,
    detector: GAP_DETECTOR,
    simulated: row.simulated === 1,
  };
}

/** Ports whose position lies in the box, or within the chokepoint's gate. */
export function portsIn(area: EventArea, ports: readonly EventPortPoint[]): number[] {
  if ('box' in area) return ports.filter((p) => inBBox(area.box, p.lat, p.lon)).map((p) => p.port_id);
  const gate = CHOKEPOINTS.find((c) => c.key === area.key)!;
  return ports.filter((p) => distanceM(gate.lat, gate.lon, p.lat, p.lon) <= gate.radiusKm * 1000).map((p) => p.port_id);
}

export function zonesIn(area: EventArea): string[] {
  if ('key' in area) return [area.key];
  return CHOKEPOINTS.filter((c) => inBBox(area.box, c.lat, c.lon)).map((c) => c.key);
}

export type EventView = ReturnType<typeof portCallView> | ReturnType<typeof encounterView> | ReturnType<typeof transitView> | ReturnType<typeof loiteringView> | ReturnType<typeof gapView>;
