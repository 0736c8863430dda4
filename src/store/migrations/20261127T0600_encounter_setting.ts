import type { Kysely } from 'kysely';

/**
 * Issue 26 (docs/decisions/077): encounters carry the setting they happened in (`open_sea`,
 * `anchorage`, `port`); rows detected before are open-sea meetings, the only kind detected then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('encounters')
    .addColumn('setting', 'text', (c) => c.notNull().defaultTo('open_sea'))
    .execute();
  await db.schema.createIndex('encounters_setting_end').on('encounters').columns(['setting', 'end_at']).execute();
}
