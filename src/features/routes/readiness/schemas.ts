import { Type } from '@sinclair/typebox';
import { DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_LAG_SECONDS, DEFAULT_SLA_BUCKET_MINUTES, DEFAULT_SLA_TARGET_SECONDS } from './freshness-views.js';
import { DEFAULT_READINESS_EVENT_DAYS, DEFAULT_READINESS_MAX_AGE_SECONDS, MAX_BENCHMARK_RUNS } from './readiness-rules.js';
import { Nullable } from '../../kit/schema-kit.js';

const Hours = (max: number, fallback: number, what: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: max, default: fallback, description: `${what}: hours back from now (1-${max}, default ${fallback}).` }));
const Window = Type.Object({ hours: Type.Integer(), since: Type.String(), until: Type.String() });
const Share = Nullable(Type.Number({ minimum: 0, maximum: 1 }), 'Share 0-1; null when there is nothing to divide by.');

// ---- data views ----------------------------------------------------------------------------------
export const FreshnessQuery = Type.Object({ hours: Hours(720, 24, 'Window of positions grouped per source and region') }, { additionalProperties: false });

const LagPercentiles = Type.Object({
  sample_size: Type.Integer({ description: 'Positions whose lag (received_at − observed_at) the percentiles are over: the newest of the window, at most 50,000.' }),
  truncated: Type.Boolean(),
  p50_seconds: Nullable(Type.Number()),
  p90_seconds: Nullable(Type.Number()),
  p95_seconds: Nullable(Type.Number()),
  p99_seconds: Nullable(Type.Number()),
  max_seconds: Nullable(Type.Number()),
});
const SourceFreshness = Type.Object({
  source: Type.String(),
  positions: Type.Integer(),
  simulated_positions: Type.Integer(),
  newest_observed_at: Type.String(),
  age_seconds: Type.Integer(),
  lag_sample_size: Type.Integer(),
  lag_p50_seconds: Nullable(Type.Number()),
  lag_p95_seconds: Nullable(Type.Number()),
});
const RegionFreshness = Type.Object({
  region_id: Type.String({ description: 'South-west corner "lat/lon" of the 30° region.' }),
  south: Type.Number(),
  west: Type.Number(),
  north: Type.Number(),
  east: Type.Number(),
  positions: Type.Integer(),
  newest_observed_at: Type.String(),
  age_seconds: Type.Integer(),
  lag_sample_size: Type.Integer(),
  lag_p95_seconds: Nullable(Type.Number()),
});
export const FreshnessData = Type.Object({
  window: Window,
  region_deg: Type.Number(),
  newest: Nullable(Type.Object({ observed_at: Type.String(), age_seconds: Type.Integer(), source: Type.String(), simulated: Type.Boolean() }), 'The newest stored position (any time up to now).'),
  positions_in_window: Type.Integer(),
  simulated_positions: Type.Integer(),
  ingest_lag: LagPercentiles,
  sources: Type.Array(SourceFreshness),
  regions: Type.Array(RegionFreshness),
});

export const LagAlertsQuery = Type.Object(
  {
    hours: Hours(720, 24, 'Window of positions checked'),
    max_age_seconds: Type.Optional(
      Type.Integer({ minimum: 60, maximum: 604_800, default: DEFAULT_MAX_AGE_SECONDS, description: `Data age threshold, seconds (60-604800, default ${DEFAULT_MAX_AGE_SECONDS}).` }),
    ),
    max_lag_seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 86_400, default: DEFAULT_MAX_LAG_SECONDS, description: `Ingest lag p95 threshold, seconds (1-86400, default ${DEFAULT_MAX_LAG_SECONDS}).` }),
    ),
  },
  { additionalProperties: false },
);
export const LagAlertsData = Type.Object({
  window: Window,
  thresholds: Type.Object({ max_age_seconds: Type.Integer(), max_lag_seconds: Type.Integer(), region_deg: Type.Number() }),
  checked: Type.Object({ sources: Type.Integer(), regions: Type.Integer(), positions_in_window: Type.Integer(), lag_sample_size: Type.Integer() }),
  alert_count: Type.Integer(),
  alerts: Type.Array(
    Type.Object({
      scope: Type.Union([Type.Literal('overall'), Type.Literal('source'), Type.Literal('region')]),
      key: Type.String({ description: 'all, the source name, or the region id.' }),
      metric: Type.Union([Type.Literal('data_age'), Type.Literal('ingest_lag_p95')]),
      value_seconds: Type.Number(),
      threshold_seconds: Type.Number(),
      ratio: Type.Number({ description: 'value / threshold (worst first).' }),
      sample_size: Type.Integer(),
    }),
  ),
});

