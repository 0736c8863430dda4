import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 31 (docs/decisions/138): the port calls counted per port, ship type, simulated flag, UTC day of
 * arrival and UTC day of departure (-1: none yet; ship_type -1: unknown), kept by the events repo as
 * calls are written, so that the lanes' call counts read O(ports × days) cells instead of the window's
 * calls. Backfilled here from the calls already stored.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_call_days',
      columns: `
        arrival_day bigint not null
        port_id integer not null
        ship_type integer not null
        simulated integer not null
        departure_day bigint not null
        calls integer not null
        constraint port_call_days_key primary key (arrival_day, port_id, ship_type, simulated, departure_day)`,
      indexes: `
        port_call_days_departure (departure_day, arrival_day)`,
    },
  ]);
  // frozen here (a migration never follows the live code): src/features/events/call-days-repo.ts keeps the same cells
  await sql`
    insert into port_call_days (arrival_day, port_id, ship_type, simulated, departure_day, calls)
    select (arrival / 86400000) * 86400000, port_id, coalesce(ship_type, -1), simulated,
           coalesce((departure / 86400000) * 86400000, -1), count(*)
    from port_calls
    group by (arrival / 86400000) * 86400000, port_id, coalesce(ship_type, -1), simulated, coalesce((departure / 86400000) * 86400000, -1)`.execute(db);
}
