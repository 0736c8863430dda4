import { sql, type ExpressionBuilder } from 'kysely';
import {
  BLOCK,
  blockStartOf,
  categoryBlockCellsOf,
  categoryDayRunsOfWeek,
  cellsOfVoyages,
  dayStartOf,
  laneBlockCellsOf,
  laneCellsOfVoyages,
  laneDayRunsOfWeek,
  WEEK,
  weekStartOf,
  windowCellsOfWeek,
  type VoyageCellRow,
  type VoyageLaneCellRow,
  type VoyageWindowCellRow,
} from '../../events/voyage-cells.js';
import type { VoyageRow } from '../../events/voyages.js';
import { DAY } from '../../platform/clock.js';
import type { Db } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

/**
 * Keeps `voyage_cells`, `voyage_lane_cells` and `voyage_window_cells` (docs/decisions/163) in step with `voyages` (docs/decisions/149 and 153) without
 * summing anything on a write: a write of voyages marks the UTC days of the departures it removed or added (one
 * upsert per distinct day, in the writer's executor); a marked day's week (its day cells and its week cell, in
 * both tables) is summed again from that week's voyages by the event runner's pass after it writes, or by the
 * first lanes read whose window holds it.
 */

/** Days per upsert of the marks (2 parameters each). */
const CHUNK = 400;
/** Cells per insert (12 or 13 columns each). */
const CELLS_PER_INSERT = 80;

/** Marks the days (each the start of a UTC day) whose voyages changed. */
export async function markCellDaysDirty(ex: Executor, days: Iterable<number>): Promise<void> {
  const list = [...new Set(days)];
  for (let i = 0; i < list.length; i += CHUNK)
    await ex
      .insertInto('voyage_cell_days_dirty')
      .values(list.slice(i, i + CHUNK).map((day) => ({ day, version: 1 })))
      .onConflict((oc) => oc.column('day').doUpdateSet({ version: sql`voyage_cell_days_dirty.version + 1` }))
      .execute();
}

/** Marks every day that holds a voyage (after the voyages were written again from all calls). */
export async function markAllCellDaysDirty(ex: Executor): Promise<void> {
  await ex.deleteFrom('voyage_cells').execute();
  await ex.deleteFrom('voyage_lane_cells').execute();
  await ex.deleteFrom('voyage_window_cells').execute();
  const rows = await ex
    .selectFrom('voyages')
    .select(sql<number>`(departure / ${sql.lit(DAY)}) * ${sql.lit(DAY)}`.as('day'))
    .distinct()
    .execute();
  await markCellDaysDirty(
    ex,
    rows.map((r) => Number(r.day)),
  );
}

/**
 * The lane cells a week's summing writes (docs/decisions/153 and 157): its day cells and week cell from its
 * voyages, its runs of days from its day cells, and its block's cells from the block's week cells (the other
 * weeks' as stored, this week's as just summed).
 */
async function laneCellsOfWeek(trx: Executor, weekStart: number, voyages: readonly VoyageRow[], byDay: ReadonlyMap<number, VoyageRow[]>): Promise<VoyageLaneCellRow[]> {
  const week = laneCellsOfVoyages(weekStart, 7, voyages);
  const days = [...byDay.entries()].flatMap(([day, list]) => laneCellsOfVoyages(day, 1, list));
  const blockStart = blockStartOf(weekStart);
  const otherWeeks = await trx
    .selectFrom('voyage_lane_cells')
    .selectAll()
    .where('period_start', '>=', blockStart)
    .where('period_start', '<', blockStart + BLOCK)
    .where('period_start', '!=', weekStart)
    .where('period_days', '=', 7)
    .execute();
  // PostgreSQL answers bigint columns as text
  const stored = otherWeeks.map((c) => ({
    ...c,
    period_start: Number(c.period_start),
    period_days: 7,
    from_port: Number(c.from_port),
    to_port: Number(c.to_port),
    voyages: Number(c.voyages),
    simulated: Number(c.simulated),
    max_arrival: Number(c.max_arrival),
    min_from_arrival: Number(c.min_from_arrival),
    min_duration_ms: Number(c.min_duration_ms),
  }));
  const weekCells = [...stored, ...week];
  return [...week, ...days, ...laneDayRunsOfWeek(weekStart, days), ...laneBlockCellsOf(blockStart, weekCells)];
}

