import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/149): the voyages summed per UTC day and per ISO week of departure, lane and ship
 * category, and
 * the days whose cells must be summed again. No cell is written here: every day that holds a voyage is
 * marked, and the lanes sum a marked day's cells the first time a window reads it (or the event runner's
 * pass does, after it writes).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'voyage_cells',
      columns: `
        period_start bigint not null
        period_days integer not null
        from_port integer not null
        to_port integer not null
        category text not null
        voyages integer not null
        simulated integer not null
        max_arrival bigint not null
        min_from_arrival bigint not null
        min_duration_ms bigint not null
        exact integer not null
        facts text not null
        constraint voyage_cells_key primary key (period_start, period_days, from_port, to_port, category)`,
    },
    {
      name: 'voyage_cell_days_dirty',
      columns: `
        day bigint primary key
        version integer not null`,
    },
  ]);
  // frozen here (a migration never follows the live code): the day as src/features/events/voyage-cells-repo.ts computes it
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages`.execute(db);
}
