import type { QualitySample } from './quality-repo.js';
import { coefficientOfVariation, groupBy, mean, percentile as nearestRank, round, stdDev } from '../../../platform/stats.js';

/**
 * The definitions behind the routes quality views (docs/decisions/066 and 067, docs/routes-service-quality.md):
 * SLO targets, alert rules, bucket status, the quality score and the reliability index. Pure functions over
 * telemetry samples.
 */

/** Latency SLO of a routes operation (ms): requests slower than this breach it. */
export const DEFAULT_LATENCY_SLO_MS = 1000;
export const LATENCY_SLO_MS: Readonly<Record<string, number>> = {
  getRoutesDirect: 500,
  getRoutesWithVia: 800,
  getRoutesSummary: 2000,
  getRoutesPortfolio: 3000,
  getRoutesScenario: 3000,
};
export const latencySloMs = (operationId: string): number => LATENCY_SLO_MS[operationId] ?? DEFAULT_LATENCY_SLO_MS;

/** Share of requests that must not fail with a server error (5xx); 4xx are the caller's and count as available. */
export const AVAILABILITY_TARGET = 0.995;
/** Share of requests that must answer within their operation's latency SLO. */
export const LATENCY_TARGET = 0.95;

/** An alert needs this many requests of the operation in the bucket (one failure among two is not a signal). */
export const MIN_ALERT_REQUESTS = 5;
export const ALERT_RULES = {
  server_error_rate: { warning: 0.05, critical: 0.25, description: 'share of 5xx answers above 5 % (critical from 25 %)' },
  latency_p95: { warning: 1, critical: 2, description: 'p95 latency above the operation latency SLO (thresholds are multiples of the SLO: critical above twice it)' },
  fallback_share: { warning: 0.25, critical: 0.5, description: 'share of answers produced by a fallback above 25 % (critical from 50 %)' },
} as const;
export type AlertRule = keyof typeof ALERT_RULES;
export const ALERT_RULE_NAMES = Object.keys(ALERT_RULES) as AlertRule[];
/** A bucket is down when at least half of its requests (and at least MIN_ALERT_REQUESTS) failed with 5xx. */
export const DOWN_SERVER_ERROR_RATE = 0.5;

/** Quality score 0–100 = 100 × (weights · [availability, latency attainment, 1 − fallback share]). */
export const QUALITY_WEIGHTS = { availability: 0.5, latency_attainment: 0.3, no_fallback: 0.2 } as const;
/** Reliability index 0–100 = 100 × (weights · [availability, latency attainment, share of ok buckets]). */
export const RELIABILITY_WEIGHTS = { availability: 0.6, latency_attainment: 0.2, ok_buckets: 0.2 } as const;
/** Scorecard grades by quality score. */
export const GRADES = [
  { grade: 'A', min: 95 },
  { grade: 'B', min: 90 },
  { grade: 'C', min: 80 },
  { grade: 'D', min: 70 },
  { grade: 'F', min: 0 },
] as const;

const ratio = (part: number, whole: number) => (whole > 0 ? round(part / whole) : null);

/** Nearest-rank percentile of ascending values (null when none). */
export const percentile = (sorted: readonly number[], p: number): number | null => nearestRank(sorted, p, 2);

export function latencySummary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length ? round(sorted[sorted.length - 1]!, 2) : null,
    mean: sorted.length ? round(sorted.reduce((a, b) => a + b, 0) / sorted.length, 2) : null,
  };
}

export const isServerError = (s: QualitySample) => s.status >= 500;
export const isClientError = (s: QualitySample) => s.status >= 400 && s.status < 500;
export const isSlow = (s: QualitySample) => s.latency_ms > latencySloMs(s.operation_id);

/** The measures every view builds on, over any set of samples. */
export function measure(samples: readonly QualitySample[]) {
  const requests = samples.length;
  let server = 0;
  let client = 0;
  let slow = 0;
  let fallbacks = 0;
  let hits = 0;
  let misses = 0;
  let evictions = 0;
  for (const s of samples) {
    if (isServerError(s)) server++;
    else if (isClientError(s)) client++;
    if (isSlow(s)) slow++;
    if (s.fallback !== null) fallbacks++;
    if (s.cache === 'hit') hits++;
    else if (s.cache === 'miss') misses++;
    else if (s.cache === 'miss_evict') {
      misses++;
      evictions++;
    }
  }
  const availability = ratio(requests - server, requests);
  const latencyAttainment = ratio(requests - slow, requests);
  const fallbackShare = ratio(fallbacks, requests);
  return {
    requests,
    server_errors: server,
    client_errors: client,
    slow,
    fallbacks,
    availability,
    success_rate: ratio(requests - server - client, requests),
    server_error_rate: ratio(server, requests),
    client_error_rate: ratio(client, requests),
    latency_attainment: latencyAttainment,
    fallback_share: fallbackShare,
    cache: { hits, misses, evictions, hit_ratio: ratio(hits, hits + misses) },
    quality_score: qualityScore(availability, latencyAttainment, fallbackShare),
  };
}
export type Measures = ReturnType<typeof measure>;

