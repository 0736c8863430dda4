import { buildOpenApi } from '../../catalog/openapi.js';
import { SAMPLE_VESSEL } from '../../fleet/sample-vessel.js';
import { OPS_READ_SCOPE } from '../../http/access.js';
import { AppError } from '../../platform/errors.js';
import { defineRoute } from '../kit/route.js';
import {
  CapabilitiesData,
  ConnectorsData,
  ExamplesData,
  ExamplesQuery,
  FeatureFlagsData,
  LimitsData,
  NoQuery,
  OpenApiDocument,
  PingData,
  PolicyData,
  QualityData,
  QuickstartData,
  ServicesData,
  ServicesQuery,
  StatusData,
  TelemetrySummaryData,
  WindowQuery,
} from './schemas.js';
import { describeServices } from './services-directory.js';

const ping = defineRoute({
  operationId: 'getPing',
  description: 'Liveness check: answers as long as the HTTP server runs. Free.',
  query: NoQuery,
  response: PingData,
  examples: [{ summary: 'Ping' }],
  async handler(_input, call) {
    return { data: { pong: true as const, service: 'bosun', version: call.services.meta.version, time: new Date(call.clock.now()).toISOString() } };
  },
});

const status = defineRoute({
  operationId: 'getStatus',
  description:
    'Service health: uptime, version, store and Redis health with latency, telemetry backlog, and the state of components such as ingest sources and jobs. status is "degraded" when a dependency fails. Free.',
  query: NoQuery,
  response: StatusData,
  examples: [{ summary: 'Service status' }],
  async handler(_input, call) {
    return { data: await call.services.meta.status() };
  },
});

const capabilitiesRoute = defineRoute({
  operationId: 'getCapabilities',
  description: 'Every implemented operation grouped by section, with method, path, stability, cost hint, access class and required scopes, generated from the catalog. Free.',
  query: NoQuery,
  response: CapabilitiesData,
  examples: [{ summary: 'List capabilities' }],
  async handler(_input, call) {
    return { data: call.services.meta.capabilities(call.baseUrl) };
  },
});

const limitsRoute = defineRoute({
  operationId: 'getCapabilitiesLimits',
  description: 'Every rate limit in force (the same table the limiter enforces), the anonymous preview constants and the request body limit. Free.',
  query: NoQuery,
  response: LimitsData,
  examples: [{ summary: 'List limits' }],
  async handler(_input, call) {
    return { data: call.services.meta.limits() };
  },
});

const examplesRoute = defineRoute({
  operationId: 'getCapabilitiesExamples',
  description:
    "A working example request for each implemented operation: URL, auth it needs, body and a curl line; operation_id (comma-separated operationIds) keeps only those operations' examples. Call it with your agent key and examples that name an agent use your own agent_id; followed in order, they work as published. An example with requires needs that prerequisite first (a request of another agent, a granted scope) and its ids are placeholders to replace. An operation_id that is not an implemented operation of public discovery is refused (GET /v1/capabilities lists them).",
  query: ExamplesQuery,
  response: ExamplesData,
  examples: [{ summary: 'List examples' }, { summary: 'The examples of one operation', query: { operation_id: 'getRoutesDirect' } }],
  async handler({ query }, call) {
    const wanted = query.operation_id?.split(',');
    const unknown = wanted?.filter((id) => !call.catalog.discoverable.some((o) => o.entry.operationId === id)) ?? [];
    if (unknown.length)
      throw new AppError('invalid_request', `query.operation_id: ${unknown.join(', ')} is not an implemented operation; GET /v1/capabilities lists them`, { field: 'query.operation_id' });
    return { data: call.services.meta.examples(call.baseUrl, call.caller, wanted) };
  },
});

const policyRoute = defineRoute({
  operationId: 'getPolicy',
  description: 'Attribution text, usage tiers, data delays, retention periods, privacy rules and which operations charge cost units. Free.',
  query: NoQuery,
  response: PolicyData,
  examples: [{ summary: 'Read the policy' }],
  async handler(_input, call) {
    return { data: call.services.meta.policy() };
  },
});

const quality = defineRoute({
  operationId: 'getQuality',
  description:
    'Measured service quality over a window (window_hours, default 24): success and error rates and latency percentiles overall and per operation, and the age of data served, computed from recorded request telemetry.',
  query: WindowQuery,
  response: QualityData,
  examples: [{ summary: 'Quality over the last 24 hours', query: { window_hours: 24 } }],
  async handler({ query }, call) {
    return { data: await call.services.telemetry.quality(query.window_hours ?? 24) };
  },
});

