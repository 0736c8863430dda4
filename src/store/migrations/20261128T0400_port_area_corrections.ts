import type { Kysely } from 'kysely';

/**
 * Issue 26 (docs/decisions/121): operator corrections of port areas. Every area carries its stable
 * `area_key` (`port_id:row:col` of its anchor cell; ids change at each rebuild); an `operator` row made
 * from a feedback ticket (`ticket_id`) holds the corrected area and `masks`, the cells (JSON) of the area
 * it corrects, which the built areas no longer claim.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('port_areas').addColumn('area_key', 'text').execute();
  await db.schema.alterTable('port_areas').addColumn('masks', 'text').execute();
  await db.schema.alterTable('port_areas').addColumn('ticket_id', 'text').execute();
}
