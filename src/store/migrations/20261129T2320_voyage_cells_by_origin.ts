import type { Kysely } from 'kysely';

/**
 * Issue 31 (docs/decisions/169): the cells per ship category of one origin (dest-opportunities) or one lane
 * (lane-details) read by origin, period length and start, instead of every lane's cells of the period scanned
 * by the primary key (period_start first): a read of one origin's or lane's cells costs the cells it returns.
 * An index only: every row stays as it is.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('voyage_cells_origin').on('voyage_cells').columns(['from_port', 'period_days', 'period_start', 'to_port', 'category']).execute();
}