export const CompletenessQuery = Type.Object({ hours: Hours(720, 24, 'Vessels last seen and positions observed in the window') }, { additionalProperties: false });
const Field = Type.Object({ count: Type.Integer(), share: Share });
export const CompletenessData = Type.Object({
  window: Window,
  vessels: Type.Object({
    seen: Type.Integer(),
    simulated: Type.Integer(),
    fields: Type.Object({ name: Field, imo: Field, ship_type: Field, dimensions: Field, destination: Field }),
  }),
  positions: Type.Object({ observed: Type.Integer(), simulated: Type.Integer(), fields: Type.Object({ sog: Field, cog: Field, heading: Field }) }),
});

export const FreshnessSlaQuery = Type.Object(
  {
    hours: Hours(168, 24, 'Window of buckets'),
    bucket_minutes: Type.Optional(
      Type.Integer({ minimum: 5, maximum: 1440, default: DEFAULT_SLA_BUCKET_MINUTES, description: `Bucket length, minutes (5-1440, default ${DEFAULT_SLA_BUCKET_MINUTES}).` }),
    ),
    target_seconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 86_400,
        default: DEFAULT_SLA_TARGET_SECONDS,
        description: `SLA target: the newest position at most this old (60-86400 s, default ${DEFAULT_SLA_TARGET_SECONDS}).`,
      }),
    ),
  },
  { additionalProperties: false },
);
export const FreshnessSlaData = Type.Object({
  window: Type.Object({ hours: Type.Integer(), since: Type.String(), until: Type.String(), bucket_minutes: Type.Integer(), buckets: Type.Integer() }),
  target_seconds: Type.Integer(),
  positions_in_window: Type.Integer(),
  met_buckets: Type.Integer(),
  share: Share,
  buckets: Type.Array(
    Type.Object({
      start: Type.String(),
      end: Type.String(),
      positions: Type.Integer(),
      newest_observed_at: Nullable(Type.String(), 'Newest position observed at or before the bucket end.'),
      age_seconds: Nullable(Type.Integer(), 'Its age at the bucket end.'),
      met: Type.Boolean(),
    }),
  ),
});

export const CoverageQuery = Type.Object({ hours: Hours(720, 24, 'Window of observed positions') }, { additionalProperties: false });
export const CoverageData = Type.Object({
  window: Window,
  cell_deg: Type.Number(),
  network: Type.Object({ name: Type.String(), nodes: Type.Integer(), edges: Type.Integer(), cells: Type.Integer({ description: 'Grid cells the sea-lane network crosses.' }) }),
  observed_cells: Type.Integer({ description: 'Cells with at least one position (on the network or not).' }),
  covered_cells: Type.Integer({ description: 'Network cells with at least one position.' }),
  share: Type.Number({ minimum: 0, maximum: 1 }),
  positions: Type.Object({ in_window: Type.Integer(), in_network_cells: Type.Integer(), simulated: Type.Integer() }),
});

export const CoverageHistoryQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 7, description: 'UTC days ending today (1-30, default 7; today is partial).' })) },
  { additionalProperties: false },
);
export const CoverageHistoryData = Type.Object({
  window: Type.Object({ days: Type.Integer(), since: Type.String(), until: Type.String() }),
  cell_deg: Type.Number(),
  network_cells: Type.Integer(),
  days: Type.Array(Type.Object({ day: Type.String(), positions: Type.Integer(), observed_cells: Type.Integer(), covered_cells: Type.Integer(), share: Share })),
});

