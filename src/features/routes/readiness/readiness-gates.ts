import { HOUR, iso } from '../../../platform/clock.js';
import { percentile, round } from '../../../platform/stats.js';
import { NO_TELEMETRY_FLAG, telemetryWindowFlags } from '../../telemetry/telemetry-service.js';
import type { BenchmarkResult } from './readiness-benchmark.js';
import type { ReadinessFacts } from './readiness-checks.js';
import type { schemaCoverageFacts } from './readiness-contracts.js';
import { judge, RELEASE_MAX_SERVER_ERROR_RATE, RELEASE_SCHEMA_COMPLETE_MIN, ROLLOUT_WEIGHTS, type Criterion } from './readiness-rules.js';
import { BENCHMARK_TOLERANCE, REGRESSION_ERROR_RATE_DELTA, REGRESSION_LATENCY_FACTOR, REGRESSION_LATENCY_MIN_MS, REGRESSION_MIN_REQUESTS } from './readiness-rules.js';

/**
 * The release gate, the regression watch and the rollout score (decision 069) as pure functions of
 * the facts the service read: readiness, schema coverage, benchmark, request telemetry.
 */

/** Requests and server errors (5xx) of the routes operations in a window. */
export interface ErrorRate {
  requests: number;
  server_errors: number;
  rate: number | null;
}

export function errorRateOf(records: readonly { status: number }[]): ErrorRate {
  const serverErrors = records.filter((r) => r.status >= 500).length;
  return { requests: records.length, server_errors: serverErrors, rate: records.length > 0 ? round(serverErrors / records.length) : null };
}

export function releaseFactsOf(hours: number, ready: ReadinessFacts, schema: ReturnType<typeof schemaCoverageFacts>, bench: Pick<BenchmarkResult, 'summary'>, errors: ErrorRate) {
  const criteria: Criterion[] = [
    {
      name: 'readiness',
      status: ready.ready ? 'pass' : 'fail',
      value: ready.passed,
      threshold: ready.total,
      comparison: 'at_least',
      detail: `${ready.passed} of ${ready.total} readiness checks pass`,
    },
    {
      name: 'schema_coverage',
      status: judge(schema.complete.share, RELEASE_SCHEMA_COMPLETE_MIN, 'at_least'),
      value: schema.complete.share,
      threshold: RELEASE_SCHEMA_COMPLETE_MIN,
      comparison: 'at_least',
      detail: `${schema.complete.count} of ${schema.implemented} implemented routes operations have a query schema, a response schema, examples and declared errors`,
    },
    {
      name: 'benchmark_accuracy',
      status: judge(bench.summary.share_within, 1, 'at_least'),
      value: bench.summary.share_within,
      threshold: 1,
      comparison: 'at_least',
      detail: `${bench.summary.within_tolerance} of ${bench.summary.with_reference} reference pairs within ${BENCHMARK_TOLERANCE * 100}% of their reference distance`,
    },
    {
      name: 'server_error_rate',
      status: judge(errors.rate, RELEASE_MAX_SERVER_ERROR_RATE, 'at_most'),
      value: errors.rate,
      threshold: RELEASE_MAX_SERVER_ERROR_RATE,
      comparison: 'at_most',
      detail:
        errors.requests > 0 ? `${errors.server_errors} server errors (5xx) in ${errors.requests} routes requests in the last ${hours} h` : `no routes request was recorded in the last ${hours} h`,
    },
  ];
  const verdict = criteria.some((c) => c.status === 'fail') ? 'no_go' : criteria.some((c) => c.status === 'no_data') ? 'insufficient_data' : 'go';
  const flags = [...ready.flags];
  if (errors.requests === 0) flags.push(NO_TELEMETRY_FLAG);
  return { hours, verdict: verdict as 'go' | 'no_go' | 'insufficient_data', criteria, ready, requests: errors.requests, flags };
}
export type ReleaseFacts = ReturnType<typeof releaseFactsOf>;

export function releaseView(r: ReleaseFacts, now: number) {
  return {
    data: {
      at: iso(now),
      window: { hours: r.hours, since: iso(now - r.hours * HOUR), until: iso(now), routes_requests: r.requests },
      verdict: r.verdict,
      passed: r.criteria.filter((c) => c.status === 'pass').length,
      failed: r.criteria.filter((c) => c.status === 'fail').length,
      no_data: r.criteria.filter((c) => c.status === 'no_data').length,
      criteria: r.criteria,
    },
    qualityFlags: r.flags,
  };
}

export interface TelemetryRecord {
  operation_id: string;
  ts: number;
  status: number;
  latency_ms: number;
}

const windowStats = (list: readonly TelemetryRecord[]) => {
  const latencies = list.map((r) => r.latency_ms).sort((a, b) => a - b);
  const serverErrors = list.filter((r) => r.status >= 500).length;
  return { requests: list.length, server_error_rate: list.length ? round(serverErrors / list.length) : null, latency_p95_ms: percentile(latencies, 95) };
};

