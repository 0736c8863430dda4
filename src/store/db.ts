import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLiteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type CompiledQuery, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { DependencyUnavailableError } from '../platform/dependency.js';
import type { Config } from '../platform/config.js';
import { copyDataOf, EACH_ROW_MARKER, eachRowStatement, runCopy } from './bulk.js';
import { dialectHelpers, type DialectHelpers } from './dialect.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';
import { postgresStartError, sqliteStartError, startFailureOf } from './start-errors.js';
import { createTransactionRunner, ImmediateSqliteDialect, type TransactionRunner } from './transaction.js';

export type Db = Kysely<Database>;

export interface Store {
  db: Db;
  dialect: DialectHelpers;
  /** PostgreSQL schema holding Bosun's tables; null on SQLite. */
  schema: string | null;
  /** One transaction under per-key locks, for every check-then-write (src/store/transaction.ts). */
  transaction: TransactionRunner;
  /**
   * SQLite only: runs a compiled read on the connection at once, without Kysely's queue and its promises.
   * Returns undefined while a transaction is open on the connection (the read would see that transaction's
   * uncommitted rows): the caller then takes the asynchronous path, which waits for the commit.
   */
  readNow?: <R>(query: CompiledQuery) => R[] | undefined;
  describe(): { dialect: string; location: string };
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds and counts, all well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

const STATEMENT_CACHE_SIZE = 500;
/** WAL pages (4 KB) written before SQLite copies them back into the database file. */
const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * Kysely prepares every query afresh; preparing is a large share of a point query's cost on SQLite.
 * Statements are reusable (better-sqlite3 runs them synchronously), so keep the most recent by SQL text.
 * A statement marked EACH_ROW_MARKER runs once per row of its one parameter (src/store/bulk.ts).
 */
function withStatementCache(sqlite: SQLiteDatabase.Database): SQLiteDatabase.Database {
  const cache = new Map<string, SQLiteDatabase.Statement>();
  const prepare = (source: string): SQLiteDatabase.Statement => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = source.startsWith(EACH_ROW_MARKER) ? (eachRowStatement(sqlite.prepare(source.slice(EACH_ROW_MARKER.length))) as SQLiteDatabase.Statement) : sqlite.prepare(source);
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
    let sqlite: SQLiteDatabase.Database;
    try {
      if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
      sqlite = new SQLiteDatabase(database.file);
      sqlite.pragma('journal_mode = WAL');
    } catch (err) {
      throw sqliteStartError(database.file, dirname(database.file), err);
    }
    sqlite.pragma('synchronous = NORMAL');
    // Checkpoint every ~40 MB of WAL instead of 4 MB: a bulk write dirties a leaf of the (vsl_id,
    // observed_at) index per vessel in every batch; copied back once per checkpoint, not once per batch
    // (docs/decisions/059).
    sqlite.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    const cached = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: cached }) });
    return {
      db,
      readNow: <R>(query: CompiledQuery) => (sqlite.inTransaction ? undefined : (cached.prepare(query.sql).all(...query.parameters) as R[])),
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
    options: postgresSessionOptions(schema),
    application_name: postgresApplicationName(schema),
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
  });
  guardPool(pool, options.onConnectionError ?? (() => {}));
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

/**
 * Every Bosun session runs without JIT compilation and without parallel workers (docs/decisions/173): its
 * reads are keyed and bounded (a window of seqs, one vessel's track, a day's cells), and a plan that wants
 * either is a plan built on missing statistics — a new day's positions partition before its first ANALYZE
 * (autovacuum off, or not yet run) is costed as millions of rows, and the detector's 5,000-row read then paid a
 * JIT compile and two workers' start, 1.5–2.5 s a batch under load, and fell behind the feed.
 */
export function postgresSessionOptions(schema: string): string {
  return ['-c jit=off', '-c max_parallel_workers_per_gather=0', ...(schema !== 'public' ? [`-c search_path=${schema}`] : [])].join(' ');
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
          const copy = copyDataOf(args[1]);
          const result = copy ? runCopy(client, args[0] as string, copy) : (client.query as (...a: unknown[]) => unknown)(...args);
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

/**
 * Opens the store and applies pending migrations, as a process starts: a PostgreSQL server that
 * cannot be reached or refuses the database or role becomes a StoreStartError naming host, port,
 * database, role, the cause and the fix (and the store is closed again).
 */
export async function openMigratedStore(database: Config['database'], options: StoreOptions = {}): Promise<{ store: Store; applied: string[] }> {
  const store = await openStore(database, options);
  try {
    return { store, applied: await migrateToLatest(store) };
  } catch (err) {
    await store.close().catch(() => {});
    if (database.kind === 'postgres' && startFailureOf(err)) throw postgresStartError(database.url, err);
    throw err;
  }
}

/** Kysely's bookkeeping table, kept under its name and shape so existing databases stay valid. */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Applies every pending migration in name order, in one transaction, in the store's schema on
 * PostgreSQL; returns the names applied now.
 *
 * Processes starting together on a fresh PostgreSQL database used to race (docs/decisions/016):
 * `create schema if not exists` ran outside any lock, and PostgreSQL's `if not exists` checks the
 * catalog before inserting into it, so a concurrent creator failed on the catalog's unique index
 * (pg_namespace_nspname_index); Kysely's Migrator also created its bookkeeping tables before taking
 * its lock, after asking whether they exist through an introspection of every table of every schema,
 * which fails when another schema is dropped meanwhile. Here every step runs on one connection holding
 * a session advisory lock for the schema, and the bookkeeping table is read directly: a second process
 * waits for the lock, then finds nothing left to apply.
 */
export async function migrateToLatest(store: Store, options: { upTo?: string } = {}): Promise<string[]> {
  if (store.schema === null) return applyPending(store.db, store.dialect, options.upTo);
  const schema = store.schema;
  const lockKey = `bosun:migrations:${schema}`;
  return store.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtextextended(${lockKey}, 0))`.execute(connection);
    try {
      if (schema !== 'public') await sql`create schema if not exists ${sql.id(schema)}`.execute(connection);
      return await applyPending(connection, store.dialect, options.upTo);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${lockKey}, 0))`.execute(connection);
    }
  });
}

/** `upTo`: apply only migrations named up to it (tests of a migration over data written before it). */
async function applyPending(db: Db, dialect: DialectHelpers, upTo?: string): Promise<string[]> {
  const untyped = db as unknown as Kysely<any>;
  await untyped.schema
    .createTable(MIGRATION_TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
  const applied = new Set((await untyped.selectFrom(MIGRATION_TABLE).select('name').execute()).map((r: { name: string }) => r.name));
  const pending = Object.keys(MIGRATIONS)
    .sort()
    .filter((name) => !applied.has(name) && (upTo === undefined || name <= upTo));
  if (pending.length === 0) return [];
  await untyped.transaction().execute(async (trx) => {
    for (const name of pending) {
      try {
        await MIGRATIONS[name]!.up(trx, dialect);
      } catch (err) {
        throw new Error(`migration ${name} failed: ${String((err as Error).message ?? err)}`, { cause: err });
      }
      await trx.insertInto(MIGRATION_TABLE).values({ name, timestamp: new Date().toISOString() }).execute();
    }
  });
  return pending;
}

export async function storeHealthy(store: Store): Promise<boolean> {
  try {
    await sql`select 1`.execute(store.db);
    return true;
  } catch {
    return false;
  }
}
