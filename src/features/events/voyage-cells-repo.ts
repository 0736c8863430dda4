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
  windowBlockCellsOf,
  windowCellsOfWeek,
  type VoyageCellRow,
  type VoyageLaneCellRow,
  type VoyageWindowCellRow,
} from '../../events/voyage-cells.js';
import type { VoyageRow } from '../../events/voyages.js';
import { voyageCountsOf, type PortPositions, type VoyageCounts } from '../../events/lane-rule.js';
import { DAY } from '../../platform/clock.js';
import type { Db } from '../../store/db.js';
import type { Database } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

/**
 * Keeps `voyage_cells`, `voyage_lane_cells` and `voyage_window_cells` (docs/decisions/163) in step with `voyages` (docs/decisions/149 and 153) without
 * summing anything on a write: a write of voyages marks the UTC days of the departures it removed or added (one
 * upsert per distinct day, in the writer's executor); a marked day's week (its day cells, its runs of days and its
 * week cell, in the three tables) is summed again from that week's voyages, and its block's cells from the block's
 * week cells, by the event runner's pass after it writes, or by the first lanes read whose window holds it.
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

type CellTable = 'voyage_cells' | 'voyage_lane_cells' | 'voyage_window_cells';
interface CellRows {
  voyage_cells: VoyageCellRow;
  voyage_lane_cells: VoyageLaneCellRow;
  voyage_window_cells: VoyageWindowCellRow;
}
const CELL_TABLES = ['voyage_cells', 'voyage_lane_cells', 'voyage_window_cells'] as const;

/**
 * A week's own cells in each table (docs/decisions/149, 153, 157, 158, 163 and 164): its day cells and week cell from
 * its voyages, and its runs of days from its day cells.
 */
function ownCellsOfWeek(weekStart: number, voyages: readonly VoyageRow[], byDay: ReadonlyMap<number, VoyageRow[]>, counts: VoyageCounts): { [T in CellTable]: CellRows[T][] } {
  const categoryDays = [...byDay.entries()].flatMap(([day, list]) => cellsOfVoyages(day, 1, list, counts));
  const laneDays = [...byDay.entries()].flatMap(([day, list]) => laneCellsOfVoyages(day, 1, list, counts));
  return {
    voyage_cells: [...cellsOfVoyages(weekStart, 7, voyages, counts), ...categoryDays, ...categoryDayRunsOfWeek(weekStart, categoryDays, counts)],
    voyage_lane_cells: [...laneCellsOfVoyages(weekStart, 7, voyages, counts), ...laneDays, ...laneDayRunsOfWeek(weekStart, laneDays, counts)],
    voyage_window_cells: windowCellsOfWeek(weekStart, voyages, byDay, counts),
  };
}

/** A block's cells in each table (the block, its runs of weeks) merged from its week cells (docs/decisions/157, 163 and 164). */
function blockCellsOf(blockStart: number, weekCells: { [T in CellTable]: CellRows[T][] }, counts: VoyageCounts): { [T in CellTable]: CellRows[T][] } {
  return {
    voyage_cells: categoryBlockCellsOf(blockStart, weekCells.voyage_cells, counts),
    voyage_lane_cells: laneBlockCellsOf(blockStart, weekCells.voyage_lane_cells, counts),
    voyage_window_cells: windowBlockCellsOf(blockStart, weekCells.voyage_window_cells),
  };
}

/** The columns PostgreSQL answers as text (bigint) that a cell holds as numbers. */
const NUMBER_COLUMNS = ['period_start', 'period_days', 'from_port', 'to_port', 'voyages', 'left_out', 'simulated', 'max_arrival', 'min_from_arrival', 'min_duration_ms', 'exact'];

/**
 * The week cells of a block as stored in one table, but those of the weeks being summed again, in week order (the
 * order a block's merge lists an exact cell's voyages in, whichever of its weeks was summed last).
 */
