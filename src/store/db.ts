import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationResult } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { dialectHelpers, type DialectHelpers } from './dialect.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: DialectHelpers;
  describe(): { dialect: string; location: string };
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds and counts, all well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export async function openStore(database: Config['database']): Promise<Store> {
  if (database.kind === 'sqlite') {
    if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
    const sqlite = new SQLiteDatabase(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return {
      db,
      dialect: dialectHelpers('sqlite'),
      describe: () => ({ dialect: 'sqlite', location: database.file }),
      close: () => db.destroy(),
    };
  }
  const schema = database.schema;
  if (schema !== 'public') {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists "${schema}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    options: schema !== 'public' ? `-c search_path=${schema}` : undefined,
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const redacted = database.url.replace(/\/\/([^:@/]+)(:[^@/]*)?@/, '//$1:***@');
  return {
    db,
    dialect: dialectHelpers('postgres'),
    describe: () => ({ dialect: 'postgres', location: `${redacted} (schema ${schema})` }),
    close: () => db.destroy(),
  };
}

/** Applies every pending migration in name order; returns the names applied now. */
export async function migrateToLatest(store: Store, schema?: string): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => migration.up(db, store.dialect) };
  }
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    ...(store.dialect.name === 'postgres' && schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r: MigrationResult) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String((error as Error).message ?? error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function storeHealthy(store: Store): Promise<boolean> {
  try {
    await sql`select 1`.execute(store.db);
    return true;
  } catch {
    return false;
  }
}
