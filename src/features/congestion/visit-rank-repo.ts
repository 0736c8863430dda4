import { portVisitsOf, windowPiecesOf, type PortVisits, type VisitCall } from '../../events/visit-cells.js';
import { DAY } from '../../platform/clock.js';
import { sql, type SqlBool } from 'kysely';
import { boundLengthFor, byVisitRank, PORT_BOUND_FLOOR, PORT_BOUND_LENGTH_DAYS, type RankedVessel } from '../../events/visit-bounds.js';
import { weekStartOf } from '../../events/voyage-cells.js';
import type { Db } from '../../store/db.js';

/** A window of port calls by arrival: [from, to), optionally at one port. */
/** Vessels read by bound per page at most (a statement's parameters stay far below SQLite's bound). */
const MAX_PAGE = 4000;

export interface CallWindow {
  from: number;
  to: number;
  portId: number | null;
}

/** The whole UTC days of a window, [firstDay, endDay) (none when firstDay >= endDay). */
export const wholeDaysOf = (w: { from: number; to: number }) => ({ firstDay: Math.ceil(w.from / DAY) * DAY, endDay: Math.floor(w.to / DAY) * DAY });

/**
 * The visit leaderboard: by port from the visit cells kept by the event runner (docs/decisions/161); by vessel
 * from the vessels' kept bounds and their calls in the window (docs/decisions/165; at one port from the vessels'
 * bounds there, docs/decisions/175), or counted in the store (docs/decisions/030): GROUP BY over the window's calls.
 */
