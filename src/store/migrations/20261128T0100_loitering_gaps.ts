import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** Issue 27, second part (docs/decisions/114): loitering and AIS-gap events, beside the other event tables. */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await d
    .addAutoId(db.schema.createTable('loitering_events'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('mean_speed_kn', 'double precision', (c) => c.notNull())
    .addColumn('distance_nm', 'double precision', (c) => c.notNull())
    .addColumn('min_shore_nm', 'double precision', (c) => c.notNull())
    .addColumn('fixes', 'integer', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('loitering_vessel_start').on('loitering_events').columns(['vsl_id', 'start_at']).unique().execute();
  await db.schema.createIndex('loitering_start').on('loitering_events').columns(['start_at', 'id']).execute();

  await d
    .addAutoId(db.schema.createTable('ais_gaps'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('start_lat', 'double precision', (c) => c.notNull())
    .addColumn('start_lon', 'double precision', (c) => c.notNull())
    .addColumn('end_lat', 'double precision', (c) => c.notNull())
    .addColumn('end_lon', 'double precision', (c) => c.notNull())
    .addColumn('distance_nm', 'double precision', (c) => c.notNull())
    .addColumn('implied_speed_kn', 'double precision', (c) => c.notNull())
    .addColumn('start_shore_nm', 'double precision', (c) => c.notNull())
    .addColumn('end_shore_nm', 'double precision', (c) => c.notNull())
    .addColumn('near_shore', 'integer', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ais_gaps_vessel_start').on('ais_gaps').columns(['vsl_id', 'start_at']).unique().execute();
  await db.schema.createIndex('ais_gaps_start').on('ais_gaps').columns(['start_at', 'id']).execute();
}
