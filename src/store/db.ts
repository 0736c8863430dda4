import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationResult, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { DependencyUnavailableError } from '../dependency.js';
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

export interface StoreOptions {
  /** Told about every lost or refused PostgreSQL connection (logged by the service; the pool reconnects by itself). */
  onConnectionError?: (err: Error) => void;
}

export async function openStore(database: Config['database'], options: StoreOptions = {}): Promise<Store> {
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
    application_name: postgresApplicationName(schema),
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
  });
  guardPool(pool, options.onConnectionError ?? (() => {}));
  if (schema !== 'public') await pool.query(`create schema if not exists "${schema}"`);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: unavailableOnConnectionLoss(pool) }) });
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

/** How long a request waits for a new PostgreSQL connection before it answers 503. */
const PG_CONNECT_TIMEOUT_MS = 5000;

/** Bosun's connections name themselves, so an operator (or a test) can find them in pg_stat_activity. */
export function postgresApplicationName(schema: string): string {
  return (schema === 'public' ? 'bosun' : `bosun/${schema}`).slice(0, 63);
}

/**
 * An idle pooled client whose server connection drops (pg_terminate_backend, a restart, a proxy
 * cutting it) emits 'error'; unhandled, that ends the process. The pool already discards such a
 * client and opens a new one on the next checkout, so the events only need listeners.
 */
function guardPool(pool: pg.Pool, onError: (err: Error) => void): void {
  // An idle client's error reaches both listeners; report each error once.
  const reported = new WeakSet<Error>();
  const report = (err: Error) => {
    if (reported.has(err)) return;
    reported.add(err);
    onError(err);
  };
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
}

/** SQLSTATE classes and socket errors that mean the connection, not the statement, failed. */
const CONNECTION_SQLSTATE = /^(08|57P0[1-3]|53300)/;
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

export function isConnectionFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (CONNECTION_SQLSTATE.test(code) || SOCKET_ERRORS.has(code));
}

/**
 * The pool Kysely uses, turning connection failures into DependencyUnavailableError: a checkout that
 * fails (server down, connect timeout) and a query that fails because its connection was lost (the
 * client saw an 'error' or 'end' event, or the error carries a connection SQLSTATE or socket code).
 * Statement errors pass through unchanged.
 */
function unavailableOnConnectionLoss(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw new DependencyUnavailableError('store', { cause: err });
      }
      let lost = false;
      const markLost = () => (lost = true);
      client.on('error', markLost);
      client.on('end', markLost);
      const wrapped = {
        query(...args: unknown[]) {
          const result = (client.query as (...a: unknown[]) => unknown)(...args);
          if (!(result instanceof Promise)) return result;
          return result.catch((err: unknown) => {
            throw lost || isConnectionFailure(err) ? new DependencyUnavailableError('store', { cause: err }) : err;
          });
        },
        release() {
          client.off('error', markLost);
          client.off('end', markLost);
          client.release(lost);
        },
      };
      return wrapped as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
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
