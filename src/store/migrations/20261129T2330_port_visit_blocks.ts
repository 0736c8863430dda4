import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/170): the visit cells of 2, 4, 8 and 16 consecutive days at one port merged into
 * blocks, so a window reads a few blocks per port instead of a cell per day; and the blocks to merge again,
 * marked when a day cell in them is counted. The backfill marks every stored visit cell to be counted again:
 * counting a day marks its blocks, merged by the event runner's next pass or the first visit-rank read of a
 * window holding them (src/features/events/visit-cells-repo.ts).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_visit_blocks',
      columns: `
        span_days integer not null
        arrival_day bigint not null
        port_id integer not null
        calls integer not null
        simulated integer not null
        last_departure bigint
        call_list text
        vessel_registers text
        dwell_buckets text
        constraint port_visit_blocks_key primary key (span_days, arrival_day, port_id)`,
    },
    {
      name: 'port_visit_blocks_dirty',
      columns: `
        span_days integer not null
        arrival_day bigint not null
        port_id integer not null
        version integer not null
        constraint port_visit_blocks_dirty_key primary key (span_days, arrival_day, port_id)`,
    },
  ]);
  await sql`
    insert into port_visit_cells_dirty (arrival_day, port_id, version)
    select arrival_day, port_id, 1 from port_visit_cells where true
    on conflict (arrival_day, port_id) do update set version = port_visit_cells_dirty.version + 1`.execute(db);
}
