import type { Db } from '../../store/db.js';
import type { RequestTelemetryTable } from '../../store/schema.js';

export type TelemetryRecord = Omit<RequestTelemetryTable, 'id'>;
export type TelemetrySample = Pick<RequestTelemetryTable, 'operation_id' | 'status' | 'latency_ms' | 'cost_units' | 'caller_kind' | 'agent_id' | 'error_code' | 'freshness_seconds' | 'ts'>;

export function createTelemetryRepo(db: Db) {
  return {
    async insertBatch(rows: TelemetryRecord[]): Promise<void> {
      // Keeps each statement under SQLite's bound-parameter ceiling (11 columns a row).
      for (let i = 0; i < rows.length; i += 500) {
        await db
          .insertInto('request_telemetry')
          .values(rows.slice(i, i + 500))
          .execute();
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
