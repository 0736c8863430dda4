import { sql, type Kysely } from 'kysely';

/**
 * Issue 31 (docs/decisions/159): the route stress index takes its transit counts, speeds and stopped time from
 * `transit_cells`; the stopped time a transit spent in a port call of its vessel (not waiting in the strait) is
 * the one figure the cells cannot hold. Only transits that stood still can have any: this partial index holds
 * them alone, with every column the check reads, so a request seeks the stopped transits of its gate and span.
 * Built over the stored transits when it is created (the backfill).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('transits_zone_stopped_exited').on('transits').columns(['zone', 'exited_at', 'vsl_id', 'entered_at', 'stopped_ms']).where(sql.ref('stopped_ms'), '>', 0).execute();
}
