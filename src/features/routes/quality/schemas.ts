import { Type, type TProperties } from '@sinclair/typebox';
import { Nullable } from '../../kit/schema-kit.js';

const Num = (description?: string) => Nullable(Type.Number(), description);
const Share = (description?: string) => Nullable(Type.Number({ minimum: 0, maximum: 1 }), description);
const Score = (description?: string) => Nullable(Type.Number({ minimum: 0, maximum: 100 }), description);
const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down'), Type.Literal('no_data')]);
const Rule = Type.Union([Type.Literal('server_error_rate'), Type.Literal('latency_p95'), Type.Literal('fallback_share')]);
const Severity = Type.Union([Type.Literal('warning'), Type.Literal('critical')]);

export const QualityQuery = Type.Object(
  {
    hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'Window back from now in hours (default 24, at most 720).' })),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, description: 'Window back from now in days (at most 30); instead of hours.' })),
    bucket_minutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 1440, description: 'Bucket length in minutes (default 60); at most 720 buckets in the window.' })),
    operation: Type.Optional(
      Type.String({ minLength: 1, maxLength: 80, description: 'Only this routes operation: its operation id (getRoutesDirect) or its path name (direct, with-via, summary/latest).' }),
    ),
  },
  { additionalProperties: false },
);

const Window = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    hours: Type.Integer(),
    bucket_minutes: Type.Integer(),
    operation: Nullable(Type.String(), 'The operation filter (operation id), null for every routes operation.'),
    requests: Type.Integer({ description: 'Requests recorded in the window.' }),
    truncated: Type.Boolean({ description: 'The window held more than 200,000 records: the newest were read.' }),
  },
  { description: 'The window read: [from, to], to = now.' },
);

/** Every answer: the window, then the view's fields. */
const view = <P extends TProperties>(properties: P) => Type.Object({ window: Window, ...properties });

const Latency = Type.Object({ p50: Num(), p90: Num(), p95: Num(), p99: Num(), max: Num(), mean: Num() }, { description: 'Latency in ms, nearest-rank percentiles.' });
const CacheCounts = Type.Object({
  hits: Type.Integer(),
  misses: Type.Integer({ description: 'Answers computed and stored (inserts).' }),
  evictions: Type.Integer({ description: 'Inserts that evicted the least recently used answer.' }),
  hit_ratio: Share('hits / (hits + misses); null without cacheable requests.'),
});
const ProcessCache = Type.Object(
  { entries: Type.Integer(), capacity: Type.Integer(), hits: Type.Integer(), misses: Type.Integer(), evictions: Type.Integer(), clears: Type.Integer() },
  { description: 'The route answer cache of the process that answered, since it started.' },
);
const measures = {
  requests: Type.Integer(),
  server_errors: Type.Integer(),
  client_errors: Type.Integer(),
  availability: Share('Share of requests without a 5xx answer.'),
  success_rate: Share('Share of 2xx/3xx answers.'),
  server_error_rate: Share(),
  client_error_rate: Share(),
  latency_attainment: Share('Share of requests within their operation latency SLO.'),
  fallback_share: Share('Share of answers produced by a documented fallback.'),
  cache: CacheCounts,
  quality_score: Score('100 × (0.5 availability + 0.3 latency attainment + 0.2 (1 − fallback share)).'),
  latency_ms: Latency,
};
const OperationId = Type.String({ description: 'A routes operation id.' });

export const QualityData = view({ overall: Type.Object(measures), operations: Type.Array(Type.Object({ operation_id: OperationId, ...measures, latency_slo_ms: Type.Number() })) });

const PerfRow = Type.Object({ operation_id: Nullable(OperationId), requests: Type.Integer(), latency_ms: Latency, latency_slo_ms: Num(), latency_attainment: Share() });
export const PerfData = view({ overall: PerfRow, operations: Type.Array(PerfRow) });

const Part = { requests: Type.Integer(), latency_ms: Latency };
export const PerfBreakdownData = view({
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      requests: Type.Integer(),
      by_status_class: Type.Array(Type.Object({ status_class: Type.String(), ...Part })),
      by_cache: Type.Array(Type.Object({ cache: Type.String({ description: 'hit, miss, miss_evict, or none (no cache).' }), ...Part })),
    }),
  ),
});

