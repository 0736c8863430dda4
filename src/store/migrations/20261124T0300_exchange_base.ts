import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';

/** Agents banned from the exchange by the operator (docs/exchange.md, moderation). One row per agent; lifting the ban deletes it. */
export async function up(db: Kysely<any>, _d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('exchange_bans')
    .addColumn('agent_id', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('banned_at', 'bigint', (c) => c.notNull())
    .execute();
}
