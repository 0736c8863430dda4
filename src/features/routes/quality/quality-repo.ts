import type { Db } from '../../../store/db.js';

/** One answered request of a routes operation, as the quality views read it. */
export interface QualitySample {
  ts: number;
  operation_id: string;
  status: number;
  latency_ms: number;
  error_code: string | null;
  cache: string | null;
  fallback: string | null;
  cache_age_seconds: number | null;
}

const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Reads request telemetry for the routes quality views (written by the telemetry service). */
export function createRoutesQualityRepo(db: Db) {
  return {
    /** The records of `operations` with since ≤ ts ≤ until, newest first, at most `cap`. */
    async window(since: number, until: number, operations: readonly string[], cap: number): Promise<QualitySample[]> {
      if (operations.length === 0) return [];
      const rows = await db
        .selectFrom('request_telemetry')
        .select(['ts', 'operation_id', 'status', 'latency_ms', 'error_code', 'cache', 'fallback', 'cache_age_seconds'])
        .where('ts', '>=', since)
        .where('ts', '<=', until)
        .where('operation_id', 'in', operations)
        .orderBy('ts', 'desc')
        .limit(cap)
        .execute();
      return rows.map((r) => ({
        ts: num(r.ts),
        operation_id: r.operation_id,
        status: num(r.status),
        latency_ms: num(r.latency_ms),
        error_code: r.error_code,
        cache: r.cache,
        fallback: r.fallback,
        cache_age_seconds: numOrNull(r.cache_age_seconds),
      }));
    },
  };
}
export type RoutesQualityRepo = ReturnType<typeof createRoutesQualityRepo>;
