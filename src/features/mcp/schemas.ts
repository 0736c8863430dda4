import { Type } from '@sinclair/typebox';
import { DISPATCH_RETENTION_DAYS } from './webmcp-service.js';
import { Nullable } from '../kit/schema-kit.js';

const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

const ToolAnnotations = Type.Object({
  title: Type.String(),
  readOnlyHint: Type.Boolean({ description: 'true for GET operations.' }),
  destructiveHint: Type.Boolean({ description: 'true for DELETE operations.' }),
  idempotentHint: Type.Boolean({ description: 'false for POST operations.' }),
  openWorldHint: Type.Boolean({ description: 'true when the answer comes from the outside world (AIS feeds, ports, sea conditions), not from records of this service.' }),
});

const ToolOperationMeta = Type.Object({
  operation_id: Type.String(),
  method: Type.String(),
  path: Type.String(),
  access: Type.String({ description: 'P, K or U.' }),
  scopes: Type.Array(Type.String()),
  cost_units_hint: Type.Number({ description: 'x-cost-units-hint of OpenAPI.' }),
  free: Type.Boolean({ description: 'Charges nothing even on success.' }),
  stability: Type.String(),
  path_parameters: Type.Array(Type.String()),
  query_parameters: Type.Array(Type.String()),
  has_body: Type.Boolean(),
  toolset: Type.String({ description: 'The toolset the tool belongs to (list_available_toolsets over MCP; toolsets below).' }),
});

export const Tool = Type.Object({
  name: Type.String({ description: 'The operationId.' }),
  title: Type.String(),
  description: Type.String(),
  inputSchema: JsonObject('JSON Schema of the arguments: path and query parameters by name (their OpenAPI schemas), the JSON body as "body".'),
  annotations: ToolAnnotations,
  _meta: Type.Object({ 'bosun/operation': ToolOperationMeta }),
});

export const ToolsData = Type.Object({
  tools: Type.Array(Tool, { description: 'Exactly what MCP tools/list answers at /mcp.' }),
  count: Type.Integer(),
  excluded: Type.Array(Type.Object({ operation_id: Type.String(), reason: Type.String() }), { description: 'Implemented operations without a tool, and why.' }),
  toolsets: Type.Array(
    Type.Object({
      name: Type.String(),
      title: Type.String(),
      description: Type.String(),
      default: Type.Boolean({ description: 'Listed by /mcp when the client names no toolset.' }),
      tool_count: Type.Integer({ description: 'Tools of this toolset you may see.' }),
    }),
    { description: "The toolsets you may choose with /mcp?toolsets=… (or the X-MCP-Toolsets header) and with this operation's toolsets parameter." },
  ),
});

