import type { Caller } from '../../access/principals.js';
import { SAMPLE_VESSEL } from '../../fleet/sample-vessel.js';
import type { CatalogView } from '../../catalog/catalog.js';
import { CALLER_AGENT_ID, entryHeading, type CatalogEntry } from '../../catalog/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import type { StatusReporter } from '../../observability/status.js';
import { ATTRIBUTION_TEXT } from '../../http/envelope.js';
import { DISCOVERY_DOCUMENTS } from '../../catalog/openapi.js';
import { LIMIT_POLICIES } from '../../limits/policies.js';
import { AUDIT_RETENTION_DAYS } from '../audit/audit-service.js';
import { TELEMETRY_RETENTION_DAYS } from '../telemetry/telemetry-service.js';
import { PREVIEW } from '../kit/preview-constants.js';

/** What the meta operations read: a few settings, the catalog, and probes of the backing stores. */
export interface MetaDeps {
  config: Pick<Config, 'version' | 'telemetry' | 'autoSandbox' | 'redis' | 'trustProxy' | 'bodyLimitBytes'>;
  catalog: CatalogView;
  clock: Clock;
  startedAt: number;
  statusReporters: readonly StatusReporter[];
  /** Extra limit policies attached to operations by whoever embeds Bosun. */
  ratePolicyOverrides: Readonly<Record<string, readonly string[]>>;
  storeDialect: string;
  /** Round trip to the store in ms; throws when the store cannot be reached. */
  pingStore(): Promise<number>;
  /** True when Redis answered; null when no Redis is configured. */
  pingRedis: (() => Promise<boolean>) | null;
  pendingTelemetry(): number;
}

/** The meta and discovery documents of this deployment. */
export function createMetaService(deps: MetaDeps) {
  return {
    version: deps.config.version,
    status: () => serviceStatus(deps),
    capabilities: (baseUrl: string) => capabilities(deps, baseUrl),
    limits: () => limits(deps),
    examples: (baseUrl: string, caller: Caller, operationIds?: readonly string[]) => examples(deps, baseUrl, caller, operationIds),
    policy: () => policy(deps),
    quickstart: (baseUrl: string, sampleVesselName: string | null = null) => quickstart(deps, baseUrl, sampleVesselName),
    featureFlags: () => featureFlags(deps),
    llmConnectors: (baseUrl: string) => llmConnectors(deps, baseUrl),
  };
}
export type MetaService = ReturnType<typeof createMetaService>;

const ACCESS_LABEL: Record<CatalogEntry['access'], 'none' | 'agent_key' | 'operator_or_ops_read'> = {
  P: 'none',
  K: 'agent_key',
  U: 'operator_or_ops_read',
};

async function serviceStatus(deps: MetaDeps) {
  const now = () => deps.clock.now();
  let storeLatency: number | null = null;
  let storeHealthy = true;
  try {
    storeLatency = await deps.pingStore();
  } catch {
    storeHealthy = false;
  }
  let redisHealthy: boolean | null = null;
  let redisLatency: number | null = null;
  if (deps.pingRedis) {
    const start = performance.now();
    try {
      redisHealthy = await deps.pingRedis();
      redisLatency = performance.now() - start;
    } catch {
      redisHealthy = false;
    }
  }
  const components: Record<string, unknown> = {};
  for (const reporter of deps.statusReporters) components[reporter.name] = reporter.report();
  const round = (v: number | null) => (v === null ? null : Math.round(v * 100) / 100);
  return {
    service: 'bosun',
    version: deps.config.version,
    status: storeHealthy && redisHealthy !== false ? ('ok' as const) : ('degraded' as const),
    started_at: new Date(deps.startedAt).toISOString(),
    uptime_seconds: Math.max(0, Math.floor((now() - deps.startedAt) / 1000)),
    store: { dialect: deps.storeDialect, healthy: storeHealthy, latency_ms: round(storeLatency) },
    redis: { configured: deps.pingRedis !== null, healthy: redisHealthy, latency_ms: round(redisLatency) },
    telemetry: { enabled: deps.config.telemetry, pending_records: deps.pendingTelemetry() },
    operations: { implemented: deps.catalog.implemented.length, planned: deps.catalog.planned.length },
    components,
  };
}

