import { CompiledQuery, sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type RawBuilder } from 'kysely';

import { CopyData, copyBinary, EACH_ROW_MARKER, EachRowParameters, type BulkColumnType, type EachRowResult } from './bulk.js';

export type { BulkColumnType } from './bulk.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The only place that knows how SQLite and PostgreSQL differ. Times are integer epoch milliseconds
 * (bigint) in both; JSON is stored as text; booleans as integer 0/1.
 */
export interface DialectHelpers {
  name: DialectName;
  /** An auto-incrementing integer primary key column. */
  addAutoId<T extends string, C extends string>(table: CreateTableBuilder<T, C>, column: C): CreateTableBuilder<T, C>;
  /** Case-insensitive "contains" match of a column against user text. */
  containsInsensitive(column: string, needle: string): RawBuilder<boolean>;
  /**
   * The source of a bulk `insert into t (columns) <source>` given one array of values per column, or null
   * where the dialect has no array parameters (SQLite: use a multi-row `values`). On PostgreSQL it is
   * `select * from unnest($1::type[], …)`: a few parameters the server parses and plans far faster than a
   * `values` list of thousands.
   */
  columnArraysSource(columns: ReadonlyArray<{ type: BulkColumnType; values: unknown[] }>): RawBuilder<unknown> | null;
  /**
   * The statement that takes a lock on `key` until the transaction ends, or null where the transaction
   * already excludes every other writer (SQLite: one connection, `begin immediate`). On PostgreSQL it
   * is a transaction-scoped advisory lock on a 64-bit hash of the key.
   */
  transactionLock(key: string): RawBuilder<unknown> | null;
  /**
   * The statement that lets a transaction of derived rows commit without waiting for its WAL to reach disk, or
   * null where a commit does not wait on its own (SQLite). On PostgreSQL `set local synchronous_commit = off`:
   * a crash loses at most the last commits of that kind, never part of one, and never one that an earlier
   * synchronous commit follows (the WAL is one sequence) — for the event runner, whose checkpoint comes after
   * the events it covers, a lost tail is written again from the positions (docs/decisions/174).
   */
  derivedCommit(): RawBuilder<unknown> | null;
  /**
   * `copy table (columns) from stdin` in COPY's binary format with `rows` as its data, each column's values
   * encoded for its type (`columns`: name and type, in the rows' order; numbers cross as bytes, not text, on
   * both sides: docs/decisions/151), or null where the dialect has no COPY (SQLite). Runs on whatever
   * connection or transaction executes it (src/store/bulk.ts).
   */
  copyIn(table: string, columns: ReadonlyArray<{ name: string; type: BulkColumnType }>, rows: Iterable<readonly unknown[]>): CompiledQuery | null;
  /**
   * `statement` (one row's worth of parameters) run once per row of `rows` on SQLite, answering one
   * EachRowResult (`changes`, `lastInsertRowid`) per row, or null on PostgreSQL (use COPY or arrays).
   */
  eachRow(statement: CompiledQuery, rows: ReadonlyArray<readonly unknown[]>): CompiledQuery<EachRowResult> | null;
}

const quoteId = (id: string) => '"' + id.replace(/"/g, '""') + '"';

export function dialectHelpers(name: DialectName): DialectHelpers {
  return {
    name,
    addAutoId(table, column) {
      return name === 'sqlite'
        ? table.addColumn(column, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement())
        : table.addColumn(column, 'bigserial', (c: ColumnDefinitionBuilder) => c.primaryKey());
    },
    containsInsensitive(column, needle) {
      const pattern = '%' + needle.replace(/[\\%_]/g, (ch) => '\\' + ch) + '%';
      return name === 'sqlite' ? sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'` : sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`;
    },
    columnArraysSource(columns) {
      if (name === 'sqlite') return null;
      return sql`select * from unnest(${sql.join(columns.map(({ type, values }) => sql`${values}::${sql.raw(type)}[]`))})`;
    },
    transactionLock(key) {
      return name === 'sqlite' ? null : sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
    },
    derivedCommit() {
      return name === 'sqlite' ? null : sql`set local synchronous_commit = off`;
    },
    copyIn(table, columns, rows) {
      if (name === 'sqlite') return null;
      const data = copyBinary(
        columns.map((column) => column.type),
        rows,
      );
      return CompiledQuery.raw(`copy ${quoteId(table)} (${columns.map((column) => quoteId(column.name)).join(', ')}) from stdin with (format binary)`, [new CopyData(data)]);
    },
    eachRow(statement, rows) {
      if (name === 'postgres') return null;
      return CompiledQuery.raw(EACH_ROW_MARKER + statement.sql, [new EachRowParameters(rows)]) as CompiledQuery<EachRowResult>;
    },
  };
}

export const jsonText = (value: unknown): string => JSON.stringify(value ?? null);
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Round-trip latency of a trivial query, for health reporting. */
export async function pingStore(db: Kysely<any>, now: () => number): Promise<number> {
  const start = now();
  await sql`select 1`.execute(db);
  return now() - start;
}
