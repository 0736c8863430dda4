// Alert, incident, history and operations views of the routes service quality: each a pure function of one window (quality-window.ts).
import {
  alertView,
  answer,
  bucketStats,
  byOperation,
  cacheChurns,
  currentStatus,
  GRADES_VIEW,
  incidentView,
  overall,
  type QualityWindow,
  recommendations,
  ruleViews,
  sloOf,
} from './quality-window.js';
import { type Alert, ALERT_RULE_NAMES, AVAILABILITY_TARGET, gradeOf, LATENCY_TARGET, latencySloMs, latencySummary, measure, QUALITY_WEIGHTS, spread } from './rules.js';
import { iso } from '../../../platform/clock.js';
import { groupBy, round } from '../../../platform/stats.js';
import type { QualitySample } from './quality-repo.js';

export const opsViews = {
  alertsFeed(w: QualityWindow) {
    const alerts = [...w.derived().alerts].sort((a, b) => b.bucket_start - a.bucket_start || a.key.localeCompare(b.key));
    return answer(w, { rules: ruleViews(), alerts: alerts.map(alertView) });
  },

  alertsSummary(w: QualityWindow) {
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

  alertKeysTrend(w: QualityWindow) {
    return answer(w, {
      buckets: w.derived().perBucket.map((b) => ({
        start: iso(b.start),
        total: b.alerts.length,
        by_rule: Object.fromEntries(ALERT_RULE_NAMES.map((r) => [r, b.alerts.filter((a) => a.rule === r).length])),
        keys: b.alerts.map((a) => a.key).sort(),
      })),
    });
  },

  incidentQueue(w: QualityWindow) {
    const { incidents } = w.derived();
    return answer(w, { open: incidents.filter((i) => i.open).length, closed: incidents.filter((i) => !i.open).length, incidents: incidents.map(incidentView) });
  },

  qualityHistory(w: QualityWindow) {
    return answer(w, { buckets: w.buckets.map((list, i) => bucketStats(w.starts[i]!, list)) });
  },

  qualityScoreTrend(w: QualityWindow) {
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

  opsDigest(w: QualityWindow) {
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

  opsScorecard(w: QualityWindow) {
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

  opsOverview(w: QualityWindow) {
    const { incidents, perBucket } = w.derived();
    const m = measure(w.samples);
    return answer(w, {
      status_now: currentStatus(w),
      totals: overall(w),
      slo: sloOf(w.samples),
      alerts_firing: perBucket[perBucket.length - 1]!.alerts.length,
      open_incidents: incidents.filter((i) => i.open).length,
      cache: { ...m.cache, process_cache: w.process.cacheStatus().answerCache },
      fallbacks: { count: m.fallbacks, share: m.fallback_share },
      busiest: byOperation(w)
        .slice(0, 5)
        .map(([op, list]) => ({ operation_id: op, requests: list.length })),
    });
  },

  opsVolatility(w: QualityWindow) {
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

  opsControlTower(w: QualityWindow) {
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

  opsRecommendations(w: QualityWindow) {
    return answer(w, { recommendations: recommendations(w) });
  },

  opsHealth(w: QualityWindow) {
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
    const health: 'healthy' | 'degraded' | 'unhealthy' | 'unknown' = w.samples.length === 0 ? 'unknown' : now === 'down' || failed >= 3 ? 'unhealthy' : failed > 0 ? 'degraded' : 'healthy';
    return answer(w, { health, failed_checks: failed, checks });
  },
};
