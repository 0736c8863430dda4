// SLO, reliability and error views of the routes service quality: each a pure function of one window (quality-window.ts).
import { answer, byOperation, currentStatus, endpointRows, PIPELINE_ERROR_CODES, type QualityWindow, sloOf, statusCounts } from './quality-window.js';
import { AVAILABILITY_TARGET, isServerError, isSlow, LATENCY_TARGET, latencySloMs, latencySummary, measure, RELIABILITY_WEIGHTS, reliabilityIndex } from './rules.js';
import { iso } from '../../../platform/clock.js';
import { groupBy, round } from '../../../platform/stats.js';

export const reliabilityViews = {
  slaBreaches(w: QualityWindow) {
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

  sloSnapshot(w: QualityWindow) {
    return answer(w, {
      targets: { availability: AVAILABILITY_TARGET, latency_attainment: LATENCY_TARGET, latency_slo_ms: Object.fromEntries(w.operations.map((op) => [op, latencySloMs(op)])) },
      overall: sloOf(w.samples),
      operations: byOperation(w).map(([op, list]) => ({ operation_id: op, latency_slo_ms: latencySloMs(op), ...sloOf(list) })),
    });
  },

  endpointReliability(w: QualityWindow) {
    return answer(w, { operations: endpointRows(w) });
  },

  reliabilityIndex(w: QualityWindow) {
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

  reliabilityDrivers(w: QualityWindow) {
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

  errorCatalog(w: QualityWindow) {
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
      .filter((op) => w.process.catalog.isImplemented(op))
      .map((op) => {
        const declared = [...(w.process.catalog.implemented.find((i) => i.entry.operationId === op)?.route.errors ?? [])].sort();
        const seen = [...new Set((seenBy.get(op) ?? []).map((s) => s.error_code!))].sort();
        return { operation_id: op, declared, seen, undeclared_seen: seen.filter((c) => !declared.includes(c as never) && !PIPELINE_ERROR_CODES.includes(c)) };
      });
    return answer(w, { codes, operations, pipeline_codes: PIPELINE_ERROR_CODES });
  },

  statusTimeline(w: QualityWindow) {
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
};
