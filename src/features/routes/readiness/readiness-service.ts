import type { TObject, TSchema } from '@sinclair/typebox';
import { performance } from 'node:perf_hooks';
import type { AgentPrincipal } from '../../../access/principals.js';
import type { CatalogView } from '../../../catalog/catalog.js';
import type { Clock } from '../../../platform/clock.js';
import { DAY, HOUR, iso, MINUTE, SECOND } from '../../../platform/clock.js';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import { AppError } from '../../../platform/errors.js';
import { RoutingError } from '../../../routing/engine.js';
import { REFERENCE_MAX_TOLERANCE, REFERENCE_PAIRS, SHORT_SEA_TOLERANCE } from '../../../routing/reference-pairs.js';
import type { TelemetryService } from '../../telemetry/telemetry-service.js';
import { TELEMETRY_VIEW_CAP } from '../../telemetry/telemetry-service.js';
import type { RoutesDataService } from './data-service.js';
import { percentile, round } from '../../../platform/stats.js';
import type { ReadinessRepo } from './readiness-repo.js';

const utcDay = (ms: number) => iso(ms).slice(0, 10);

/**
 * The reference pairs of docs/routing.md ("Accuracy"): distances published by others, each with its
 * source (src/routing/reference-pairs.ts, decision 080); never the engine's own figures. A pair is
 * within tolerance at 4 % of its published figure or range (short-sea pairs under 100 nm: 5 %).
 */
export const BENCHMARK_PAIRS: readonly { from: string; to: string; avoid: string | null; label: string; source: string; reference_nm: { min: number; max: number }; tolerance: number }[] =
  REFERENCE_PAIRS.map((p) => ({
    from: p.from,
    to: p.to,
    avoid: p.avoid,
    label: p.label,
    source: p.source,
    reference_nm: p.published_nm,
    tolerance: p.short_sea ? SHORT_SEA_TOLERANCE : REFERENCE_MAX_TOLERANCE,
  }));
/** A benchmark distance within this fraction of its reference (range) is accurate (short-sea pairs: SHORT_SEA_TOLERANCE). */
export const BENCHMARK_TOLERANCE = REFERENCE_MAX_TOLERANCE;
export const BENCHMARK_CACHE_MS = 5 * MINUTE;
export const MAX_BENCHMARK_RUNS = 5;

/** Readiness: a request records a snapshot unless one is younger than this; the job records one every interval. */
export const SNAPSHOT_MIN_INTERVAL_MS = MINUTE;
export const SNAPSHOT_JOB_EVERY_MS = 15 * MINUTE;
export const SNAPSHOT_RETENTION_DAYS = 90;
export const DEFAULT_READINESS_EVENT_DAYS = 7;
export const DEFAULT_READINESS_MAX_AGE_SECONDS = 3600;

/** Release gate thresholds (decision 069). */
export const RELEASE_SCHEMA_COMPLETE_MIN = 0.9;
export const RELEASE_MAX_SERVER_ERROR_RATE = 0.01;

/** Regression thresholds (decision 069): both windows need this many requests of an operation. */
export const REGRESSION_MIN_REQUESTS = 10;
export const REGRESSION_LATENCY_FACTOR = 1.5;
export const REGRESSION_LATENCY_MIN_MS = 50;
export const REGRESSION_ERROR_RATE_DELTA = 0.02;

/** Rollout score weights (decision 069). */
export const ROLLOUT_WEIGHTS = { readiness: 40, release: 30, regression: 30 } as const;

type Comparison = 'at_least' | 'at_most';
export interface ReadinessCheck {
  name: 'engine_loaded' | 'port_table' | 'event_layer' | 'data_freshness';
  pass: boolean;
  value: number | null;
  threshold: number;
  comparison: Comparison;
  unit: string;
  detail: string;
}

