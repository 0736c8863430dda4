import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationResult } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { dialectHelpers, type DialectHelpers } from './dialect.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';
import { createTransactionRunner, ImmediateSqliteDialect, type TransactionRunner } from './transaction.js';

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: DialectHelpers;
  /** PostgreSQL schema holding Bosun's tables; null on SQLite. */
  schema: string | null;
  /** One transaction under per-key locks, for every check-then-write (src/store/transaction.ts). */
  transaction: TransactionRunner;
  describe(): { dialect: string; location: string };
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds and counts, all well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing is a large share of a point query's cost on SQLite.
 * Statements are reusable (better-sqlite3 runs them synchronously), so keep the most recent by SQL text.
 */
function withStatementCache(sqlite: SQLiteDatabase.Database): SQLiteDatabase.Database {
  const cache = new Map<string, SQLiteDatabase.Statement>();
  const prepare = (source: string): SQLiteDatabase.Statement => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = sqlite.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function openStore(database: Config['database']): Promise<Store> {
  if (database.kind === 'sqlite') {
    if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
    const sqlite = new SQLiteDatabase(database.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
    return {
      db,
      dialect: dialectHelpers('sqlite'),
      schema: null,
      transaction: createTransactionRunner(db, dialectHelpers('sqlite')),
      describe: () => ({ dialect: 'sqlite', location: database.file }),
      close: () => db.destroy(),
    };
  }
  const schema = database.schema;
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    options: schema !== 'public' ? `-c search_path=${schema}` : undefined,
  });
  if (schema !== 'public') await pool.query(`create schema if not exists "${schema}"`);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const redacted = database.url.replace(/\/\/([^:@/]+)(:[^@/]*)?@/, '//$1:***@');
  return {
    db,
    dialect: dialectHelpers('postgres'),
    schema,
    transaction: createTransactionRunner(db, dialectHelpers('postgres')),
    describe: () => ({ dialect: 'postgres', location: `${redacted} (schema ${schema})` }),
    close: () => db.destroy(),
  };
}

/** Applies every pending migration in name order, in the store's schema on PostgreSQL. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => migration.up(db, store.dialect) };
  }
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => migrations },
    // Scopes Kysely's own existence checks to this schema; other schemas may hold migration tables too.
    ...(store.schema ? { migrationTableSchema: store.schema } : {}),
  });
  // Processes starting together race on Kysely's bookkeeping tables; a failed attempt rolls back, so retry.
  let outcome = await migrator.migrateToLatest();
  for (let attempt = 1; outcome.error && attempt < 4; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    outcome = await migrator.migrateToLatest();
  }
  const { error, results } = outcome;
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
