import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type Kysely, type SqliteDialectConfig, type Transaction } from 'kysely';
import type { DialectHelpers } from './dialect.js';
import type { Database } from './schema.js';

/** An open transaction: repositories run a check-then-write on it (docs/decisions/009-transactions-and-locks.md). */
export type Trx = Transaction<Database>;
// Kysely<Database> rather than db.ts's Db: db.ts builds its runner from this module.
type Db = Kysely<Database>;
/** What a repository function runs on: the store (its pool) by default, or the caller's open transaction. */
export type Executor = Db | Trx;

/**
 * Runs `fn` in one transaction that holds the lock of every key (usually `agentLock(agentId)`); commits
 * when `fn` resolves, rolls back everything (quota charges included) when it throws. Serialises all
 * transactions holding the same key, across processes on PostgreSQL. Not for reads; never nested: code
 * that may run inside a transaction takes the open `trx` instead of opening another.
 */
export type TransactionRunner = <T>(lockKeys: string | readonly string[], fn: (trx: Trx) => Promise<T>) => Promise<T>;

/** The lock key of everything one agent does against its limits. */
export const agentLock = (agentId: string): string => `agent:${agentId}`;

/** Set while a transaction's callback runs, so a query that bypasses its `trx` fails instead of hanging. */
const openTransaction = new AsyncLocalStorage<{ open: boolean }>();
const insideTransaction = () => openTransaction.getStore()?.open === true;
/**
 * Transactions open in this process (every store). At zero the storage is disabled: an AsyncLocalStorage
 * in use hooks every promise the process creates (each request's), and with no transaction open there is
 * no context to carry. The next `run` enables it again.
 */
let transactionsOpen = 0;

/**
 * Per-key FIFO locks inside this process. A transaction waits here before it takes a pooled connection,
 * so callers queued on one agent's lock do not hold connections other requests need.
 */
class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  /** Locks the keys in the given (sorted) order; the returned function releases them all. */
  async lock(keys: readonly string[]): Promise<() => void> {
    const releases: Array<() => void> = [];
    try {
      for (const key of keys) releases.push(await this.lockOne(key));
    } catch (err) {
      for (const release of releases.reverse()) release();
      throw err;
    }
    return () => {
      for (const release of releases.reverse()) release();
    };
  }

  private async lockOne(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}

export function createTransactionRunner(db: Db, dialect: DialectHelpers): TransactionRunner {
  const mutex = new KeyedMutex();
  return async (lockKeys, fn) => {
    if (insideTransaction()) {
      throw new Error('store.transaction called inside an open transaction; pass its trx down instead of opening another');
    }
    // One fixed order, so two transactions needing the same two keys cannot deadlock.
    const keys = [...new Set(typeof lockKeys === 'string' ? [lockKeys] : lockKeys)].sort();
    const release = await mutex.lock(keys);
    try {
      return await db.transaction().execute(async (trx) => {
        for (const key of keys) await dialect.transactionLock(key)?.execute(trx);
        const scope = { open: true };
        transactionsOpen++;
        try {
          return await openTransaction.run(scope, () => fn(trx));
        } finally {
          scope.open = false;
          if (--transactionsOpen === 0) openTransaction.disable();
        }
      });
    } finally {
      release();
    }
  };
}

/**
 * better-sqlite3 behind Kysely has one connection, held by a transaction from begin to commit: other
 * queries (any caller's) wait for it, which serialises every transaction in the process. Transactions
 * begin IMMEDIATE, taking the database's write lock at once, so a second process writing the same file
 * waits (busy_timeout) instead of failing when a read-then-write upgrades its lock. A query sent through
 * the store instead of the open `trx` would wait for that same connection forever: it fails at once.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    if (insideTransaction()) {
      throw new Error('query sent through the store inside an open transaction; pass the transaction (trx) to the repository');
    }
    return super.acquireConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
