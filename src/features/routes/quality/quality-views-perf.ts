// Latency, cache and fallback views of the routes service quality: each a pure function of one window (quality-window.ts).
import { answer, byOperation, opMeasures, overall, type QualityWindow } from './quality-window.js';
import { isSlow, latencySloMs, latencySummary, measure } from './rules.js';
import { iso } from '../../../platform/clock.js';
import { round } from '../../../platform/stats.js';
import type { QualitySample } from './quality-repo.js';

export const perfViews = {
  quality(w: QualityWindow) {
    return answer(w, { overall: overall(w), operations: byOperation(w).map(([op, list]) => opMeasures(op, list)) });
  },

  perf(w: QualityWindow) {
    const perf = (op: string | null, list: readonly QualitySample[]) => ({
      operation_id: op,
      requests: list.length,
      latency_ms: latencySummary(list.map((s) => s.latency_ms)),
      latency_slo_ms: op === null ? null : latencySloMs(op),
      latency_attainment: measure(list).latency_attainment,
    });
    return answer(w, { overall: perf(null, w.samples), operations: byOperation(w).map(([op, list]) => perf(op, list)) });
  },

  perfBreakdown(w: QualityWindow) {
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

  latencyTrend(w: QualityWindow) {
    return answer(w, {
      buckets: w.buckets.map((list, i) => {
        const lat = latencySummary(list.map((s) => s.latency_ms));
        return { start: iso(w.starts[i]!), requests: list.length, p50_ms: lat.p50, p95_ms: lat.p95, p99_ms: lat.p99, max_ms: lat.max, over_slo: list.filter(isSlow).length };
      }),
    });
  },

  cacheEfficiency(w: QualityWindow) {
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
    const status = w.process.cacheStatus().answerCache;
    return answer(w, { overall: efficiency(null, w.samples), operations: ops.map(([op, list]) => efficiency(op, list)), process_cache: status });
  },

  cacheHitTrend(w: QualityWindow) {
    return answer(w, { buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...measure(list).cache })) });
  },

  cacheStaleness(w: QualityWindow) {
    const ages = (list: readonly QualitySample[]) => {
      const values = list.filter((s) => s.cache === 'hit' && s.cache_age_seconds !== null).map((s) => s.cache_age_seconds!);
      const l = latencySummary(values);
      return { hits: values.length, age_seconds: { p50: l.p50, p95: l.p95, max: l.max, mean: l.mean } };
    };
    const now = w.process.now();
    const entryAges = w.process
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

  cacheTurnover(w: QualityWindow) {
    const row = (list: readonly QualitySample[]) => {
      const c = measure(list).cache;
      return { inserts: c.misses, evictions: c.evictions, hits: c.hits, hit_ratio: c.hit_ratio };
    };
    return answer(w, { totals: row(w.samples), process_cache: w.process.cacheStatus().answerCache, buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...row(list) })) });
  },

  fallbackTrend(w: QualityWindow) {
    const row = (list: readonly QualitySample[]) => {
      const by: Record<string, number> = {};
      for (const s of list) if (s.fallback !== null) by[s.fallback] = (by[s.fallback] ?? 0) + 1;
      const m = measure(list);
      return { requests: m.requests, fallbacks: m.fallbacks, fallback_share: m.fallback_share, by_reason: by };
    };
    return answer(w, { totals: row(w.samples), buckets: w.buckets.map((list, i) => ({ start: iso(w.starts[i]!), ...row(list) })) });
  },
};
