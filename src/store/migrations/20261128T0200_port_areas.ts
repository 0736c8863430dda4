import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * Issue 26 (docs/decisions/116): a port's berth and anchorage areas as stored objects, with their
 * provenance (`gfw`, `learnt`, `operator`), grid cells (JSON `[[row, col], …]`), confidence and the
 * evidence counts they were built from. `bosun events areas rebuild` replaces the gfw and learnt rows.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'port_areas',
      columns: `
        area_id autoincrement
        port_id integer not null
        provenance text not null
        kind text not null
        cells text not null
        lat double precision not null
        lon double precision not null
        confidence double precision not null
        vessels integer not null
        stops integer not null
        anchor_stops integer not null
        gfw_points integer not null
        updated_at bigint not null`,
      indexes: `
        port_areas_port (port_id, provenance)`,
    },
  ]);
}