function capabilities(deps: MetaDeps, baseUrl: string) {
  const sections = new Map<string, ReturnType<typeof describeOperation>[]>();
  const flat: ReturnType<typeof flatCapability>[] = [];
  for (const { entry, route } of deps.catalog.discoverable) {
    const list = sections.get(entry.section) ?? [];
    list.push(describeOperation(entry, route.description));
    sections.set(entry.section, list);
    flat.push(flatCapability(entry, route.description));
  }
  return {
    service: 'bosun',
    version: deps.config.version,
    openapi_url: `${baseUrl}/.well-known/openapi.json`,
    openapi_bare_url: `${baseUrl}/openapi.json`,
    discovery: {
      llms_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}`,
      llms_full_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsFullTxt}`,
      agent_card: `${baseUrl}${DISCOVERY_DOCUMENTS.agentCard}`,
    },
    authentication: {
      scheme: 'bearer',
      header: 'Authorization: Bearer <api_key>',
      register_url: `${baseUrl}/v1/agents/register`,
      access_classes: {
        P: 'no credential needed; a valid key is accepted and identifies the caller',
        K: 'agent API key required, plus the scopes listed per operation',
        U: 'restricted: the operator token, or an agent key holding the operator-granted scope ops:read',
      },
    },
    envelope_fields: ['status', 'request_id', 'as_of', 'freshness_seconds', 'cost_units', 'policy', 'confidence', 'quality_flags', 'data', 'errors'],
    counts: { implemented: deps.catalog.discoverable.length, planned: deps.catalog.planned.length },
    sections: [...sections].map(([section, operations]) => ({ section, operations })),
    capabilities: flat,
  };
}

/** One entry of the flat data.capabilities[] list: one per implemented operation, the fields clients index by. */
function flatCapability(entry: CatalogEntry, description: string) {
  return {
    ...entryHeading(entry),
    auth: ACCESS_LABEL[entry.access],
    cost: entry.cost,
    free: entry.free === true,
    stability: entry.stability,
    extension: entry.extension === true,
    scopes: entry.access === 'U' ? ['ops:read'] : [...entry.scopes],
    summary: entry.summary,
    description,
  };
}

function describeOperation(entry: CatalogEntry, description: string) {
  return {
    operation_id: entry.operationId,
    method: entry.method,
    path: entry.path,
    stability: entry.stability,
    cost_units_hint: entry.cost,
    access: entry.access,
    scopes: [...entry.scopes],
    summary: entry.summary,
    description,
  };
}

function limits(deps: MetaDeps) {
  const operationsUsing = (name: string) =>
    deps.catalog.discoverable
      .filter(({ entry }) => entry.ratePolicies?.includes(name as never) || deps.ratePolicyOverrides[entry.operationId]?.includes(name as never))
      .map(({ entry }) => entry.operationId);
  return {
    policies: Object.values(LIMIT_POLICIES).map((p) => ({
      name: p.name,
      description: p.description,
      keying: p.keying,
      per_operation: p.perOperation,
      error_code: p.code,
      windows: p.windows.map((w) => ({ window: w.name, seconds: w.windowMs / 1000, limit: w.limit })),
      operations: p.name === 'anonymous_default' ? ['(every call without a credential)'] : p.name === 'agent_default' ? ['(every call with an agent key)'] : operationsUsing(p.name),
    })),
    preview: {
      api_key_required: PREVIEW.apiKeyRequired,
      position_delay_seconds: PREVIEW.positionDelaySeconds,
      minute_limit: PREVIEW.minuteLimit,
      daily_limit: PREVIEW.dailyLimit,
      max_search_results: PREVIEW.maxSearchResults,
      limit_scope: PREVIEW.limitScope,
      premium_access: PREVIEW.premiumAccess,
    },
    request: { body_limit_bytes: deps.config.bodyLimitBytes },
    headers: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Retry-After (on 429)'],
  };
}