export function createVisitRankRepo(db: Db) {
  const calls = (w: CallWindow) => {
    let query = db.selectFrom('port_calls').where('arrival', '>=', w.from).where('arrival', '<', w.to);
    if (w.portId !== null) query = query.where('port_id', '=', w.portId);
    return query;
  };

  /** Calls, distinct ports and the highest ship type per vessel of a window's calls. */
  const groupedOf = (query: ReturnType<typeof calls>) =>
    query
      .select(['vsl_id', (eb) => eb.fn.countAll<number | string>().as('calls'), (eb) => eb.fn.count<number | string>('port_id').distinct().as('ports'), (eb) => eb.fn.max('ship_type').as('ship_type')])
      .groupBy('vsl_id');
  const rankedOf = (r: { vsl_id: string; calls: number | string; ports: number | string; ship_type: number | null }): RankedVessel => ({
    vslId: r.vsl_id,
    calls: Number(r.calls),
    ports: Number(r.ports),
    shipType: r.ship_type === null ? null : Number(r.ship_type),
  });
  /** The top vessels of a window counted in the store over all its calls (O(calls in the window)). */
  const groupedTop = async (w: CallWindow, limit: number): Promise<RankedVessel[]> =>
    (await groupedOf(calls(w)).orderBy('calls', 'desc').orderBy('ports', 'desc').orderBy('vsl_id', 'asc').limit(limit).execute()).map(rankedOf);

  /**
   * What main's GROUP BY at one port answers for these vessels: their calls in the window per port, on the (vsl_id,
   * arrival) key, the port's kept (ports 1). A condition on the port would let the store read the port's index
   * instead, every call of the port in the window (SQLite has no statistics to know better).
   */
  const countedAtPort = async (w: CallWindow, portId: number, vslIds: string[]): Promise<RankedVessel[]> =>
    (
      await db
        .selectFrom('port_calls')
        .select(['vsl_id', 'port_id', (eb) => eb.fn.countAll<number | string>().as('calls'), (eb) => eb.fn.max('ship_type').as('ship_type')])
        .where('arrival', '>=', w.from)
        .where('arrival', '<', w.to)
        .where('vsl_id', 'in', vslIds)
        .groupBy(['vsl_id', 'port_id'])
        .execute()
    )
      .filter((r) => Number(r.port_id) === portId)
      .map((r) => rankedOf({ ...r, ports: 1 }));

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

  /** The bounds after (bound, vsl_id) in the order they are read: both descending, the rank index read backwards (any order of equal bounds serves the threshold). */
  const pastBound = (after: { bound: number; vslId: string }) => sql<SqlBool>`(bound < ${after.bound} or (bound = ${after.bound} and vsl_id < ${after.vslId}))`;

  /**
   * The threshold algorithm over kept bounds (docs/decisions/165): `boundsPage` reads the vessels by bound, highest
   * first, after a (bound, vsl_id), `countedOf` counts their calls in the window; a vessel without a row calls at most
   * `unlistedBound` times in the window. The top `limit` once no vessel left can enter or tie it; null when the bounds
   * do not decide it (the caller's GROUP BY).
   */
  const rankedByBounds = async (
    limit: number,
    windowCalls: number,
    unlistedBound: number,
    boundsPage: (after: { bound: number; vslId: string } | null, page: number) => Promise<Array<{ vsl_id: string; bound: number }>>,
    countedOf: (vslIds: string[]) => Promise<RankedVessel[]>,
  ): Promise<RankedVessel[] | null> => {
    const found: RankedVessel[] = [];
    let read = 0;
    let after: { bound: number; vslId: string } | null = null;
    const decidedUnder = (bound: number) => found.length >= limit && bound < found[limit - 1]!.calls;
    for (let page = 2 * limit + 16; ; page = Math.min(2 * page, MAX_PAGE)) {
      const rows = await boundsPage(after, page);
      const counted = rows.length === 0 ? [] : await countedOf(rows.map((r) => r.vsl_id));
      found.push(...counted);
      // the work so far: bounds read and calls counted
      read += rows.length + counted.reduce((sum, v) => sum + v.calls, 0);
      found.sort(byVisitRank);
      const last = rows[rows.length - 1];
      // the bounds ran out: every vessel left calls at most `unlistedBound` times
      if (last === undefined || rows.length < page) return unlistedBound === 0 || decidedUnder(unlistedBound) ? found.slice(0, limit) : null;
      if (decidedUnder(Number(last.bound))) return found.slice(0, limit);
      if (read > windowCalls) return null;
      after = { bound: Number(last.bound), vslId: last.vsl_id };
    }
  };

  return {
    /**
     * Calls, simulated calls, distinct vessels and dwells per port over the window (docs/decisions/161): its whole
     * UTC days as the fewest blocks and day cells (decision 170; the caller has them counted again first where calls
     * changed: EventsService.visitCellsUpToDate), a block with a departure after the window's end read as its day
     * cells, and one by one the calls of its partial days and of the day cells with a departure after the window's
     * end (their dwells do not all count).
     */
    async portVisits(w: CallWindow): Promise<Map<number, PortVisits>> {
      const { firstDay, endDay } = wholeDaysOf(w);
      const only = w.portId === null ? null : [w.portId];
      if (firstDay >= endDay) return portVisitsOf([], await callsBetween(w.from, w.to, only), w.to);
      const pieces = windowPiecesOf(firstDay, endDay);
      const blockPieces = pieces.filter((p) => p.spanDays > 1);
      const blocks =
        blockPieces.length === 0
          ? []
          : await db
              .selectFrom('port_visit_blocks')
              .selectAll()
              .where((eb) => eb.or(blockPieces.map((p) => eb.and([eb('span_days', '=', p.spanDays), eb('arrival_day', '=', p.start)]))))
              .$if(w.portId !== null, (q) => q.where('port_id', '=', w.portId!))
              .execute();
      const departedBy = (c: { last_departure: number | null }) => c.last_departure === null || Number(c.last_departure) <= w.to;
      // the single days, and the days of a block holding a call that departed after the window's end
      const dayRanges = [
        ...pieces.filter((p) => p.spanDays === 1).map((p) => ({ from: p.start, to: p.start + DAY, portId: w.portId })),
        ...blocks.filter((b) => !departedBy(b)).map((b) => ({ from: Number(b.arrival_day), to: Number(b.arrival_day) + Number(b.span_days) * DAY, portId: Number(b.port_id) })),
      ];
      const cells =
        dayRanges.length === 0
          ? []
          : await db
              .selectFrom('port_visit_cells')
              .selectAll()
              .where((eb) => eb.or(dayRanges.map((r) => eb.and([eb('arrival_day', '>=', r.from), eb('arrival_day', '<', r.to), ...(r.portId === null ? [] : [eb('port_id', '=', r.portId)])]))))
              .execute();
      const departedLater = cells.filter((c) => !departedBy(c));
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
      return portVisitsOf([...blocks.filter(departedBy), ...cells.filter(departedBy)], [...laterCalls, ...edges], w.to);
    },

    /** The calls (and simulated calls) that began in the window: the visit cells' counts of its whole days, its partial days' calls counted in the store. */
    async callCounts(w: CallWindow): Promise<{ calls: number; simulated: number }> {
      const { firstDay, endDay } = wholeDaysOf(w);
      const counted = (from: number, to: number) =>
        calls({ ...w, from, to })
          .select((eb) => [eb.fn.countAll<number | string>().as('calls'), eb.fn.sum<number | string | null>('simulated').as('simulated')])
          .executeTakeFirstOrThrow();
      const parts: Array<{ calls: number | string | null; simulated: number | string | null }> =
        firstDay >= endDay ? [await counted(w.from, w.to)] : [await counted(w.from, firstDay), await counted(endDay, w.to)];
      if (firstDay < endDay) {
        let query = db
          .selectFrom('port_visit_cells')
          .select((eb) => [eb.fn.sum<number | string | null>('calls').as('calls'), eb.fn.sum<number | string | null>('simulated').as('simulated')])
          .where('arrival_day', '>=', firstDay)
          .where('arrival_day', '<', endDay);
        if (w.portId !== null) query = query.where('port_id', '=', w.portId);
        parts.push(await query.executeTakeFirstOrThrow());
      }
      return { calls: parts.reduce((sum, p) => sum + Number(p.calls ?? 0), 0), simulated: parts.reduce((sum, p) => sum + Number(p.simulated ?? 0), 0) };
    },

    /**
     * Vessels by calls, then distinct ports, then vsl_id; with the highest ship type stored with their calls (for
     * vessels the fleet does not know). Read by the kept bounds (docs/decisions/165; at one port its per-port bounds,
     * docs/decisions/175): the vessels by bound, highest first, a page at a time, each page's calls in the window
     * counted, until the next bound is under the `limit`-th count found (no vessel left can enter or tie the top).
     * A window the bounds do not narrow (more calls read than the window holds, `windowCalls`; at one port, a top
     * whose last count is under the per-port bounds' floor) is a GROUP BY over its calls.
     */
    async topVessels(w: CallWindow, limit: number, windowCalls: number): Promise<RankedVessel[]> {
      const week = weekStartOf(w.from);
      if (w.portId !== null) {
        const portId = w.portId;
        if (w.to - w.from > PORT_BOUND_LENGTH_DAYS * DAY) return groupedTop(w, limit);
        // a vessel without a row at the port is under the floor
        const ranked = await rankedByBounds(
          limit,
          windowCalls,
          PORT_BOUND_FLOOR - 1,
          (after, page) => {
            let q = db.selectFrom('vessel_port_visit_bounds').select(['vsl_id', 'bound']).where('port_id', '=', portId).where('week_start', '=', week);
            if (after) q = q.where(pastBound(after));
            return q.orderBy('bound', 'desc').orderBy('vsl_id', 'desc').limit(page).execute();
          },
          (vslIds) => countedAtPort(w, portId, vslIds),
        );
        return ranked ?? groupedTop(w, limit);
      }
      const length = boundLengthFor(w.to - w.from);
      if (length === null) return groupedTop(w, limit);
      const ranked = await rankedByBounds(
        limit,
        windowCalls,
        0,
        (after, page) => {
          let q = db.selectFrom('vessel_visit_bounds').select(['vsl_id', 'bound']).where('length_days', '=', length).where('week_start', '=', week);
          if (after) q = q.where(pastBound(after));
          return q.orderBy('bound', 'desc').orderBy('vsl_id', 'desc').limit(page).execute();
        },
        async (vslIds) => (await groupedOf(calls(w).where('vsl_id', 'in', vslIds)).execute()).map(rankedOf),
      );
      return ranked ?? groupedTop(w, limit);
    },
  };
}
export type VisitRankRepo = ReturnType<typeof createVisitRankRepo>;
