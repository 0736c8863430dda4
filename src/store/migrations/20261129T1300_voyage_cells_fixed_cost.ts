import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Issue 31 (docs/decisions/158): a voyage cell is exact while every day of its period holds at most 128 voyages
 * over all lanes, and an approximate cell keeps its sketches encoded and its voyages per day and per hour of
 * departure. The cells written before are summed again: the days of every stored cell are marked (a day marked
 * already stays as it is), and the cells the new readers cannot read (approximate ones) are deleted; the keeper
 * sums a marked day's week again before any lanes answer reads it.
 */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  // frozen here (a migration never follows the live code); `where true` lets SQLite read the upsert clause after a select
  await sql`
    insert into voyage_cell_days_dirty (day, version)
    select distinct (departure / 86400000) * 86400000, 1 from voyages where true
    on conflict (day) do nothing`.execute(db);
  await sql`delete from voyage_cells where exact = 0`.execute(db);
}
