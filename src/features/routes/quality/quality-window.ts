// The routes service-quality views (decisions 066, 067) are pure functions of one facts object: the window of
// telemetry samples read once per request, bucketed here (qualityWindow), with the process's own state (the
// answer cache, the catalog, the clock). quality-service.ts reads the window; the views live in
// quality-views-perf.ts, quality-views-reliability.ts and quality-views-ops.ts.
import type { CatalogView } from '../../../catalog/catalog.js';
import { iso, isoOrNull } from '../../../platform/clock.js';
import type { QualitySample } from './quality-repo.js';
import {
  ALERT_RULE_NAMES,
  ALERT_RULES,
  GRADES,
  AVAILABILITY_TARGET,
  LATENCY_TARGET,
  alertsOf,
  bucketStatus,
  incidentsOf,
  isServerError,
  latencySloMs,
  latencySummary,
  measure,
  reliabilityIndex,
  round,
  type Alert,
  type BucketStatus,
  type Incident,
} from './rules.js';
import { groupBy } from '../../../platform/stats.js';
import { telemetryWindowFlags } from '../../telemetry/telemetry-service.js';

export const QUALITY_VIEW_CAP = 200_000;
export const DEFAULT_HOURS = 24;
export const DEFAULT_BUCKET_MINUTES = 60;
export const MAX_BUCKETS = 720;
/** Codes every operation may answer (access, limits, validation, faults): not expected among an operation's declared errors. */
export const PIPELINE_ERROR_CODES = [
  'internal_error',
  'rate_limited',
  'invalid_request',
  'auth_required',
  'auth_invalid',
  'scope_required',
  'agent_key_required',
  'operator_required',
  'dependency_unavailable',
  'request_timeout',
];
/** What to do about a fallback that is frequent (ops-recommendations). */
export const FALLBACK_ACTIONS: Readonly<Record<string, string>> = {
  no_event_data: 'conditions are answered without the event layer: run the event detectors (bosun events rebuild) or check the detector runner',
  long_connector: 'routes start or end far from the sea network: check the places callers send (ports with wrong positions, inland points)',
  ship_type_default_speed: 'ETAs use the ship type default speed: the vessels asked about have no recent moving positions; check the position feeds',
};

export interface QualityQuery {
  hours?: number;
  days?: number;
  bucket_minutes?: number;
  operation?: string;
}

/** The operations of this feature: views over the others, never counted in themselves (watching would change what is watched). */
export const QUALITY_OPERATION_IDS: ReadonlySet<string> = new Set([
  'getRoutesQuality',
  'getRoutesPerf',
  'getRoutesPerfBreakdown',
  'getRoutesLatencyTrend',
  'getRoutesCacheEfficiency',
  'getRoutesCacheHitTrend',
  'getRoutesCacheStaleness',
  'getRoutesCacheTurnover',
  'getRoutesFallbackTrend',
  'getRoutesSlaBreaches',
  'getRoutesSloSnapshot',
  'getRoutesEndpointReliability',
  'getRoutesReliabilityIndex',
  'getRoutesReliabilityDrivers',
  'getRoutesErrorCatalog',
  'getRoutesStatusTimeline',
  'getRoutesAlertsFeed',
  'getRoutesAlertsSummary',
  'getRoutesAlertKeysTrend',
  'getRoutesIncidentQueue',
  'getRoutesQualityHistory',
  'getRoutesQualityScoreTrend',
  'getRoutesOpsDigest',
  'getRoutesOpsScorecard',
  'getRoutesOpsOverview',
  'getRoutesOpsVolatility',
  'getRoutesOpsControlTower',
  'getRoutesOpsRecommendations',
  'getRoutesOpsHealth',
]);

/** The answer cache evicts while fewer than half the cacheable requests hit it (rule cache_churn). */
export const cacheChurns = (cache: { evictions: number; hit_ratio: number | null }) => cache.evictions > 0 && cache.hit_ratio !== null && cache.hit_ratio < 0.5;

export interface CacheStatus {
  answerCache: { entries: number; capacity: number; hits: number; misses: number; evictions: number; clears: number };
}

