import type { AgentPrincipal } from '../../../access/principals.js';
import type { CatalogView } from '../../../catalog/catalog.js';
import type { Clock } from '../../../platform/clock.js';
import { DAY, HOUR, iso, SECOND } from '../../../platform/clock.js';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { TelemetryService } from '../../telemetry/telemetry-service.js';
import { TELEMETRY_VIEW_CAP } from '../../telemetry/telemetry-service.js';
import type { RoutesDataService } from './data-service.js';
import { round } from '../../../platform/stats.js';
import type { ReadinessRepo } from './readiness-repo.js';
import { budgetView, type Allowance, type UsageLine } from './budget-guard.js';
import { runBenchmark, type BenchmarkResult } from './readiness-benchmark.js';
import { engineCheck, eventLayerCheck, freshnessCheck, portTableCheck, readinessOf, type ReadinessFacts } from './readiness-checks.js';
import { contractMatrixView, contractRows, routesOperationIds, schemaCoverageFacts } from './readiness-contracts.js';
import { errorRateOf, regressionFactsOf, regressionView, releaseFactsOf, releaseView, rolloutView } from './readiness-gates.js';
import {
  BENCHMARK_CACHE_MS,
  DEFAULT_READINESS_EVENT_DAYS,
  DEFAULT_READINESS_MAX_AGE_SECONDS,
  SNAPSHOT_JOB_EVERY_MS,
  SNAPSHOT_MIN_INTERVAL_MS,
  SNAPSHOT_RETENTION_DAYS,
  type ReadinessCheck,
} from './readiness-rules.js';

const utcDay = (ms: number) => iso(ms).slice(0, 10);

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
  usageLines: (agentId: string, sinceDay: string) => Promise<UsageLine[]>;
  /** The agent's cost-unit allowance as billing states it (null: none enforced). */
  allowance: (agent: AgentPrincipal) => Promise<Allowance>;
}

/**
 * Readiness, contracts, benchmark, release gate, regressions, rollout score and budget guard of the routes section.
 * The service reads (store, telemetry, network, catalog) and keeps the benchmark cache; the views are pure functions
 * of what it read: readiness-contracts.ts, readiness-checks.ts, readiness-benchmark.ts, readiness-gates.ts, budget-guard.ts.
 */
export function createRoutesReadinessService(deps: ReadinessDeps) {
  const { repo, clock } = deps;

  const contractMatrix = (query: { status?: 'implemented' | 'planned' }) => contractMatrixView(contractRows(deps.catalog), query.status);
  const schemaCoverage = () => ({ data: { section: 'routes' as const, ...schemaCoverageFacts(contractRows(deps.catalog)) } });

  // ---- benchmark -------------------------------------------------------------------------------
  const benchmarks = new Map<number, { at: number; result: BenchmarkResult }>();
  const benchmarkDeps = { network: deps.network, resolvePlace: (input: string, field: string) => deps.routes.resolvePlace(input, field), clock };

  function benchmarkFacts(runs = 3) {
    const now = clock.now();
    const held = benchmarks.get(runs);
    if (held && now - held.at < BENCHMARK_CACHE_MS && now >= held.at) return { ...held.result, cached: true, age_seconds: Math.round((now - held.at) / SECOND) };
    const result = runBenchmark(benchmarkDeps, runs);
    benchmarks.set(runs, { at: now, result });
    return { ...result, cached: false, age_seconds: 0 };
  }

  const benchmark = (query: { runs?: number }) => ({ data: benchmarkFacts(query.runs ?? 3) });

  // ---- readiness -------------------------------------------------------------------------------
  async function readinessFacts(query: { days?: number; max_age_seconds?: number }): Promise<ReadinessFacts> {
    const days = query.days ?? DEFAULT_READINESS_EVENT_DAYS;
    const maxAge = query.max_age_seconds ?? DEFAULT_READINESS_MAX_AGE_SECONDS;
    const now = clock.now();
    let network: LoadedSeaNetwork | Error;
    try {
      network = deps.network();
    } catch (err) {
      network = err as Error;
    }
    const portCount = deps.ports.table().length;
    const checks: ReadinessCheck[] = [engineCheck(network), portTableCheck(deps.ports.version(), portCount)];
    const window = { since: now - days * DAY, until: now };
    const events = await repo.eventCounts(
      window.since,
      window.until,
      CHOKEPOINTS.map((c) => c.key),
    );
    checks.push(eventLayerCheck(events, days, window));
    const newest = await deps.data.newestAge();
    checks.push(freshnessCheck(newest, maxAge));
    return readinessOf(now, checks, days, maxAge, newest);
  }

  async function record(facts: ReadinessFacts, origin: 'request' | 'job') {
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

  // ---- release gate, regression watch, rollout score --------------------------------------------
  async function releaseFacts(query: { hours?: number }) {
    const hours = query.hours ?? 24;
    const ready = await readinessFacts({});
    const schema = schemaCoverageFacts(contractRows(deps.catalog));
    const bench = benchmarkFacts();
    await deps.telemetry.flush();
    const errors = errorRateOf(await repo.telemetry(routesOperationIds(deps.catalog), clock.now() - hours * HOUR, TELEMETRY_VIEW_CAP));
    return releaseFactsOf(hours, ready, schema, bench, errors);
  }

  const releaseReadiness = async (query: { hours?: number }) => releaseView(await releaseFacts(query), clock.now());

  async function regressionFacts(query: { hours?: number }) {
    const hours = query.hours ?? 24;
    const now = clock.now();
    await deps.telemetry.flush();
    const records = await repo.telemetry(routesOperationIds(deps.catalog), now - 2 * hours * HOUR, TELEMETRY_VIEW_CAP);
    return regressionFactsOf(hours, now, records, benchmarkFacts().pairs, TELEMETRY_VIEW_CAP);
  }

  const regressionWatch = async (query: { hours?: number }) => regressionView(await regressionFacts(query));

  async function rolloutScore(query: { hours?: number }) {
    const release = await releaseFacts(query);
    const regression = await regressionFacts(query);
    return rolloutView(release, regression, clock.now());
  }

  // ---- budget guard ----------------------------------------------------------------------------
  async function budgetGuard(agent: AgentPrincipal, query: { days?: number; budget_units?: number }) {
    const days = query.days ?? 7;
    const now = clock.now();
    const start = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
    const ids = new Set(routesOperationIds(deps.catalog));
    const lines = (await deps.usageLines(agent.agentId, utcDay(start))).filter((l) => ids.has(l.operation_id) && l.day >= utcDay(start));
    const allowance = await deps.allowance(agent);
    return budgetView({ agentId: agent.agentId, days, now, start, budget: query.budget_units ?? null, agentSince: agent.row.created_at }, lines, allowance);
  }

  return { contractMatrix, schemaCoverage, benchmark, readiness, snapshotJob, readinessHistory, releaseReadiness, regressionWatch, rolloutScore, budgetGuard };
}
export type RoutesReadinessService = ReturnType<typeof createRoutesReadinessService>;