export const CoverageGapsQuery = Type.Object(
  {
    hours: Hours(720, 24, 'Window of observed positions'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Gaps listed, largest first (1-100, default 20).' })),
    min_cells: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1, description: 'Smallest gap listed, in cells (default 1).' })),
  },
  { additionalProperties: false },
);
const NamedDistance = Type.Object({ key: Type.String(), name: Type.String(), distance_km: Type.Number() });
export const CoverageGapsData = Type.Object({
  window: Window,
  cell_deg: Type.Number(),
  network_cells: Type.Integer(),
  unobserved_cells: Type.Integer(),
  gap_count: Type.Integer(),
  min_cells: Type.Integer(),
  gaps: Type.Array(
    Type.Object({
      rank: Type.Integer(),
      cells: Type.Integer(),
      extent: Type.Object({ south: Type.Number(), west: Type.Number(), north: Type.Number(), east: Type.Number(), crosses_antimeridian: Type.Boolean() }),
      centre: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
      nearest_chokepoint: NamedDistance,
      nearest_port: Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()), distance_km: Type.Number() })),
      first_cell: Type.Object({ south: Type.Number(), west: Type.Number(), row: Type.Integer(), col: Type.Integer() }),
    }),
  ),
});

// ---- contracts -----------------------------------------------------------------------------------
export const ContractMatrixQuery = Type.Object(
  { status: Type.Optional(Type.Union([Type.Literal('implemented'), Type.Literal('planned')], { description: 'Only implemented or only planned operations.' })) },
  { additionalProperties: false },
);
export const ContractMatrixData = Type.Object({
  section: Type.Literal('routes'),
  counts: Type.Object({ operations: Type.Integer(), implemented: Type.Integer(), planned: Type.Integer(), listed: Type.Integer() }),
  operations: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      method: Type.String(),
      path: Type.String(),
      status: Type.Union([Type.Literal('implemented'), Type.Literal('planned')]),
      access: Type.String(),
      cost: Type.Number(),
      stability: Type.String(),
      parameters: Nullable(Type.Array(Type.Object({ name: Type.String(), required: Type.Boolean(), type: Type.String() })), 'Null for a planned operation.'),
      query_schema: Nullable(Type.Boolean()),
      response_schema: Nullable(Type.Boolean()),
      errors: Nullable(Type.Array(Type.String()), 'Declared error codes (besides the common access and validation ones).'),
      examples: Nullable(Type.Integer()),
    }),
  ),
});

export const SchemaCoverageQuery = Type.Object({}, { additionalProperties: false });
const Count = Type.Object({ count: Type.Integer(), share: Share });
export const SchemaCoverageData = Type.Object({
  section: Type.Literal('routes'),
  operations: Type.Integer(),
  implemented: Type.Integer(),
  planned: Type.Integer(),
  implemented_share: Share,
  with_query_schema: Count,
  with_response_schema: Count,
  with_examples: Count,
  with_declared_errors: Count,
  complete: Count,
  gaps: Type.Array(Type.Object({ operation_id: Type.String(), missing: Type.Array(Type.String()) })),
});

// ---- engine checks -------------------------------------------------------------------------------
export const BenchmarkQuery = Type.Object(
  {
    runs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_BENCHMARK_RUNS, default: 3, description: `Searches per pair, the median time reported (1-${MAX_BENCHMARK_RUNS}, default 3).` })),
  },
  { additionalProperties: false },
);
const Reference = Nullable(Type.Object({ min: Type.Number(), max: Type.Number() }), 'Reference distance range (nm); null when there is none.');
export const BenchmarkData = Type.Object({
  computed_at: Type.String(),
  cached: Type.Boolean(),
  age_seconds: Type.Integer(),
  runs_per_pair: Type.Integer(),
  tolerance_pct: Type.Number(),
  engine: Type.Object({ network: Type.String(), resolution_km: Type.Number(), nodes: Type.Integer(), edges: Type.Integer(), load_ms: Type.Number() }),
  wall_ms: Type.Number(),
  summary: Type.Object({
    pairs: Type.Integer(),
    with_reference: Type.Integer(),
    within_tolerance: Type.Integer(),
    share_within: Share,
    median_time_ms: Nullable(Type.Number(), 'Median over the pairs of their median search time.'),
  }),
  pairs: Type.Array(
    Type.Object({
      from: Type.String(),
      to: Type.String(),
      avoid: Nullable(Type.String()),
      label: Type.String(),
      source: Type.String({ description: 'Who published the reference distance (docs/routing.md, "Accuracy").' }),
      distance_nm: Nullable(Type.Number(), 'Null when the pair could not be routed (error).'),
      passages: Type.Array(Type.String()),
      reference_nm: Reference,
      deviation_pct: Nullable(Type.Number(), '0 inside the reference range, else the signed distance to its nearest bound, %.'),
      within_tolerance: Nullable(Type.Boolean(), 'Null without a reference; false when the pair could not be routed.'),
      time_ms: Nullable(Type.Object({ median: Type.Number(), min: Type.Number(), max: Type.Number(), runs: Type.Integer() })),
      error: Nullable(Type.Object({ code: Type.String(), message: Type.String() }), 'Why the pair could not be routed.'),
    }),
  ),
});