/** The window cells a week's summing writes (docs/decisions/163), the block's other week cells read as stored. */
async function windowCellsOfStoredBlock(trx: Executor, weekStart: number, voyages: readonly VoyageRow[], byDay: ReadonlyMap<number, VoyageRow[]>): Promise<VoyageWindowCellRow[]> {
  const blockStart = blockStartOf(weekStart);
  const otherWeeks = await trx
    .selectFrom('voyage_window_cells')
    .selectAll()
    .where('period_start', '>=', blockStart)
    .where('period_start', '<', blockStart + BLOCK)
    .where('period_start', '!=', weekStart)
    .where('period_days', '=', 7)
    .execute();
  // PostgreSQL answers bigint columns as text
  const stored = otherWeeks.map((c) => ({
    ...c,
    period_start: Number(c.period_start),
    period_days: 7,
    voyages: Number(c.voyages),
    simulated: Number(c.simulated),
    max_arrival: Number(c.max_arrival),
    min_from_arrival: Number(c.min_from_arrival),
    min_duration_ms: Number(c.min_duration_ms),
  }));
  return windowCellsOfWeek(weekStart, voyages, byDay, stored);
}

/**
 * The cells per ship category a week's summing writes (docs/decisions/149, 158 and 164): its day cells and week
 * cell from its voyages, its runs of days from its day cells, and its block's cells from the block's week cells
 * (the other weeks' as stored, this week's as just summed), as the lane cells' (decision 157).
 */
async function categoryCellsOfWeek(trx: Executor, weekStart: number, voyages: readonly VoyageRow[], byDay: ReadonlyMap<number, VoyageRow[]>): Promise<VoyageCellRow[]> {
  const week = cellsOfVoyages(weekStart, 7, voyages);
  const days = [...byDay.entries()].flatMap(([day, list]) => cellsOfVoyages(day, 1, list));
  const blockStart = blockStartOf(weekStart);
  const otherWeeks = await trx
    .selectFrom('voyage_cells')
    .selectAll()
    .where('period_start', '>=', blockStart)
    .where('period_start', '<', blockStart + BLOCK)
    .where('period_start', '!=', weekStart)
    .where('period_days', '=', 7)
    .execute();
  // PostgreSQL answers bigint columns as text
  const stored = otherWeeks.map((c) => ({
    ...c,
    period_start: Number(c.period_start),
    period_days: 7,
    from_port: Number(c.from_port),
    to_port: Number(c.to_port),
    voyages: Number(c.voyages),
    simulated: Number(c.simulated),
    max_arrival: Number(c.max_arrival),
    min_from_arrival: Number(c.min_from_arrival),
    min_duration_ms: Number(c.min_duration_ms),
    exact: Number(c.exact),
  }));
  return [...week, ...days, ...categoryDayRunsOfWeek(weekStart, days), ...categoryBlockCellsOf(blockStart, [...stored, ...week])];
}

/** A week's own cells (its days, its runs of days, the week) and its block's (the block, its runs of weeks), in either table. */
const ofWeekOrItsBlock = (weekStart: number) => (eb: ExpressionBuilder<Database, 'voyage_cells' | 'voyage_lane_cells' | 'voyage_window_cells'>) =>
  eb.or([
    eb.and([eb('period_start', '>=', weekStart), eb('period_start', '<', weekStart + WEEK), eb('period_days', '<=', 7)]),
    eb.and([eb('period_start', '>=', blockStartOf(weekStart)), eb('period_start', '<', blockStartOf(weekStart) + BLOCK), eb('period_days', '>', 7)]),
  ]);

/**
 * Sums the cells of marked days again, a week at a time: the ISO week of a marked day is read once (its
 * voyages, by departure) and its seven day cells, its week cell and its runs of days, and its block's cells,
 * written again in the three tables (docs/decisions/157, 163 and 164), in one transaction.
 */
