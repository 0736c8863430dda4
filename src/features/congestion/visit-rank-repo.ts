import { portVisitsOf, type PortVisits, type VisitCall } from '../../events/visit-cells.js';
import { DAY } from '../../platform/clock.js';
import type { Db } from '../../store/db.js';

/** A window of port calls by arrival: [from, to), optionally at one port. */
export interface CallWindow {
  from: number;
  to: number;
  portId: number | null;
}

/** The whole UTC days of a window, [firstDay, endDay) (none when firstDay >= endDay). */
export const wholeDaysOf = (w: { from: number; to: number }) => ({ firstDay: Math.ceil(w.from / DAY) * DAY, endDay: Math.floor(w.to / DAY) * DAY });

/**
 * The visit leaderboard: by port from the visit cells kept by the event runner (docs/decisions/161); by vessel
 * counted in the store (docs/decisions/030): GROUP BY over the calls that began in the window, on the
 * `arrival` index (O(calls in the window), decision 161 says why).
 */
export function createVisitRankRepo(db: Db) {
  const calls = (w: CallWindow) => {
    let query = db.selectFrom('port_calls').where('arrival', '>=', w.from).where('arrival', '<', w.to);
    if (w.portId !== null) query = query.where('port_id', '=', w.portId);
    return query;
  };

  /** The calls that began in [from, to) (at the port, or at these ports), one by one. */
  const callsBetween = async (from: number, to: number, portIds: readonly number[] | null): Promise<VisitCall[]> => {
    if (from >= to || portIds?.length === 0) return [];
    let query = db.selectFrom('port_calls').select(['port_id', 'vsl_id', 'arrival', 'departure', 'simulated']).where('arrival', '>=', from).where('arrival', '<', to);
    if (portIds !== null) query = query.where('port_id', 'in', [...portIds]);
    return (await query.execute()).map((c) => ({
      port_id: Number(c.port_id),
      vsl_id: c.vsl_id,
      arrival: Number(c.arrival),
      departure: c.departure === null ? null : Number(c.departure),
      simulated: Number(c.simulated),
    }));
  };

  return {
    /**
     * Calls, simulated calls, distinct vessels and dwells per port over the window (docs/decisions/161): the
     * visit cells of its whole UTC days (the caller has them counted again first where calls changed: EventsService.visitCellsUpToDate), and one by one the calls of
     * its partial days and of the cells with a departure after the window's end (their dwells do not all count).
     */
    async portVisits(w: CallWindow): Promise<Map<number, PortVisits>> {
      const { firstDay, endDay } = wholeDaysOf(w);
      const only = w.portId === null ? null : [w.portId];
      if (firstDay >= endDay) return portVisitsOf([], await callsBetween(w.from, w.to, only), w.to);
      let query = db.selectFrom('port_visit_cells').selectAll().where('arrival_day', '>=', firstDay).where('arrival_day', '<', endDay);
      if (w.portId !== null) query = query.where('port_id', '=', w.portId);
      const cells = await query.execute();
      const usable = cells.filter((c) => c.last_departure === null || Number(c.last_departure) <= w.to);
      const departedLater = cells.filter((c) => c.last_departure !== null && Number(c.last_departure) > w.to);
      const laterKeys = new Set(departedLater.map((c) => `${Number(c.arrival_day)}|${Number(c.port_id)}`));
      const laterCalls =
        departedLater.length === 0
          ? []
          : (
              await callsBetween(Math.min(...departedLater.map((c) => Number(c.arrival_day))), Math.max(...departedLater.map((c) => Number(c.arrival_day))) + DAY, [
                ...new Set(departedLater.map((c) => Number(c.port_id))),
              ])
            ).filter((c) => laterKeys.has(`${Math.floor(c.arrival / DAY) * DAY}|${c.port_id}`));
      const edges = [...(await callsBetween(w.from, firstDay, only)), ...(await callsBetween(endDay, w.to, only))];
      return portVisitsOf(usable, [...laterCalls, ...edges], w.to);
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