export const LatencyTrendData = view({
  buckets: Type.Array(Type.Object({ start: Type.String(), requests: Type.Integer(), p50_ms: Num(), p95_ms: Num(), p99_ms: Num(), max_ms: Num(), over_slo: Type.Integer() })),
});

const EfficiencyRow = Type.Object({
  operation_id: Nullable(OperationId),
  cacheable_requests: Type.Integer(),
  ...CacheCounts.properties,
  latency_p50_hit_ms: Num(),
  latency_p50_miss_ms: Num(),
  time_saved_ms: Num('hits × (p50 of misses − p50 of hits).'),
});
export const CacheEfficiencyData = view({ overall: EfficiencyRow, operations: Type.Array(EfficiencyRow), process_cache: ProcessCache });

export const CacheHitTrendData = view({ buckets: Type.Array(Type.Object({ start: Type.String(), ...CacheCounts.properties })) });

const Ages = { hits: Type.Integer(), age_seconds: Type.Object({ p50: Num(), p95: Num(), max: Num(), mean: Num() }) };
export const CacheStalenessData = view({
  served_from_cache: Type.Object(Ages),
  operations: Type.Array(Type.Object({ operation_id: OperationId, ...Ages })),
  entries_now: Type.Object(
    { entries: Type.Integer(), oldest_age_seconds: Num(), newest_age_seconds: Num(), median_age_seconds: Num() },
    { description: 'Ages of the answers now held by the answering process.' },
  ),
});

const TurnoverRow = { inserts: Type.Integer(), evictions: Type.Integer(), hits: Type.Integer(), hit_ratio: Share() };
export const CacheTurnoverData = view({ totals: Type.Object(TurnoverRow), process_cache: ProcessCache, buckets: Type.Array(Type.Object({ start: Type.String(), ...TurnoverRow })) });

const FallbackRow = { requests: Type.Integer(), fallbacks: Type.Integer(), fallback_share: Share(), by_reason: Type.Record(Type.String(), Type.Integer()) };
export const FallbackTrendData = view({ totals: Type.Object(FallbackRow), buckets: Type.Array(Type.Object({ start: Type.String(), ...FallbackRow })) });

const Targets = Type.Object({ availability: Type.Number(), latency_attainment: Type.Number() });
export const SlaBreachesData = view({
  targets: Targets,
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      latency_slo_ms: Type.Number(),
      requests: Type.Integer(),
      over_slo: Type.Integer(),
      over_slo_share: Share(),
      latency_met: Nullable(Type.Boolean()),
      worst_ms: Num(),
      server_errors: Type.Integer(),
      availability: Share(),
      availability_met: Nullable(Type.Boolean()),
    }),
  ),
  breaches: Type.Array(
    Type.Object({
      at: Type.String(),
      operation_id: OperationId,
      latency_ms: Type.Number(),
      latency_slo_ms: Type.Number(),
      status: Type.Integer(),
      error_code: Nullable(Type.String()),
      kind: Type.Union([Type.Literal('server_error'), Type.Literal('latency')]),
    }),
    { description: 'The newest 50 requests that failed with 5xx or answered over their latency SLO, newest first.' },
  ),
});

const Slo = {
  requests: Type.Integer(),
  availability: Share(),
  availability_met: Nullable(Type.Boolean()),
  latency_attainment: Share(),
  latency_met: Nullable(Type.Boolean()),
  error_budget: Type.Object(
    { allowed_failures: Type.Number(), failures: Type.Integer(), remaining: Num('1 − failures / allowed failures; negative when overspent.') },
    { description: 'Allowed 5xx answers = (1 − availability target) × requests.' },
  ),
  latency_budget: Type.Object({ allowed_slow: Type.Number(), slow: Type.Integer(), remaining: Num() }, { description: 'Allowed answers over the latency SLO = (1 − latency target) × requests.' }),
};
export const SloSnapshotData = view({
  targets: Type.Object({ ...Targets.properties, latency_slo_ms: Type.Record(Type.String(), Type.Number()) }),
  overall: Type.Object(Slo),
  operations: Type.Array(Type.Object({ operation_id: OperationId, latency_slo_ms: Type.Number(), ...Slo })),
});

