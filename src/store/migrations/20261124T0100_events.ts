import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** The event store (docs/decisions/028-event-store-and-detector-runner.md). */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_calls',
      columns: `
        id autoincrement
        vsl_id text not null
        port_id integer not null
        ship_type integer
        arrival bigint not null
        departure bigint
        last_fix_at bigint not null
        anchorage_ms bigint not null
        berth_ms bigint not null
        stops text not null
        first_seq bigint not null
        last_seq bigint not null
        fixes integer not null
        gaps integer not null
        confidence double precision not null
        simulated integer not null
        updated_at bigint not null`,
      indexes: `
        port_calls_vessel_arrival unique (vsl_id, arrival)
        port_calls_port_arrival (port_id, arrival)
        port_calls_arrival (arrival)`,
    },
    {
      name: 'encounters',
      columns: `
        id autoincrement
        vsl_a text not null
        vsl_b text not null
        start_at bigint not null
        end_at bigint not null
        median_distance_m double precision not null
        lat double precision not null
        lon double precision not null
        zone text
        observations integer not null
        first_seq bigint not null
        last_seq bigint not null
        confidence double precision not null
        simulated integer not null
        updated_at bigint not null`,
      indexes: `
        encounters_pair_start unique (vsl_a, vsl_b, start_at)
        encounters_end (end_at, id)
        encounters_b (vsl_b, end_at)`,
    },
    {
      name: 'transits',
      columns: `
        id autoincrement
        vsl_id text not null
        zone text not null
        direction text not null
        entered_at bigint not null
        exited_at bigint not null
        mean_speed_kn double precision
        stopped_ms bigint not null
        first_seq bigint not null
        last_seq bigint not null
        fixes integer not null
        simulated integer not null
        updated_at bigint not null`,
      indexes: `
        transits_vessel_entered unique (vsl_id, zone, entered_at)
        transits_zone_exited (zone, exited_at)`,
    },
    {
      name: 'event_detector_state',
      columns: `
        name text primary key
        cursor_seq bigint not null
        state text not null
        data_time bigint
        owner text
        lease_until bigint not null
        updated_at bigint not null`,
    },
  ]);

  // history is analysed by time (events rebuild, windowed analytics): positions need a time-ordered index
  await db.schema.createIndex('positions_observed_at').on('positions').columns(['observed_at', 'seq']).execute();
}
