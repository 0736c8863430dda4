import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/** Agents banned from the exchange by the operator (docs/exchange.md, moderation). One row per agent; lifting the ban deletes it. */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'exchange_bans',
      columns: `
        agent_id text primary key
        reason text not null
        banned_at bigint not null`,
    },
  ]);
}
