import type { CatalogView } from '../../../catalog/catalog.js';
import { HOUR, iso, isoOrNull, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { QualitySample, RoutesQualityRepo } from './quality-repo.js';
import {
  ALERT_RULE_NAMES,
  ALERT_RULES,
  GRADES,
  QUALITY_WEIGHTS,
  RELIABILITY_WEIGHTS,
  AVAILABILITY_TARGET,
  LATENCY_TARGET,
  alertsOf,
  bucketStatus,
  gradeOf,
  incidentsOf,
  isServerError,
  isSlow,
  latencySloMs,
  latencySummary,
  measure,
  reliabilityIndex,
  round,
  spread,
  type Alert,
  type BucketStatus,
  type Incident,
} from './rules.js';
import { groupBy } from '../../../platform/stats.js';

export const QUALITY_VIEW_CAP = 200_000;
export const DEFAULT_HOURS = 24;
export const DEFAULT_BUCKET_MINUTES = 60;
export const MAX_BUCKETS = 720;
export const NO_TELEMETRY_FLAG = 'no_telemetry_in_window';
export const TRUNCATED_FLAG = 'telemetry_truncated';
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
const cacheChurns = (cache: { evictions: number; hit_ratio: number | null }) => cache.evictions > 0 && cache.hit_ratio !== null && cache.hit_ratio < 0.5;

interface CacheStatus {
  answerCache: { entries: number; capacity: number; hits: number; misses: number; evictions: number; clears: number };
}

const alertView = (a: Alert) => ({
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

function alertMessage(a: Alert): string {
  if (a.rule === 'server_error_rate') return `${a.operation_id}: ${round(a.value * 100, 1)} % of ${a.requests} requests failed with a server error (threshold ${round(a.threshold * 100, 1)} %)`;
  if (a.rule === 'latency_p95') return `${a.operation_id}: p95 latency ${a.value} ms over ${a.threshold} ms (SLO ${latencySloMs(a.operation_id)} ms) in ${a.requests} requests`;
  return `${a.operation_id}: ${round(a.value * 100, 1)} % of ${a.requests} answers came from a fallback (threshold ${round(a.threshold * 100, 1)} %)`;
}

const incidentView = (i: Incident) => ({
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

/**
 * Service-quality views of the routes operations over request telemetry (docs/routes-service-quality.md,
 * decisions 066 and 067): one window reader, the rules of rules.ts, no value that telemetry did not record.
 */
export function createRoutesQualityService(deps: {
  repo: RoutesQualityRepo;
  clock: Clock;
  catalog: CatalogView;
  flushTelemetry: () => Promise<void>;
  cacheStatus: () => CacheStatus;
  cachedAt: () => number[];
}) {
  const { clock } = deps;
  const routesOps = deps.catalog.all.filter((e) => e.section === 'routes' && !QUALITY_OPERATION_IDS.has(e.operationId));
  const covered = routesOps.map((e) => e.operationId);
  const byName = new Map<string, string>();
  for (const e of routesOps) {
    byName.set(e.operationId, e.operationId);
    byName.set(e.path.replace(/^\/v1\/routes\//, ''), e.operationId);
  }

  function operationsOf(operation: string | undefined): string[] {
    if (operation === undefined) return covered;
    const id = byName.get(operation.trim());
    if (id === undefined) {
      const why =
        QUALITY_OPERATION_IDS.has(operation) || [...QUALITY_OPERATION_IDS].some((q) => deps.catalog.byOperationId.get(q)?.path === `/v1/routes/${operation}`)
          ? 'is a quality view, not covered'
          : 'is not a routes operation';
      throw new AppError('invalid_request', `operation ${operation} ${why}; give a routes operation id (e.g. getRoutesDirect) or its path name (e.g. direct, with-via)`, { field: 'operation' });
    }
    return [id];
  }

  /** The one window reader: validates the window, flushes pending telemetry, reads the samples and buckets them. */
  async function read(q: QualityQuery) {
    if (q.hours !== undefined && q.days !== undefined) throw new AppError('invalid_request', 'give hours or days, not both', { field: 'days' });
    const hours = q.days !== undefined ? q.days * 24 : (q.hours ?? DEFAULT_HOURS);
    const bucketMinutes = q.bucket_minutes ?? DEFAULT_BUCKET_MINUTES;
    const bucketMs = bucketMinutes * 60_000;
    const count = Math.ceil((hours * HOUR) / bucketMs);
    if (count > MAX_BUCKETS)
      throw new AppError('invalid_request', `${hours} hours in ${bucketMinutes}-minute buckets is ${count} buckets; at most ${MAX_BUCKETS}: widen bucket_minutes`, { field: 'bucket_minutes' });
    const operations = operationsOf(q.operation);
    const until = clock.now();
    const since = until - hours * HOUR;
    await deps.flushTelemetry();
    const samples = (await deps.repo.window(since, until, operations, QUALITY_VIEW_CAP)).reverse();
    const truncated = samples.length >= QUALITY_VIEW_CAP;
    const starts = Array.from({ length: count }, (_, i) => since + i * bucketMs);
    const buckets = starts.map(() => [] as QualitySample[]);
    // the window is [since, until]: a record at exactly `until` belongs to the last bucket
    for (const s of samples) buckets[Math.min(count - 1, Math.max(0, Math.floor((s.ts - since) / bucketMs)))]!.push(s);
    const flags = [...(samples.length === 0 ? [NO_TELEMETRY_FLAG] : []), ...(truncated ? [TRUNCATED_FLAG] : [])];
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
      window: { from: iso(since), to: iso(until), hours, bucket_minutes: bucketMinutes, operation: q.operation === undefined ? null : operations[0]!, requests: samples.length, truncated },
      /** Alerts, bucket statuses and incidents, worked out once per request when a view needs them. */
      derived: () => (derived ??= derive()),
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
  type Window = Awaited<ReturnType<typeof read>>;

  const answer = <D>(w: Window, data: D, extraFlags: string[] = []) => ({ data: { window: w.window, ...data }, qualityFlags: [...w.flags, ...extraFlags] });
  const byOperation = (w: Window) => [...groupBy(w.samples, (s) => s.operation_id)].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));

  const opMeasures = (operationId: string, samples: readonly QualitySample[]) => {
    const { slow: _slow, fallbacks: _fb, ...m } = measure(samples);
    return { operation_id: operationId, ...m, latency_slo_ms: latencySloMs(operationId), latency_ms: latencySummary(samples.map((s) => s.latency_ms)) };
  };
  const overall = (w: Window) => {
    const { slow: _slow, fallbacks: _fb, ...m } = measure(w.samples);
    return { ...m, latency_ms: latencySummary(w.samples.map((s) => s.latency_ms)) };
  };

  const bucketStats = (start: number, list: readonly QualitySample[]) => {
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

  function sloOf(samples: readonly QualitySample[]) {
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

  function endpointRows(w: Window) {
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

  function recommendations(w: Window) {
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
    const status = deps.cacheStatus().answerCache;
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

  const currentStatus = (w: Window): BucketStatus => w.derived().perBucket[w.derived().perBucket.length - 1]!.status;

  const statusCounts = (statuses: readonly BucketStatus[]) => ({
    ok: statuses.filter((s) => s === 'ok').length,
    degraded: statuses.filter((s) => s === 'degraded').length,
    down: statuses.filter((s) => s === 'down').length,
    no_data: statuses.filter((s) => s === 'no_data').length,
  });

  return {
    async quality(q: QualityQuery) {
      const w = await read(q);
      return answer(w, { overall: overall(w), operations: byOperation(w).map(([op, list]) => opMeasures(op, list)) });
    },

    async perf(q: QualityQuery) {
      const w = await read(q);
      const perf = (op: string | null, list: readonly QualitySample[]) => ({
        operation_id: op,
        requests: list.length,
        latency_ms: latencySummary(list.map((s) => s.latency_ms)),
        latency_slo_ms: op === null ? null : latencySloMs(op),
        latency_attainment: measure(list).latency_attainment,
      });
      return answer(w, { overall: perf(null, w.samples), operations: byOperation(w).map(([op, list]) => perf(op, list)) });
    },

    async perfBreakdown(q: QualityQuery) {
      const w = await read(q);
      const part = (list: readonly QualitySample[]) => ({ requests: list.length, latency_ms: latencySummary(list.map((s) => s.latency_ms)) });
      return answer(w, {
        operations: byOperation(w).map(([op, list]) => ({
          operation_id: op,
          requests: list.length,
          by_status_class: ['2xx', '3xx', '4xx', '5xx'].map((cls) => ({ status_class: cls, ...part(list.filter((s) => `${Math.floor(s.status / 100)}xx` === cls)) })).filter((x) => x.requests > 0),
          by_cache: ['hit', 'miss', 'miss_evict', 'none'].map((c) => ({ cache: c, ...part(list.filter((s) => (s.cache ?? 'none') === c)) })).filter((x) => x.requests > 0),
        })),
      });
    },

    async latencyTrend(q: QualityQuery) {
      const w = await read(q);
      return answer(w, {
        buckets: w.buckets.map((list, i) => {
          const lat = latencySummary(list.map((s) => s.latency_ms));
          return { start: iso(w.starts[i]!), requests: list.length, p50_ms: lat.p50, p95_ms: lat.p95, p99_ms: lat.p99, max_ms: lat.max, over_slo: list.filter(isSlow).length };
        }),
      });
    },

    async cacheEfficiency(q: QualityQuery) {
      const w = await read(q);
      const efficiency = (op: string | null, list: readonly QualitySample[]) => {
        const cached = list.filter((s) => s.cache !== null);
        const m = measure(cached);
        const hit = latencySummary(cached.filter((s) => s.cache === 'hit').map((s) => s.latency_ms)).p50;
        const miss = latencySummary(cached.filter((s) => s.cache !== 'hit').map((s) => s.latency_ms)).p50;
        return {
          operation_id: op,
          cacheable_requests: cached.length,
          ...m.cache,
          latency_p50_hit_ms: hit,
          latency_p50_miss_ms: miss,
          time_saved_ms: hit !== null && miss !== null ? round(m.cache.hits * (miss - hit), 2) : null,
        };
      };
      const ops = byOperation(w).filter(([, list]) => list.some((s) => s.cache !== null));
      const status = deps.cacheStatus().answerCache;
      return answer(w, { overall: efficiency(null, w.samples), operations: ops.map(([op, list]) => efficiency(op, list)), process_cache: status });
    },

    async cacheHitTrend(q: QualityQuery) {
      const w = await read(q);
      return answer(w, { buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...measure(list).cache })) });
    },

    async cacheStaleness(q: QualityQuery) {
      const w = await read(q);
      const ages = (list: readonly QualitySample[]) => {
        const values = list.filter((s) => s.cache === 'hit' && s.cache_age_seconds !== null).map((s) => s.cache_age_seconds!);
        const l = latencySummary(values);
        return { hits: values.length, age_seconds: { p50: l.p50, p95: l.p95, max: l.max, mean: l.mean } };
      };
      const now = clock.now();
      const entryAges = deps
        .cachedAt()
        .map((t) => Math.max(0, Math.round((now - t) / 1000)))
        .sort((a, b) => a - b);
      const ops = byOperation(w).filter(([, list]) => list.some((s) => s.cache === 'hit'));
      return answer(w, {
        served_from_cache: ages(w.samples),
        operations: ops.map(([op, list]) => ({ operation_id: op, ...ages(list) })),
        entries_now: {
          entries: entryAges.length,
          oldest_age_seconds: entryAges.length ? entryAges[entryAges.length - 1]! : null,
          newest_age_seconds: entryAges.length ? entryAges[0]! : null,
          median_age_seconds: latencySummary(entryAges).p50,
        },
      });
    },

    async cacheTurnover(q: QualityQuery) {
      const w = await read(q);
      const row = (list: readonly QualitySample[]) => {
        const c = measure(list).cache;
        return { inserts: c.misses, evictions: c.evictions, hits: c.hits, hit_ratio: c.hit_ratio };
      };
      return answer(w, { totals: row(w.samples), process_cache: deps.cacheStatus().answerCache, buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...row(list) })) });
    },

    async fallbackTrend(q: QualityQuery) {
      const w = await read(q);
      const row = (list: readonly QualitySample[]) => {
        const by: Record<string, number> = {};
        for (const s of list) if (s.fallback !== null) by[s.fallback] = (by[s.fallback] ?? 0) + 1;
        const m = measure(list);
        return { requests: m.requests, fallbacks: m.fallbacks, fallback_share: m.fallback_share, by_reason: by };
      };
      return answer(w, { totals: row(w.samples), buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...row(list) })) });
    },

    async slaBreaches(q: QualityQuery) {
      const w = await read(q);
      const operations = byOperation(w).map(([op, list]) => {
        const slo = sloOf(list);
        const slow = list.filter(isSlow);
        return {
          operation_id: op,
          latency_slo_ms: latencySloMs(op),
          requests: list.length,
          over_slo: slow.length,
          over_slo_share: slo.latency_attainment === null ? null : round(1 - slo.latency_attainment),
          latency_met: slo.latency_met,
          worst_ms: slow.length ? Math.max(...slow.map((s) => s.latency_ms)) : null,
          server_errors: slo.error_budget.failures,
          availability: slo.availability,
          availability_met: slo.availability_met,
        };
      });
      const breaches = w.samples
        .filter((s) => isSlow(s) || isServerError(s))
        .slice(-50)
        .reverse()
        .map((s) => ({
          at: iso(s.ts),
          operation_id: s.operation_id,
          latency_ms: s.latency_ms,
          latency_slo_ms: latencySloMs(s.operation_id),
          status: s.status,
          error_code: s.error_code,
          kind: isServerError(s) ? ('server_error' as const) : ('latency' as const),
        }));
      return answer(w, { targets: { availability: AVAILABILITY_TARGET, latency_attainment: LATENCY_TARGET }, operations, breaches });
    },

    async sloSnapshot(q: QualityQuery) {
      const w = await read(q);
      return answer(w, {
        targets: { availability: AVAILABILITY_TARGET, latency_attainment: LATENCY_TARGET, latency_slo_ms: Object.fromEntries(w.operations.map((op) => [op, latencySloMs(op)])) },
        overall: sloOf(w.samples),
        operations: byOperation(w).map(([op, list]) => ({ operation_id: op, latency_slo_ms: latencySloMs(op), ...sloOf(list) })),
      });
    },

    async endpointReliability(q: QualityQuery) {
      const w = await read(q);
      return answer(w, { operations: endpointRows(w) });
    },

    async reliabilityIndex(q: QualityQuery) {
      const w = await read(q);
      const rows = endpointRows(w);
      const statuses = w.derived().perBucket.map((b) => b.status);
      const counted = statuses.filter((s) => s !== 'no_data');
      const m = measure(w.samples);
      const okShare = counted.length ? round(counted.filter((s) => s === 'ok').length / counted.length) : null;
      return answer(w, {
        index: reliabilityIndex(m.availability, m.latency_attainment, okShare),
        components: { availability: m.availability, latency_attainment: m.latency_attainment, ok_bucket_share: okShare },
        weights: { ...RELIABILITY_WEIGHTS },
        operations: rows.map((r) => ({
          operation_id: r.operation_id,
          requests: r.requests,
          index: r.reliability_index,
          availability: r.availability,
          latency_attainment: r.latency_attainment,
          ok_bucket_share: r.ok_bucket_share,
        })),
      });
    },

    async reliabilityDrivers(q: QualityQuery) {
      const w = await read(q);
      const unreliable = w.samples.filter((s) => isServerError(s) || isSlow(s));
      const total = unreliable.length;
      const share = (n: number) => (total > 0 ? round(n / total) : null);
      const operations = byOperation(w)
        .map(([op, list]) => {
          const bad = list.filter((s) => isServerError(s) || isSlow(s));
          return {
            operation_id: op,
            requests: list.length,
            unreliable: bad.length,
            share_of_unreliable: share(bad.length),
            server_errors: list.filter(isServerError).length,
            slow: list.filter((s) => !isServerError(s) && isSlow(s)).length,
          };
        })
        .filter((r) => r.unreliable > 0)
        .sort((a, b) => b.unreliable - a.unreliable || a.operation_id.localeCompare(b.operation_id));
      const serverErrors = w.samples.filter(isServerError);
      const errorCodes = [...groupBy(serverErrors, (s) => s.error_code ?? 'none')]
        .map(([code, list]) => ({ code, count: list.length, share_of_server_errors: round(list.length / serverErrors.length), operations: [...new Set(list.map((s) => s.operation_id))].sort() }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
      return answer(w, { unreliable_requests: total, requests: w.samples.length, operations, error_codes: errorCodes });
    },

    async errorCatalog(q: QualityQuery) {
      const w = await read(q);
      const errors = w.samples.filter((s) => s.error_code !== null);
      const codes = [...groupBy(errors, (s) => s.error_code!)]
        .map(([code, list]) => ({
          code,
          count: list.length,
          statuses: [...new Set(list.map((s) => s.status))].sort((a, b) => a - b),
          operations: [...new Set(list.map((s) => s.operation_id))].sort(),
          last_seen_at: iso(list[list.length - 1]!.ts),
        }))
        .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
      const seenBy = groupBy(errors, (s) => s.operation_id);
      const operations = w.operations
        .filter((op) => deps.catalog.isImplemented(op))
        .map((op) => {
          const declared = [...(deps.catalog.implemented.find((i) => i.entry.operationId === op)?.route.errors ?? [])].sort();
          const seen = [...new Set((seenBy.get(op) ?? []).map((s) => s.error_code!))].sort();
          return { operation_id: op, declared, seen, undeclared_seen: seen.filter((c) => !declared.includes(c as never) && !PIPELINE_ERROR_CODES.includes(c)) };
        });
      return answer(w, { codes, operations, pipeline_codes: PIPELINE_ERROR_CODES });
    },

    async statusTimeline(q: QualityQuery) {
      const w = await read(q);
      const { perBucket } = w.derived();
      return answer(w, {
        current: currentStatus(w),
        counts: statusCounts(perBucket.map((b) => b.status)),
        buckets: perBucket.map((b) => {
          const m = measure(b.samples);
          return {
            start: iso(b.start),
            status: b.status,
            requests: m.requests,
            server_error_rate: m.server_error_rate,
            latency_p95_ms: latencySummary(b.samples.map((s) => s.latency_ms)).p95,
            alerts: b.alerts.length,
          };
        }),
      });
    },

    async alertsFeed(q: QualityQuery) {
      const w = await read(q);
      const alerts = [...w.derived().alerts].sort((a, b) => b.bucket_start - a.bucket_start || a.key.localeCompare(b.key));
      return answer(w, { rules: ruleViews(), alerts: alerts.map(alertView) });
    },

    async alertsSummary(q: QualityQuery) {
      const w = await read(q);
      const { alerts, perBucket } = w.derived();
      const count = (key: (a: Alert) => string) => Object.fromEntries([...groupBy(alerts, key)].map(([k, l]) => [k, l.length]));
      return answer(w, {
        total: alerts.length,
        by_rule: Object.fromEntries(ALERT_RULE_NAMES.map((r) => [r, alerts.filter((a) => a.rule === r).length])),
        by_severity: { warning: alerts.filter((a) => a.severity === 'warning').length, critical: alerts.filter((a) => a.severity === 'critical').length },
        by_operation: count((a) => a.operation_id),
        buckets_with_alerts: perBucket.filter((b) => b.alerts.length > 0).length,
        firing_now: perBucket[perBucket.length - 1]!.alerts.map(alertView),
      });
    },

    async alertKeysTrend(q: QualityQuery) {
      const w = await read(q);
      return answer(w, {
        buckets: w.derived().perBucket.map((b) => ({
          start: iso(b.start),
          total: b.alerts.length,
          by_rule: Object.fromEntries(ALERT_RULE_NAMES.map((r) => [r, b.alerts.filter((a) => a.rule === r).length])),
          keys: b.alerts.map((a) => a.key).sort(),
        })),
      });
    },

    async incidentQueue(q: QualityQuery) {
      const w = await read(q);
      const { incidents } = w.derived();
      return answer(w, { open: incidents.filter((i) => i.open).length, closed: incidents.filter((i) => !i.open).length, incidents: incidents.map(incidentView) });
    },

    async qualityHistory(q: QualityQuery) {
      const w = await read(q);
      return answer(w, { buckets: w.buckets.map((list, i) => bucketStats(w.starts[i]!, list)) });
    },

    async qualityScoreTrend(q: QualityQuery) {
      const w = await read(q);
      const buckets = w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), requests: list.length, score: measure(list).quality_score }));
      const scores = buckets.map((b) => b.score).filter((s): s is number => s !== null);
      return answer(w, {
        weights: { ...QUALITY_WEIGHTS },
        score: measure(w.samples).quality_score,
        summary: {
          min: scores.length ? Math.min(...scores) : null,
          max: scores.length ? Math.max(...scores) : null,
          mean: spread(scores).mean === null ? null : round(spread(scores).mean!, 1),
          change: scores.length >= 2 ? round(scores[scores.length - 1]! - scores[0]!, 1) : null,
        },
        buckets,
      });
    },

    async opsDigest(q: QualityQuery) {
      const w = await read(q);
      const { incidents, alerts } = w.derived();
      const m = measure(w.samples);
      const slo = sloOf(w.samples);
      const ops = byOperation(w);
      const worst = ops.map(([op, list]) => ({ op, score: measure(list).quality_score! })).sort((a, b) => a.score - b.score || a.op.localeCompare(b.op))[0];
      const codes = [
        ...groupBy(
          w.samples.filter((s) => s.error_code !== null),
          (s) => s.error_code!,
        ),
      ].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
      const lines: string[] = [];
      if (m.requests === 0) lines.push(`No routes requests were recorded in the last ${w.hours} hours.`);
      else {
        lines.push(
          `${m.requests} routes requests in the last ${w.hours} hours over ${ops.length} operation${ops.length === 1 ? '' : 's'}; availability ${round(m.availability! * 100, 2)} %, ${m.server_errors} server errors.`,
        );
        lines.push(`Quality score ${m.quality_score}; latency within SLO for ${round(m.latency_attainment! * 100, 2)} % of requests.`);
        if (worst) lines.push(`Lowest quality score: ${worst.op} at ${worst.score}.`);
        if (codes.length > 0) lines.push(`Most frequent error code: ${codes[0]![0]} (${codes[0]![1].length}).`);
        if (m.cache.hit_ratio !== null) lines.push(`Route answer cache hit ratio ${round(m.cache.hit_ratio * 100, 1)} % (${m.cache.hits} hits, ${m.cache.misses} misses).`);
        lines.push(`${alerts.length} alerts; ${incidents.filter((i) => i.open).length} open and ${incidents.filter((i) => !i.open).length} closed incidents.`);
      }
      return answer(w, {
        headline: {
          requests: m.requests,
          availability: m.availability,
          quality_score: m.quality_score,
          error_budget_remaining: slo.error_budget.remaining,
          alerts: alerts.length,
          open_incidents: incidents.filter((i) => i.open).length,
          status_now: currentStatus(w),
        },
        lowest_scoring_operation: worst ? { operation_id: worst.op, quality_score: worst.score } : null,
        top_error_code: codes.length ? { code: codes[0]![0], count: codes[0]![1].length } : null,
        lines,
      });
    },

    async opsScorecard(q: QualityQuery) {
      const w = await read(q);
      const m = measure(w.samples);
      return answer(w, {
        grades: GRADES_VIEW,
        overall: { quality_score: m.quality_score, grade: gradeOf(m.quality_score) },
        operations: byOperation(w).map(([op, list]) => {
          const x = measure(list);
          return {
            operation_id: op,
            requests: x.requests,
            availability: x.availability,
            latency_attainment: x.latency_attainment,
            fallback_share: x.fallback_share,
            quality_score: x.quality_score,
            grade: gradeOf(x.quality_score),
          };
        }),
      });
    },

    async opsOverview(q: QualityQuery) {
      const w = await read(q);
      const { incidents, perBucket } = w.derived();
      const m = measure(w.samples);
      return answer(w, {
        status_now: currentStatus(w),
        totals: overall(w),
        slo: sloOf(w.samples),
        alerts_firing: perBucket[perBucket.length - 1]!.alerts.length,
        open_incidents: incidents.filter((i) => i.open).length,
        cache: { ...m.cache, process_cache: deps.cacheStatus().answerCache },
        fallbacks: { count: m.fallbacks, share: m.fallback_share },
        busiest: byOperation(w)
          .slice(0, 5)
          .map(([op, list]) => ({ operation_id: op, requests: list.length })),
      });
    },

    async opsVolatility(q: QualityQuery) {
      const w = await read(q);
      const vol = (op: string | null, list: readonly QualitySample[]) => {
        const perBucket = w.starts.map((start, i) => (op === null ? w.buckets[i]! : w.buckets[i]!.filter((s) => s.operation_id === op)));
        const active = perBucket.filter((l) => l.length > 0);
        return {
          operation_id: op,
          requests: list.length,
          buckets_with_requests: active.length,
          requests_per_bucket: spread(perBucket.map((l) => l.length)),
          latency_p95_ms: spread(active.map((l) => latencySummary(l.map((s) => s.latency_ms)).p95!)),
          server_error_rate: spread(active.map((l) => measure(l).server_error_rate!)),
        };
      };
      return answer(w, { overall: vol(null, w.samples), operations: byOperation(w).map(([op, list]) => vol(op, list)) });
    },

    async opsControlTower(q: QualityQuery) {
      const w = await read(q);
      const { perBucket, incidents } = w.derived();
      const last = perBucket[perBucket.length - 1]!;
      return answer(w, {
        status_now: currentStatus(w),
        operations: byOperation(w).map(([op, list]) => {
          const m = measure(list);
          const slo = sloOf(list);
          return {
            operation_id: op,
            status_now: last.opStatus.get(op) ?? 'no_data',
            requests: m.requests,
            availability: m.availability,
            latency_p95_ms: latencySummary(list.map((s) => s.latency_ms)).p95,
            latency_slo_ms: latencySloMs(op),
            error_budget_remaining: slo.error_budget.remaining,
            quality_score: m.quality_score,
            alerts_firing: last.alerts.filter((a) => a.operation_id === op).length,
            open_incidents: incidents.filter((i) => i.open && i.operation_id === op).length,
          };
        }),
      });
    },

    async opsRecommendations(q: QualityQuery) {
      const w = await read(q);
      return answer(w, { recommendations: recommendations(w) });
    },

    async opsHealth(q: QualityQuery) {
      const w = await read(q);
      const slo = sloOf(w.samples);
      const open = w.derived().incidents.filter((i) => i.open);
      const now = currentStatus(w);
      const cache = measure(w.samples).cache;
      const checks = [
        {
          check: 'telemetry_recorded',
          ok: w.samples.length > 0 ? true : null,
          detail: w.samples.length > 0 ? `${w.samples.length} requests recorded in the window` : 'no routes requests recorded in the window',
        },
        { check: 'status_now', ok: now === 'no_data' ? null : now === 'ok', detail: `the last bucket is ${now}` },
        { check: 'availability_slo', ok: slo.availability_met, detail: slo.availability === null ? 'no requests' : `availability ${slo.availability} (target ${AVAILABILITY_TARGET})` },
        { check: 'latency_slo', ok: slo.latency_met, detail: slo.latency_attainment === null ? 'no requests' : `latency attainment ${slo.latency_attainment} (target ${LATENCY_TARGET})` },
        { check: 'open_incidents', ok: open.length === 0, detail: open.length === 0 ? 'no open incident' : open.map((i) => i.key).join(', ') },
        {
          check: 'answer_cache',
          ok: cache.hit_ratio === null ? null : !cacheChurns(cache),
          detail: cache.hit_ratio === null ? 'no cacheable requests' : `hit ratio ${cache.hit_ratio}, ${cache.evictions} answers evicted to make room`,
        },
      ];
      const failed = checks.filter((c) => c.ok === false).length;
      const health = w.samples.length === 0 ? 'unknown' : now === 'down' || failed >= 3 ? 'unhealthy' : failed > 0 ? 'degraded' : 'healthy';
      return answer(w, { health, failed_checks: failed, checks });
    },
  };
}

const GRADES_VIEW = GRADES.map((g) => ({ grade: g.grade, min_score: g.min }));

function ruleViews() {
  return ALERT_RULE_NAMES.map((rule) => ({ rule, warning: ALERT_RULES[rule].warning, critical: ALERT_RULES[rule].critical, description: ALERT_RULES[rule].description }));
}

export type RoutesQualityService = ReturnType<typeof createRoutesQualityService>;