export function qualityScore(availability: number | null, latencyAttainment: number | null, fallbackShare: number | null): number | null {
  if (availability === null || latencyAttainment === null || fallbackShare === null) return null;
  const w = QUALITY_WEIGHTS;
  return round(100 * (w.availability * availability + w.latency_attainment * latencyAttainment + w.no_fallback * (1 - fallbackShare)), 1);
}

export function reliabilityIndex(availability: number | null, latencyAttainment: number | null, okBucketShare: number | null): number | null {
  if (availability === null || latencyAttainment === null || okBucketShare === null) return null;
  const w = RELIABILITY_WEIGHTS;
  return round(100 * (w.availability * availability + w.latency_attainment * latencyAttainment + w.ok_buckets * okBucketShare), 1);
}

export const gradeOf = (score: number | null): string | null => (score === null ? null : GRADES.find((g) => score >= g.min)!.grade);

export interface Alert {
  bucket_start: number;
  operation_id: string;
  key: string;
  rule: AlertRule;
  severity: 'warning' | 'critical';
  value: number;
  threshold: number;
  requests: number;
}

/** The alerts one operation's requests of one bucket raise. */
export function alertsOf(operationId: string, bucketStart: number, samples: readonly QualitySample[]): Alert[] {
  if (samples.length < MIN_ALERT_REQUESTS) return [];
  const alerts: Alert[] = [];
  const m = measure(samples);
  const push = (rule: AlertRule, value: number, warning: number, critical: number, atLeast: boolean) => {
    const over = (t: number) => (atLeast ? value >= t : value > t);
    if (over(critical))
      alerts.push({ bucket_start: bucketStart, operation_id: operationId, key: `${rule}:${operationId}`, rule, severity: 'critical', value, threshold: critical, requests: m.requests });
    else if (value > warning)
      alerts.push({ bucket_start: bucketStart, operation_id: operationId, key: `${rule}:${operationId}`, rule, severity: 'warning', value, threshold: warning, requests: m.requests });
  };
  push('server_error_rate', m.server_error_rate!, ALERT_RULES.server_error_rate.warning, ALERT_RULES.server_error_rate.critical, true);
  const slo = latencySloMs(operationId);
  const p95 = latencySummary(samples.map((s) => s.latency_ms)).p95!;
  push('latency_p95', p95, slo * ALERT_RULES.latency_p95.warning, slo * ALERT_RULES.latency_p95.critical, false);
  push('fallback_share', m.fallback_share!, ALERT_RULES.fallback_share.warning, ALERT_RULES.fallback_share.critical, true);
  return alerts;
}

export type BucketStatus = 'ok' | 'degraded' | 'down' | 'no_data';

/** ok, degraded (an alert fired), down (half the requests failed with 5xx), or no_data. */
export function bucketStatus(samples: readonly QualitySample[], alerts: readonly Alert[]): BucketStatus {
  if (samples.length === 0) return 'no_data';
  const m = measure(samples);
  if (m.requests >= MIN_ALERT_REQUESTS && m.server_error_rate! >= DOWN_SERVER_ERROR_RATE) return 'down';
  return alerts.length > 0 ? 'degraded' : 'ok';
}

export interface Incident {
  key: string;
  rule: AlertRule;
  operation_id: string;
  started_at: number;
  ended_at: number | null;
  open: boolean;
  buckets: number;
  peak_severity: 'warning' | 'critical';
  peak_value: number;
}

/** Consecutive buckets raising the same alert key make one incident; it is open while the window's last bucket raises it. */
export function incidentsOf(alerts: readonly Alert[], bucketStarts: readonly number[], bucketMs: number): Incident[] {
  const index = new Map(bucketStarts.map((start, i) => [start, i]));
  const last = bucketStarts.length - 1;
  const byKey = groupBy(alerts, (a) => a.key);
  const incidents: Incident[] = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.bucket_start - b.bucket_start);
    let run: Alert[] = [];
    const close = () => {
      if (run.length === 0) return;
      const lastIndex = index.get(run[run.length - 1]!.bucket_start)!;
      const open = lastIndex === last;
      const peak = run.reduce((p, a) => ((a.severity === 'critical' && p.severity !== 'critical') || (a.severity === p.severity && a.value > p.value) ? a : p));
      incidents.push({
        key: run[0]!.key,
        rule: run[0]!.rule,
        operation_id: run[0]!.operation_id,
        started_at: run[0]!.bucket_start,
        ended_at: open ? null : run[run.length - 1]!.bucket_start + bucketMs,
        open,
        buckets: run.length,
        peak_severity: peak.severity,
        peak_value: peak.value,
      });
      run = [];
    };
    for (const a of list) {
      const prev = run[run.length - 1];
      if (prev && index.get(a.bucket_start)! !== index.get(prev.bucket_start)! + 1) close();
      run.push(a);
    }
    close();
  }
  return incidents.sort((a, b) => Number(b.open) - Number(a.open) || b.started_at - a.started_at || a.key.localeCompare(b.key));
}

/** Mean, standard deviation (population) and coefficient of variation of values (nulls when none). */
export function spread(values: readonly number[]) {
  const m = mean(values);
  if (m === null) return { mean: null, stddev: null, cv: null };
  const cv = coefficientOfVariation(values);
  return { mean: round(m, 4), stddev: round(stdDev(values)!, 4), cv: cv === null ? null : round(cv, 4) };
}

export { round };
