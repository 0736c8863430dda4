import { callingAgent } from '../../../http/route.js';
import { defineRoute } from '../../kit/route.js';
import { DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_LAG_SECONDS, LAG_SAMPLE_CAP, REGION_DEG } from './freshness-views.js';
import { COVERAGE_CELL_DEG } from './network-cells.js';
import {
  BENCHMARK_CACHE_MS,
  BENCHMARK_PAIRS,
  BENCHMARK_TOLERANCE,
  REGRESSION_ERROR_RATE_DELTA,
  REGRESSION_LATENCY_FACTOR,
  REGRESSION_LATENCY_MIN_MS,
  REGRESSION_MIN_REQUESTS,
  RELEASE_MAX_SERVER_ERROR_RATE,
  RELEASE_SCHEMA_COMPLETE_MIN,
  ROLLOUT_WEIGHTS,
} from './readiness-rules.js';
import { SHORT_SEA_TOLERANCE } from '../../../routing/reference-pairs.js';
import {
  BenchmarkData,
  BenchmarkQuery,
  BudgetGuardData,
  BudgetGuardQuery,
  CompletenessData,
  CompletenessQuery,
  ContractMatrixData,
  ContractMatrixQuery,
  CoverageData,
  CoverageGapsData,
  CoverageGapsQuery,
  CoverageHistoryData,
  CoverageHistoryQuery,
  CoverageQuery,
  FreshnessData,
  FreshnessQuery,
  FreshnessSlaData,
  FreshnessSlaQuery,
  GateQuery,
  LagAlertsData,
  LagAlertsQuery,
  ReadinessData,
  ReadinessHistoryData,
  ReadinessHistoryQuery,
  ReadinessQuery,
  RegressionWatchData,
  ReleaseReadinessData,
  RolloutScoreData,
  SchemaCoverageData,
  SchemaCoverageQuery,
} from './schemas.js';

const ERRORS = ['invalid_request'] as const;
const AGGREGATE =
  'Aggregates only (counts, ages, shares; no vessel identity or position), so callers without vessels:live see the same numbers. Positions with simulated=true (the demo fleet) are counted and flagged simulated_source.';
const CELLS = `The network cells are the ${COVERAGE_CELL_DEG}° grid cells (from -90° latitude, -180° longitude) that the routing engine's sea-lane network (Eurostat marnet, src/routing) crosses; a cell is observed with at least one position in the window.`;

const dataFreshness = defineRoute({
  operationId: 'getRoutesDataFreshness',
  description: `Age of the data the routes analytics stand on: the newest stored position overall, per source (positions.source) and per ${REGION_DEG}° region of an ocean grid (positions observed in the window), and the ingest lag received_at − observed_at (p50/p90/p95/p99/max over the newest ${LAG_SAMPLE_CAP.toLocaleString('en')} positions of the window). Ages are seconds from now. ${AGGREGATE} quality_flags: no_positions_in_window, simulated_source, lag_sample_truncated.`,
  query: FreshnessQuery,
  response: FreshnessData,
  errors: ERRORS,
  examples: [{ summary: 'Freshness over the last 24 hours', query: { hours: 24 } }],
  async handler({ query }, call) {
    return call.services.routesData.freshness(query);
  },
});

const dataLagAlerts = defineRoute({
  operationId: 'getRoutesDataLagAlerts',
  description: `Sources and ${REGION_DEG}° regions (and the whole store) whose data age exceeds max_age_seconds (default ${DEFAULT_MAX_AGE_SECONDS}) or whose ingest lag p95 exceeds max_lag_seconds (default ${DEFAULT_MAX_LAG_SECONDS}), each with its value, threshold, ratio (worst first) and sample size; the same measures as data-freshness. ${AGGREGATE}`,
  query: LagAlertsQuery,
  response: LagAlertsData,
  errors: ERRORS,
  examples: [
    { summary: 'Default thresholds', query: {} },
    { summary: 'Stricter: data older than 10 minutes, lag over 60 s', query: { hours: 6, max_age_seconds: 600, max_lag_seconds: 60 } },
  ],
  async handler({ query }, call) {
    return call.services.routesData.lagAlerts(query);
  },
});

const dataCompleteness = defineRoute({
  operationId: 'getRoutesDataCompleteness',
  description: `Share of vessels last seen in the window with a name, an IMO number, an AIS ship type, dimensions (length and beam) and a destination, and share of positions observed in the window with SOG, COG and heading. ${AGGREGATE} quality_flags: no_vessels_in_window, no_positions_in_window.`,
  query: CompletenessQuery,
  response: CompletenessData,
  errors: ERRORS,
  examples: [{ summary: 'Completeness over 7 days', query: { hours: 168 } }],
  async handler({ query }, call) {
    return call.services.routesData.completeness(query);
  },
});

