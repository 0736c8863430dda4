import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Issue 31 (docs/decisions/164): the cells per ship category also keep 28-day blocks, runs of weeks that begin or
 * end a block and runs of days that begin or end an ISO week, as the lane cells do (decision 157: new values of
 * `period_days` in `voyage_cells`), and an approximate cell's registers move out of `facts` into a column of their
 * own, `vessel_registers` (null for an exact cell). The cells the new readers cannot read (approximate ones) are
 * deleted, and every day that holds a voyage is marked (a day marked already stays as it is), so the keeper sums
 * every week again and writes its runs and its block's cells beside its day and week cells.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema.alterTable('voyage_cells').addColumn('vessel_registers', 'text').execute();
  await sql`delete from voyage_cells where exact = 0`.execute(db);
  // frozen here (a migration never follows the live code): the day as src/features/events/voyage-cells-repo.ts computes it;
  // `where true` lets SQLite read the upsert clause after a select
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages where true
    on conflict (day) do nothing`.execute(db);
}