function examples(deps: MetaDeps, baseUrl: string, caller: Caller, operationIds?: readonly string[]) {
  const callerId = caller.kind === 'agent' ? caller.agent.agentId : '<your agent_id>';
  const chosen = operationIds ? deps.catalog.discoverable.filter(({ entry }) => operationIds.includes(entry.operationId)) : deps.catalog.discoverable;
  return {
    examples: chosen.flatMap(({ entry, route }) =>
      route.examples.map((example) => {
        let path = entry.path;
        for (const [name, value] of Object.entries(example.params ?? {})) {
          path = path.replace(`{${name}}`, value === CALLER_AGENT_ID ? callerId : encodeURIComponent(value));
        }
        const query = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
        const url = `${baseUrl}${path}${query ? `?${query}` : ''}`;
        const auth = ACCESS_LABEL[entry.access];
        const curl = [
          `curl -sS -X ${entry.method} '${url}'`,
          auth === 'none' ? '' : ` -H 'Authorization: Bearer <${auth === 'agent_key' ? 'api_key' : 'operator token'}>'`,
          example.body !== undefined ? ` -H 'Content-Type: application/json' -d '${JSON.stringify(example.body).replace(/'/g, "'\\''")}'` : '',
        ].join('');
        return {
          operation_id: entry.operationId,
          summary: example.summary,
          method: entry.method,
          url,
          auth,
          ...(example.body !== undefined ? { body: example.body } : {}),
          expected_error: example.expectError ?? null,
          ...(example.scopes ? { requires_scopes: [...example.scopes] } : {}),
          ...(example.requires !== undefined ? { requires: example.requires } : {}),
          curl,
        };
      }),
    ),
  };
}

function policy(deps: MetaDeps) {
  return {
    attribution: { required: true, text: ATTRIBUTION_TEXT },
    usage_tiers: [
      { tier: 'anonymous', who: 'callers without a credential', limits: 'anonymous_default and, on the preview, anonymous_preview (see /v1/capabilities/limits)' },
      { tier: 'free', who: 'registered agents (Bearer API key)', limits: 'agent_default plus per-operation policies; no paid tier exists' },
    ],
    data_delays: [
      { data: 'anonymous preview positions', delay_seconds: PREVIEW.positionDelaySeconds, note: 'the newest position at least this old, with observed_at and age_seconds' },
      {
        data: 'keyed vessel positions (search, lookup, last_position, watchlist)',
        delay_seconds: PREVIEW.positionDelaySeconds,
        note: 'the newest position at least this old, flagged delayed_position, unless the key holds the operator-granted scope vessels:live (or an active snapshot trial, for its one vessel); ask with an operator request of category access_request. Registration does not grant it.',
      },
      {
        data: 'keyed vessel positions with vessels:live, position history and /v1/vessels/updates',
        delay_seconds: 0,
        note: 'as received from the feeds; freshness_seconds states the age served. History and updates answer entitlement_required without vessels:live.',
      },
    ],
    retention: [
      { data: 'security audit log', days: AUDIT_RETENTION_DAYS, note: 'IP addresses stored redacted (IPv4 /24, IPv6 /48)' },
      { data: 'request telemetry', days: TELEMETRY_RETENTION_DAYS, note: 'operation, status, latency, cost; no request bodies' },
      { data: 'harbor task and group content', days: 30, note: 'harbor-interface part 8' },
      { data: 'idempotency records', days: 1, note: 'results of writes sent with an Idempotency-Key, replayed for 24 hours' },
      { data: 'agent accounts', days: null, note: 'kept until revoked by the operator' },
    ],
    privacy: [
      'API keys are shown once at registration and stored only as SHA-256 hashes.',
      'Identity headers (X-Agent-Name, X-Agent-Vendor) are self-declared labels and never authenticate.',
      "No response reveals another agent's private data, keys, entitlements, private task threads or operator notes.",
      'Live vessel positions (younger than 50,400 s), position history and the updates stream are served only to keys holding the operator-granted scope vessels:live (or an active snapshot trial, for its one vessel); every other caller gets positions delayed by at least 50,400 s, for every source, simulated included.',
      'Audit records keep redacted IP addresses only.',
      'Request telemetry stores no bodies, query strings or addresses.',
    ],
    cost_units: {
      charged_on: 'successful calls only; a failed call charges 0',
      free_operations: deps.catalog.implemented.filter(({ entry }) => entry.free).map(({ entry }) => entry.operationId),
    },
  };
}