const freshnessSla = defineRoute({
  operationId: 'getRoutesFreshnessSla',
  description: `Share of time buckets in the window in which the data met the freshness target: a bucket meets it when, at its end, the newest position observed at or before that instant is at most target_seconds old. share = met buckets / buckets; each bucket is listed with its newest position and age. Null share with no stored position. ${AGGREGATE}`,
  query: FreshnessSlaQuery,
  response: FreshnessSlaData,
  errors: ERRORS,
  examples: [
    { summary: 'Hourly buckets over 24 hours, 15-minute target', query: { hours: 24, bucket_minutes: 60, target_seconds: 900 } },
    { summary: 'Six hours in 15-minute buckets', query: { hours: 6, bucket_minutes: 15 } },
  ],
  async handler({ query }, call) {
    return call.services.routesData.freshnessSla(query);
  },
});

const coverage = defineRoute({
  operationId: 'getRoutesCoverage',
  description: `Share of the sea-lane network observed by positions in the window: covered cells / network cells. ${CELLS} Also the positions in the window and how many fell in network cells. ${AGGREGATE}`,
  query: CoverageQuery,
  response: CoverageData,
  errors: ERRORS,
  examples: [{ summary: 'Coverage of the last 24 hours', query: { hours: 24 } }],
  async handler({ query }, call) {
    return call.services.routesData.coverage(query);
  },
});

const coverageHistory = defineRoute({
  operationId: 'getRoutesCoverageHistory',
  description: `The coverage share per UTC day (today partial): covered network cells that day / network cells; a day without any position has share null (quality flag days_without_positions). ${CELLS}`,
  query: CoverageHistoryQuery,
  response: CoverageHistoryData,
  errors: ERRORS,
  examples: [{ summary: 'The last 7 days', query: { days: 7 } }],
  async handler({ query }, call) {
    return call.services.routesData.coverageHistory(query);
  },
});

const coverageGaps = defineRoute({
  operationId: 'getRoutesCoverageGaps',
  description: `Network cells without any position in the window, grouped into contiguous gaps (cells touching by side or corner, joined across ±180°), largest first: cells, extent, centre, the nearest event-layer chokepoint and the nearest port of the port table (great-circle from the centre). ${CELLS}`,
  query: CoverageGapsQuery,
  response: CoverageGapsData,
  errors: ERRORS,
  examples: [{ summary: 'The 10 largest gaps of the last 24 hours', query: { hours: 24, limit: 10 } }],
  async handler({ query }, call) {
    return call.services.routesData.coverageGaps(query);
  },
});

