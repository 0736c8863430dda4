import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/165): per vessel, week and window length, the most port calls the vessel began in
 * any window of that length starting in that week (visit rank by vessel reads its candidates by these bounds);
 * and the vessels whose bounds are to be counted again from some arrival on, marked by the writes of port
 * calls. The backfill marks every vessel of the stored calls from its first arrival: the event runner's next
 * pass, or the first visit-rank read by vessel, counts them (src/features/events/visit-bounds-repo.ts).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'vessel_visit_bounds',
      columns: `
        vsl_id text not null
        length_days integer not null
        week_start bigint not null
        bound integer not null
        constraint vessel_visit_bounds_key primary key (vsl_id, length_days, week_start)`,
      indexes: `vessel_visit_bounds_rank (length_days, week_start, bound, vsl_id)`,
    },
    {
      name: 'vessel_visit_bounds_dirty',
      columns: `
        vsl_id text not null
        since bigint not null
        version integer not null
        constraint vessel_visit_bounds_dirty_key primary key (vsl_id)`,
    },
  ]);
  await sql`
    insert into vessel_visit_bounds_dirty (vsl_id, since, version)
    select vsl_id, min(arrival), 1 from port_calls group by vsl_id`.execute(db);
}
