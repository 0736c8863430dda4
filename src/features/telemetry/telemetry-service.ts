import type { Clock } from '../../platform/clock.js';
import { iso, DAY, HOUR } from '../../platform/clock.js';
import type { TelemetryRecord, TelemetryRepo, TelemetrySample } from './telemetry-repo.js';
import { groupBy, percentile as nearestRank, round } from '../../platform/stats.js';

export const TELEMETRY_RETENTION_DAYS = 30;
export const TELEMETRY_FLUSH_MS = 1000;
export const TELEMETRY_BATCH_SIZE = 500;
/** The views read at most this many of the newest records of their window. */
export const TELEMETRY_VIEW_CAP = 200_000;
export const NO_TELEMETRY_FLAG = 'no_telemetry_in_window';
export const TELEMETRY_TRUNCATED_FLAG = 'telemetry_truncated';
/** The quality flags of a window of records read up to `cap`: none in it, or the cap reached (the oldest left out). */
export const telemetryWindowFlags = (count: number, cap: number): string[] => [...(count === 0 ? [NO_TELEMETRY_FLAG] : []), ...(count >= cap ? [TELEMETRY_TRUNCATED_FLAG] : [])];

const percentile = (sorted: number[], p: number) => nearestRank(sorted, p, 2);

function operationStats(samples: TelemetrySample[]) {
  const latencies = samples.map((s) => s.latency_ms).sort((a, b) => a - b);
  const serverErrors = samples.filter((s) => s.status >= 500).length;
  const clientErrors = samples.filter((s) => s.status >= 400 && s.status < 500).length;
  return {
    requests: samples.length,
    success_rate: samples.length ? round((samples.length - serverErrors - clientErrors) / samples.length) : null,
    server_error_rate: samples.length ? round(serverErrors / samples.length) : null,
    client_error_rate: samples.length ? round(clientErrors / samples.length) : null,
    latency_ms: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) ?? null },
  };
}

/** Records every request (in batches) and serves the quality and usage views over those records. */
export function createTelemetryService(deps: { repo: TelemetryRepo; clock: Clock; enabled: () => boolean; onFlushError: (err: unknown) => void }) {
  const { repo, clock } = deps;
  let buffer: TelemetryRecord[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  function flush(): Promise<void> {
    if (buffer.length === 0) return flushing;
    const batch = buffer;
    buffer = [];
    flushing = flushing.then(() => repo.insertBatch(batch)).catch(deps.onFlushError);
    return flushing;
  }

  async function windowSamples(hours: number) {
    await flush();
    const since = clock.now() - hours * HOUR;
    const samples = await repo.window(since, TELEMETRY_VIEW_CAP);
    return { since, samples, truncated: samples.length >= TELEMETRY_VIEW_CAP };
  }

  return {
    record(row: TelemetryRecord): void {
      if (!deps.enabled()) return;
      buffer.push(row);
      if (buffer.length >= TELEMETRY_BATCH_SIZE) void flush();
    },
    flush,
    pending: () => buffer.length,
    start(): void {
      if (!timer) {
        timer = setInterval(() => void flush(), TELEMETRY_FLUSH_MS);
        timer.unref();
      }
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },

    async quality(hours: number) {
      const { since, samples, truncated } = await windowSamples(hours);
      const byOperation = [...groupBy(samples, (s) => s.operation_id)].map(([operation_id, list]) => ({ operation_id, ...operationStats(list) })).sort((a, b) => b.requests - a.requests);
      const withFreshness = samples.filter((s) => s.freshness_seconds !== null && s.status < 400);
      const freshness = withFreshness.map((s) => s.freshness_seconds!).sort((a, b) => a - b);
      return {
        window: { hours, since: iso(since), until: iso(clock.now()), sample_size: samples.length, truncated },
        overall: operationStats(samples),
        data_age_seconds: { p50: percentile(freshness, 50), p95: percentile(freshness, 95), max: freshness.at(-1) ?? null },
        operations: byOperation,
      };
    },

    async summary(hours: number) {
      const { since, samples, truncated } = await windowSamples(hours);
      const byStatus: Record<string, number> = {};
      for (const s of samples) byStatus[`${Math.floor(s.status / 100)}xx`] = (byStatus[`${Math.floor(s.status / 100)}xx`] ?? 0) + 1;
      const byCaller: Record<string, number> = {};
      for (const s of samples) byCaller[s.caller_kind] = (byCaller[s.caller_kind] ?? 0) + 1;
      const errorCodes = [
        ...groupBy(
          samples.filter((s) => s.error_code),
          (s) => s.error_code!,
        ),
      ]
        .map(([code, list]) => ({ code, count: list.length }))
        .sort((a, b) => b.count - a.count);
      const operations = [...groupBy(samples, (s) => s.operation_id)]
        .map(([operation_id, list]) => ({
          operation_id,
          requests: list.length,
          errors: list.filter((s) => s.status >= 400).length,
          cost_units: round(list.reduce((sum, s) => sum + s.cost_units, 0)),
        }))
        .sort((a, b) => b.requests - a.requests);
      return {
        window: { hours, since: iso(since), until: iso(clock.now()), sample_size: samples.length, truncated },
        requests: samples.length,
        by_status_class: byStatus,
        by_caller_kind: byCaller,
        distinct_agents: new Set(samples.filter((s) => s.agent_id).map((s) => s.agent_id)).size,
        cost_units_charged: round(samples.reduce((sum, s) => sum + s.cost_units, 0)),
        error_codes: errorCodes,
        operations,
        pending_records: buffer.length,
      };
    },

    /** Per time bucket of the window (oldest first): requests, errors (4xx/5xx), p50/p95 latency, cost units — the console's charts. */
    async series(hours: number, bucketMinutes: number) {
      const { since, samples, truncated } = await windowSamples(hours);
      const bucketMs = bucketMinutes * 60_000;
      const count = Math.ceil((hours * HOUR) / bucketMs);
      const buckets = Array.from({ length: count }, () => [] as TelemetrySample[]);
      for (const s of samples) {
        // The window is [since, now]: a record at exactly now belongs to the last bucket.
        const i = Math.min(count - 1, Math.floor((Number(s.ts) - since) / bucketMs));
        if (i >= 0) buckets[i]!.push(s);
      }
      return {
        window: { hours, since: iso(since), until: iso(clock.now()), bucket_minutes: bucketMinutes, sample_size: samples.length, truncated },
        buckets: buckets.map((list, i) => {
          const latencies = list.map((s) => s.latency_ms).sort((a, b) => a - b);
          return {
            start: iso(since + i * bucketMs),
            requests: list.length,
            client_errors: list.filter((s) => s.status >= 400 && s.status < 500).length,
            server_errors: list.filter((s) => s.status >= 500).length,
            latency_p50_ms: percentile(latencies, 50),
            latency_p95_ms: percentile(latencies, 95),
            cost_units: round(list.reduce((sum, s) => sum + s.cost_units, 0)),
          };
        }),
      };
    },

    /** Retention job: telemetry older than 30 days is deleted. */
    async enforceRetention(): Promise<number> {
      return repo.deleteOlderThan(clock.now() - TELEMETRY_RETENTION_DAYS * DAY);
    },
  };
}
export type TelemetryService = ReturnType<typeof createTelemetryService>;
