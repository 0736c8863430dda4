import { sql } from 'kysely';
import { HOUR } from '../../../platform/clock.js';
import { LAST_HOUR, cellOf } from '../../../events/transit-cells.js';
import type { Db } from '../../../store/db.js';
import { addSums, emptySums, medianHoursOfMiddle, sumsOfTransits, type TransitSpread, type TransitSums } from './corridor-stats.js';

/** The corridor reads (docs/decisions/155): sums per window from the transit cells, the spread of one window from the transits. */
export interface CorridorsRepo {
  /** Per gate, the sums of the transits that left it in each window between consecutive `bounds` (ascending): window i is (bounds[i], bounds[i + 1]]. */
  windowSums(zones: readonly string[], bounds: readonly number[]): Promise<Map<string, TransitSums[]>>;
  /** Per gate of `counts`, distinct vessels and median hours in the gate of its transits that left it in (from, to]; `counts` holds how many there are. */
  spread(counts: ReadonlyMap<string, number>, window: { from: number; to: number }): Promise<Map<string, TransitSpread>>;
}

const FACT_COLUMNS = ['vsl_id', 'zone', 'direction', 'entered_at', 'exited_at', 'mean_speed_kn', 'stopped_ms', 'simulated'] as const;

/**
 * Transits that left a gate up to a bound b, counted from the start of the oldest bound's UTC day: the day
 * totals of the whole days before b's day, b's day up to the hour before b's hour (one cell), and the
 * transits of b's hour up to b read one by one. A window's sums are the difference of its two bounds'.
 */
export function createCorridorsRepo(db: Db): CorridorsRepo {
  return {
    async windowSums(zones, bounds) {
      const out = new Map<string, TransitSums[]>(zones.map((z) => [z, []]));
      if (zones.length === 0 || bounds.length < 2) return out;
      const at = bounds.map((b) => ({ bound: b, ...cellOf(b), hourStart: Math.floor(b / HOUR) * HOUR }));
      const firstDay = at[0]!.day;
      const lastDay = at[at.length - 1]!.day;
      const beforeHour = at.filter((a) => a.hour > 0);
      // the whole days between consecutive bounds' days summed in the store, one row per gate, direction and window
      // (decision 159: the day totals of a long span stay in the store; Node gets O(answer) rows)
      // bounds a whole number of days apart (24H, 7D, 30D, the daily series) give the window by a division; others by a search
      const step = at[1]!.day - firstDay;
      const windowOfDay =
        step > 0 && at.every((a, i) => a.day === firstDay + i * step)
          ? sql<number>`(day - ${sql.lit(firstDay)}) / ${sql.lit(step)}`
          : sql<number>`case ${sql.join(
              at.slice(1).map((a, i) => sql`when day < ${sql.lit(a.day)} then ${sql.lit(i)}`),
              sql` `,
            )} else ${sql.lit(at.length - 2)} end`;
      const dayTotals = await db
        .selectFrom('transit_cells')
        .select((eb) => [
          'zone',
          'direction',
          windowOfDay.as('window'),
          eb.fn.sum<number>('transits').as('transits'),
          eb.fn.sum<number>('simulated').as('simulated'),
          eb.fn.sum<number>('speeds').as('speeds'),
          eb.fn.sum<number>('speed_tenths').as('speed_tenths'),
          eb.fn.sum<number>('in_gate_ms').as('in_gate_ms'),
          eb.fn.sum<number>('stopped_ms').as('stopped_ms'),
        ])
        .where('zone', 'in', [...zones])
        .where('hour', '=', LAST_HOUR)
        .where('day', '>=', firstDay)
        .where('day', '<', lastDay)
        .groupBy(['zone', 'direction', windowOfDay])
        .execute();
      // each bound's day up to the hour before its hour: one cell per gate and direction, seeked on the key (zone, hour, day)
      const hourCells = beforeHour.length
        ? await db
            .selectFrom('transit_cells')
            .selectAll()
            .where('zone', 'in', [...zones])
            .where('hour', 'in', [...new Set(beforeHour.map((a) => a.hour - 1))])
            .where('day', 'in', [...new Set(beforeHour.map((a) => a.day))])
            .execute()
        : [];
      // one range of the (zone, exited_at) index per hour holding bounds (an OR of ranges would scan the whole span), up to its last bound
      const edgeRanges = [...new Map(at.map((a) => [a.hourStart, a.bound])).entries()];
      const edgeOf = ([hourStart, bound]: [number, number]) =>
        db
          .selectFrom('transits')
          .select(FACT_COLUMNS)
          .where('zone', 'in', [...zones])
          .where('exited_at', '>=', hourStart)
          .where('exited_at', '<=', bound);
      const edges = await edgeRanges
        .slice(1)
        .reduce((query, range) => query.unionAll(edgeOf(range)), edgeOf(edgeRanges[0]!))
        .execute();

      const sumsOfCell = (c: (typeof hourCells)[number] | (typeof dayTotals)[number]): TransitSums => ({
        transits: Number(c.transits),
        byDirection: { [c.direction]: Number(c.transits) },
        simulated: Number(c.simulated),
        speeds: Number(c.speeds),
        speedTenths: Number(c.speed_tenths),
        inGateMs: Number(c.in_gate_ms),
        stoppedMs: Number(c.stopped_ms),
      });
      for (const zone of zones) {
        const windows = at.slice(1).map(() => emptySums());
        for (const c of dayTotals) if (c.zone === zone) addSums(windows[Number(c.window)]!, sumsOfCell(c));
        const mine = edges.filter((t) => t.zone === zone);
        // a bound's own day up to it: the cell of the hour before its hour, and its hour's transits up to it
        const upTo = at.map((a) => {
          const sums = emptySums();
          if (a.hour > 0) for (const c of hourCells) if (c.zone === zone && Number(c.day) === a.day && Number(c.hour) === a.hour - 1) addSums(sums, sumsOfCell(c));
          return addSums(sums, sumsOfTransits(mine.filter((t) => t.exited_at >= a.hourStart && t.exited_at <= a.bound)));
        });
        out.set(
          zone,
          windows.map((w, i) => addSums(addSums(w, upTo[i + 1]!), upTo[i]!, -1)),
        );
      }
      return out;
    },

    async spread(counts, window) {
      const out = new Map<string, TransitSpread>();
      const zones = [...counts].filter(([, n]) => n > 0).map(([zone]) => zone);
      for (const [zone, n] of counts) if (n === 0) out.set(zone, { vessels: 0, median_transit_hours: null });
      if (zones.length === 0) return out;
      const inWindow = db.selectFrom('transits').where('exited_at', '>', window.from).where('exited_at', '<=', window.to);
      const vessels = await inWindow
        .select((eb) => ['zone', eb.fn.count('vsl_id').distinct().as('vessels')])
        .where('zone', 'in', zones)
        .groupBy('zone')
        .execute();
      for (const zone of zones) {
        const n = counts.get(zone)!;
        // the middle one (odd count) or two (even) of the times in the gate, in order: the database sorts, no row leaves it but those
        const middle = await inWindow
          .select(sql<number>`exited_at - entered_at`.as('ms'))
          .where('zone', '=', zone)
          .orderBy(sql`exited_at - entered_at`)
          .limit(n % 2 === 1 ? 1 : 2)
          .offset(Math.floor((n - 1) / 2))
          .execute();
        out.set(zone, { vessels: Number(vessels.find((v) => v.zone === zone)?.vessels ?? 0), median_transit_hours: medianHoursOfMiddle(middle.map((m) => Number(m.ms))) });
      }
      return out;
    },
  };
}
