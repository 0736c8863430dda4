import { createTransitDetector, emptyGateState, type GateState, type Transit } from '../../events/chokepoints.js';
import { createEncounterDetector, emptyEncounterState, GFW_ENCOUNTER_PARAMETERS, type Encounter, type EncounterState } from '../../events/encounters.js';
import { createPortCallDetector, emptyCallState, GFW_PORT_CALL_PARAMETERS, PortPointIndex, type Fix, type PortCall, type PortPoint, type VesselCallState } from '../../events/port-calls.js';
import { createGapDetector, createLoiteringDetector, shoreFromLand, type AisGap, type Loitering, type LoiterRun, type ShoreDistanceNm } from '../../events/loitering-gaps.js';
import type { PortAreaIndex } from '../../events/port-areas.js';
import { landIndex } from '../../geo/land.js';
import { BUILTIN_PORTS } from '../../geo/ports-builtin.js';
import { matchPort, type PortRecord } from '../ports/port-table.js';

/** One stored position as the detectors see it. */
export interface DetectionFix extends Fix {
  vslId: string;
  simulated: boolean;
}

/** Plain data: saved as JSON in the checkpoint and restored, detection carries on where it stopped. */
export interface DetectionState {
  calls: Record<string, VesselCallState>;
  gates: Record<string, GateState>;
  encounters: EncounterState;
  /** Last seen simulated flag per vessel (events from simulated positions are labelled simulated). */
  simulated: Record<string, boolean>;
  /** Loitering runs under way, by vessel. */
  loitering: Record<string, LoiterRun>;
  /** Ongoing calls written to the store (by vessel: arrival), to be removed if they end without a stop. */
  written: Record<string, number>;
  /** Newest observation time seen. */
  dataTime: number | null;
}

export const emptyDetectionState = (): DetectionState => ({ calls: {}, gates: {}, encounters: emptyEncounterState(), simulated: {}, loitering: {}, written: {}, dataTime: null });

export interface DetectedEvents {
  calls: Array<PortCall & { vslId: string; simulated: boolean }>;
  encounters: Array<Encounter & { simulated: boolean; zone: string | null }>;
  transits: Array<Transit & { vslId: string; simulated: boolean }>;
  loitering: Array<Loitering & { vslId: string; simulated: boolean }>;
  gaps: Array<AisGap & { vslId: string; simulated: boolean }>;
}

/** Vessels whose call is under way (read from the state alone: no detector is needed). */
export function vesselsInPort(state: DetectionState): string[] {
  return Object.entries(state.calls)
    .filter(([, s]) => s.call !== null)
    .map(([id]) => id);
}

/** One vessel's objects in a detection state (see `slotOf`). */
interface VesselSlot {
  calls: VesselCallState;
  gate: GateState;
  simulated: boolean;
  /** Whether the state's loitering record holds a run for the vessel. */
  loitering: boolean;
}

export const noEvents = (): DetectedEvents => ({ calls: [], encounters: [], transits: [], loitering: [], gaps: [] });

/** Distance to shore from Natural Earth 1:10m land, the index built on first use. */
const naturalEarthShore: ShoreDistanceNm = (lat, lon, maxNm) => shoreFromLand(landIndex())(lat, lon, maxNm);

/**
 * The points a port call is detected against: every table port's position and anchorage points, plus
 * the berth and anchorage spots of the simulator's 99 ports as points of the table port each matches
 * (the demo fleet anchors and berths there; docs/decisions/028-event-store-and-detector-runner.md).
 */
export function portPoints(ports: readonly PortRecord[]): PortPoint[] {
  const points: PortPoint[] = ports.flatMap((p) => [{ portId: p.port_id, lat: p.lat, lon: p.lon }, ...p.anchorages.map(([lat, lon]) => ({ portId: p.port_id, lat, lon }))]);
  for (const sim of BUILTIN_PORTS) {
    const table = matchPort(ports, sim);
    if (table) points.push({ portId: table.port_id, lat: sim.lat, lon: sim.lon }, { portId: table.port_id, lat: sim.anchorage.lat, lon: sim.anchorage.lon });
  }
  return points;
}

/**
 * Port calls, encounters, chokepoint transits, loitering and AIS gaps from positions, with the detectors'
 * published defaults. `areas`: the stored port areas, the port-call detector's geography where they lie
 * (docs/decisions/120); without them the port points and the on-the-fly rule.
 */