export const ReadinessQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 30, default: DEFAULT_READINESS_EVENT_DAYS, description: `Event layer check: days back from now (1-30, default ${DEFAULT_READINESS_EVENT_DAYS}).` }),
    ),
    max_age_seconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 604_800,
        default: DEFAULT_READINESS_MAX_AGE_SECONDS,
        description: `Data freshness check: the newest position at most this old (60-604800 s, default ${DEFAULT_READINESS_MAX_AGE_SECONDS}).`,
      }),
    ),
  },
  { additionalProperties: false },
);
const Check = Type.Object({
  name: Type.Union([Type.Literal('engine_loaded'), Type.Literal('port_table'), Type.Literal('event_layer'), Type.Literal('data_freshness')]),
  pass: Type.Boolean(),
  value: Nullable(Type.Number()),
  threshold: Type.Number(),
  comparison: Type.Union([Type.Literal('at_least'), Type.Literal('at_most')]),
  unit: Type.String(),
  detail: Type.String(),
});
export const ReadinessData = Type.Object({
  at: Type.String(),
  ready: Type.Boolean(),
  passed: Type.Integer(),
  total: Type.Integer(),
  parameters: Type.Object({ days: Type.Integer(), max_age_seconds: Type.Integer() }),
  checks: Type.Array(Check),
  snapshot_recorded: Type.Boolean({ description: 'A snapshot was stored for readiness-history (at most one a minute from requests).' }),
});

export const ReadinessHistoryQuery = Type.Object(
  {
    hours: Hours(720, 168, 'Window of snapshots'),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Snapshots listed, newest first (1-500, default 100).' })),
  },
  { additionalProperties: false },
);
export const ReadinessHistoryData = Type.Object({
  window: Window,
  snapshots_in_window: Type.Integer(),
  ready_snapshots: Type.Integer(),
  ready_share: Share,
  listed: Type.Integer(),
  snapshots: Type.Array(
    Type.Object({
      at: Type.String(),
      ready: Type.Boolean(),
      passed: Type.Integer(),
      total: Type.Integer(),
      origin: Type.Union([Type.Literal('request'), Type.Literal('job')]),
      checks: Type.Array(Check),
    }),
  ),
});

export const GateQuery = Type.Object({ hours: Hours(168, 24, 'Telemetry window (error rate; regression-watch compares it with the one before)') }, { additionalProperties: false });
const Criterion = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('no_data')]),
  value: Nullable(Type.Number()),
  threshold: Type.Number(),
  comparison: Type.Union([Type.Literal('at_least'), Type.Literal('at_most')]),
  detail: Type.String(),
});
export const ReleaseReadinessData = Type.Object({
  at: Type.String(),
  window: Type.Object({ hours: Type.Integer(), since: Type.String(), until: Type.String(), routes_requests: Type.Integer() }),
  verdict: Type.Union([Type.Literal('go'), Type.Literal('no_go'), Type.Literal('insufficient_data')]),
  passed: Type.Integer(),
  failed: Type.Integer(),
  no_data: Type.Integer(),
  criteria: Type.Array(Criterion),
});