const ReliabilityRow = Type.Object({
  operation_id: OperationId,
  requests: Type.Integer(),
  availability: Share(),
  success_rate: Share(),
  client_error_rate: Share(),
  latency_attainment: Share(),
  buckets: Type.Object({ with_requests: Type.Integer(), ok: Type.Integer(), degraded: Type.Integer(), down: Type.Integer() }),
  ok_bucket_share: Share(),
  longest_unhealthy_streak_buckets: Type.Integer({ description: 'Most consecutive degraded or down buckets (buckets without requests do not break a streak).' }),
  last_server_error_at: Nullable(Type.String()),
  reliability_index: Score(),
});
export const EndpointReliabilityData = view({ operations: Type.Array(ReliabilityRow) });

export const ReliabilityIndexData = view({
  index: Score('100 × (0.6 availability + 0.2 latency attainment + 0.2 share of ok buckets); null without requests.'),
  components: Type.Object({ availability: Share(), latency_attainment: Share(), ok_bucket_share: Share() }),
  weights: Type.Object({ availability: Type.Number(), latency_attainment: Type.Number(), ok_buckets: Type.Number() }),
  operations: Type.Array(Type.Object({ operation_id: OperationId, requests: Type.Integer(), index: Score(), availability: Share(), latency_attainment: Share(), ok_bucket_share: Share() })),
});

export const ReliabilityDriversData = view({
  unreliable_requests: Type.Integer({ description: 'Requests answered with 5xx or over their latency SLO.' }),
  requests: Type.Integer(),
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      requests: Type.Integer(),
      unreliable: Type.Integer(),
      share_of_unreliable: Share(),
      server_errors: Type.Integer(),
      slow: Type.Integer({ description: 'Not 5xx, but over the latency SLO.' }),
    }),
  ),
  error_codes: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer(), share_of_server_errors: Share(), operations: Type.Array(Type.String()) })),
});

export const ErrorCatalogData = view({
  codes: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer(), statuses: Type.Array(Type.Integer()), operations: Type.Array(Type.String()), last_seen_at: Type.String() })),
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      declared: Type.Array(Type.String(), { description: "The operation's declared error codes (catalog)." }),
      seen: Type.Array(Type.String()),
      undeclared_seen: Type.Array(Type.String(), { description: 'Seen, neither declared nor a pipeline code.' }),
    }),
  ),
  pipeline_codes: Type.Array(Type.String(), { description: 'Codes any operation may answer (access, limits, validation, faults).' }),
});

export const StatusTimelineData = view({
  current: Status,
  counts: Type.Object({ ok: Type.Integer(), degraded: Type.Integer(), down: Type.Integer(), no_data: Type.Integer() }),
  buckets: Type.Array(Type.Object({ start: Type.String(), status: Status, requests: Type.Integer(), server_error_rate: Share(), latency_p95_ms: Num(), alerts: Type.Integer() })),
});

const AlertView = Type.Object({
  bucket_start: Type.String(),
  operation_id: OperationId,
  key: Type.String({ description: 'rule:operation_id' }),
  rule: Rule,
  severity: Severity,
  value: Type.Number(),
  threshold: Type.Number(),
  requests: Type.Integer(),
  message: Type.String(),
});
export const AlertsFeedData = view({
  rules: Type.Array(Type.Object({ rule: Rule, warning: Type.Number(), critical: Type.Number(), description: Type.String() })),
  alerts: Type.Array(AlertView),
});

export const AlertsSummaryData = view({
  total: Type.Integer(),
  by_rule: Type.Record(Type.String(), Type.Integer()),
  by_severity: Type.Object({ warning: Type.Integer(), critical: Type.Integer() }),
  by_operation: Type.Record(Type.String(), Type.Integer()),
  buckets_with_alerts: Type.Integer(),
  firing_now: Type.Array(AlertView),
});

export const AlertKeysTrendData = view({
  buckets: Type.Array(Type.Object({ start: Type.String(), total: Type.Integer(), by_rule: Type.Record(Type.String(), Type.Integer()), keys: Type.Array(Type.String()) })),
});

export const IncidentQueueData = view({
  open: Type.Integer(),
  closed: Type.Integer(),
  incidents: Type.Array(
    Type.Object({
      id: Type.String(),
      key: Type.String(),
      rule: Rule,
      operation_id: OperationId,
      started_at: Type.String(),
      ended_at: Nullable(Type.String(), 'End of the last alerting bucket; null while open.'),
      open: Type.Boolean(),
      buckets: Type.Integer(),
      peak_severity: Severity,
      peak_value: Type.Number(),
    }),
  ),
});

