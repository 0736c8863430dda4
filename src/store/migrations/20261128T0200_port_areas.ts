import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/**
 * Issue 26 (docs/decisions/116): a port's berth and anchorage areas as stored objects, with their
 * provenance (`gfw`, `learnt`, `operator`), grid cells (JSON `[[row, col], …]`), confidence and the
 * evidence counts they were built from. `bosun events areas rebuild` replaces the gfw and learnt rows.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await d
    .addAutoId(db.schema.createTable('port_areas'), 'area_id')
    .addColumn('port_id', 'integer', (c) => c.notNull())
    .addColumn('provenance', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('cells', 'text', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lon', 'double precision', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .addColumn('vessels', 'integer', (c) => c.notNull())
    .addColumn('stops', 'integer', (c) => c.notNull())
    .addColumn('anchor_stops', 'integer', (c) => c.notNull())
    .addColumn('gfw_points', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('port_areas_port').on('port_areas').columns(['port_id', 'provenance']).execute();
}
