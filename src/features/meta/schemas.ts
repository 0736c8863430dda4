import { Type } from '@sinclair/typebox';
import { Nullable } from '../kit/schema-kit.js';

export const WindowQuery = Type.Object(
  { window_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, default: 24, description: 'Look-back window in hours (1-720, default 24).' })) },
  { additionalProperties: false },
);
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const ExamplesQuery = Type.Object(
  {
    operation_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        pattern: '^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$',
        description: 'Only the examples of these operations (operationIds, comma-separated), e.g. getRoutesDirect. Default: every operation.',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ServicesQuery = Type.Object(
  { service_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_.]+$', description: 'Select one service, e.g. agent.harbor.' })) },
  { additionalProperties: false },
);

const Latency = Type.Object({ p50: Nullable(Type.Number()), p95: Nullable(Type.Number()), p99: Nullable(Type.Number()), max: Nullable(Type.Number()) });
const OperationStats = Type.Object({
  requests: Type.Integer(),
  success_rate: Nullable(Type.Number()),
  server_error_rate: Nullable(Type.Number()),
  client_error_rate: Nullable(Type.Number()),
  latency_ms: Latency,
});
const TelemetryWindow = Type.Object({
  hours: Type.Integer(),
  since: Type.String({ format: 'date-time' }),
  until: Type.String({ format: 'date-time' }),
  sample_size: Type.Integer(),
  truncated: Type.Boolean(),
});

export const PingData = Type.Object({ pong: Type.Literal(true), service: Type.String(), version: Type.String(), time: Type.String({ format: 'date-time' }) });

export const StatusData = Type.Object({
  service: Type.String(),
  version: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  started_at: Type.String({ format: 'date-time' }),
  uptime_seconds: Type.Integer(),
  store: Type.Object({ dialect: Type.String(), healthy: Type.Boolean(), latency_ms: Nullable(Type.Number()) }),
  redis: Type.Object({ configured: Type.Boolean(), healthy: Type.Union([Type.Boolean(), Type.Null()]), latency_ms: Nullable(Type.Number()) }),
  telemetry: Type.Object({ enabled: Type.Boolean(), pending_records: Type.Integer() }),
  operations: Type.Object({ implemented: Type.Integer(), planned: Type.Integer() }),
  components: Type.Record(Type.String(), Type.Unknown()),
});

const CapabilityOperation = Type.Object({
  operation_id: Type.String(),
  method: Type.String(),
  path: Type.String(),
  stability: Type.String(),
  cost_units_hint: Type.Number(),
  access: Type.String(),
  scopes: Type.Array(Type.String()),
  summary: Type.String(),
  description: Type.String(),
});
const FlatCapability = Type.Object({
  operation_id: Type.String(),
  method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('DELETE')]),
  path: Type.String(),
  section: Type.String(),
  access: Type.Union([Type.Literal('P'), Type.Literal('K'), Type.Literal('U')]),
  auth: Type.Union([Type.Literal('none'), Type.Literal('agent_key'), Type.Literal('operator_or_ops_read')]),
  cost: Type.Number({ minimum: 0, description: 'x-cost-units-hint: what a successful call charges.' }),
  free: Type.Boolean({ description: 'true: the call charges nothing even on success.' }),
  stability: Type.Union([Type.Literal('stable'), Type.Literal('beta'), Type.Literal('experimental')]),
  extension: Type.Boolean({ description: 'true: a Bosun extension beyond the interface documents (x-bosun-extension in OpenAPI).' }),
  scopes: Type.Array(Type.String()),
  summary: Type.String(),
  description: Type.String(),
});
export const CapabilitiesData = Type.Object({
  service: Type.String(),
  version: Type.String(),
  openapi_url: Type.String(),
  openapi_bare_url: Type.String(),
  discovery: Type.Object(
    { llms_txt: Type.String(), llms_full_txt: Type.String(), agent_card: Type.String() },
    { description: 'The llms.txt documents and the A2A agent card, generated from the catalog.' },
  ),
  authentication: Type.Object({ scheme: Type.String(), header: Type.String(), register_url: Type.String(), access_classes: Type.Record(Type.String(), Type.String()) }),
  envelope_fields: Type.Array(Type.String()),
  counts: Type.Object({ implemented: Type.Integer(), planned: Type.Integer() }),
  sections: Type.Array(Type.Object({ section: Type.String(), operations: Type.Array(CapabilityOperation) })),
  capabilities: Type.Array(FlatCapability, { description: 'The same operations as a flat list, one entry per implemented operation.' }),
});

