import { sql } from 'kysely';
import { firstWeekTouchedBy, portVisitBoundsOf, visitBoundsOf } from '../../events/visit-bounds.js';
import type { Db } from '../../store/db.js';
import type { Executor } from '../../store/transaction.js';

/**
 * Keeps `vessel_visit_bounds` in step with port_calls (docs/decisions/165) as decision 161 keeps the visit
 * cells: a write of calls marks each of its vessels with the earliest arrival it adds, replaces or removes
 * (one upsert per vessel, in the writer's executor, beside the vessel's voyages); a marked vessel's bounds
 * from the first week that arrival touches on are counted again from its calls by the event runner's pass
 * after it writes, or by the first visit-rank read by vessel of a window before the mark. Its bounds at each port
 * (`vessel_port_visit_bounds`, docs/decisions/175) are counted with them, from the same calls.
 */

/** Marks per upsert (3 parameters each). */
const CHUNK = 300;
/** Vessels counted again per transaction (their calls read in one statement). */
const VESSELS_PER_COUNT = 400;
/** Bounds per insert (4 columns each). */
const BOUNDS_PER_INSERT = 200;

/** Marks the vessels whose calls changed from these arrivals on. */
export async function markVisitBoundsDirty(ex: Executor, changedFrom: ReadonlyMap<string, number>): Promise<void> {
  const list = [...changedFrom].map(([vsl_id, since]) => ({ vsl_id, since: Number(since), version: 1 }));
  for (let i = 0; i < list.length; i += CHUNK)
    await ex
      .insertInto('vessel_visit_bounds_dirty')
      .values(list.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.column('vsl_id').doUpdateSet({
          since: sql`case when excluded.since < vessel_visit_bounds_dirty.since then excluded.since else vessel_visit_bounds_dirty.since end`,
          version: sql`vessel_visit_bounds_dirty.version + 1`,
        }),
      )
      .execute();
}

/** Every bound dropped and every vessel holding a call marked from its first arrival (after a bulk load that bypassed the events repo). `where true`: SQLite reads an `on` after a bare `from` as a join's. */
export async function markAllVisitBoundsDirty(ex: Executor): Promise<void> {
  await ex.deleteFrom('vessel_visit_bounds').execute();
  await ex.deleteFrom('vessel_port_visit_bounds').execute();
  await sql`
    insert into vessel_visit_bounds_dirty (vsl_id, since, version)
    select vsl_id, min(arrival), 1 from port_calls where true group by vsl_id
    on conflict (vsl_id) do update set since = excluded.since, version = vessel_visit_bounds_dirty.version + 1`.execute(ex);
}

/** Counts the bounds of marked vessels again, VESSELS_PER_COUNT at a time (their calls read once, in one transaction). */
export function createVisitBoundsKeeper(db: Db) {
  async function countVessels(marks: ReadonlyArray<{ vsl_id: string; since: number; version: number }>): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const ids = marks.map((m) => m.vsl_id);
      const fromWeek = Math.min(...marks.map((m) => firstWeekTouchedBy(Number(m.since))));
      const calls = await trx.selectFrom('port_calls').select(['vsl_id', 'port_id', 'arrival']).where('vsl_id', 'in', ids).where('arrival', '>=', fromWeek).execute();
      const callsOf = new Map<string, Array<{ port_id: number; arrival: number }>>(ids.map((id) => [id, []]));
      for (const c of calls) callsOf.get(c.vsl_id)?.push({ port_id: Number(c.port_id), arrival: Number(c.arrival) });
      const bounds = [...callsOf].flatMap(([id, list]) =>
        visitBoundsOf(
          id,
          list.map((c) => c.arrival),
          fromWeek,
        ),
      );
      const portBounds = [...callsOf].flatMap(([id, list]) => portVisitBoundsOf(id, list, fromWeek));
      await trx.deleteFrom('vessel_visit_bounds').where('vsl_id', 'in', ids).where('week_start', '>=', fromWeek).execute();
      await trx.deleteFrom('vessel_port_visit_bounds').where('vsl_id', 'in', ids).where('week_start', '>=', fromWeek).execute();
      for (let i = 0; i < bounds.length; i += BOUNDS_PER_INSERT)
        await trx
          .insertInto('vessel_visit_bounds')
          .values(bounds.slice(i, i + BOUNDS_PER_INSERT))
          // another process counting the same vessels at once wrote the same bounds
          .onConflict((oc) => oc.columns(['vsl_id', 'length_days', 'week_start']).doUpdateSet((eb) => ({ bound: eb.ref('excluded.bound') })))
          .execute();
      for (let i = 0; i < portBounds.length; i += BOUNDS_PER_INSERT)
        await trx
          .insertInto('vessel_port_visit_bounds')
          .values(portBounds.slice(i, i + BOUNDS_PER_INSERT))
          .onConflict((oc) => oc.columns(['vsl_id', 'port_id', 'week_start']).doUpdateSet((eb) => ({ bound: eb.ref('excluded.bound') })))
          .execute();
      // a write that marked a vessel again meanwhile leaves it marked
      for (const mark of marks) await trx.deleteFrom('vessel_visit_bounds_dirty').where('vsl_id', '=', mark.vsl_id).where('version', '=', Number(mark.version)).execute();
    });
  }

  return {
    /** Counts the marked vessels (of all, or those marked from an arrival before `before`); returns how many. */
    async refresh(range?: { before: number }): Promise<number> {
      let counted = 0;
      // a vessel marked again while it was counted is counted again (answers are never older than the calls)
      for (let pass = 0; pass < 3; pass++) {
        let q = db.selectFrom('vessel_visit_bounds_dirty').select(['vsl_id', 'since', 'version']);
        if (range) q = q.where('since', '<', range.before);
        const marks = (await q.execute()).map((m) => ({ vsl_id: m.vsl_id, since: Number(m.since), version: Number(m.version) }));
        if (marks.length === 0) break;
        // vessels of close first arrivals together, so a chunk reads few weeks it does not count
        marks.sort((a, b) => a.since - b.since);
        for (let i = 0; i < marks.length; i += VESSELS_PER_COUNT) await countVessels(marks.slice(i, i + VESSELS_PER_COUNT));
        counted += marks.length;
      }
      return counted;
    },
  };
}
export type VisitBoundsKeeper = ReturnType<typeof createVisitBoundsKeeper>;
