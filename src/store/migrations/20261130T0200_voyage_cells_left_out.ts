import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Issue 31 (docs/decisions/177): the voyage cells apply the lanes' rule (one harbour, the speed limit) when they keep
 * sketches, and count the voyages it leaves out in a new column `left_out` of the three cell tables. Every cell was
 * written without it, so all are deleted and every day that holds a voyage is marked: the keeper sums every week
 * again (the event runner's pass, or the first lanes read of a window).
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  for (const table of ['voyage_cells', 'voyage_lane_cells', 'voyage_window_cells']) {
    await db.schema
      .alterTable(table)
      .addColumn('left_out', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.deleteFrom(table).execute();
  }
  // frozen here (a migration never follows the live code): the day as src/features/events/voyage-cells-repo.ts computes it;
  // `where true` lets SQLite read the upsert clause after a select
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages where true
    on conflict (day) do nothing`.execute(db);
}
