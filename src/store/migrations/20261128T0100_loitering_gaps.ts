import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** Issue 27, second part (docs/decisions/114): loitering and AIS-gap events, beside the other event tables. */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'loitering_events',
      columns: `
        id autoincrement
        vsl_id text not null
        start_at bigint not null
        end_at bigint not null
        lat double precision not null
        lon double precision not null
        mean_speed_kn double precision not null
        distance_nm double precision not null
        min_shore_nm double precision not null
        fixes integer not null
        first_seq bigint not null
        last_seq bigint not null
        simulated integer not null
        updated_at bigint not null`,
      indexes: `
        loitering_vessel_start unique (vsl_id, start_at)
        loitering_start (start_at, id)`,
    },
    {
      name: 'ais_gaps',
      columns: `
        id autoincrement
        vsl_id text not null
        start_at bigint not null
        end_at bigint not null
        start_lat double precision not null
        start_lon double precision not null
        end_lat double precision not null
        end_lon double precision not null
        distance_nm double precision not null
        implied_speed_kn double precision not null
        start_shore_nm double precision not null
        end_shore_nm double precision not null
        near_shore integer not null
        first_seq bigint not null
        last_seq bigint not null
        simulated integer not null
        updated_at bigint not null`,
      indexes: `
        ais_gaps_vessel_start unique (vsl_id, start_at)
        ais_gaps_start (start_at, id)`,
    },
  ]);
}
