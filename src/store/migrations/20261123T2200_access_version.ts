import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.js';
import { createTables } from './helpers/create-tables.js';

/**
 * One counter that every change to an agent or its scope grants bumps, in the same transaction, by
 * trigger (so no writer can forget it). Processes cache principals by key and drop the cache when the
 * counter moves: a revoked key is refused by every process from the commit on (docs/decisions/016).
 * Registering an agent inserts its sandbox grants, which bumps the counter too; that is rare enough.
 */
export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await createTables(db, d, [
    {
      name: 'access_version',
      columns: `
        id integer primary key
        version bigint not null`,
    },
  ]);
  await db.insertInto('access_version').values({ id: 1, version: 0 }).execute();
  const bump = 'update access_version set version = version + 1 where id = 1';
  if (d.name === 'sqlite') {
    for (const [table, event] of [
      ['agents', 'update'],
      ['agents', 'delete'],
      ['agent_scopes', 'insert'],
      ['agent_scopes', 'update'],
      ['agent_scopes', 'delete'],
    ] as const) {
      await sql.raw(`create trigger ${table}_${event}_bumps_access_version after ${event} on ${table} begin ${bump}; end`).execute(db);
    }
    return;
  }
  // `set search_path from current` pins the function to the schema it is created in.
  await sql.raw(`create function bump_access_version() returns trigger language plpgsql set search_path from current as $$ begin ${bump}; return null; end $$`).execute(db);
  await sql.raw('create trigger agents_bump_access_version after update or delete on agents for each statement execute function bump_access_version()').execute(db);
  await sql.raw('create trigger agent_scopes_bump_access_version after insert or update or delete on agent_scopes for each statement execute function bump_access_version()').execute(db);
}
