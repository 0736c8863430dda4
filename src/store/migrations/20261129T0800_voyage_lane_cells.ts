import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/153): the voyages summed per UTC day and per ISO week of departure and lane, all
 * ship categories together, for the lanes answers without a ship-type filter. No cell is written here: every
 * day that holds a voyage is marked (a day marked already stays as it is), and the keeper sums a marked day's
 * week into both cell tables.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'voyage_lane_cells',
      columns: `
        period_start bigint not null
        period_days integer not null
        from_port integer not null
        to_port integer not null
        voyages integer not null
        simulated integer not null
        max_arrival bigint not null
        min_from_arrival bigint not null
        min_duration_ms bigint not null
        voyage_list text
        vessel_registers text
        hours_buckets text
        constraint voyage_lane_cells_key primary key (period_start, period_days, from_port, to_port)`,
    },
  ]);
  // frozen here (a migration never follows the live code): the day as src/features/events/voyage-cells-repo.ts computes it;
  // `where true` lets SQLite read the upsert clause after a select
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages where true
    on conflict (day) do nothing`.execute(db);
}