export const ToolsQuery = Type.Object(
  {
    toolsets: Type.Optional(
      Type.String({
        maxLength: 400,
        description: 'Comma-separated toolset names, "default" or "all" (default: all). The same selection as /mcp?toolsets=…; tools/list then answers these tools and the three meta-tools.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BootstrapData = Type.Object({
  mcp: Type.Object({
    url: Type.String(),
    transport: Type.Literal('streamable-http'),
    protocol_version: Type.String({ description: 'The newest MCP protocol version the server speaks (older ones are negotiated).' }),
    session_mode: Type.Literal('stateless', { description: 'No Mcp-Session-Id: every POST carries its own Authorization.' }),
    tool_count: Type.Integer(),
  }),
  auth: Type.Object({
    scheme: Type.Literal('bearer'),
    header: Type.Literal('Authorization'),
    format: Type.String(),
    without_key: Type.String(),
    register_url: Type.String(),
  }),
  openapi_url: Type.String(),
  quickstart_url: Type.String(),
  contract: Type.Object({ kind: Type.String(), version: Type.String(), url: Type.String() }),
  tools_url: Type.String(),
  playbooks_url: Type.String(),
  dispatch_url: Type.String(),
  stdio: Type.Object({ command: Type.String(), note: Type.String() }),
  service_version: Type.String(),
});

const CallCounts = Type.Object({ mcp: Type.Integer(), dispatch: Type.Integer() });

export const StatusData = Type.Object({
  server: Type.Object({
    state: Type.Union([Type.Literal('serving'), Type.Literal('not_started')], { description: 'serving once the HTTP app mounted /mcp.' }),
    endpoint: Type.String(),
    transport: Type.Literal('streamable-http'),
    protocol_version: Type.String(),
    session_mode: Type.Literal('stateless'),
    started_at: Type.String(),
  }),
  tools: Type.Integer(),
  resources: Type.Integer(),
  prompts: Type.Integer(),
  sessions: Type.Object({
    mode: Type.Literal('stateless'),
    active: Type.Integer({ description: 'Always 0: no session outlives its request.' }),
    initialized_since_start: Type.Integer({ description: 'MCP initialize requests this process answered.' }),
    requests_since_start: Type.Integer({ description: 'MCP requests this process answered.' }),
  }),
  calls: Type.Object({
    since_start: CallCounts,
    last_24h: Type.Object({ mcp: Type.Integer(), dispatch: Type.Integer(), errors: Type.Integer() }, { description: 'Recorded tool calls of every process on this store.' }),
  }),
});

const PlaybookStep = Type.Object({
  tool: Type.String(),
  arguments: JsonObject('The tool arguments; {"$from":{"step":N,"pointer":"/data/…"}} takes a value from step N\'s answer.'),
  credential: Type.Unknown({ description: '"none", "caller" (your agent key), or a {"$from":…} reference to a key an earlier step returned.' }),
  why: Type.String(),
});

export const PlaybooksData = Type.Object({
  playbooks: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      description: Type.String(),
      arguments: Type.Array(
        Type.Object({ name: Type.String(), description: Type.String(), default: Type.String({ description: 'Used when the prompt is asked for without it; the steps below show it.' }) }),
        {
          description: 'Arguments of the MCP prompt of the same name (prompts/get arguments).',
        },
      ),
      prompt: Type.String({ description: 'The MCP prompt of the same name, with the default arguments.' }),
      steps: Type.Array(PlaybookStep, { description: 'The steps with the default arguments filled in.' }),
    }),
  ),
  reference_syntax: Type.String(),
});

export const DispatchBody = Type.Object(
  {
    tool: Type.String({ minLength: 1, maxLength: 128, description: 'Tool name (an operationId from GET /v1/webmcp/tools).' }),
    arguments: Type.Optional(JsonObject('The tool arguments (its inputSchema); default {}.')),
  },
  { additionalProperties: false },
);

export const DispatchData = Type.Object({
  tool: Type.String(),
  operation: Type.Object({ method: Type.String(), path: Type.String() }),
  http_status: Type.Integer({ description: "The status of the tool's own answer." }),
  inner_request_id: Nullable(Type.String()),
  result: Type.Unknown({ description: 'The operation answer: its envelope (status ok or error), or the bare document it serves.' }),
});

const Rates = Type.Object({
  calls: Type.Integer(),
  success_rate: Nullable(Type.Number()),
  client_error_rate: Nullable(Type.Number()),
  server_error_rate: Nullable(Type.Number()),
  latency_ms: Type.Object({ p50: Nullable(Type.Number()), p95: Nullable(Type.Number()), max: Nullable(Type.Number()) }),
});

export const HealthQuery = Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720, description: 'Window in hours (default 24).' })) }, { additionalProperties: false });

export const HealthData = Type.Object({
  window: Type.Object({ hours: Type.Integer(), since: Type.String(), until: Type.String(), sample_size: Type.Integer(), truncated: Type.Boolean() }),
  overall: Rates,
  channels: Type.Object({ dispatch: Rates, mcp: Rates }),
  tools: Type.Array(Type.Composite([Type.Object({ tool: Type.String() }), Rates])),
  error_codes: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer() })),
});

export const AuditQuery = Type.Object(
  {
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    tool: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    channel: Type.Optional(Type.Union([Type.Literal('dispatch'), Type.Literal('mcp')])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Default 50.' })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);

export const AuditData = Type.Object({
  items: Type.Array(
    Type.Object({
      dispatch_id: Type.String(),
      at: Type.String(),
      channel: Type.String(),
      tool: Type.String(),
      caller: Type.Object({ kind: Type.String(), agent_id: Nullable(Type.String()) }),
      request_id: Type.String(),
      inner_request_id: Nullable(Type.String()),
      http_status: Type.Integer(),
      outcome: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
      error_code: Nullable(Type.String()),
      latency_ms: Type.Number(),
      cost_units: Type.Number(),
      arguments: JsonObject('The arguments with credentials and secrets redacted, long text cut, and write bodies reduced to their field names.'),
    }),
  ),
  next_cursor: Nullable(Type.String()),
  retention_days: Type.Literal(DISPATCH_RETENTION_DAYS),
});