const telemetrySummary = defineRoute({
  operationId: 'getTelemetrySummary',
  description:
    'Usage over a window (window_hours, default 24): requests by status class and caller kind, distinct agents, cost units charged, error codes and per-operation counts. Restricted to the operator or agents holding ops:read.',
  query: WindowQuery,
  response: TelemetrySummaryData,
  examples: [{ summary: 'Usage over the last 24 hours', query: { window_hours: 24 } }],
  async handler({ query }, call) {
    return { data: await call.services.telemetry.summary(query.window_hours ?? 24) };
  },
});

const quickstartRoute = defineRoute({
  operationId: 'getAgentsQuickstart',
  description:
    "The steps an agent follows from nothing to a registered agent with a profile, a vessel looked up and its route to its destination, with the real URLs of this deployment and every request body shown; the vessel steps name the demo fleet's sample vessel (IMO 9811000) so they answer on a default install. Free.",
  query: NoQuery,
  response: QuickstartData,
  examples: [{ summary: 'Quickstart' }],
  async handler(_input, call) {
    const sample = await call.services.fleet.loadVessel({ imo: SAMPLE_VESSEL.imo });
    return { data: call.services.meta.quickstart(call.baseUrl, sample?.name ?? null) };
  },
});

const flags = defineRoute({
  operationId: 'getFeatureFlags',
  description: 'The feature switches of this deployment and what each changes. Restricted to the operator or agents holding ops:read.',
  query: NoQuery,
  response: FeatureFlagsData,
  examples: [{ summary: 'Feature flags' }],
  async handler(_input, call) {
    return { data: call.services.meta.featureFlags() };
  },
});

const services = defineRoute({
  operationId: 'getServices',
  description:
    'The service directory: each service (service_id such as core.vessels or agent.harbor) with its status and implemented operations. service_id selects one; an unknown id answers service_not_found. Free.',
  query: ServicesQuery,
  response: ServicesData,
  errors: ['service_not_found'],
  examples: [{ summary: 'All services' }, { summary: 'The harbor service', query: { service_id: 'agent.harbor' } }],
  async handler({ query }, call) {
    const all = describeServices(call.catalog, call.baseUrl);
    if (query.service_id === undefined) return { data: { services: all } };
    const one = all.filter((s) => s.service_id === query.service_id);
    if (one.length === 0) {
      throw new AppError('service_not_found', `no service ${query.service_id}; known: ${all.map((s) => s.service_id).join(', ')}`, { field: 'query.service_id' });
    }
    return { data: { services: one } };
  },
});

const connectors = defineRoute({
  operationId: 'getExperimentalLlmConnectors',
  description: 'The machine-readable surfaces an LLM client can connect through (OpenAPI, capabilities, WebMCP, MCP) and whether each is available on this deployment. Restricted.',
  query: NoQuery,
  response: ConnectorsData,
  examples: [{ summary: 'LLM connectors' }],
  async handler(_input, call) {
    return { data: call.services.meta.llmConnectors(call.baseUrl) };
  },
});

export const OPENAPI_DOCUMENT = { barePath: '/openapi.json', bareMediaType: 'application/vnd.oai.openapi+json' } as const;

const openapi = defineRoute({
  operationId: 'getWellKnownOpenapiJson',
  description:
    "The OpenAPI 3.1.0 description of every implemented operation of public discovery, generated from the catalog, in the envelope's data (read data.paths). Generic OpenAPI tools get the bare document at /openapi.json or by sending Accept: application/vnd.oai.openapi+json. Called with the operator token (or an agent key holding ops:read) it also lists the closed operations, marked x-discovery: closed.",
  query: NoQuery,
  response: OpenApiDocument,
  document: OPENAPI_DOCUMENT,
  examples: [{ summary: 'OpenAPI document' }],
  async handler(_input, call) {
    const operatorView = call.caller.kind === 'operator' || (call.caller.kind === 'agent' && call.caller.agent.scopes.has(OPS_READ_SCOPE));
    return { data: buildOpenApi(call.catalog, call.baseUrl, { audience: operatorView ? 'operator' : 'public' }) };
  },
});

export const metaRoutes = [ping, status, capabilitiesRoute, limitsRoute, examplesRoute, policyRoute, quality, telemetrySummary, quickstartRoute, flags, services, connectors, openapi];