export const QualityHistoryData = view({
  buckets: Type.Array(
    Type.Object({
      start: Type.String(),
      requests: Type.Integer(),
      availability: Share(),
      success_rate: Share(),
      server_error_rate: Share(),
      latency_p50_ms: Num(),
      latency_p95_ms: Num(),
      latency_attainment: Share(),
      cache_hit_ratio: Share(),
      fallback_share: Share(),
      quality_score: Score(),
    }),
  ),
});

export const QualityScoreTrendData = view({
  weights: Type.Object({ availability: Type.Number(), latency_attainment: Type.Number(), no_fallback: Type.Number() }),
  score: Score('Over the whole window.'),
  summary: Type.Object({ min: Score(), max: Score(), mean: Score(), change: Num('Last bucket score − first bucket score (buckets with requests).') }),
  buckets: Type.Array(Type.Object({ start: Type.String(), requests: Type.Integer(), score: Score() })),
});

export const OpsDigestData = view({
  headline: Type.Object({
    requests: Type.Integer(),
    availability: Share(),
    quality_score: Score(),
    error_budget_remaining: Num(),
    alerts: Type.Integer(),
    open_incidents: Type.Integer(),
    status_now: Status,
  }),
  lowest_scoring_operation: Nullable(Type.Object({ operation_id: OperationId, quality_score: Type.Number() })),
  top_error_code: Nullable(Type.Object({ code: Type.String(), count: Type.Integer() })),
  lines: Type.Array(Type.String()),
});

export const OpsScorecardData = view({
  grades: Type.Array(Type.Object({ grade: Type.String(), min_score: Type.Number() })),
  overall: Type.Object({ quality_score: Score(), grade: Nullable(Type.String()) }),
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      requests: Type.Integer(),
      availability: Share(),
      latency_attainment: Share(),
      fallback_share: Share(),
      quality_score: Score(),
      grade: Nullable(Type.String()),
    }),
  ),
});

export const OpsOverviewData = view({
  status_now: Status,
  totals: Type.Object(measures),
  slo: Type.Object(Slo),
  alerts_firing: Type.Integer(),
  open_incidents: Type.Integer(),
  cache: Type.Object({ ...CacheCounts.properties, process_cache: ProcessCache }),
  fallbacks: Type.Object({ count: Type.Integer(), share: Share() }),
  busiest: Type.Array(Type.Object({ operation_id: OperationId, requests: Type.Integer() })),
});

const Spread = Type.Object({ mean: Num(), stddev: Num(), cv: Num('stddev / mean; null when the mean is 0.') });
const VolatilityRow = Type.Object({
  operation_id: Nullable(OperationId),
  requests: Type.Integer(),
  buckets_with_requests: Type.Integer(),
  requests_per_bucket: Spread,
  latency_p95_ms: Spread,
  server_error_rate: Spread,
});
export const OpsVolatilityData = view({ overall: VolatilityRow, operations: Type.Array(VolatilityRow) });

export const OpsControlTowerData = view({
  status_now: Status,
  operations: Type.Array(
    Type.Object({
      operation_id: OperationId,
      status_now: Status,
      requests: Type.Integer(),
      availability: Share(),
      latency_p95_ms: Num(),
      latency_slo_ms: Type.Number(),
      error_budget_remaining: Num(),
      quality_score: Score(),
      alerts_firing: Type.Integer(),
      open_incidents: Type.Integer(),
    }),
  ),
});

export const OpsRecommendationsData = view({
  recommendations: Type.Array(
    Type.Object({
      priority: Type.Integer({ minimum: 1, maximum: 3, description: '1 first.' }),
      rule: Type.String(),
      operation_id: Nullable(OperationId),
      action: Type.String(),
      evidence: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String(), Type.Null()])),
    }),
  ),
});

export const OpsHealthData = view({
  health: Type.Union([Type.Literal('healthy'), Type.Literal('degraded'), Type.Literal('unhealthy'), Type.Literal('unknown')]),
  failed_checks: Type.Integer(),
  checks: Type.Array(Type.Object({ check: Type.String(), ok: Nullable(Type.Boolean(), 'null: not measurable (no requests).'), detail: Type.String() })),
});
