import type { CompiledQuery } from 'kysely';
import type { Db } from '../../store/db.js';
import type { RequestTelemetryTable } from '../../store/schema.js';

type ServedColumns = 'cache' | 'fallback' | 'cache_age_seconds';
/** A request's record; the cache and fallback columns are set only by operations that have them. */
export type TelemetryRecord = Omit<RequestTelemetryTable, 'id' | ServedColumns> & Partial<Pick<RequestTelemetryTable, ServedColumns>>;
export type TelemetrySample = Pick<RequestTelemetryTable, 'operation_id' | 'status' | 'latency_ms' | 'cost_units' | 'caller_kind' | 'agent_id' | 'error_code' | 'freshness_seconds' | 'ts'>;

/** Rows per insert statement: keeps each statement under SQLite's bound-parameter ceiling (13 columns a row). */
const INSERT_ROWS = 500;
const SAMPLE_ROW: TelemetryRecord = {
  ts: 0,
  operation_id: '',
  method: '',
  status: 0,
  latency_ms: 0,
  cost_units: 0,
  caller_kind: 'anonymous',
  agent_id: '',
  error_code: '',
  freshness_seconds: 0,
  cache: '',
  fallback: '',
  cache_age_seconds: 0,
};
const COLUMNS = Object.keys(SAMPLE_ROW) as Array<keyof TelemetryRecord>;

export function createTelemetryRepo(db: Db) {
  // The multi-row insert is built once per row count (Kysely building a 500-row insert costs more than running it)
  // and run with the rows' values in the same column order.
  const inserts = new Map<number, CompiledQuery>();
  const insertOf = (rows: number): CompiledQuery => {
    let query = inserts.get(rows);
    if (!query) {
      query = db
        .insertInto('request_telemetry')
        .values(Array.from({ length: rows }, () => ({ ...SAMPLE_ROW })))
        .compile();
      if (query.parameters.length !== rows * COLUMNS.length) throw new Error('telemetry insert: unexpected parameter layout');
      if (inserts.size >= 8) inserts.clear();
      inserts.set(rows, query);
    }
    return query;
  };
  return {
    async insertBatch(rows: TelemetryRecord[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        const chunk = rows.slice(i, i + INSERT_ROWS);
        const parameters: unknown[] = [];
        for (const row of chunk) for (const column of COLUMNS) parameters.push(row[column] ?? null);
        await db.executeQuery({ ...insertOf(chunk.length), parameters });
      }
    },
    /** The newest records of a window, newest first, at most `cap` of them. */
    async window(since: number, cap: number): Promise<TelemetrySample[]> {
      return db
        .selectFrom('request_telemetry')
        .select(['operation_id', 'status', 'latency_ms', 'cost_units', 'caller_kind', 'agent_id', 'error_code', 'freshness_seconds', 'ts'])
        .where('ts', '>=', since)
        .orderBy('ts', 'desc')
        .limit(cap)
        .execute();
    },
    async deleteOlderThan(cutoff: number): Promise<number> {
      const r = await db.deleteFrom('request_telemetry').where('ts', '<', cutoff).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type TelemetryRepo = ReturnType<typeof createTelemetryRepo>;
