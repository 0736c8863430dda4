import { from as copyFrom } from 'pg-copy-streams';
import type SQLiteDatabase from 'better-sqlite3';

/**
 * Bulk writes that Kysely cannot express, carried through its `executeQuery` as a statement whose one
 * parameter holds the rows; the store's connection recognises that parameter and runs the bulk form.
 * Repositories build them with `DialectHelpers.copyIn` / `DialectHelpers.eachRow` and run them on their
 * transaction like any other query, so locks and transactions are unchanged.
 */

/** A column type the bulk writes encode for (PostgreSQL's names). */
export type BulkColumnType = 'text' | 'bigint' | 'integer' | 'double precision';

/** The data of `copy … from stdin with (format binary)`, sent as one COPY stream. */
export class CopyData {
  constructor(readonly data: Buffer) {}
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

/** COPY binary's signature, flags (no OIDs) and header extension length (none). */
const BINARY_HEADER = Buffer.from([...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), 0, 0, 0, 0, 0, 0, 0, 0]);
const TWO_TO_32 = 4294967296;

/** An integer column's value (a number, or its decimal text as the text format accepts it). */
function integerValue(value: unknown, type: BulkColumnType): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number))
    throw new Error(`COPY value is not an integer for a ${type} column: ${typeof value === 'number' || typeof value === 'string' ? value : typeof value}`);
  if (type === 'integer' && (number < -2147483648 || number > 2147483647)) throw new Error(`COPY value out of range for an integer column: ${number}`);
  return number;
}

/**
 * Rows in COPY's binary format (`copy … from stdin with (format binary)`), each value encoded for its
 * column's type: doubles as their 8 bytes, so neither side converts numbers to text and back (the text
 * format's largest cost for a row of coordinates). Null is a length of -1.
 */
export function copyBinary(types: readonly BulkColumnType[], rows: Iterable<readonly unknown[]>): Buffer {
  let buffer = Buffer.allocUnsafe(64 * 1024);
  let at = 0;
  const room = (bytes: number) => {
    if (at + bytes <= buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(buffer.length * 2, at + bytes));
    buffer.copy(grown, 0, 0, at);
    buffer = grown;
  };
  room(BINARY_HEADER.length);
  at += BINARY_HEADER.copy(buffer, at);
  for (const row of rows) {
    if (row.length !== types.length) throw new Error(`COPY row has ${row.length} values for ${types.length} columns`);
    room(2 + types.length * 12);
    at = buffer.writeInt16BE(types.length, at);
    for (let i = 0; i < types.length; i++) {
      const value = row[i];
      const type = types[i]!;
      if (value === null || value === undefined) {
        room(4);
        at = buffer.writeInt32BE(-1, at);
      } else if (type === 'double precision') {
        const number = typeof value === 'string' ? Number(value) : value;
        if (typeof number !== 'number' || !Number.isFinite(number)) throw new Error(`COPY value is not a finite number: ${typeof value === 'number' ? value : typeof value}`);
        room(12);
        at = buffer.writeInt32BE(8, at);
        at = buffer.writeDoubleBE(number, at);
      } else if (type === 'bigint') {
        const number = integerValue(value, type);
        const high = Math.floor(number / TWO_TO_32);
        room(12);
        at = buffer.writeInt32BE(8, at);
        at = buffer.writeInt32BE(high, at);
        at = buffer.writeUInt32BE(number - high * TWO_TO_32, at);
      } else if (type === 'integer') {
        room(8);
        at = buffer.writeInt32BE(4, at);
        at = buffer.writeInt32BE(integerValue(value, type), at);
      } else {
        if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`COPY value is not a finite number: ${value}`);
        if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`COPY value is not text or a number: ${typeof value}`);
        const text = typeof value === 'string' ? value : String(value);
        room(4 + text.length * 3);
        const length = buffer.write(text, at + 4, 'utf8');
        buffer.writeInt32BE(length, at);
        at += 4 + length;
      }
    }
  }
  room(2);
  at = buffer.writeInt16BE(-1, at);
  return buffer.subarray(0, at);
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
    stream.end(data.data);
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