const WindowStats = Type.Object({ requests: Type.Integer(), server_error_rate: Share, latency_p95_ms: Nullable(Type.Number()) });
export const RegressionWatchData = Type.Object({
  windows: Type.Object({
    hours: Type.Integer(),
    previous: Type.Object({ since: Type.String(), until: Type.String() }),
    latest: Type.Object({ since: Type.String(), until: Type.String() }),
    telemetry_records: Type.Integer(),
  }),
  thresholds: Type.Object({
    min_requests: Type.Integer(),
    latency_factor: Type.Number(),
    latency_min_increase_ms: Type.Number(),
    server_error_rate_increase: Type.Number(),
    benchmark_tolerance_pct: Type.Number(),
  }),
  regression_count: Type.Integer(),
  regressions: Type.Array(Type.Object({ kind: Type.String(), subject: Type.String() })),
  operations: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      latest: WindowStats,
      previous: WindowStats,
      compared: Type.Boolean({ description: 'Both windows hold at least min_requests requests.' }),
      latency_p95_change_ms: Nullable(Type.Number()),
      server_error_rate_change: Nullable(Type.Number()),
      regressions: Type.Array(Type.String()),
    }),
  ),
  benchmark: Type.Array(
    Type.Object({
      from: Type.String(),
      to: Type.String(),
      avoid: Nullable(Type.String()),
      distance_nm: Nullable(Type.Number()),
      reference_nm: Reference,
      deviation_pct: Nullable(Type.Number()),
      regressed: Type.Boolean(),
    }),
  ),
});

export const RolloutScoreData = Type.Object({
  at: Type.String(),
  window: Type.Object({ hours: Type.Integer() }),
  score: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
  grade: Nullable(Type.Union([Type.Literal('proceed'), Type.Literal('caution'), Type.Literal('hold')])),
  weight_measured: Type.Number(),
  components: Type.Array(
    Type.Object({
      name: Type.Union([Type.Literal('readiness'), Type.Literal('release'), Type.Literal('regression')]),
      weight: Type.Number(),
      score: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
      basis: Type.String(),
    }),
  ),
  release_verdict: Type.Union([Type.Literal('go'), Type.Literal('no_go'), Type.Literal('insufficient_data')]),
  regressions: Type.Integer(),
});

export const BudgetGuardQuery = Type.Object(
  {
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, default: 7, description: 'UTC days ending today (1-31, default 7; today is partial).' })),
    budget_units: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'Your budget in cost units for the routes section; the projection says when your rate reaches it.' }),
    ),
  },
  { additionalProperties: false },
);
export const BudgetGuardData = Type.Object({
  agent_id: Type.String(),
  window: Type.Object({
    days: Type.Integer(),
    since: Type.String(),
    until: Type.String(),
    elapsed_days: Type.Number(),
    rate_since: Type.String({ description: 'Where the spending pace is measured from: the latest of the window start, the agent registration and the start of its first day with spend.' }),
    rate_days: Type.Number({ description: 'Days from rate_since to until: the rate and the projection divide by these.' }),
  }),
  spend: Type.Object({ calls: Type.Integer(), cost_units: Type.Number(), cost_milli_units: Type.Integer() }),
  rate: Type.Object({ cost_units_per_day: Nullable(Type.Number()), calls_per_day: Nullable(Type.Number()) }),
  budget: Type.Object({
    budget_units: Nullable(Type.Number()),
    source: Type.Union([Type.Literal('budget_units'), Type.Literal('none')]),
    allowance: Type.Object({ cost_units_per_day: Nullable(Type.Number()), cost_units_per_month: Nullable(Type.Number()), enforced: Type.Boolean(), note: Type.String() }),
  }),
  projection: Nullable(
    Type.Object({ remaining_units: Type.Number(), reached: Type.Boolean(), days_to_budget: Nullable(Type.Number()), reach_at: Nullable(Type.String()) }),
    'Null without budget_units.',
  ),
  operations: Type.Array(Type.Object({ operation_id: Type.String(), calls: Type.Integer(), cost_milli: Type.Integer(), cost_units: Type.Number() })),
  days: Type.Array(Type.Object({ day: Type.String(), calls: Type.Integer(), cost_units: Type.Number() })),
});
