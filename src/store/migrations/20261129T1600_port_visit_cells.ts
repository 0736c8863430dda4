import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/161): the port calls that began at one port on one UTC day as one cell (calls,
 * simulated calls, last departure, the vessels and dwell times listed while small, sketched beyond), for visit
 * rank; and the cells to count again, marked by the writes of port calls. The backfill marks every (day, port)
 * of the calls already stored: the event runner's next pass, or the first visit-rank read of a window holding
 * it, counts the cell (src/features/events/visit-cells-repo.ts).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_visit_cells',
      columns: `
        arrival_day bigint not null
        port_id integer not null
        calls integer not null
        simulated integer not null
        last_departure bigint
        call_list text
        vessel_registers text
        dwell_buckets text
        constraint port_visit_cells_key primary key (arrival_day, port_id)`,
    },
    {
      name: 'port_visit_cells_dirty',
      columns: `
        arrival_day bigint not null
        port_id integer not null
        version integer not null
        constraint port_visit_cells_dirty_key primary key (arrival_day, port_id)`,
    },
  ]);
  await sql`
    insert into port_visit_cells_dirty (arrival_day, port_id, version)
    select distinct (arrival / 86400000) * 86400000, port_id, 1 from port_calls`.execute(db);
}