async function storedWeekCellsOfBlock<T extends CellTable>(trx: Executor, table: T, blockStart: number, summedWeeks: readonly number[]): Promise<CellRows[T][]> {
  const rows = await trx
    .selectFrom(table as CellTable)
    .selectAll()
    .where('period_start', '>=', blockStart)
    .where('period_start', '<', blockStart + BLOCK)
    .where('period_start', 'not in', [...summedWeeks])
    .where('period_days', '=', 7)
    .orderBy('period_start')
    .execute();
  return rows.map((row) => {
    const cell: Record<string, unknown> = { ...row };
    for (const column of NUMBER_COLUMNS) if (column in cell) cell[column] = Number(cell[column]);
    return cell as unknown as CellRows[T];
  });
}

/** Cells written to their table, CELLS_PER_INSERT at a time; another process summing the same weeks at once wrote the same cells. */
async function writeCells(trx: Executor, cells: { [T in CellTable]: CellRows[T][] }): Promise<void> {
  for (let i = 0; i < cells.voyage_cells.length; i += CELLS_PER_INSERT)
    await trx
      .insertInto('voyage_cells')
      .values(cells.voyage_cells.slice(i, i + CELLS_PER_INSERT))
      .onConflict((oc) =>
        oc.columns(['period_start', 'period_days', 'from_port', 'to_port', 'category']).doUpdateSet((eb) => ({
          voyages: eb.ref('excluded.voyages'),
          left_out: eb.ref('excluded.left_out'),
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
  for (let i = 0; i < cells.voyage_lane_cells.length; i += CELLS_PER_INSERT)
    await trx
      .insertInto('voyage_lane_cells')
      .values(cells.voyage_lane_cells.slice(i, i + CELLS_PER_INSERT))
      .onConflict((oc) =>
        oc.columns(['period_start', 'period_days', 'from_port', 'to_port']).doUpdateSet((eb) => ({
          voyages: eb.ref('excluded.voyages'),
          left_out: eb.ref('excluded.left_out'),
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
  for (let i = 0; i < cells.voyage_window_cells.length; i += CELLS_PER_INSERT)
    await trx
      .insertInto('voyage_window_cells')
      .values(cells.voyage_window_cells.slice(i, i + CELLS_PER_INSERT))
      .onConflict((oc) =>
        oc.columns(['period_start', 'period_days']).doUpdateSet((eb) => ({
          voyages: eb.ref('excluded.voyages'),
          left_out: eb.ref('excluded.left_out'),
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
}

/** The voyages that departed in a week, and the same per UTC day of departure. */
async function voyagesOfWeek(trx: Executor, weekStart: number): Promise<{ voyages: VoyageRow[]; byDay: Map<number, VoyageRow[]> }> {
  const stored = await trx
    .selectFrom('voyages')
    .select(['vsl_id', 'from_port', 'to_port', 'from_arrival', 'departure', 'arrival', 'ship_type', 'simulated'])
    .where('departure', '>=', weekStart)
    .where('departure', '<', weekStart + WEEK)
    .execute();
  const voyages: VoyageRow[] = stored.map((v) => ({
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
  for (const v of voyages) {
    const day = dayStartOf(v.departure);
    const list = byDay.get(day);
    if (list) list.push(v);
    else byDay.set(day, [v]);
  }
  return { voyages, byDay };
}

/** A week's own cells (its days, its runs of days, the week), in any of the three tables. */
const ofWeek = (weekStart: number) => (eb: ExpressionBuilder<Database, CellTable>) =>
  eb.and([eb('period_start', '>=', weekStart), eb('period_start', '<', weekStart + WEEK), eb('period_days', '<=', 7)]);
/** A block's cells (the block, its runs of weeks), in any of the three tables. */
const ofBlock = (blockStart: number) => (eb: ExpressionBuilder<Database, CellTable>) =>
  eb.and([eb('period_start', '>=', blockStart), eb('period_start', '<', blockStart + BLOCK), eb('period_days', '>', 7)]);

const byPeriodStart = (a: { period_start: number }, b: { period_start: number }) => a.period_start - b.period_start;

/**
 * Sums the cells of marked days again, a block of four weeks at a time, in one transaction: the ISO week of a
 * marked day is read once (its voyages, by departure) and its seven day cells, its week cell and its runs of days
 * written again in the three tables (docs/decisions/157, 163 and 164); then the block's cells, once however many of
 * its weeks were summed, from its week cells (those summed as just summed, the others as stored). The lanes' rule
 * (docs/decisions/177) measures each lane with the ports' positions as they are when its block is summed.
 */
export function createVoyageCellsKeeper(db: Db, ports: PortPositions) {
  const inFlight = new Map<number, Promise<void>>();

  async function sumBlock(blockStart: number, weeks: readonly number[]): Promise<void> {
    const counts = voyageCountsOf(ports);
    await db.transaction().execute(async (trx) => {
      const marks: Array<{ day: number; version: number }> = [];
      const summedWeeks: number[] = [];
      const summedWeekCells: { [T in CellTable]: CellRows[T][] } = { voyage_cells: [], voyage_lane_cells: [], voyage_window_cells: [] };
      for (const weekStart of weeks) {
        const weekMarks = await trx
          .selectFrom('voyage_cell_days_dirty')
          .select(['day', 'version'])
          .where('day', '>=', weekStart)
          .where('day', '<', weekStart + WEEK)
          .execute();
        if (weekMarks.length === 0) continue;
        marks.push(...weekMarks.map((m) => ({ day: Number(m.day), version: Number(m.version) })));
        summedWeeks.push(weekStart);
        const { voyages, byDay } = await voyagesOfWeek(trx, weekStart);
        const cells = ownCellsOfWeek(weekStart, voyages, byDay, counts);
        for (const table of CELL_TABLES) await trx.deleteFrom(table).where(ofWeek(weekStart)).execute();
        await writeCells(trx, cells);
        const isWeekCell = (c: { period_days: number }) => c.period_days === 7;
        summedWeekCells.voyage_cells.push(...cells.voyage_cells.filter(isWeekCell));
        summedWeekCells.voyage_lane_cells.push(...cells.voyage_lane_cells.filter(isWeekCell));
        summedWeekCells.voyage_window_cells.push(...cells.voyage_window_cells.filter(isWeekCell));
      }
      if (summedWeeks.length === 0) return;
      const weekCells: { [T in CellTable]: CellRows[T][] } = {
        voyage_cells: [...(await storedWeekCellsOfBlock(trx, 'voyage_cells', blockStart, summedWeeks)), ...summedWeekCells.voyage_cells].sort(byPeriodStart),
        voyage_lane_cells: [...(await storedWeekCellsOfBlock(trx, 'voyage_lane_cells', blockStart, summedWeeks)), ...summedWeekCells.voyage_lane_cells].sort(byPeriodStart),
        voyage_window_cells: [...(await storedWeekCellsOfBlock(trx, 'voyage_window_cells', blockStart, summedWeeks)), ...summedWeekCells.voyage_window_cells].sort(byPeriodStart),
      };
      for (const table of CELL_TABLES) await trx.deleteFrom(table).where(ofBlock(blockStart)).execute();
      await writeCells(trx, blockCellsOf(blockStart, weekCells, counts));
      // a write that marked a day again meanwhile leaves it marked
      for (const mark of marks) await trx.deleteFrom('voyage_cell_days_dirty').where('day', '=', mark.day).where('version', '=', mark.version).execute();
    });
  }

  /** One summing of a block at a time in this process: a second caller waits for the first (and finds its weeks still marked if they were not summed). */
  const sumBlockOnce = (blockStart: number, weeks: readonly number[]): Promise<void> => {
    const held = inFlight.get(blockStart);
    if (held) return held;
    const running = sumBlock(blockStart, weeks).finally(() => inFlight.delete(blockStart));
    inFlight.set(blockStart, running);
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
        const weeksByBlock = new Map<number, number[]>();
        for (const week of weeks.sort((a, b) => a - b)) weeksByBlock.set(blockStartOf(week), [...(weeksByBlock.get(blockStartOf(week)) ?? []), week]);
        for (const [blockStart, blockWeeks] of weeksByBlock) await sumBlockOnce(blockStart, blockWeeks);
        summed += weeks.length;
      }
      return summed;
    },
  };
}
export type VoyageCellsKeeper = ReturnType<typeof createVoyageCellsKeeper>;