const contractMatrix = defineRoute({
  operationId: 'getRoutesContractMatrix',
  description:
    'Every operation of the routes section from the catalog: implemented or planned, access class, cost, stability and, for implemented ones, the query parameters (name, required, type), whether a query and a response schema are declared, the declared error codes and the number of published examples.',
  query: ContractMatrixQuery,
  response: ContractMatrixData,
  errors: ERRORS,
  examples: [{ summary: 'The whole section' }, { summary: 'Implemented operations only', query: { status: 'implemented' } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.contractMatrix(query);
  },
});

const schemaCoverage = defineRoute({
  operationId: 'getRoutesSchemaCoverage',
  description:
    'Shares of implemented routes operations with a query schema, a response schema, at least one example and at least one declared error code; complete = all four. Also the implemented share of the section and the gaps (operation and what it lacks).',
  query: SchemaCoverageQuery,
  response: SchemaCoverageData,
  errors: ERRORS,
  examples: [{ summary: 'Schema coverage of the routes section' }],
  async handler(_input, call) {
    return call.services.routesReadiness.schemaCoverage();
  },
});

const benchmark = defineRoute({
  operationId: 'getRoutesBenchmark',
  description: `Runs the routing engine now on the reference pairs of docs/routing.md (distances published by others, each with its source: Rotterdam–Singapore via Suez and via the Cape, Houston–Rotterdam, Yokohama–Vancouver, Dover–Calais and the others listed there; never the engine's own figures) between the port table's positions, bypassing the route answer cache: distance, passages, deviation from the published distance (0 inside its range) and within ${BENCHMARK_TOLERANCE * 100}% (short-sea pairs under 100 nm: ${SHORT_SEA_TOLERANCE * 100}%), and the search time (median, min, max of runs). ${BENCHMARK_PAIRS.length} pairs × at most 5 runs; the answer is kept ${BENCHMARK_CACHE_MS / 60_000} minutes per runs value (cached, age_seconds). Times are wall-clock on a shared machine.`,
  query: BenchmarkQuery,
  response: BenchmarkData,
  errors: ERRORS,
  examples: [{ summary: 'Three runs per pair', query: { runs: 3 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.benchmark(query);
  },
});

const readiness = defineRoute({
  operationId: 'getRoutesReadiness',
  description:
    'Is the routes section ready? Checks, each with value, threshold and pass: engine_loaded (the sea network loads, node count; loading it if no route has yet), port_table (ports served, with the table version), event_layer (port calls begun plus chokepoint transits ended in the last `days` days ≥ 1), data_freshness (newest stored position at most max_age_seconds old). ready = every check passes. Each answer is stored as a snapshot for readiness-history unless one is younger than a minute; a job stores one every 15 minutes.',
  query: ReadinessQuery,
  response: ReadinessData,
  errors: ERRORS,
  examples: [{ summary: 'Default checks' }, { summary: 'Events of the last 3 days, data at most 10 minutes old', query: { days: 3, max_age_seconds: 600 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.readiness(query);
  },
});

const readinessHistory = defineRoute({
  operationId: 'getRoutesReadinessHistory',
  description: 'Readiness snapshots in the window, newest first, each with its checks and origin (request or job), and the share of ready snapshots. Snapshots are kept 90 days.',
  query: ReadinessHistoryQuery,
  response: ReadinessHistoryData,
  errors: ERRORS,
  examples: [{ summary: 'The last week', query: { hours: 168, limit: 50 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.readinessHistory(query);
  },
});

const releaseReadiness = defineRoute({
  operationId: 'getRoutesReleaseReadiness',
  description: `A release gate over four criteria, each pass, fail or no_data with value and threshold: readiness (every readiness check passes, default parameters), schema_coverage (complete share ≥ ${RELEASE_SCHEMA_COMPLETE_MIN}), benchmark_accuracy (every reference pair within ${BENCHMARK_TOLERANCE * 100}% of its published distance, short-sea pairs ${SHORT_SEA_TOLERANCE * 100}%), server_error_rate (5xx share of routes requests in the window from request telemetry ≤ ${RELEASE_MAX_SERVER_ERROR_RATE}). verdict: no_go if any fails, insufficient_data if none fails but one has no data, else go.`,
  query: GateQuery,
  response: ReleaseReadinessData,
  errors: ERRORS,
  examples: [{ summary: 'Gate on the last 24 hours', query: { hours: 24 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.releaseReadiness(query);
  },
});

const regressionWatch = defineRoute({
  operationId: 'getRoutesRegressionWatch',
  description: `Per routes operation, request telemetry of the latest window (hours back from now) against the window of equal length before it: requests, 5xx share, p95 latency. A regression: with at least ${REGRESSION_MIN_REQUESTS} requests in both windows, p95 latency above ${REGRESSION_LATENCY_FACTOR}× the previous and ≥ ${REGRESSION_LATENCY_MIN_MS} ms higher, or a 5xx share ≥ ${REGRESSION_ERROR_RATE_DELTA} higher. The benchmark distances (cached 5 minutes) regress when outside ${BENCHMARK_TOLERANCE * 100}% of their reference.`,
  query: GateQuery,
  response: RegressionWatchData,
  errors: ERRORS,
  examples: [{ summary: 'The last 24 hours against the 24 before', query: { hours: 24 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.regressionWatch(query);
  },
});

const rolloutScore = defineRoute({
  operationId: 'getRoutesRolloutScore',
  description: `Composite 0-100: readiness (share of readiness checks passing) weight ${ROLLOUT_WEIGHTS.readiness}, release (share of release-readiness criteria with data that pass) weight ${ROLLOUT_WEIGHTS.release}, regression (1 − regressed subjects / watched subjects of regression-watch) weight ${ROLLOUT_WEIGHTS.regression}; a component without data is left out and the weights of the others rescaled (weight_measured, flag partial_score). grade: proceed ≥ 90, caution ≥ 70, else hold.`,
  query: GateQuery,
  response: RolloutScoreData,
  errors: ERRORS,
  examples: [{ summary: 'Score on the last 24 hours', query: { hours: 24 } }],
  async handler({ query }, call) {
    return call.services.routesReadiness.rolloutScore(query);
  },
});

const budgetGuard = defineRoute({
  operationId: 'getRoutesBudgetGuard',
  description:
    'Your spend on routes operations from the usage ledger (cost units of your calls, per UTC day, exact to 0.001) over the last `days` UTC days (today partial), the rate per elapsed day, and with budget_units the units remaining and when your rate reaches the budget (days_to_budget, reach_at; null at a rate of zero). Without budget_units there is no limit to project against: the free tier enforces no cost-unit allowance (flag no_budget_limit). Calls of this minute may show in the next answer.',
  query: BudgetGuardQuery,
  response: BudgetGuardData,
  errors: ERRORS,
  examples: [
    { summary: 'A 50-unit budget over the last 7 days', query: { days: 7, budget_units: 50 } },
    { summary: 'Spend today', query: { days: 1 } },
  ],
  async handler({ query }, call) {
    return call.services.routesReadiness.budgetGuard(callingAgent(call), query);
  },
});

export const routesReadinessRoutes = [
  dataFreshness,
  dataLagAlerts,
  dataCompleteness,
  freshnessSla,
  coverage,
  coverageHistory,
  coverageGaps,
  contractMatrix,
  schemaCoverage,
  benchmark,
  readiness,
  readinessHistory,
  releaseReadiness,
  regressionWatch,
  rolloutScore,
  budgetGuard,
];
