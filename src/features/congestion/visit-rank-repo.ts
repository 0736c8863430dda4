import type { Db } from '../../store/db.js';

/** A window of port calls by arrival: [from, to), optionally at one port. */
export interface CallWindow {
  from: number;
  to: number;
  portId: number | null;
}

/**
 * The visit leaderboard counted in the store (docs/decisions/030): GROUP BY over the calls that began
 * in the window, on the `arrival` index, instead of reading every call with its stops.
 */
export function createVisitRankRepo(db: Db) {
  const calls = (w: CallWindow) => {
    let query = db.selectFrom('port_calls').where('arrival', '>=', w.from).where('arrival', '<', w.to);
    if (w.portId !== null) query = query.where('port_id', '=', w.portId);
    return query;
  };

  return {
    /** Calls in the window, and whether any came from the demo fleet. */
    async totals(w: CallWindow): Promise<{ calls: number; simulated: boolean }> {
      const row = await calls(w)
        .select([(eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.max('simulated').as('simulated')])
        .executeTakeFirstOrThrow();
      return { calls: Number(row.n), simulated: Number(row.simulated ?? 0) === 1 };
    },

    /** Ports by calls, then distinct vessels, then id. */
    async topPorts(w: CallWindow, limit: number): Promise<Array<{ portId: number; calls: number; vessels: number }>> {
      const rows = await calls(w)
        .select(['port_id', (eb) => eb.fn.countAll<number | string>().as('calls'), (eb) => eb.fn.count<number | string>('vsl_id').distinct().as('vessels')])
        .groupBy('port_id')
        .orderBy('calls', 'desc')
        .orderBy('vessels', 'desc')
        .orderBy('port_id', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ portId: r.port_id, calls: Number(r.calls), vessels: Number(r.vessels) }));
    },

    /** Calls per port and vessel in the window (visit rank by port rolls entries up to their port: decision 079). */
    async portVessels(w: CallWindow): Promise<Array<{ portId: number; vslId: string; calls: number }>> {
      const rows = await calls(w)
        .select(['port_id', 'vsl_id', (eb) => eb.fn.countAll<number | string>().as('calls')])
        .groupBy(['port_id', 'vsl_id'])
        .execute();
      return rows.map((r) => ({ portId: r.port_id, vslId: r.vsl_id, calls: Number(r.calls) }));
    },

    /** Arrival-to-departure times of the calls at these ports that began in the window and had ended by its end. */
    async dwells(w: CallWindow, portIds: readonly number[]): Promise<Array<{ portId: number; dwellMs: number }>> {
      if (portIds.length === 0) return [];
      const rows = await calls(w)
        .select(['port_id', 'arrival', 'departure'])
        .where('port_id', 'in', [...portIds])
        .where('departure', '<=', w.to)
        .execute();
      return rows.map((r) => ({ portId: r.port_id, dwellMs: r.departure! - r.arrival }));
    },

    /** Vessels by calls, then distinct ports, then vsl_id; with the highest ship type stored with their calls (for vessels the fleet does not know). */
    async topVessels(w: CallWindow, limit: number): Promise<Array<{ vslId: string; calls: number; ports: number; shipType: number | null }>> {
      const rows = await calls(w)
        .select([
          'vsl_id',
          (eb) => eb.fn.countAll<number | string>().as('calls'),
          (eb) => eb.fn.count<number | string>('port_id').distinct().as('ports'),
          (eb) => eb.fn.max('ship_type').as('ship_type'),
        ])
        .groupBy('vsl_id')
        .orderBy('calls', 'desc')
        .orderBy('ports', 'desc')
        .orderBy('vsl_id', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ vslId: r.vsl_id, calls: Number(r.calls), ports: Number(r.ports), shipType: r.ship_type }));
    },
  };
}
export type VisitRankRepo = ReturnType<typeof createVisitRankRepo>;