export const LimitsData = Type.Object({
  policies: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Type.String(),
      keying: Type.String(),
      per_operation: Type.Boolean(),
      error_code: Type.String(),
      windows: Type.Array(Type.Object({ window: Type.String(), seconds: Type.Integer(), limit: Type.Integer() })),
      operations: Type.Array(Type.String()),
    }),
  ),
  preview: Type.Object({
    api_key_required: Type.Boolean(),
    position_delay_seconds: Type.Integer(),
    minute_limit: Type.Integer(),
    daily_limit: Type.Integer(),
    max_search_results: Type.Integer(),
    limit_scope: Type.String(),
    premium_access: Type.String(),
  }),
  request: Type.Object({ body_limit_bytes: Type.Integer() }),
  headers: Type.Array(Type.String()),
});

export const ExamplesData = Type.Object({
  examples: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      summary: Type.String(),
      method: Type.String(),
      url: Type.String(),
      auth: Type.Union([Type.Literal('none'), Type.Literal('agent_key'), Type.Literal('operator_or_ops_read')]),
      body: Type.Optional(Type.Unknown()),
      expected_error: Type.Union([Type.String(), Type.Null()], { description: 'Set when the example shows a documented refusal of a default deployment (a disabled feature).' }),
      requires_scopes: Type.Optional(Type.Array(Type.String(), { description: 'Scopes the operator must grant first (ask with an operator request of category access_request).' })),
      requires: Type.Optional(Type.String({ description: 'Set when the example needs something to exist first; its ids are placeholders to replace.' })),
      curl: Type.String(),
    }),
  ),
});

export const PolicyData = Type.Object({
  attribution: Type.Object({ required: Type.Boolean(), text: Type.String() }),
  usage_tiers: Type.Array(Type.Object({ tier: Type.String(), who: Type.String(), limits: Type.String() })),
  data_delays: Type.Array(Type.Object({ data: Type.String(), delay_seconds: Type.Integer(), note: Type.String() })),
  retention: Type.Array(Type.Object({ data: Type.String(), days: Type.Union([Type.Integer(), Type.Null()]), note: Type.String() })),
  privacy: Type.Array(Type.String()),
  cost_units: Type.Object({ charged_on: Type.String(), free_operations: Type.Array(Type.String()) }),
});

export const QualityData = Type.Object({
  window: TelemetryWindow,
  overall: OperationStats,
  data_age_seconds: Type.Object({ p50: Nullable(Type.Number()), p95: Nullable(Type.Number()), max: Nullable(Type.Number()) }),
  operations: Type.Array(Type.Intersect([Type.Object({ operation_id: Type.String() }), OperationStats])),
});

export const TelemetrySummaryData = Type.Object({
  window: TelemetryWindow,
  requests: Type.Integer(),
  by_status_class: Type.Record(Type.String(), Type.Integer()),
  by_caller_kind: Type.Record(Type.String(), Type.Integer()),
  distinct_agents: Type.Integer(),
  cost_units_charged: Type.Number(),
  error_codes: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer() })),
  operations: Type.Array(Type.Object({ operation_id: Type.String(), requests: Type.Integer(), errors: Type.Integer(), cost_units: Type.Number() })),
  pending_records: Type.Integer(),
});

export const QuickstartData = Type.Object({
  base_url: Type.String(),
  steps: Type.Array(
    Type.Object({
      step: Type.Integer(),
      title: Type.String(),
      method: Type.String(),
      url: Type.String(),
      auth: Type.String(),
      body: Type.Optional(Type.Unknown()),
      expect: Type.String(),
    }),
  ),
  documents: Type.Record(Type.String(), Type.String()),
});

export const FeatureFlagsData = Type.Object({
  flags: Type.Array(Type.Object({ flag: Type.String(), enabled: Type.Boolean(), env: Type.String(), effect: Type.String() })),
});

const ServiceSchema = Type.Object({
  service_id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: Type.Union([Type.Literal('available'), Type.Literal('partial'), Type.Literal('planned')]),
  operations_implemented: Type.Integer(),
  operations_planned: Type.Integer(),
  operations: Type.Array(Type.Object({ operation_id: Type.String(), method: Type.String(), path: Type.String(), stability: Type.String() })),
  links: Type.Record(Type.String(), Type.String()),
});
export const ServicesData = Type.Object({ services: Type.Array(ServiceSchema) });

export const ConnectorsData = Type.Object({
  connectors: Type.Array(
    Type.Object({
      connector_id: Type.String(),
      kind: Type.String(),
      status: Type.Union([Type.Literal('available'), Type.Literal('planned')]),
      url: Type.String(),
      description: Type.String(),
    }),
  ),
});

export const OpenApiDocument = Type.Object({ openapi: Type.Literal('3.1.0'), info: Type.Object({ version: Type.String() }), paths: Type.Record(Type.String(), Type.Unknown()) });
