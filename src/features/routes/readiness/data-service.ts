import type { Clock } from '../../../platform/clock.js';
import { DAY, MINUTE } from '../../../platform/clock.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { PortRecord } from '../../ports/port-table.js';
import { coverageGapsView, coverageHistoryView, coverageView } from './coverage-views.js';
import {
  ageSeconds,
  completenessView,
  DEFAULT_MAX_AGE_SECONDS,
  DEFAULT_MAX_LAG_SECONDS,
  DEFAULT_SLA_BUCKET_MINUTES,
  DEFAULT_SLA_TARGET_SECONDS,
  freshnessFactsOf,
  freshnessSlaView,
  freshnessView,
  LAG_SAMPLE_CAP,
  lagAlertsView,
  REGION_DEG,
  windowEndingAt,
} from './freshness-views.js';
import { COVERAGE_CELL_DEG, networkCells } from './network-cells.js';
import type { ReadinessRepo } from './readiness-repo.js';

export interface DataServiceDeps {
  repo: ReadinessRepo;
  clock: Clock;
  network: () => LoadedSeaNetwork;
  ports: () => readonly PortRecord[];
}

/**
 * The data views of the routes section: freshness, lag alerts, completeness, freshness SLA and coverage of the sea-lane network.
 * The service reads the store and the network; the answers are pure functions of what it read (freshness-views.ts, coverage-views.ts).
 */
export function createRoutesDataService(deps: DataServiceDeps) {
  const { repo, clock } = deps;
  let cells: { engine: unknown; keys: Set<number> } | null = null;
  const laneCells = () => {
    const { engine } = deps.network();
    if (cells === null || cells.engine !== engine) cells = { engine, keys: networkCells(engine.graph) };
    return cells.keys;
  };
  const windowOf = (hours: number) => windowEndingAt(clock.now(), hours);

  async function freshnessFacts(hours: number) {
    const at = windowOf(hours);
    const { since, until } = at;
    const [newest, sources, lagRows] = await Promise.all([repo.newestPosition(until), repo.bySource(since, until), repo.lagSample(since, until, LAG_SAMPLE_CAP)]);
    const regionCells = await repo.byCell(since, until, REGION_DEG);
    return freshnessFactsOf(at, newest, sources, lagRows, regionCells);
  }

  const freshness = async (query: { hours?: number }) => freshnessView(await freshnessFacts(query.hours ?? 24));

  /** Age of the newest stored position (observed at or before now), or null when none is stored. */
  async function newestAge(): Promise<{ observed_at: number; age_seconds: number; simulated: boolean } | null> {
    const now = clock.now();
    const newest = await repo.newestPosition(now);
    return newest ? { observed_at: newest.observed_at, age_seconds: ageSeconds(now, newest.observed_at), simulated: newest.simulated } : null;
  }

  async function lagAlerts(query: { hours?: number; max_age_seconds?: number; max_lag_seconds?: number }) {
    const maxAge = query.max_age_seconds ?? DEFAULT_MAX_AGE_SECONDS;
    const maxLag = query.max_lag_seconds ?? DEFAULT_MAX_LAG_SECONDS;
    return lagAlertsView(await freshnessFacts(query.hours ?? 24), maxAge, maxLag);
  }

  async function completeness(query: { hours?: number }) {
    const { since, until, window } = windowOf(query.hours ?? 24);
    const [v, p] = await Promise.all([repo.vesselCompleteness(since, until), repo.positionCompleteness(since, until)]);
    return completenessView(window, v, p);
  }

  async function freshnessSla(query: { hours?: number; bucket_minutes?: number; target_seconds?: number }) {
    const bucketMs = (query.bucket_minutes ?? DEFAULT_SLA_BUCKET_MINUTES) * MINUTE;
    const target = query.target_seconds ?? DEFAULT_SLA_TARGET_SECONDS;
    const at = windowOf(query.hours ?? 24);
    const [before, perBucket] = await Promise.all([repo.newestPosition(at.since - 1), repo.newestPerBucket(at.since, at.until, bucketMs)]);
    return freshnessSlaView(at, bucketMs, target, before, perBucket);
  }

  async function coverage(query: { hours?: number }) {
    const { since, until, window } = windowOf(query.hours ?? 24);
    const lanes = laneCells();
    const observed = await repo.byCell(since, until, COVERAGE_CELL_DEG);
    return coverageView(window, lanes, observed, deps.network().engine);
  }

  async function coverageHistory(query: { days?: number }) {
    const days = query.days ?? 7;
    const until = clock.now();
    const since = Math.floor(until / DAY) * DAY - (days - 1) * DAY;
    const lanes = laneCells();
    const rows = await repo.byDayCell(since, until, DAY, COVERAGE_CELL_DEG);
    return coverageHistoryView(days, since, until, lanes, rows);
  }

  async function coverageGaps(query: { hours?: number; limit?: number; min_cells?: number }) {
    const { since, until, window } = windowOf(query.hours ?? 24);
    const lanes = laneCells();
    const cellsSeen = await repo.byCell(since, until, COVERAGE_CELL_DEG);
    return coverageGapsView(window, lanes, cellsSeen, deps.ports(), query.limit ?? 20, query.min_cells ?? 1);
  }

  return { freshness, lagAlerts, completeness, freshnessSla, coverage, coverageHistory, coverageGaps, newestAge };
}
export type RoutesDataService = ReturnType<typeof createRoutesDataService>;
