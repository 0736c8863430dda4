import type { PortCall } from './port-calls.js';

/**
 * Visit rank (docs/decisions/024-visit-rank.md): the most-visited ports, or the vessels with the most
 * calls, over a window, from port calls that began in it.
 */
export interface RankedPort {
  rank: number;
  port_id: number;
  calls: number;
  distinct_vessels: number;
  median_dwell_hours: number | null;
}

export interface RankedVessel {
  rank: number;
  vessel_id: string;
  calls: number;
  distinct_ports: number;
}

type Call = Pick<PortCall, 'portId' | 'arrival' | 'departure'> & { vesselId: string };

const inWindow = (calls: readonly Call[], from: number, to: number) => calls.filter((c) => c.arrival >= from && c.arrival < to);

export function rankPorts(calls: readonly Call[], from: number, to: number, limit: number): RankedPort[] {
  const byPort = new Map<number, Call[]>();
  for (const call of inWindow(calls, from, to)) byPort.set(call.portId, [...(byPort.get(call.portId) ?? []), call]);
  return [...byPort]
    .map(([portId, list]) => {
      const dwell = list
        .filter((c) => c.departure !== null)
        .map((c) => c.departure! - c.arrival)
        .sort((a, b) => a - b);
      const mid = dwell.length >> 1;
      const median = dwell.length === 0 ? null : dwell.length % 2 ? dwell[mid]! : (dwell[mid - 1]! + dwell[mid]!) / 2;
      return {
        port_id: portId,
        calls: list.length,
        distinct_vessels: new Set(list.map((c) => c.vesselId)).size,
        median_dwell_hours: median === null ? null : Math.round((median / 3_600_000) * 10) / 10,
      };
    })
    .sort((a, b) => b.calls - a.calls || b.distinct_vessels - a.distinct_vessels || a.port_id - b.port_id)
    .slice(0, limit)
    .map((row, i) => ({ rank: i + 1, ...row }));
}

export function rankVessels(calls: readonly Call[], from: number, to: number, limit: number): RankedVessel[] {
  const byVessel = new Map<string, Call[]>();
  for (const call of inWindow(calls, from, to)) byVessel.set(call.vesselId, [...(byVessel.get(call.vesselId) ?? []), call]);
  return [...byVessel]
    .map(([vesselId, list]) => ({ vessel_id: vesselId, calls: list.length, distinct_ports: new Set(list.map((c) => c.portId)).size }))
    .sort((a, b) => b.calls - a.calls || b.distinct_ports - a.distinct_ports || a.vessel_id.localeCompare(b.vessel_id))
    .slice(0, limit)
    .map((row, i) => ({ rank: i + 1, ...row }));
}
