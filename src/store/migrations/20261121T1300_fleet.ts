import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('vessels')
    .addColumn('vsl_id', 'text', (c) => c.primaryKey())
    .addColumn('mmsi', 'integer', (c) => c.notNull().unique())
    .addColumn('imo', 'integer')
    .addColumn('name', 'text')
    .addColumn('callsign', 'text')
    .addColumn('ship_type', 'integer')
    .addColumn('flag', 'text')
    .addColumn('length_m', 'double precision')
    .addColumn('beam_m', 'double precision')
    .addColumn('draught_m', 'double precision')
    .addColumn('destination', 'text')
    .addColumn('eta', 'text')
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('identity_observed_at', 'bigint')
    .addColumn('pos_observed_at', 'bigint')
    .addColumn('pos_received_at', 'bigint')
    .addColumn('pos_lat', 'double precision')
    .addColumn('pos_lon', 'double precision')
    .addColumn('pos_sog', 'double precision')
    .addColumn('pos_cog', 'double precision')
    .addColumn('pos_heading', 'double precision')
    .addColumn('pos_nav_status', 'integer')
    .addColumn('pos_msg_type', 'integer')
    .addColumn('pos_source', 'text')
    .addColumn('pos_simulated', 'integer')
    .addColumn('pos_quality_flags', 'text')
    .execute();
  await db.schema.createIndex('vessels_imo').on('vessels').column('imo').execute();

  await d
    .addAutoId(db.schema.createTable('vessel_identity_history'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vessel_identity_history_vessel').on('vessel_identity_history').columns(['vsl_id', 'changed_at']).execute();

  await d
    .addAutoId(db.schema.createTable('positions'), 'seq')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('observed_at', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('sog', 'double precision')
    .addColumn('cog', 'double precision')
    .addColumn('heading', 'double precision')
    .addColumn('nav_status', 'integer')
    .addColumn('msg_type', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('simulated', 'integer', (c) => c.notNull())
    .addColumn('usable', 'integer', (c) => c.notNull())
    .addColumn('quality_flags', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('positions_vessel_time').on('positions').columns(['vsl_id', 'observed_at']).unique().execute();

  await d
    .addAutoId(db.schema.createTable('vessel_lookups'), 'id')
    .addColumn('vsl_id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vessel_lookups_time').on('vessel_lookups').columns(['at', 'vsl_id']).execute();

  await d
    .addAutoId(db.schema.createTable('preview_agent_labels'), 'id')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('agent_name', 'text')
    .addColumn('agent_vendor', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('preview_agent_labels_time').on('preview_agent_labels').column('at').execute();
}
