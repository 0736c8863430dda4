import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/163): the voyages of all lanes and ship categories summed per period, in the periods
 * the lane cells keep (days, runs of days, ISO weeks, runs of weeks, 28-day blocks: decision 157), for the
 * distinct vessels of a whole window without merging every lane's registers. No cell is written here: every day
 * that holds a voyage is marked (a day marked already stays as it is), and the keeper sums a marked day's week into
 * the cell tables.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'voyage_window_cells',
      columns: `
        period_start bigint not null
        period_days integer not null
        voyages integer not null
        simulated integer not null
        max_arrival bigint not null
        min_from_arrival bigint not null
        min_duration_ms bigint not null
        voyage_list text
        vessel_registers text
        hours_buckets text
        constraint voyage_window_cells_key primary key (period_start, period_days)`,
    },
  ]);
  // frozen here (a migration never follows the live code): the day as src/features/events/voyage-cells-repo.ts computes it;
  // `where true` lets SQLite read the upsert clause after a select
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages where true
    on conflict (day) do nothing`.execute(db);
}
