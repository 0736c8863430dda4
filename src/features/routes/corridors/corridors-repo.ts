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
      // the transits of each bound's hour up to the bound: one statement that joins the bounds' ranges (a list of values) to
      // one range of the (zone, exited_at) index each (decision 172: a compound SELECT of one range per bound cost SQLite
      // 10–40 ms from about 20 ranges on, as many as the daily series have, against 1–4 ms for the join)
      const ranges = sql.join(
        at.map((a, i) => sql`(cast(${i} as integer), cast(${a.hourStart} as bigint), cast(${a.bound} as bigint))`),
        sql`, `,
      );
      const edges = await db
        .with(
          (w) => w('bound_hours(bound, lo, hi)'),
          () => sql<{ bound: number; lo: number; hi: number }>`(values ${ranges})`,
        )
        .selectFrom('bound_hours')
        .innerJoin('transits', (join) => join.onRef('transits.exited_at', '>=', 'bound_hours.lo').onRef('transits.exited_at', '<=', 'bound_hours.hi'))
        .select(['bound_hours.bound', ...FACT_COLUMNS.map((c) => `transits.${c}` as const)])
        .where('transits.zone', 'in', [...zones])
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
      // a bound's own day up to it, per gate: the cell of the hour before its hour, and its hour's transits up to it
      const upTo = new Map(zones.map((zone) => [zone, at.map(() => emptySums())]));
      const boundsOfCell = new Map<string, number[]>();
      at.forEach((a, i) => {
        if (a.hour > 0) boundsOfCell.set(`${a.day}|${a.hour - 1}`, [...(boundsOfCell.get(`${a.day}|${a.hour - 1}`) ?? []), i]);
      });
      for (const c of hourCells) for (const i of boundsOfCell.get(`${Number(c.day)}|${Number(c.hour)}`) ?? []) addSums(upTo.get(c.zone)![i]!, sumsOfCell(c));
      for (const { bound, ...t } of edges) addSums(upTo.get(t.zone)![Number(bound)]!, sumsOfTransits([t]));
      const windows = new Map(zones.map((zone) => [zone, at.slice(1).map(() => emptySums())]));
      for (const c of dayTotals) addSums(windows.get(c.zone)![Number(c.window)]!, sumsOfCell(c));
      for (const zone of zones) {
        const ends = upTo.get(zone)!;
        out.set(
          zone,
          windows.get(zone)!.map((w, i) => addSums(addSums(w, ends[i + 1]!), ends[i]!, -1)),
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
