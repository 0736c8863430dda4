import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/175): per vessel, port and week, the most calls the vessel began at that port in any
 * 30-day span starting in that week, kept from 4 calls up (visit rank by vessel at one port reads its candidates
 * by these bounds). The backfill marks every vessel of the stored calls from its first arrival: the event
 * runner's next pass, or the first visit-rank read by vessel, counts its bounds again, these with them
 * (src/features/events/visit-bounds-repo.ts).
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'vessel_port_visit_bounds',
      columns: `
        vsl_id text not null
        port_id integer not null
        week_start bigint not null
        bound integer not null
        constraint vessel_port_visit_bounds_key primary key (vsl_id, port_id, week_start)`,
      indexes: `vessel_port_visit_bounds_rank (port_id, week_start, bound, vsl_id)`,
    },
  ]);
  await sql`
    insert into vessel_visit_bounds_dirty (vsl_id, since, version)
    select vsl_id, min(arrival), 1 from port_calls where true group by vsl_id
    on conflict (vsl_id) do update set since = excluded.since, version = vessel_visit_bounds_dirty.version + 1`.execute(db);
}
