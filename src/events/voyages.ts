import type { PortCallsTable, VoyagesTable } from '../store/schema.js';
/**
 * Voyages from port calls (docs/lanes.md, decisions 062 and 123): call A then call B of the same vessel
 * (consecutive by arrival) at another port is one voyage, departing when A ended (its last fix when
 * the departure was never written) and arriving when B began. A return to the same port is no voyage.
 */

/** The columns of a port call a voyage is made of. */
export type VoyageCall = Pick<PortCallsTable, 'vsl_id' | 'port_id' | 'ship_type' | 'arrival' | 'departure' | 'last_fix_at' | 'simulated'>;

/** One stored voyage (the `voyages` table): keyed by vessel and the arrival of its origin call. */
export type VoyageRow = Omit<VoyagesTable, 'id'>;

/** Voyages of consecutive calls (sorted by vessel, then arrival); no window, no order check: readers filter. */
export function voyagePairs(calls: readonly VoyageCall[]): VoyageRow[] {
  const out: VoyageRow[] = [];
  for (let i = 1; i < calls.length; i++) {
    const a = calls[i - 1]!;
    const b = calls[i]!;
    if (a.vsl_id !== b.vsl_id || a.port_id === b.port_id) continue;
    out.push({
      vsl_id: a.vsl_id,
      from_port: a.port_id,
      to_port: b.port_id,
      from_arrival: a.arrival,
      departure: a.departure ?? a.last_fix_at,
      arrival: b.arrival,
      ship_type: b.ship_type ?? a.ship_type,
      simulated: a.simulated === 1 || b.simulated === 1 ? 1 : 0,
    });
  }
  return out;
}