export const alertView = (a: Alert) => ({
  bucket_start: iso(a.bucket_start),
  operation_id: a.operation_id,
  key: a.key,
  rule: a.rule,
  severity: a.severity,
  value: a.value,
  threshold: a.threshold,
  requests: a.requests,
  message: alertMessage(a),
});

export function alertMessage(a: Alert): string {
  if (a.rule === 'server_error_rate') return `${a.operation_id}: ${round(a.value * 100, 1)} % of ${a.requests} requests failed with a server error (threshold ${round(a.threshold * 100, 1)} %)`;
  if (a.rule === 'latency_p95') return `${a.operation_id}: p95 latency ${a.value} ms over ${a.threshold} ms (SLO ${latencySloMs(a.operation_id)} ms) in ${a.requests} requests`;
  return `${a.operation_id}: ${round(a.value * 100, 1)} % of ${a.requests} answers came from a fallback (threshold ${round(a.threshold * 100, 1)} %)`;
}

export const incidentView = (i: Incident) => ({
  id: `${i.key}@${iso(i.started_at)}`,
  key: i.key,
  rule: i.rule,
  operation_id: i.operation_id,
  started_at: iso(i.started_at),
  ended_at: isoOrNull(i.ended_at),
  open: i.open,
  buckets: i.buckets,
  peak_severity: i.peak_severity,
  peak_value: i.peak_value,
});

export interface QualityProcess {
  cacheStatus: () => CacheStatus;
  cachedAt: () => number[];
  catalog: CatalogView;
  now: () => number;
}

export interface WindowSpan {
  hours: number;
  bucketMinutes: number;
  since: number;
  until: number;
  operations: string[];
  /** The operation the caller named, if any. */
  operation: string | undefined;
}

/** The window's samples (oldest first) in buckets, with the alerts, statuses and incidents worked out once when a view needs them. */
export function qualityWindow(span: WindowSpan, samples: QualitySample[], process: QualityProcess) {
  const { hours, bucketMinutes, since, until, operations } = span;
  const bucketMs = bucketMinutes * 60_000;
  const count = Math.max(1, Math.ceil((until - since) / bucketMs));
  const truncated = samples.length >= QUALITY_VIEW_CAP;
  const starts = Array.from({ length: count }, (_, i) => since + i * bucketMs);
  const buckets = starts.map(() => [] as QualitySample[]);
  // the window is [since, until]: a record at exactly `until` belongs to the last bucket
  for (const s of samples) buckets[Math.min(count - 1, Math.max(0, Math.floor((s.ts - since) / bucketMs)))]!.push(s);
  const flags = telemetryWindowFlags(samples.length, QUALITY_VIEW_CAP);
  let derived: ReturnType<typeof derive> | null = null;
  const w = {
    hours,
    bucketMinutes,
    bucketMs,
    since,
    until,
    operations,
    samples,
    starts,
    buckets,
    flags,
    window: { from: iso(since), to: iso(until), hours, bucket_minutes: bucketMinutes, operation: span.operation === undefined ? null : operations[0]!, requests: samples.length, truncated },
    /** Alerts, bucket statuses and incidents, worked out once per request when a view needs them. */
    derived: () => (derived ??= derive()),
    process,
  };
  function derive() {
    const perBucket = buckets.map((list, i) => {
      const byOp = groupBy(list, (s) => s.operation_id);
      const alerts = [...byOp].flatMap(([op, l]) => alertsOf(op, starts[i]!, l));
      const opStatus = new Map(
        [...byOp].map(([op, l]) => [
          op,
          bucketStatus(
            l,
            alerts.filter((a) => a.operation_id === op),
          ),
        ]),
      );
      return { start: starts[i]!, samples: list, alerts, status: bucketStatus(list, alerts), opStatus };
    });
    const alerts = perBucket.flatMap((b) => b.alerts);
    return { perBucket, alerts, incidents: incidentsOf(alerts, starts, bucketMs) };
  }
  return w;
}

export type QualityWindow = ReturnType<typeof qualityWindow>;

