import { from as copyFrom } from 'pg-copy-streams';
import type SQLiteDatabase from 'better-sqlite3';

/**
 * Bulk writes that Kysely cannot express, carried through its `executeQuery` as a statement whose one
 * parameter holds the rows; the store's connection recognises that parameter and runs the bulk form.
 * Repositories build them with `DialectHelpers.copyIn` / `DialectHelpers.eachRow` and run them on their
 * transaction like any other query, so locks and transactions are unchanged.
 */

/** The data of `copy … from stdin` (PostgreSQL text format), sent as one COPY stream. */
export class CopyData {
  constructor(readonly text: string) {}
}

/** The rows to run a single-row statement with, one execution each (SQLite). */
export class EachRowParameters {
  constructor(readonly rows: ReadonlyArray<readonly unknown[]>) {}
}

/** What one execution of an `eachRow` statement did: `changes` 0 means a conflict skipped the row. */
export interface EachRowResult {
  changes: number;
  lastInsertRowid: number;
}

/** Prefix of a statement run once per row of its EachRowParameters (stripped before SQLite prepares it). */
export const EACH_ROW_MARKER = '/* bosun:each-row */ ';

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value in COPY's text format: `\N` for null, backslash escapes for the separators. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`COPY value is not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') throw new Error(`COPY value is not text or a number: ${typeof value}`);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]!) : value;
}

/** Rows as COPY text: tab-separated columns, one line per row. */
export function copyText(rows: Iterable<readonly unknown[]>): string {
  let text = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += (i === 0 ? '' : '\t') + copyValue(row[i]);
    text += line + '\n';
  }
  return text;
}

/** The CopyData a query's parameters carry, if they are a COPY statement's. */
export function copyDataOf(parameters: unknown): CopyData | undefined {
  return Array.isArray(parameters) && parameters.length === 1 && parameters[0] instanceof CopyData ? parameters[0] : undefined;
}

interface CopyClient {
  query(submittable: ReturnType<typeof copyFrom>): ReturnType<typeof copyFrom>;
}

/** Runs `copy … from stdin` on a pg client with the data; resolves like a query result once the server has it all. */
export function runCopy(client: CopyClient, text: string, data: CopyData): Promise<{ command: string; rowCount: number; rows: never[] }> {
  const stream = client.query(copyFrom(text));
  return new Promise((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', () => resolve({ command: 'COPY', rowCount: stream.rowCount, rows: [] }));
    stream.end(data.text);
  });
}

/**
 * A statement that looks like a reader to Kysely (so its rows come back) and runs `statement` once per
 * row of its EachRowParameters, answering one EachRowResult per row.
 */
export function eachRowStatement(statement: SQLiteDatabase.Statement): Pick<SQLiteDatabase.Statement, 'reader'> & { all(parameters: unknown): EachRowResult[] } {
  return {
    reader: true,
    all(parameters: unknown) {
      const each = Array.isArray(parameters) ? (parameters[0] as unknown) : undefined;
      if (!(each instanceof EachRowParameters)) throw new Error('an each-row statement needs its rows as its one parameter');
      const results = new Array<EachRowResult>(each.rows.length);
      // RunResult is { changes, lastInsertRowid }, the rowid a number unless the statement asks for BigInts (Bosun's never do).
      for (let i = 0; i < each.rows.length; i++) results[i] = statement.run(each.rows[i]!) as EachRowResult;
      return results;
    },
  };
}
