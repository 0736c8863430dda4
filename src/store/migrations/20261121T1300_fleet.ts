import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'vessels',
      columns: `
        vsl_id text primary key
        mmsi integer not null unique
        imo integer
        name text
        callsign text
        ship_type integer
        flag text
        length_m double precision
        beam_m double precision
        draught_m double precision
        destination text
        eta text
        simulated integer not null
        sources text not null
        first_seen_at bigint not null
        last_seen_at bigint not null
        identity_observed_at bigint
        pos_observed_at bigint
        pos_received_at bigint
        pos_lat double precision
        pos_lon double precision
        pos_sog double precision
        pos_cog double precision
        pos_heading double precision
        pos_nav_status integer
        pos_msg_type integer
        pos_source text
        pos_simulated integer
        pos_quality_flags text`,
      indexes: `
        vessels_imo (imo)`,
    },
    {
      name: 'vessel_identity_history',
      columns: `
        id autoincrement
        vsl_id text not null
        field text not null
        old_value text
        new_value text
        changed_at bigint not null
        source text not null`,
      indexes: `
        vessel_identity_history_vessel (vsl_id, changed_at)`,
    },
    {
      name: 'positions',
      columns: `
        seq autoincrement
        vsl_id text not null
        observed_at bigint not null
        received_at bigint not null
        lat double precision not null
        lon double precision not null
        sog double precision
        cog double precision
        heading double precision
        nav_status integer
        msg_type integer
        source text not null
        simulated integer not null
        usable integer not null
        quality_flags text not null`,
      indexes: `
        positions_vessel_time unique (vsl_id, observed_at)`,
    },
    {
      name: 'vessel_lookups',
      columns: `
        id autoincrement
        vsl_id text not null
        agent_id text not null
        operation_id text not null
        at bigint not null`,
      indexes: `
        vessel_lookups_time (at, vsl_id)`,
    },
    {
      name: 'preview_agent_labels',
      columns: `
        id autoincrement
        at bigint not null
        operation_id text not null
        agent_name text
        agent_vendor text
        ip text`,
      indexes: `
        preview_agent_labels_time (at)`,
    },
  ]);
}