export const answer = <D>(w: QualityWindow, data: D, extraFlags: string[] = []) => ({ data: { window: w.window, ...data }, qualityFlags: [...w.flags, ...extraFlags] });
export const byOperation = (w: QualityWindow) => [...groupBy(w.samples, (s) => s.operation_id)].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));

export const opMeasures = (operationId: string, samples: readonly QualitySample[]) => {
  const { slow: _slow, fallbacks: _fb, ...m } = measure(samples);
  return { operation_id: operationId, ...m, latency_slo_ms: latencySloMs(operationId), latency_ms: latencySummary(samples.map((s) => s.latency_ms)) };
};
export const overall = (w: QualityWindow) => {
  const { slow: _slow, fallbacks: _fb, ...m } = measure(w.samples);
  return { ...m, latency_ms: latencySummary(w.samples.map((s) => s.latency_ms)) };
};

export const bucketStats = (start: number, list: readonly QualitySample[]) => {
  const m = measure(list);
  const lat = latencySummary(list.map((s) => s.latency_ms));
  return {
    start: iso(start),
    requests: m.requests,
    availability: m.availability,
    success_rate: m.success_rate,
    server_error_rate: m.server_error_rate,
    latency_p50_ms: lat.p50,
    latency_p95_ms: lat.p95,
    latency_attainment: m.latency_attainment,
    cache_hit_ratio: m.cache.hit_ratio,
    fallback_share: m.fallback_share,
    quality_score: m.quality_score,
  };
};

export function sloOf(samples: readonly QualitySample[]) {
  const m = measure(samples);
  const allowedFailures = round((1 - AVAILABILITY_TARGET) * m.requests, 4);
  const allowedSlow = round((1 - LATENCY_TARGET) * m.requests, 4);
  return {
    requests: m.requests,
    availability: m.availability,
    availability_met: m.availability === null ? null : m.availability >= AVAILABILITY_TARGET,
    latency_attainment: m.latency_attainment,
    latency_met: m.latency_attainment === null ? null : m.latency_attainment >= LATENCY_TARGET,
    error_budget: { allowed_failures: allowedFailures, failures: m.server_errors, remaining: allowedFailures > 0 ? round(1 - m.server_errors / allowedFailures, 4) : null },
    latency_budget: { allowed_slow: allowedSlow, slow: m.slow, remaining: allowedSlow > 0 ? round(1 - m.slow / allowedSlow, 4) : null },
  };
}

export function endpointRows(w: QualityWindow) {
  const { perBucket } = w.derived();
  return byOperation(w).map(([op, list]) => {
    const statuses = perBucket.map((b) => b.opStatus.get(op) ?? 'no_data');
    const counted = statuses.filter((s) => s !== 'no_data');
    let streak = 0;
    let longest = 0;
    for (const s of statuses) {
      if (s === 'degraded' || s === 'down') longest = Math.max(longest, ++streak);
      else if (s !== 'no_data') streak = 0;
    }
    const m = measure(list);
    const okShare = counted.length ? round(counted.filter((s) => s === 'ok').length / counted.length) : null;
    const lastServerError = [...list].reverse().find(isServerError);
    return {
      operation_id: op,
      requests: m.requests,
      availability: m.availability,
      success_rate: m.success_rate,
      client_error_rate: m.client_error_rate,
      latency_attainment: m.latency_attainment,
      buckets: {
        with_requests: counted.length,
        ok: counted.filter((s) => s === 'ok').length,
        degraded: counted.filter((s) => s === 'degraded').length,
        down: counted.filter((s) => s === 'down').length,
      },
      ok_bucket_share: okShare,
      longest_unhealthy_streak_buckets: longest,
      last_server_error_at: lastServerError ? iso(lastServerError.ts) : null,
      reliability_index: reliabilityIndex(m.availability, m.latency_attainment, okShare),
    };
  });
}

