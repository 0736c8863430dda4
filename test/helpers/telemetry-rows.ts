import type { TelemetryRecord } from '../../src/features/telemetry/telemetry-repo.js';

/** A recorded request of an agent's GET at `ts`: 0.95 cost units; an internal_error when the status is 5xx. */
export function telemetryRow(fields: Pick<TelemetryRecord, 'ts' | 'operation_id' | 'status' | 'latency_ms'> & Partial<TelemetryRecord>): TelemetryRecord {
  return {
    method: 'GET',
    cost_units: 0.95,
    caller_kind: 'agent',
    agent_id: 'agt_test',
    error_code: fields.status >= 500 ? 'internal_error' : null,
    freshness_seconds: 0,
    ...fields,
  };
}
