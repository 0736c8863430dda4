import { sql } from 'kysely';
import { BLOCK_SPANS_DAYS, blockStartOf, visitBlockOf, visitCellOf, type VisitCall, type VisitCellRow } from '../../events/visit-cells.js';
import { DAY } from '../../platform/clock.js';
import type { Db } from '../../store/db.js';
import type { Executor } from '../../store/transaction.js';

/**
 * Keeps `port_visit_cells` in step with port_calls (docs/decisions/161) as decision 149 keeps the voyage
 * cells: a write of calls marks the (arrival day, port) of every call it adds, replaces or removes (one upsert
 * per distinct cell, in the writer's executor, from CallDayDeltas which sees every such call); a marked cell is
 * counted again from its calls by the event runner's pass after it writes, or by the first visit-rank read
 * whose window holds it. A sketch cannot lose a vessel, so cells are counted again rather than changed.
 * Counting a day marks the blocks holding it (docs/decisions/170), merged again from their day cells next.
 */

/** Marks per upsert (3 parameters each). */
const CHUNK = 300;
/** Cells per insert (8 columns each). */
const CELLS_PER_INSERT = 100;

export interface VisitCellKey {
  arrival_day: number;
  port_id: number;
}

/** Marks the cells (arrival day start, port) whose calls changed. */
export async function markVisitCellsDirty(ex: Executor, keys: Iterable<VisitCellKey>): Promise<void> {
  const list = [...new Map([...keys].map((k) => [`${k.arrival_day}|${k.port_id}`, { arrival_day: k.arrival_day, port_id: k.port_id, version: 1 }])).values()];
  for (let i = 0; i < list.length; i += CHUNK)
    await ex
      .insertInto('port_visit_cells_dirty')
      .values(list.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['arrival_day', 'port_id']).doUpdateSet({ version: sql`port_visit_cells_dirty.version + 1` }))
      .execute();
}

/** Every cell dropped and every (day, port) holding a call marked (after a bulk load that bypassed the events repo). `where true`: SQLite reads an `on` after a bare `from` as a join's. */
export async function markAllVisitCellsDirty(ex: Executor): Promise<void> {
  await ex.deleteFrom('port_visit_cells').execute();
  await ex.deleteFrom('port_visit_blocks').execute();
  await sql`
    insert into port_visit_cells_dirty (arrival_day, port_id, version)
    select distinct (arrival / ${sql.lit(DAY)}) * ${sql.lit(DAY)}, port_id, 1 from port_calls where true
    on conflict (arrival_day, port_id) do update set version = port_visit_cells_dirty.version + 1`.execute(ex);
}

/** The figures of a cell or block as the conflicting insert has them. */
const cellColumnsOfExcluded = {
  calls: sql<number>`excluded.calls`,
  simulated: sql<number>`excluded.simulated`,
  last_departure: sql<number | null>`excluded.last_departure`,
  call_list: sql<string | null>`excluded.call_list`,
  vessel_registers: sql<string | null>`excluded.vessel_registers`,
  dwell_buckets: sql<string | null>`excluded.dwell_buckets`,
};

/** A run of `work` per key at a time in this process: a second caller of a key waits for the first. */
function oncePerKey<K>(work: (key: K) => Promise<void>): (key: K) => Promise<void> {
  const inFlight = new Map<K, Promise<void>>();
  return (key) => {
    const held = inFlight.get(key);
    if (held) return held;
    const running = work(key).finally(() => inFlight.delete(key));
    inFlight.set(key, running);
    return running;
  };
}