export function createVoyageCellsKeeper(db: Db) {
  const inFlight = new Map<number, Promise<void>>();

  async function sumWeek(weekStart: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const marks = await trx
        .selectFrom('voyage_cell_days_dirty')
        .select(['day', 'version'])
        .where('day', '>=', weekStart)
        .where('day', '<', weekStart + WEEK)
        .execute();
      if (marks.length === 0) return;
      const voyages = await trx
        .selectFrom('voyages')
        .select(['vsl_id', 'from_port', 'to_port', 'from_arrival', 'departure', 'arrival', 'ship_type', 'simulated'])
        .where('departure', '>=', weekStart)
        .where('departure', '<', weekStart + WEEK)
        .execute();
      const rows: VoyageRow[] = voyages.map((v) => ({
        vsl_id: v.vsl_id,
        from_port: Number(v.from_port),
        to_port: Number(v.to_port),
        from_arrival: Number(v.from_arrival),
        departure: Number(v.departure),
        arrival: Number(v.arrival),
        ship_type: v.ship_type === null ? null : Number(v.ship_type),
        simulated: Number(v.simulated),
      }));
      const byDay = new Map<number, VoyageRow[]>();
      for (const v of rows) {
        const day = dayStartOf(v.departure);
        const list = byDay.get(day);
        if (list) list.push(v);
        else byDay.set(day, [v]);
      }
      const cells = await categoryCellsOfWeek(trx, weekStart, rows, byDay);
      const laneCells = await laneCellsOfWeek(trx, weekStart, rows, byDay);
      const windowCells = await windowCellsOfStoredBlock(trx, weekStart, rows, byDay);
      // the week's own cells (days, runs of days, the week) and its block's (the block, runs of weeks)
      for (const table of ['voyage_cells', 'voyage_lane_cells', 'voyage_window_cells'] as const) await trx.deleteFrom(table).where(ofWeekOrItsBlock(weekStart)).execute();
      for (let i = 0; i < cells.length; i += CELLS_PER_INSERT)
        await trx
          .insertInto('voyage_cells')
          .values(cells.slice(i, i + CELLS_PER_INSERT))
          // another process summing the same week at once wrote the same cells
          .onConflict((oc) =>
            oc.columns(['period_start', 'period_days', 'from_port', 'to_port', 'category']).doUpdateSet((eb) => ({
              voyages: eb.ref('excluded.voyages'),
              simulated: eb.ref('excluded.simulated'),
              max_arrival: eb.ref('excluded.max_arrival'),
              min_from_arrival: eb.ref('excluded.min_from_arrival'),
              min_duration_ms: eb.ref('excluded.min_duration_ms'),
              exact: eb.ref('excluded.exact'),
              facts: eb.ref('excluded.facts'),
              vessel_registers: eb.ref('excluded.vessel_registers'),
            })),
          )
          .execute();
      for (let i = 0; i < laneCells.length; i += CELLS_PER_INSERT)
        await trx
          .insertInto('voyage_lane_cells')
          .values(laneCells.slice(i, i + CELLS_PER_INSERT))
          .onConflict((oc) =>
            oc.columns(['period_start', 'period_days', 'from_port', 'to_port']).doUpdateSet((eb) => ({
              voyages: eb.ref('excluded.voyages'),
              simulated: eb.ref('excluded.simulated'),
              max_arrival: eb.ref('excluded.max_arrival'),
              min_from_arrival: eb.ref('excluded.min_from_arrival'),
              min_duration_ms: eb.ref('excluded.min_duration_ms'),
              voyage_list: eb.ref('excluded.voyage_list'),
              vessel_registers: eb.ref('excluded.vessel_registers'),
              hours_buckets: eb.ref('excluded.hours_buckets'),
            })),
          )
          .execute();
      for (let i = 0; i < windowCells.length; i += CELLS_PER_INSERT)
        await trx
          .insertInto('voyage_window_cells')
          .values(windowCells.slice(i, i + CELLS_PER_INSERT))
          .onConflict((oc) =>
            oc.columns(['period_start', 'period_days']).doUpdateSet((eb) => ({
              voyages: eb.ref('excluded.voyages'),
              simulated: eb.ref('excluded.simulated'),
              max_arrival: eb.ref('excluded.max_arrival'),
              min_from_arrival: eb.ref('excluded.min_from_arrival'),
              min_duration_ms: eb.ref('excluded.min_duration_ms'),
              voyage_list: eb.ref('excluded.voyage_list'),
              vessel_registers: eb.ref('excluded.vessel_registers'),
              hours_buckets: eb.ref('excluded.hours_buckets'),
            })),
          )
          .execute();
      // a write that marked a day again meanwhile leaves it marked
      for (const mark of marks) await trx.deleteFrom('voyage_cell_days_dirty').where('day', '=', Number(mark.day)).where('version', '=', Number(mark.version)).execute();
    });
  }

  /** One summing of a week at a time in this process: a second caller waits for the first. */
  const sumWeekOnce = (weekStart: number): Promise<void> => {
    const held = inFlight.get(weekStart);
    if (held) return held;
    const running = sumWeek(weekStart).finally(() => inFlight.delete(weekStart));
    inFlight.set(weekStart, running);
    return running;
  };

  return {
    /** Sums the weeks of the marked days in [from, to) (of all marked days without a range); returns how many weeks it summed. */
    async refresh(range?: { from: number; to: number }): Promise<number> {
      let q = db.selectFrom('voyage_cell_days_dirty').select('day');
      if (range) q = q.where('day', '>=', weekStartOf(range.from)).where('day', '<', weekStartOf(range.to - 1) + WEEK);
      let summed = 0;
      // a day marked again while its week was summed is summed again (answers are never older than the voyages)
      for (let pass = 0; pass < 3; pass++) {
        const weeks = [...new Set((await q.execute()).map((r) => weekStartOf(Number(r.day))))];
        if (weeks.length === 0) break;
        for (const week of weeks) await sumWeekOnce(week);
        summed += weeks.length;
      }
      return summed;
    },
  };
}
export type VoyageCellsKeeper = ReturnType<typeof createVoyageCellsKeeper>;