export function recommendations(w: QualityWindow) {
  const { incidents } = w.derived();
  const recs: Array<{ priority: number; rule: string; operation_id: string | null; action: string; evidence: Record<string, number | string | null> }> = [];
  for (const [op, list] of byOperation(w)) {
    const slo = sloOf(list);
    const m = measure(list);
    if (slo.availability_met === false) {
      const codes = [...groupBy(list.filter(isServerError), (s) => s.error_code ?? 'none')].sort((a, b) => b[1].length - a[1].length);
      recs.push({
        priority: slo.error_budget.remaining !== null && slo.error_budget.remaining < 0 ? 1 : 2,
        rule: 'availability_below_target',
        operation_id: op,
        action: `investigate the server errors of ${op} (most frequent code ${codes[0]![0]}); hold risky changes to it until its error budget recovers`,
        evidence: {
          availability: slo.availability,
          target: AVAILABILITY_TARGET,
          server_errors: m.server_errors,
          requests: m.requests,
          top_error_code: codes[0]![0],
          error_budget_remaining: slo.error_budget.remaining,
        },
      });
    }
    if (slo.latency_met === false) {
      const lat = latencySummary(list.map((s) => s.latency_ms));
      recs.push({
        priority: 2,
        rule: 'latency_below_target',
        operation_id: op,
        action: `investigate the latency of ${op}: ${m.slow} of ${m.requests} requests over its ${latencySloMs(op)} ms SLO`,
        evidence: { latency_attainment: slo.latency_attainment, target: LATENCY_TARGET, p95_ms: lat.p95, latency_slo_ms: latencySloMs(op), slow: m.slow },
      });
    }
    const fallbacks = [
      ...groupBy(
        list.filter((s) => s.fallback !== null),
        (s) => s.fallback!,
      ),
    ].sort((a, b) => b[1].length - a[1].length);
    if (m.fallback_share !== null && m.fallback_share > ALERT_RULES.fallback_share.warning && fallbacks.length > 0) {
      const [reason, hits] = fallbacks[0]!;
      recs.push({
        priority: 3,
        rule: 'frequent_fallback',
        operation_id: op,
        action: FALLBACK_ACTIONS[reason] ?? `answers of ${op} often use the fallback ${reason}`,
        evidence: { fallback: reason, fallbacks: hits.length, fallback_share: m.fallback_share, threshold: ALERT_RULES.fallback_share.warning, requests: m.requests },
      });
    }
  }
  const cache = measure(w.samples).cache;
  const status = w.process.cacheStatus().answerCache;
  if (cacheChurns(cache)) {
    recs.push({
      priority: 3,
      rule: 'cache_churn',
      operation_id: null,
      action: `the route answer cache (${status.capacity} answers per process) evicts while fewer than half the cacheable requests hit: raise its capacity if memory allows`,
      evidence: { hit_ratio: cache.hit_ratio, evictions: cache.evictions, hits: cache.hits, misses: cache.misses, capacity: status.capacity },
    });
  }
  for (const i of incidents.filter((x) => x.open)) {
    recs.push({
      priority: i.peak_severity === 'critical' ? 1 : 2,
      rule: 'open_incident',
      operation_id: i.operation_id,
      action: `follow up the open incident ${i.key} (since ${iso(i.started_at)}, ${i.buckets} bucket${i.buckets === 1 ? '' : 's'})`,
      evidence: { incident: `${i.key}@${iso(i.started_at)}`, peak_severity: i.peak_severity, peak_value: i.peak_value, buckets: i.buckets },
    });
  }
  return recs.sort((a, b) => a.priority - b.priority || (a.operation_id ?? '').localeCompare(b.operation_id ?? '') || a.rule.localeCompare(b.rule));
}

export const currentStatus = (w: QualityWindow): BucketStatus => w.derived().perBucket[w.derived().perBucket.length - 1]!.status;

export const statusCounts = (statuses: readonly BucketStatus[]) => ({
  ok: statuses.filter((s) => s === 'ok').length,
  degraded: statuses.filter((s) => s === 'degraded').length,
  down: statuses.filter((s) => s === 'down').length,
  no_data: statuses.filter((s) => s === 'no_data').length,
});

export const GRADES_VIEW = GRADES.map((g) => ({ grade: g.grade, min_score: g.min }));

export function ruleViews() {
  return ALERT_RULE_NAMES.map((rule) => ({ rule, warning: ALERT_RULES[rule].warning, critical: ALERT_RULES[rule].critical, description: ALERT_RULES[rule].description }));
}