/** Counts marked cells again, a UTC day at a time (its marked ports' calls read once, in one transaction). */
export function createVisitCellsKeeper(db: Db) {
  async function countDay(day: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const marks = await trx.selectFrom('port_visit_cells_dirty').select(['port_id', 'version']).where('arrival_day', '=', day).execute();
      if (marks.length === 0) return;
      const portIds = marks.map((m) => Number(m.port_id));
      const calls: VisitCall[] = (
        await trx
          .selectFrom('port_calls')
          .select(['port_id', 'vsl_id', 'arrival', 'departure', 'simulated'])
          .where('arrival', '>=', day)
          .where('arrival', '<', day + DAY)
          .where('port_id', 'in', portIds)
          .execute()
      ).map((c) => ({ port_id: Number(c.port_id), vsl_id: c.vsl_id, arrival: Number(c.arrival), departure: c.departure === null ? null : Number(c.departure), simulated: Number(c.simulated) }));
      const byPort = new Map<number, VisitCall[]>();
      for (const c of calls) {
        const list = byPort.get(c.port_id);
        if (list) list.push(c);
        else byPort.set(c.port_id, [c]);
      }
      const cells = [...byPort].map(([portId, list]) => visitCellOf(day, portId, list));
      await trx.deleteFrom('port_visit_cells').where('arrival_day', '=', day).where('port_id', 'in', portIds).execute();
      for (let i = 0; i < cells.length; i += CELLS_PER_INSERT)
        await trx
          .insertInto('port_visit_cells')
          .values(cells.slice(i, i + CELLS_PER_INSERT))
          // another process counting the same day at once wrote the same cells
          .onConflict((oc) => oc.columns(['arrival_day', 'port_id']).doUpdateSet(cellColumnsOfExcluded))
          .execute();
      const blockMarks = BLOCK_SPANS_DAYS.flatMap((span_days) => portIds.map((port_id) => ({ span_days, arrival_day: blockStartOf(day, span_days), port_id, version: 1 })));
      for (let i = 0; i < blockMarks.length; i += CHUNK)
        await trx
          .insertInto('port_visit_blocks_dirty')
          .values(blockMarks.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['span_days', 'arrival_day', 'port_id']).doUpdateSet({ version: sql`port_visit_blocks_dirty.version + 1` }))
          .execute();
      // a write that marked a cell again meanwhile leaves it marked
      for (const mark of marks)
        await trx.deleteFrom('port_visit_cells_dirty').where('arrival_day', '=', day).where('port_id', '=', Number(mark.port_id)).where('version', '=', Number(mark.version)).execute();
    });
  }

  /** Merges the marked ports' blocks of one span and start again from their day cells, in one transaction. */
  async function mergeBlock(spanDays: number, start: number): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const marks = await trx.selectFrom('port_visit_blocks_dirty').select(['port_id', 'version']).where('span_days', '=', spanDays).where('arrival_day', '=', start).execute();
      if (marks.length === 0) return;
      const portIds = marks.map((m) => Number(m.port_id));
      const cells = await trx
        .selectFrom('port_visit_cells')
        .selectAll()
        .where('arrival_day', '>=', start)
        .where('arrival_day', '<', start + spanDays * DAY)
        .where('port_id', 'in', portIds)
        .orderBy('arrival_day')
        .execute();
      const byPort = new Map<number, VisitCellRow[]>(portIds.map((id) => [id, []]));
      for (const c of cells) byPort.get(Number(c.port_id))!.push(c);
      const blocks = [...byPort].flatMap(([portId, list]) => {
        const block = visitBlockOf(start, portId, list);
        return block === null ? [] : [{ ...block, span_days: spanDays }];
      });
      await trx.deleteFrom('port_visit_blocks').where('span_days', '=', spanDays).where('arrival_day', '=', start).where('port_id', 'in', portIds).execute();
      for (let i = 0; i < blocks.length; i += CELLS_PER_INSERT)
        await trx
          .insertInto('port_visit_blocks')
          .values(blocks.slice(i, i + CELLS_PER_INSERT))
          // another process merging the same block at once wrote the same block
          .onConflict((oc) => oc.columns(['span_days', 'arrival_day', 'port_id']).doUpdateSet(cellColumnsOfExcluded))
          .execute();
      // a day counted again meanwhile leaves its blocks marked
      for (const mark of marks)
        await trx
          .deleteFrom('port_visit_blocks_dirty')
          .where('span_days', '=', spanDays)
          .where('arrival_day', '=', start)
          .where('port_id', '=', Number(mark.port_id))
          .where('version', '=', Number(mark.version))
          .execute();
    });
  }

  const countDayOnce = oncePerKey(countDay);
  const mergeBlockOnce = oncePerKey((key: string) => {
    const [spanDays, start] = key.split('|').map(Number);
    return mergeBlock(spanDays!, start!);
  });

  return {
    /** Counts the marked cells of the days in [from, to) (of all days without a range), then merges the marked blocks holding them; returns how many days it counted. */
    async refresh(range?: { from: number; to: number }): Promise<number> {
      let q = db.selectFrom('port_visit_cells_dirty').select('arrival_day').distinct();
      if (range) q = q.where('arrival_day', '>=', Math.floor(range.from / DAY) * DAY).where('arrival_day', '<', range.to);
      let counted = 0;
      // a cell marked again while its day was counted is counted again (answers are never older than the calls)
      for (let pass = 0; pass < 3; pass++) {
        const days = (await q.execute()).map((r) => Number(r.arrival_day));
        if (days.length === 0) break;
        for (const day of days) await countDayOnce(day);
        counted += days.length;
      }
      let blocks = db.selectFrom('port_visit_blocks_dirty').select(['span_days', 'arrival_day']).distinct();
      if (range) blocks = blocks.where('arrival_day', '>=', Math.floor(range.from / DAY) * DAY - Math.max(...BLOCK_SPANS_DAYS) * DAY).where('arrival_day', '<', range.to);
      for (let pass = 0; pass < 3; pass++) {
        const marked = (await blocks.execute()).map((b) => ({ spanDays: Number(b.span_days), start: Number(b.arrival_day) }));
        if (marked.length === 0) break;
        for (const { spanDays, start } of marked) await mergeBlockOnce(`${spanDays}|${start}`);
      }
      return counted;
    },
  };
}
export type VisitCellsKeeper = ReturnType<typeof createVisitCellsKeeper>;