export function createEventDetection(ports: readonly PortRecord[], shoreNm: ShoreDistanceNm = naturalEarthShore, areas: PortAreaIndex | null = null) {
  const index = new PortPointIndex(portPoints(ports));
  const callDetector = createPortCallDetector(index, GFW_PORT_CALL_PARAMETERS, new Map(ports.map((p) => [p.port_id, p])), areas);
  // the state the encounter detector asks about is the one being fed (set in push)
  let fed: DetectionState | null = null;
  const stoppedAs = (vslId: string, from: number, to: number) => {
    const calls = fed?.calls[vslId];
    if (!calls) return null;
    return from === to ? callDetector.stoppedAs(calls) : callDetector.stoppedDuring(calls, from, to);
  };
  const stillStopped = (vslId: string, t: number) => {
    const calls = fed?.calls[vslId];
    return calls ? callDetector.stillStoppedSince(calls, t) : false;
  };
  const encounterDetector = createEncounterDetector(index, GFW_ENCOUNTER_PARAMETERS, { kindOf: stoppedAs, stillStopped, onLand: (lat, lon) => landIndex().isLand(lon, lat) });
  const transitDetector = createTransitDetector();
  const loiteringDetector = createLoiteringDetector(shoreNm);
  const gapDetector = createGapDetector(shoreNm);

  // Per vessel, the state's own objects for it, found with one lookup per fix instead of one per record. Only
  // `push` adds to these records and `flushLoitering` replaces the loitering one, so the slots hold while the
  // same state (and the same loitering record) comes in; another one empties them.
  let slotsFor: DetectionState | null = null;
  let slotsLoitering: DetectionState['loitering'] | null = null;
  const slots = new Map<string, VesselSlot>();
  const slotOf = (state: DetectionState, vslId: string, simulated: boolean): VesselSlot => {
    if (slotsFor !== state || slotsLoitering !== state.loitering) {
      slots.clear();
      slotsFor = state;
      slotsLoitering = state.loitering;
    }
    let slot = slots.get(vslId);
    if (slot === undefined) {
      state.simulated[vslId] = simulated;
      slot = { calls: (state.calls[vslId] ??= emptyCallState()), gate: (state.gates[vslId] ??= emptyGateState()), simulated, loitering: state.loitering[vslId] !== undefined };
      slots.set(vslId, slot);
    } else if (slot.simulated !== simulated) {
      state.simulated[vslId] = simulated;
      slot.simulated = simulated;
    }
    return slot;
  };

  const encounterOut = (state: DetectionState, encounter: Encounter) => ({
    ...encounter,
    simulated: (state.simulated[encounter.vessels[0]] ?? false) || (state.simulated[encounter.vessels[1]] ?? false),
    zone: transitDetector.gateAt(encounter.lat, encounter.lon)?.key ?? null,
  });

  return {
    /** Feeds one fix; what it completed is added to `out`. */
    push(state: DetectionState, fix: DetectionFix, out: DetectedEvents): void {
      fed = state;
      const slot = slotOf(state, fix.vslId, fix.simulated);
      if (state.dataTime === null || fix.t > state.dataTime) state.dataTime = fix.t;
      const calls = slot.calls;
      const detectorFix = { seq: fix.seq, t: fix.t, lat: fix.lat, lon: fix.lon, sog: fix.sog, navStatus: fix.navStatus, heading: fix.heading ?? null };
      // the vessel's previous fix is the port-call state's, read before that detector moves it on
      const gap = calls.last && fix.t >= calls.last.t ? gapDetector.between(calls.last, detectorFix) : null;
      if (gap) out.gaps.push({ ...gap, vslId: fix.vslId, simulated: fix.simulated });
      const runs = state.loitering;
      const loiter = loiteringDetector.push(slot.loitering ? (runs[fix.vslId] ?? null) : null, detectorFix, calls.last);
      if (loiter.run) runs[fix.vslId] = loiter.run;
      else if (slot.loitering) delete runs[fix.vslId];
      slot.loitering = Boolean(loiter.run);
      if (loiter.done) out.loitering.push({ ...loiter.done, vslId: fix.vslId, simulated: fix.simulated });
      for (const call of callDetector.push(calls, detectorFix)) out.calls.push({ ...call, vslId: fix.vslId, simulated: fix.simulated });
      const transit = transitDetector.push(slot.gate, detectorFix);
      if (transit) out.transits.push({ ...transit, vslId: fix.vslId, simulated: fix.simulated });
      for (const encounter of encounterDetector.push(state.encounters, { vesselId: fix.vslId, seq: fix.seq, t: fix.t, lat: fix.lat, lon: fix.lon, sog: fix.sog })) {
        out.encounters.push(encounterOut(state, encounter));
      }
    },

    /** Completes the encounters parted by `now` (Infinity at the end of a replay). */
    flushEncounters(state: DetectionState, now: number, out: DetectedEvents): void {
      fed = state;
      for (const encounter of encounterDetector.flush(state.encounters, now)) out.encounters.push(encounterOut(state, encounter));
    },

    /** Ends every loitering run (end of a replay): those long enough are complete at their last fix. */
    flushLoitering(state: DetectionState, out: DetectedEvents): void {
      for (const [vslId, run] of Object.entries(state.loitering)) {
        const done = loiteringDetector.close(run);
        if (done) out.loitering.push({ ...done, vslId, simulated: state.simulated[vslId] ?? false });
      }
      state.loitering = {};
    },

    /** The call under way for a vessel, as it stands; null when none or it has no stop long enough to be a call yet. */
    ongoing(state: DetectionState, vslId: string): PortCall | null {
      const calls = state.calls[vslId];
      const call = calls ? callDetector.current(calls) : null;
      return call && call.stops.some((s) => s.end - s.start >= GFW_PORT_CALL_PARAMETERS.minStopMs) ? call : null;
    },
  };
}
export type EventDetection = ReturnType<typeof createEventDetection>;