/** Each operation's latest window against the previous one (split at `split`), regressions first. */
export function operationRegressions(records: readonly TelemetryRecord[], split: number) {
  const byOp = new Map<string, { latest: TelemetryRecord[]; previous: TelemetryRecord[] }>();
  for (const r of records) {
    const entry = byOp.get(r.operation_id) ?? { latest: [], previous: [] };
    (r.ts >= split ? entry.latest : entry.previous).push(r);
    byOp.set(r.operation_id, entry);
  }
  return [...byOp]
    .map(([operation_id, { latest, previous }]) => {
      const l = windowStats(latest);
      const p = windowStats(previous);
      const enough = l.requests >= REGRESSION_MIN_REQUESTS && p.requests >= REGRESSION_MIN_REQUESTS;
      const regressions: string[] = [];
      if (enough && l.latency_p95_ms! > p.latency_p95_ms! * REGRESSION_LATENCY_FACTOR && l.latency_p95_ms! - p.latency_p95_ms! >= REGRESSION_LATENCY_MIN_MS) regressions.push('latency_p95');
      if (enough && l.server_error_rate! - p.server_error_rate! >= REGRESSION_ERROR_RATE_DELTA) regressions.push('server_error_rate');
      return {
        operation_id,
        latest: l,
        previous: p,
        compared: enough,
        latency_p95_change_ms: l.latency_p95_ms !== null && p.latency_p95_ms !== null ? round(l.latency_p95_ms - p.latency_p95_ms, 2) : null,
        server_error_rate_change: l.server_error_rate !== null && p.server_error_rate !== null ? round(l.server_error_rate - p.server_error_rate) : null,
        regressions,
      };
    })
    .sort((a, b) => b.regressions.length - a.regressions.length || b.latest.requests - a.latest.requests || a.operation_id.localeCompare(b.operation_id));
}

/** The regression watch over two windows of `hours` before `now` and the benchmark's pairs. */
export function regressionFactsOf(hours: number, now: number, records: readonly TelemetryRecord[], benchPairs: BenchmarkResult['pairs'], cap: number) {
  const split = now - hours * HOUR;
  const since = now - 2 * hours * HOUR;
  const operations = operationRegressions(records, split);
  const distances = benchPairs.map((p) => ({
    from: p.from,
    to: p.to,
    avoid: p.avoid,
    distance_nm: p.distance_nm,
    reference_nm: p.reference_nm,
    deviation_pct: p.deviation_pct,
    regressed: p.within_tolerance === false,
  }));
  const regressions = [
    ...operations.flatMap((o) => o.regressions.map((kind) => ({ kind, subject: o.operation_id }))),
    ...distances.filter((d) => d.regressed).map((d) => ({ kind: 'benchmark_distance', subject: `${d.from}-${d.to}${d.avoid ? ` avoid ${d.avoid}` : ''}` })),
  ];
  const flags = telemetryWindowFlags(records.length, cap);
  return {
    hours,
    now,
    split,
    since,
    records: records.length,
    operations,
    distances,
    regressions,
    watched: operations.filter((o) => o.compared).length + distances.filter((d) => d.reference_nm !== null).length,
    regressed_subjects: new Set(regressions.map((r) => r.subject)).size,
    flags,
  };
}
export type RegressionFacts = ReturnType<typeof regressionFactsOf>;

export function regressionView(r: RegressionFacts) {
  return {
    data: {
      windows: {
        hours: r.hours,
        previous: { since: iso(r.since), until: iso(r.split) },
        latest: { since: iso(r.split), until: iso(r.now) },
        telemetry_records: r.records,
      },
      thresholds: {
        min_requests: REGRESSION_MIN_REQUESTS,
        latency_factor: REGRESSION_LATENCY_FACTOR,
        latency_min_increase_ms: REGRESSION_LATENCY_MIN_MS,
        server_error_rate_increase: REGRESSION_ERROR_RATE_DELTA,
        benchmark_tolerance_pct: BENCHMARK_TOLERANCE * 100,
      },
      regression_count: r.regressions.length,
      regressions: r.regressions,
      operations: r.operations,
      benchmark: r.distances,
    },
    qualityFlags: r.flags,
  };
}

export function rolloutView(release: ReleaseFacts, regression: RegressionFacts, now: number) {
  const known = release.criteria.filter((c) => c.status !== 'no_data');
  const parts = [
    {
      name: 'readiness' as const,
      weight: ROLLOUT_WEIGHTS.readiness,
      score: release.ready.total ? release.ready.passed / release.ready.total : null,
      basis: `${release.ready.passed}/${release.ready.total} checks pass`,
    },
    {
      name: 'release' as const,
      weight: ROLLOUT_WEIGHTS.release,
      score: known.length ? known.filter((c) => c.status === 'pass').length / known.length : null,
      basis: `${known.filter((c) => c.status === 'pass').length}/${known.length} criteria with data pass`,
    },
    {
      name: 'regression' as const,
      weight: ROLLOUT_WEIGHTS.regression,
      score: regression.watched ? Math.max(0, 1 - regression.regressed_subjects / regression.watched) : null,
      basis: `${regression.regressed_subjects} of ${regression.watched} watched subjects regressed`,
    },
  ];
  const measured = parts.filter((p) => p.score !== null);
  const weight = measured.reduce((s, p) => s + p.weight, 0);
  const score = weight > 0 ? round((measured.reduce((s, p) => s + p.weight * p.score!, 0) / weight) * 100, 1) : null;
  const grade = score === null ? null : score >= 90 ? 'proceed' : score >= 70 ? 'caution' : 'hold';
  const flags = [...new Set([...release.flags, ...regression.flags])];
  if (measured.length < parts.length) flags.push('partial_score');
  return {
    data: {
      at: iso(now),
      window: { hours: release.hours },
      score,
      grade: grade as 'proceed' | 'caution' | 'hold' | null,
      weight_measured: weight,
      components: parts.map((p) => ({ ...p, score: p.score === null ? null : round(p.score * 100, 1) })),
      release_verdict: release.verdict,
      regressions: regression.regressions.length,
    },
    qualityFlags: flags,
  };
}