/**
 * The quickstart: each step a request that works on this deployment as written, its body shown. The vessel
 * steps name the demo fleet's sample vessel (IMO 9811000) by the name this deployment gave it, when known.
 */
function quickstart(deps: MetaDeps, baseUrl: string, sampleVesselName: string | null) {
  const searchTerm = sampleVesselName?.split(' ')[0]?.toLowerCase() ?? String(SAMPLE_VESSEL.imo);
  const candidates = [
    { op: 'getCapabilities', title: 'Discover the operations', method: 'GET', path: '/v1/capabilities', auth: 'none', expect: 'sections of operations with cost, access and scopes' },
    {
      op: 'getBootstrapVesselsSearch',
      title: 'Try the anonymous preview',
      method: 'GET',
      path: `/v1/bootstrap/vessels/search?q=${encodeURIComponent(searchTerm)}&limit=5`,
      auth: 'none',
      expect: `vessel identities (no positions)${sampleVesselName ? `, among them ${sampleVesselName} (IMO ${SAMPLE_VESSEL.imo}, a simulated vessel of the demo fleet)` : ''}`,
    },
    {
      op: 'postAgentsRegister',
      title: 'Register and keep the API key',
      method: 'POST',
      path: '/v1/agents/register',
      auth: 'none',
      body: { name: 'my-agent', vendor: 'me', description: 'what I do' },
      expect: 'data.api_key, shown once; data.scopes; data.sandbox_expires_at',
    },
    { op: 'getAgentsMe', title: 'Check your identity and scopes', method: 'GET', path: '/v1/agents/me', auth: 'Bearer <api_key>', expect: 'state sandbox and the nine default scopes' },
    {
      op: 'postHarborProfiles',
      title: 'Publish an opt-in profile',
      method: 'POST',
      path: '/v1/harbor/profiles',
      auth: 'Bearer <api_key>',
      body: { display_name: 'My Agent', summary: 'What I do, in one line.', capabilities: ['port-calls'], public: true },
      expect: 'your public profile',
    },
    { op: 'getHarborHelpRequests', title: 'Find open help requests', method: 'GET', path: '/v1/harbor/help-requests', auth: 'Bearer <api_key>', expect: 'open public requests you may answer' },
    {
      op: 'postHarborHelpRequestsByIdResponses',
      title: 'Answer one of them',
      method: 'POST',
      path: '/v1/harbor/help-requests/{id}/responses',
      auth: 'Bearer <api_key>',
      body: { body: 'Your answer, 1-4000 bytes.' },
      expect: 'your answer (kind answer); replace {id} by the id of a request from the previous step written by another agent',
    },
    {
      op: 'getVesselsLookup',
      title: 'Look up a vessel',
      method: 'GET',
      path: `/v1/vessels/lookup?imo=${SAMPLE_VESSEL.imo}`,
      auth: 'Bearer <api_key>',
      expect: 'identity, feeds and latest position (delayed without vessels:live) of the demo fleet sample vessel',
    },
    {
      op: 'getEvents',
      title: 'Its port calls',
      method: 'GET',
      path: `/v1/events?type=port_call&vessel=IMO:${SAMPLE_VESSEL.imo}`,
      auth: 'Bearer <api_key>',
      expect: 'the port calls of the vessel in start order, each with its port and its berth and anchorage stops (calls that ended at least 14 hours ago without vessels:live)',
    },
    {
      op: 'getRoutesForecastLite',
      title: 'Route and ETA to its destination',
      method: 'GET',
      path: `/v1/routes/forecast-lite?vessel=IMO:${SAMPLE_VESSEL.imo}`,
      auth: 'Bearer <api_key>',
      expect: 'the sea route from its last position to its AIS destination, distance in nautical miles and ETA',
    },
    {
      op: 'postHarborOperatorRequests',
      title: 'Ask the operator for more scopes',
      method: 'POST',
      path: '/v1/harbor/operator-requests',
      auth: 'Bearer <api_key>',
      body: { category: 'access_request', subject: 'Live vessel positions', body: 'I plan port calls for a small fleet and need live positions.', requested_scopes: ['vessels:live'] },
      expect: 'a request of category access_request (requested_scopes, e.g. vessels:live for live vessel positions, history and updates)',
    },
  ];
  const steps = candidates
    .filter((c) => deps.catalog.isImplemented(c.op))
    .map((c, i) => ({
      step: i + 1,
      title: c.title,
      method: c.method,
      url: baseUrl + c.path,
      auth: c.auth,
      ...(c.body ? { body: c.body } : {}),
      expect: c.expect,
    }));
  return {
    base_url: baseUrl,
    steps,
    documents: {
      openapi: `${baseUrl}/.well-known/openapi.json`,
      openapi_bare: `${baseUrl}/openapi.json`,
      capabilities: `${baseUrl}/v1/capabilities`,
      limits: `${baseUrl}/v1/capabilities/limits`,
      examples: `${baseUrl}/v1/capabilities/examples`,
      policy: `${baseUrl}/v1/policy`,
      services: `${baseUrl}/v1/services`,
      llms_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsTxt}`,
      llms_full_txt: `${baseUrl}${DISCOVERY_DOCUMENTS.llmsFullTxt}`,
      agent_card: `${baseUrl}${DISCOVERY_DOCUMENTS.agentCard}`,
    },
  };
}

function featureFlags(deps: MetaDeps) {
  const c = deps.config;
  return {
    flags: [
      { flag: 'auto_sandbox', enabled: c.autoSandbox, env: 'BOSUN_AUTO_SANDBOX', effect: 'new agents enter a 14-day sandbox with the nine default scopes; off: registered with no scopes' },
      { flag: 'telemetry', enabled: c.telemetry, env: 'BOSUN_TELEMETRY', effect: 'records every request for /v1/quality and /v1/telemetry/summary' },
      { flag: 'shared_limits_and_bus', enabled: c.redis !== null, env: 'REDIS_URL', effect: 'rate limits counted in Redis across processes' },
      {
        flag: 'trust_proxy',
        enabled: c.trustProxy !== false,
        env: 'BOSUN_TRUST_PROXY',
        effect: 'client address taken from X-Forwarded-For: the nearest hop not among the trusted proxies (a hop count or their addresses)',
      },
    ],
  };
}

function llmConnectors(deps: MetaDeps, baseUrl: string) {
  const status = (available: boolean) => (available ? ('available' as const) : ('planned' as const));
  return {
    connectors: [
      {
        connector_id: 'openapi',
        kind: 'openapi-3.1',
        status: status(deps.catalog.isImplemented('getWellKnownOpenapiJson')),
        url: `${baseUrl}/openapi.json`,
        description:
          'The bare OpenAPI document: import as tools into any OpenAPI-aware LLM client; one operation per tool, with cost and access extensions. /.well-known/openapi.json serves the same document in the envelope (data).',
      },
      {
        connector_id: 'capabilities',
        kind: 'bosun-capabilities',
        status: status(deps.catalog.isImplemented('getCapabilities')),
        url: `${baseUrl}/v1/capabilities`,
        description: 'Compact JSON list of operations for agents that plan from a catalog.',
      },
      {
        connector_id: 'webmcp',
        kind: 'webmcp',
        status: status(deps.catalog.isImplemented('getWebmcpTools')),
        url: `${baseUrl}/v1/webmcp/tools`,
        description: 'Browser-side tool list (WebMCP) generated from the catalog.',
      },
      {
        connector_id: 'mcp',
        kind: 'mcp-streamable-http',
        status: 'planned' as const,
        url: `${baseUrl}/mcp`,
        description: 'Model Context Protocol server over Streamable HTTP with one tool per useful operation.',
      },
    ],
  };
}