export interface ReadinessDeps {
  repo: ReadinessRepo;
  clock: Clock;
  catalog: CatalogView;
  network: () => LoadedSeaNetwork;
  routes: { resolvePlace(input: string, field: string): { lat: number; lon: number } };
  ports: { version(): number; table(): readonly unknown[] };
  telemetry: Pick<TelemetryService, 'quality' | 'flush'>;
  data: Pick<RoutesDataService, 'newestAge'>;
  /** The calling agent's usage ledger lines from a UTC day on, after pending usage is written. */
  usageLines: (agentId: string, sinceDay: string) => Promise<Array<{ operation_id: string; day: string; calls: number; charged_calls: number; cost_milli: number }>>;
  /** The agent's cost-unit allowance as billing states it (null: none enforced). */
  allowance: (agent: AgentPrincipal) => Promise<{ cost_units_per_day: number | null; cost_units_per_month: number | null; enforced: boolean; note: string }>;
}

/** Readiness, contracts, benchmark, release gate, regressions, rollout score and budget guard of the routes section. */
export function createRoutesReadinessService(deps: ReadinessDeps) {
  const { repo, clock } = deps;
  const routesEntries = () => deps.catalog.all.filter((e) => e.section === 'routes');
  const routesIds = () => routesEntries().map((e) => e.operationId);

  function contractRows() {
    const implemented = new Map(deps.catalog.implemented.map((o) => [o.entry.operationId, o.route]));
    return routesEntries().map((entry) => {
      const route = implemented.get(entry.operationId);
      const query = route?.query as TObject | undefined;
      const required = new Set(query?.required ?? []);
      const typeOf = (s: TSchema): string => (typeof s.type === 'string' ? s.type : s.anyOf ? 'union' : 'any');
      return {
        operation_id: entry.operationId,
        method: entry.method,
        path: entry.path,
        status: route ? ('implemented' as const) : ('planned' as const),
        access: entry.access,
        cost: entry.cost,
        stability: entry.stability,
        parameters: route ? Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, required: required.has(name), type: typeOf(schema as TSchema) })) : null,
        query_schema: route ? query !== undefined : null,
        response_schema: route ? route.response !== undefined : null,
        errors: route ? [...(route.errors ?? [])] : null,
        examples: route ? route.examples.length : null,
      };
    });
  }

  function contractMatrix(query: { status?: 'implemented' | 'planned' }) {
    const rows = contractRows();
    const listed = query.status ? rows.filter((r) => r.status === query.status) : rows;
    return {
      data: {
        section: 'routes' as const,
        counts: { operations: rows.length, implemented: rows.filter((r) => r.status === 'implemented').length, planned: rows.filter((r) => r.status === 'planned').length, listed: listed.length },
        operations: listed,
      },
    };
  }

  function schemaCoverageFacts() {
    const rows = contractRows();
    const implemented = rows.filter((r) => r.status === 'implemented');
    const gaps = implemented
      .map((r) => ({
        operation_id: r.operation_id,
        missing: [!r.query_schema && 'query_schema', !r.response_schema && 'response_schema', r.examples === 0 && 'examples', r.errors?.length === 0 && 'declared_errors'].filter(
          (m): m is string => typeof m === 'string',
        ),
      }))
      .filter((g) => g.missing.length > 0);
    const n = implemented.length;
    const shareOf = (count: number) => (n > 0 ? round(count / n) : null);
    return {
      operations: rows.length,
      implemented: n,
      planned: rows.length - n,
      implemented_share: rows.length ? round(n / rows.length) : null,
      with_query_schema: { count: implemented.filter((r) => r.query_schema).length, share: shareOf(implemented.filter((r) => r.query_schema).length) },
      with_response_schema: { count: implemented.filter((r) => r.response_schema).length, share: shareOf(implemented.filter((r) => r.response_schema).length) },
      with_examples: { count: implemented.filter((r) => (r.examples ?? 0) > 0).length, share: shareOf(implemented.filter((r) => (r.examples ?? 0) > 0).length) },
      with_declared_errors: { count: implemented.filter((r) => (r.errors?.length ?? 0) > 0).length, share: shareOf(implemented.filter((r) => (r.errors?.length ?? 0) > 0).length) },
      complete: { count: n - gaps.length, share: shareOf(n - gaps.length) },
      gaps,
    };
  }

  const schemaCoverage = () => ({ data: { section: 'routes' as const, ...schemaCoverageFacts() } });

  // ---- benchmark -------------------------------------------------------------------------------
  const benchmarks = new Map<number, { at: number; result: BenchmarkResult }>();
  type BenchmarkResult = ReturnType<typeof runBenchmark>;

  function runBenchmark(runs: number) {
    const started = performance.now();
    const network = deps.network();
    const { engine } = network;
    const pairs = BENCHMARK_PAIRS.map((pair) => {
      const ref = pair.reference_nm;
      const base = { from: pair.from, to: pair.to, avoid: pair.avoid, label: pair.label, source: pair.source, reference_nm: ref };
      const times: number[] = [];
      let distance = 0;
      let passages: string[] = [];
      try {
        const a = deps.routes.resolvePlace(pair.from, 'from');
        const b = deps.routes.resolvePlace(pair.to, 'to');
        const mask = engine.passageMask(pair.avoid ? [pair.avoid] : []);
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          const route = engine.route([a, b], { excludedMask: mask });
          times.push(performance.now() - t0);
          distance = route.distanceNm;
          passages = route.passages.map((p) => p.id);
        }
      } catch (err) {
        // a reference pair that cannot be routed (a port gone from the table, a network change) is a failed pair, not a failed answer
        if (!(err instanceof AppError) && !(err instanceof RoutingError)) throw err;
        return { ...base, distance_nm: null, passages: [], deviation_pct: null, within_tolerance: ref === null ? null : false, time_ms: null, error: { code: err.code, message: err.message } };
      }
      const distanceNm = round(distance, 1);
      const deviation = ref === null ? null : distanceNm < ref.min ? (distanceNm - ref.min) / ref.min : distanceNm > ref.max ? (distanceNm - ref.max) / ref.max : 0;
      const sorted = [...times].sort((x, y) => x - y);
      return {
        ...base,
        distance_nm: distanceNm,
        passages,
        deviation_pct: deviation === null ? null : round(deviation * 100, 2),
        within_tolerance: deviation === null ? null : Math.abs(deviation) <= pair.tolerance,
        time_ms: { median: round(sorted[Math.floor((sorted.length - 1) / 2)]!, 3), min: round(sorted[0]!, 3), max: round(sorted.at(-1)!, 3), runs: times.length },
        error: null,
      };
    });
    const judged = pairs.filter((p) => p.within_tolerance !== null);
    return {
      computed_at: iso(clock.now()),
      runs_per_pair: runs,
      tolerance_pct: BENCHMARK_TOLERANCE * 100,
      engine: { network: 'Eurostat marnet', resolution_km: network.resolutionKm, nodes: engine.graph.nodeCount, edges: engine.graph.edgeCount, load_ms: round(network.loadMs, 1) },
      wall_ms: round(performance.now() - started, 1),
      summary: {
        pairs: pairs.length,
        with_reference: judged.length,
        within_tolerance: judged.filter((p) => p.within_tolerance).length,
        share_within: judged.length ? round(judged.filter((p) => p.within_tolerance).length / judged.length) : null,
        median_time_ms: (() => {
          const medians = pairs.flatMap((p) => (p.time_ms ? [p.time_ms.median] : [])).sort((x, y) => x - y);
          return medians.length ? round(percentile(medians, 50)!, 3) : null;
        })(),
      },
      pairs,
    };
  }

  function benchmarkFacts(runs = 3) {
    const now = clock.now();
    const held = benchmarks.get(runs);
    if (held && now - held.at < BENCHMARK_CACHE_MS && now >= held.at) return { ...held.result, cached: true, age_seconds: Math.round((now - held.at) / SECOND) };
    const result = runBenchmark(runs);
    benchmarks.set(runs, { at: now, result });
    return { ...result, cached: false, age_seconds: 0 };
  }

  const benchmark = (query: { runs?: number }) => ({ data: benchmarkFacts(query.runs ?? 3) });

  // ---- readiness -------------------------------------------------------------------------------
  async function readinessFacts(query: { days?: number; max_age_seconds?: number }) {
    const days = query.days ?? DEFAULT_READINESS_EVENT_DAYS;
    const maxAge = query.max_age_seconds ?? DEFAULT_READINESS_MAX_AGE_SECONDS;
    const now = clock.now();
    const checks: ReadinessCheck[] = [];
    try {
      const net = deps.network();
      const nodes = net.engine.graph.nodeCount;
      checks.push({
        name: 'engine_loaded',
        pass: nodes > 0,
        value: nodes,
        threshold: 1,
        comparison: 'at_least',
        unit: 'nodes',
        detail: `Eurostat marnet ${net.resolutionKm} km: ${nodes} nodes, ${net.engine.graph.edgeCount} edges, loaded in ${Math.round(net.loadMs)} ms`,
      });
    } catch (err) {
      checks.push({ name: 'engine_loaded', pass: false, value: null, threshold: 1, comparison: 'at_least', unit: 'nodes', detail: `the network did not load: ${(err as Error).message}` });
    }
    const ports = deps.ports;
    const portCount = ports.table().length;
    checks.push({
      name: 'port_table',
      pass: portCount > 0,
      value: portCount,
      threshold: 1,
      comparison: 'at_least',
      unit: 'ports',
      detail: `port table version ${ports.version()}: ${portCount} ports`,
    });
    const events = await repo.eventCounts(
      now - days * DAY,
      now,
      CHOKEPOINTS.map((c) => c.key),
    );
    const eventTotal = events.port_calls + events.transits;
    checks.push({
      name: 'event_layer',
      pass: eventTotal > 0,
      value: eventTotal,
      threshold: 1,
      comparison: 'at_least',
      unit: 'events',
      detail: `${events.port_calls} port calls began and ${events.transits} chokepoint transits ended in the last ${days} days`,
    });
    const newest = await deps.data.newestAge();
    checks.push({
      name: 'data_freshness',
      pass: newest !== null && newest.age_seconds <= maxAge,
      value: newest?.age_seconds ?? null,
      threshold: maxAge,
      comparison: 'at_most',
      unit: 'seconds',
      detail: newest ? `newest position observed ${iso(newest.observed_at)}${newest.simulated ? ' (simulated)' : ''}` : 'no position is stored',
    });
    const passed = checks.filter((c) => c.pass).length;
    const flags: string[] = [];
    if (newest?.simulated) flags.push('simulated_source');
    return { now, ready: passed === checks.length, passed, total: checks.length, checks, days, max_age_seconds: maxAge, flags };
  }

  async function record(facts: Awaited<ReturnType<typeof readinessFacts>>, origin: 'request' | 'job') {
    await repo.insertSnapshot({ at: facts.now, ready: facts.ready ? 1 : 0, passed: facts.passed, total: facts.total, origin, checks: JSON.stringify(facts.checks) });
  }

  async function readiness(query: { days?: number; max_age_seconds?: number }) {
    const facts = await readinessFacts(query);
    const last = await repo.latestSnapshotAt();
    const recorded = last === null || facts.now - last >= SNAPSHOT_MIN_INTERVAL_MS || facts.now < last;
    if (recorded) await record(facts, 'request');
    return {
      data: {
        at: iso(facts.now),
        ready: facts.ready,
        passed: facts.passed,
        total: facts.total,
        parameters: { days: facts.days, max_age_seconds: facts.max_age_seconds },
        checks: facts.checks,
        snapshot_recorded: recorded,
      },
      qualityFlags: facts.flags,
    };
  }

  /**
   * The periodic job: one snapshot with the default parameters unless one (from a request, or from
   * another process's job) is younger than half the interval; snapshots past retention are deleted.
   */
  async function snapshotJob() {
    const last = await repo.latestSnapshotAt();
    if (last !== null && clock.now() - last < SNAPSHOT_JOB_EVERY_MS / 2 && clock.now() >= last) return { recorded: false, deleted: 0 };
    const facts = await readinessFacts({});
    await record(facts, 'job');
    const deleted = await repo.deleteSnapshotsBefore(facts.now - SNAPSHOT_RETENTION_DAYS * DAY);
    return { recorded: true, ready: facts.ready, deleted };
  }

  async function readinessHistory(query: { hours?: number; limit?: number }) {
    const hours = query.hours ?? 168;
    const limit = query.limit ?? 100;
    const until = clock.now();
    const since = until - hours * HOUR;
    const { rows, total, ready } = await repo.snapshots(since, until, limit);
    return {
      data: {
        window: { hours, since: iso(since), until: iso(until) },
        snapshots_in_window: total,
        ready_snapshots: ready,
        ready_share: total > 0 ? round(ready / total) : null,
        listed: rows.length,
        snapshots: rows.map((r) => ({ at: iso(r.at), ready: r.ready, passed: r.passed, total: r.total, origin: r.origin as 'request' | 'job', checks: JSON.parse(r.checks) as ReadinessCheck[] })),
      },
      qualityFlags: total === 0 ? ['no_snapshots_in_window'] : [],
    };
  }

  // ---- release gate ----------------------------------------------------------------------------
  /** Requests and server errors (5xx) of the routes operations over the last `hours`, counted exactly. */
  async function routesErrorRate(hours: number) {
    await deps.telemetry.flush();
    const records = await repo.telemetry(routesIds(), clock.now() - hours * HOUR, TELEMETRY_VIEW_CAP);
    const serverErrors = records.filter((r) => r.status >= 500).length;
    return { requests: records.length, server_errors: serverErrors, rate: records.length > 0 ? round(serverErrors / records.length) : null };
  }

  type Criterion = { name: string; status: 'pass' | 'fail' | 'no_data'; value: number | null; threshold: number; comparison: Comparison; detail: string };
  const judge = (value: number | null, threshold: number, comparison: Comparison): Criterion['status'] =>
    value === null ? 'no_data' : (comparison === 'at_least' ? value >= threshold : value <= threshold) ? 'pass' : 'fail';

  async function releaseFacts(query: { hours?: number }) {
    const hours = query.hours ?? 24;
    const ready = await readinessFacts({});
    const schema = schemaCoverageFacts();
    const bench = benchmarkFacts();
    const errors = await routesErrorRate(hours);
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
    if (errors.requests === 0) flags.push('no_telemetry_in_window');
    return { hours, verdict: verdict as 'go' | 'no_go' | 'insufficient_data', criteria, ready, requests: errors.requests, flags };
  }

  async function releaseReadiness(query: { hours?: number }) {
    const r = await releaseFacts(query);
    return {
      data: {
        at: iso(clock.now()),
        window: { hours: r.hours, since: iso(clock.now() - r.hours * HOUR), until: iso(clock.now()), routes_requests: r.requests },
        verdict: r.verdict,
        passed: r.criteria.filter((c) => c.status === 'pass').length,
        failed: r.criteria.filter((c) => c.status === 'fail').length,
        no_data: r.criteria.filter((c) => c.status === 'no_data').length,
        criteria: r.criteria,
      },
      qualityFlags: r.flags,
    };
  }

  // ---- regression watch ------------------------------------------------------------------------
  async function regressionFacts(query: { hours?: number }) {
    const hours = query.hours ?? 24;
    const now = clock.now();
    const split = now - hours * HOUR;
    const since = now - 2 * hours * HOUR;
    await deps.telemetry.flush();
    const records = await repo.telemetry(routesIds(), since, TELEMETRY_VIEW_CAP);
    const stats = (list: typeof records) => {
      const latencies = list.map((r) => r.latency_ms).sort((a, b) => a - b);
      const serverErrors = list.filter((r) => r.status >= 500).length;
      return { requests: list.length, server_error_rate: list.length ? round(serverErrors / list.length) : null, latency_p95_ms: percentile(latencies, 95) };
    };
    const byOp = new Map<string, { latest: typeof records; previous: typeof records }>();
    for (const r of records) {
      const entry = byOp.get(r.operation_id) ?? { latest: [], previous: [] };
      (r.ts >= split ? entry.latest : entry.previous).push(r);
      byOp.set(r.operation_id, entry);
    }
    const operations = [...byOp]
      .map(([operation_id, { latest, previous }]) => {
        const l = stats(latest);
        const p = stats(previous);
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
    const bench = benchmarkFacts();
    const distances = bench.pairs.map((p) => ({
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
    const flags: string[] = [];
    if (records.length === 0) flags.push('no_telemetry_in_window');
    if (records.length >= TELEMETRY_VIEW_CAP) flags.push('telemetry_truncated');
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

  async function regressionWatch(query: { hours?: number }) {
    const r = await regressionFacts(query);
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

  async function rolloutScore(query: { hours?: number }) {
    const release = await releaseFacts(query);
    const regression = await regressionFacts(query);
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
        at: iso(clock.now()),
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

  // ---- budget guard ----------------------------------------------------------------------------
  async function budgetGuard(agent: AgentPrincipal, query: { days?: number; budget_units?: number }) {
    const days = query.days ?? 7;
    const now = clock.now();
    const start = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
    const ids = new Set(routesIds());
    const lines = (await deps.usageLines(agent.agentId, utcDay(start))).filter((l) => ids.has(l.operation_id) && l.day >= utcDay(start));
    let calls = 0;
    let milli = 0;
    const byOp = new Map<string, { operation_id: string; calls: number; cost_milli: number }>();
    const byDay = new Map<string, { calls: number; cost_milli: number }>();
    for (const l of lines) {
      calls += l.calls;
      milli += l.cost_milli;
      const op = byOp.get(l.operation_id) ?? { operation_id: l.operation_id, calls: 0, cost_milli: 0 };
      op.calls += l.calls;
      op.cost_milli += l.cost_milli;
      byOp.set(l.operation_id, op);
      const d = byDay.get(l.day) ?? { calls: 0, cost_milli: 0 };
      d.calls += l.calls;
      d.cost_milli += l.cost_milli;
      byDay.set(l.day, d);
    }
    const elapsedDays = (now - start) / DAY;
    const spend = milli / 1000;
    const rate = elapsedDays > 0 ? spend / elapsedDays : null;
    const allowance = await deps.allowance(agent);
    const budget = query.budget_units ?? null;
    const flags: string[] = [];
    if (calls === 0) flags.push('no_spend_in_window');
    if (budget === null) flags.push('no_budget_limit');
    let projection: { remaining_units: number; reached: boolean; days_to_budget: number | null; reach_at: string | null } | null = null;
    if (budget !== null) {
      const remaining = round(budget - spend, 3);
      const reached = remaining <= 0;
      const daysTo = reached ? 0 : rate !== null && rate > 0 ? round(remaining / rate, 2) : null;
      projection = { remaining_units: remaining, reached, days_to_budget: daysTo, reach_at: reached ? iso(now) : daysTo === null ? null : iso(now + Math.round(daysTo * DAY)) };
    }
    return {
      data: {
        agent_id: agent.agentId,
        window: { days, since: iso(start), until: iso(now), elapsed_days: round(elapsedDays, 4) },
        spend: { calls, cost_units: spend, cost_milli_units: milli },
        rate: { cost_units_per_day: rate === null ? null : round(rate), calls_per_day: elapsedDays > 0 ? round(calls / elapsedDays, 2) : null },
        budget: { budget_units: budget, source: budget === null ? ('none' as const) : ('budget_units' as const), allowance },
        projection,
        operations: [...byOp.values()].map((o) => ({ ...o, cost_units: o.cost_milli / 1000 })).sort((a, b) => b.cost_milli - a.cost_milli || a.operation_id.localeCompare(b.operation_id)),
        days: [...byDay].map(([day, d]) => ({ day, calls: d.calls, cost_units: d.cost_milli / 1000 })).sort((a, b) => a.day.localeCompare(b.day)),
      },
      qualityFlags: flags,
    };
  }

  return { contractMatrix, schemaCoverage, benchmark, readiness, snapshotJob, readinessHistory, releaseReadiness, regressionWatch, rolloutScore, budgetGuard };
}
export type RoutesReadinessService = ReturnType<typeof createRoutesReadinessService>;
