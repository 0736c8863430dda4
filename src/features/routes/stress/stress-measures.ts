import { DAY } from '../../../platform/clock.js';

/** A voyage is two consecutive calls of one vessel at different ports at most this far apart (departure to arrival). */
export const MAX_VOYAGE_MS = 30 * DAY;

/** A port call's span as the stress measures read it. */
export interface CallFacts {
  vsl_id: string;
  port_id: number;
  arrival: number;
  departure: number | null;
  last_fix_at: number;
  simulated: number;
}

/** A gate transit as the stress measures read it. */
export interface TransitFacts {
  vsl_id: string;
  entered_at: number;
  exited_at: number;
  stopped_ms: number;
}

export interface Voyage {
  vslId: string;
  fromPort: number;
  toPort: number;
  departed: number;
  arrived: number;
  simulated: boolean;
}

const overlapMs = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * Time a transit stood still in the gate that was not a port call (decision 118): its stopped time less
 * the time its vessel spent in port calls while inside the gate. A call at a port within the gate
 * (Tanger Med in Gibraltar's) is port congestion, not waiting in the strait.
 */
export function strictStoppedMs(transit: TransitFacts, callsOfVessel: readonly CallFacts[]): number {
  const inPort = callsOfVessel.reduce((sum, c) => sum + overlapMs(transit.entered_at, transit.exited_at, c.arrival, c.departure ?? c.last_fix_at), 0);
  return Math.max(0, transit.stopped_ms - inPort);
}

/** Groups rows by vessel id. */
export function byVessel<T extends { vsl_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.vsl_id);
    if (list) list.push(row);
    else out.set(row.vsl_id, [row]);
  }
  return out;
}

/** Voyages between consecutive completed calls of each vessel at different ports, at most MAX_VOYAGE_MS long. */
export function voyagesOf(calls: readonly CallFacts[]): Voyage[] {
  const voyages: Voyage[] = [];
  for (const own of byVessel(calls).values()) {
    const ordered = [...own].sort((a, b) => a.arrival - b.arrival);
    for (let i = 1; i < ordered.length; i++) {
      const [from, to] = [ordered[i - 1]!, ordered[i]!];
      if (from.departure === null || from.port_id === to.port_id || to.arrival - from.departure > MAX_VOYAGE_MS) continue;
      voyages.push({ vslId: to.vsl_id, fromPort: from.port_id, toPort: to.port_id, departed: from.departure, arrived: to.arrival, simulated: from.simulated === 1 || to.simulated === 1 });
    }
  }
  return voyages;
}

export interface DetourFacts {
  /** Voyages that arrived in the window. */
  voyages: readonly Voyage[];
  /** Whether the engine's shortest route between the two ports crosses the gate's passage (null: no route). */
  routedThroughGate: (voyage: Voyage) => boolean | null;
  /** Transits of the gate, any vessel. */
  transits: readonly { vsl_id: string; entered_at: number; exited_at: number }[];
}

export interface DetourMeasure {
  /** Voyages whose shortest route crosses the gate. */
  expected: number;
  /** Of those, voyages during which the vessel made no transit of the gate. */
  avoided: number;
  /** avoided / expected; null with no expected voyage. */
  share: number | null;
  newestArrival: number | null;
  simulated: boolean;
}

/**
 * Detours (decision 118): of the voyages whose shortest sea route crosses the gate, the share whose
 * vessel did not pass through it between leaving one port and reaching the next.
 */
export function detourMeasure(facts: DetourFacts): DetourMeasure {
  const transits = byVessel(facts.transits);
  const expected = facts.voyages.filter((v) => facts.routedThroughGate(v) === true);
  const avoided = expected.filter((v) => !(transits.get(v.vslId) ?? []).some((t) => t.exited_at > v.departed && t.entered_at < v.arrived));
  return {
    expected: expected.length,
    avoided: avoided.length,
    share: expected.length === 0 ? null : Math.round((avoided.length / expected.length) * 1000) / 1000,
    newestArrival: expected.length === 0 ? null : Math.max(...expected.map((v) => v.arrived)),
    simulated: expected.some((v) => v.simulated),
  };
}
