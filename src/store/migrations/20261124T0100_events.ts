import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** The event store (docs/decisions/028-event-store-and-detector-runner.md). */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await d
    .addAutoId(db.schema.createTable('port_calls'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('port_id', 'integer', (c) => c.notNull())
    .addColumn('ship_type', 'integer')
    .addColumn('arrival', 'bigint', (c) => c.notNull())
    .addColumn('departure', 'bigint')
    .addColumn('last_fix_at', 'bigint', (c) => c.notNull())
    .addColumn('anchorage_ms', 'bigint', (c) => c.notNull())
    .addColumn('berth_ms', 'bigint', (c) => c.notNull())
    .addColumn('stops', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('fixes', 'integer', (c) => c.notNull())
    .addColumn('gaps', 'integer', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('port_calls_vessel_arrival').on('port_calls').columns(['vsl_id', 'arrival']).unique().execute();
  await db.schema.createIndex('port_calls_port_arrival').on('port_calls').columns(['port_id', 'arrival']).execute();
  await db.schema.createIndex('port_calls_arrival').on('port_calls').column('arrival').execute();

  await d
    .addAutoId(db.schema.createTable('encounters'), 'id')
    .addColumn('vsl_a', 'text', (c) => c.notNull())
    .addColumn('vsl_b', 'text', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('median_distance_m', 'double precision', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('zone', 'text')
    .addColumn('observations', 'integer', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('encounters_pair_start').on('encounters').columns(['vsl_a', 'vsl_b', 'start_at']).unique().execute();
  await db.schema.createIndex('encounters_end').on('encounters').columns(['end_at', 'id']).execute();
  await db.schema.createIndex('encounters_b').on('encounters').columns(['vsl_b', 'end_at']).execute();

  await d
    .addAutoId(db.schema.createTable('transits'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('entered_at', 'bigint', (c) => c.notNull())
    .addColumn('exited_at', 'bigint', (c) => c.notNull())
    .addColumn('mean_speed_kn', 'double precision')
    .addColumn('stopped_ms', 'bigint', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('fixes', 'integer', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transits_vessel_entered').on('transits').columns(['vsl_id', 'zone', 'entered_at']).unique().execute();
  await db.schema.createIndex('transits_zone_exited').on('transits').columns(['zone', 'exited_at']).execute();

  await db.schema
    .createTable('event_detector_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('cursor_seq', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('data_time', 'bigint')
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // history is analysed by time (events rebuild, windowed analytics): positions need a time-ordered index
  await db.schema.createIndex('positions_observed_at').on('positions').columns(['observed_at', 'seq']).execute();
}
