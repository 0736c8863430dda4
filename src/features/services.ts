import type { AgentsService } from './agents/agents-service.js';
import type { AuditService } from './audit/audit-service.js';
import type { HarborServices } from './harbor/harbor-services.js';
import type { IdempotencyService } from './idempotency/idempotency-service.js';
import type { MetaService } from './meta/meta-service.js';
import type { PortsService } from './ports/ports-service.js';
import type { RoutesService } from './routes/routes-service.js';
import type { PlanningService } from './routes/planning/planning-service.js';
import type { RouteConditionsService } from './routes/conditions/conditions-service.js';
import type { EventsService } from './events/events-service.js';
import type { StsService } from './sts/sts-service.js';
import type { EventsApiService } from './events-api/events-api-service.js';
import type { RouteStressService } from './routes/stress/route-stress-service.js';
import type { CongestionService } from './congestion/congestion-service.js';
import type { OperatorService } from './operator/operator-service.js';
import type { PaymentsService } from './payments/payments-service.js';
import type { TelemetryService } from './telemetry/telemetry-service.js';
import type { VesselsService } from './vessels/vessels-service.js';
import type { FleetService } from '../fleet/fleet-service.js';
import type { ExchangeGate } from './exchange/gate/exchange-gate.js';
import type { ConsoleSessions } from './console/console-sessions.js';
import type { CursorCodec } from '../http/cursor-codec.js';
import type { BillingService } from './billing/billing-service.js';
import type { WebmcpService } from './mcp/webmcp-service.js';
import type { SkillsService } from './exchange/community/skills-service.js';
import type { ChartersService } from './exchange/community/charters-service.js';
import type { ActivityService } from './exchange/community/activity-service.js';
import type { MessagesService } from './exchange/messages/messages-service.js';
import type { MessageStreams } from './exchange/messages/stream-service.js';
import type { ExchangeCoreService } from './exchange/core/exchange-core-service.js';
import type { WorkspaceService } from './workspace/workspace-service.js';
import type { FeedbackService } from './feedback/feedback-service.js';
import type { OverridesService } from './feedback/overrides-service.js';
import type { VesselServicesService } from './vessel-services/vessel-services-service.js';
import type { InfraService } from './resource-infra/infra-service.js';
import type { RoutesDataService } from './routes/readiness/data-service.js';
import type { RoutesReadinessService } from './routes/readiness/readiness-service.js';
import type { RoutesQualityService } from './routes/quality/quality-service.js';
import type { LanesService } from './routes/lanes/lanes-service.js';
import type { CorridorsService } from './routes/corridors/corridors-service.js';

// The services of every area, added to platform/services.ts's Services by declaration merging: features type
// their handlers with that interface and never import this file, which stands above them all. It names what the
// areas build (src/features/areas.ts, where SERVICES_MATCH_AREAS fails to compile when the two differ).
declare module '../platform/services.js' {
  /** Every service a handler can reach (CallContext.services); the harbor's come from createHarborServices. */
  interface Services extends HarborServices {
    audit: AuditService;
    agents: AgentsService;
    operator: OperatorService;
    telemetry: TelemetryService;
    payments: PaymentsService;
    fleet: FleetService;
    vessels: VesselsService;
    meta: MetaService;
    ports: PortsService;
    /** Sea route planning over the routing engine (src/routing). */
    routes: RoutesService;
    /** What-if, explain, summary, portfolio and scenario over the routing engine. */
    planning: PlanningService;
    /** Conditions along a route from the event layer (advisory, risk-flags) and a vessel's ETA (forecast-lite). */
    routeConditions: RouteConditionsService;
    /** The event store and its detector runner (port calls, encounters, chokepoint transits). */
    events: EventsService;
    /** Ship-to-ship encounters (GET /v1/sts/events). */
    sts: StsService;
    /** The stored events listed by vessel, port, area and time (GET /v1/events, a Bosun extension). */
    eventsApi: EventsApiService;
    /** Route stress index of a chokepoint (GET /v1/metrics/route_stress_index). */
    routeStress: RouteStressService;
    /** Port congestion and the visit leaderboard, read from the event store. */
    congestion: CongestionService;
    /** Stored answers of idempotent writes (applied at route registration). */
    idempotency: IdempotencyService;
    /** Operator console sign-in and sessions (site /console). */
    consoleSessions: ConsoleSessions;
    /** Exchange membership, linked agents, bans and moderation of exchange records (docs/exchange.md). */
    exchangeGate: ExchangeGate;
    /** Exchange claims, votes, bounties and reputation (docs/exchange.md). */
    exchangeCore: ExchangeCoreService;
    /** The resource_infra layer: ingest pipeline, spatial queries, quality and coverage views (docs/resource-infra.md). */
    resourceInfra: InfraService;
    /** Signs and opens the pagination cursors of this app (its secret). */
    cursors: CursorCodec;
    /** Pricing, payment instructions, the unavailable settlement surface and the usage ledger (docs/billing.md). */
    billing: BillingService;
    /** MCP tools generated from the catalog, tool calls through the route pipeline, the dispatch record (docs/mcp.md). */
    webmcp: WebmcpService;
    /** Exchange skills: versioned records and their transfers (docs/exchange-community.md). */
    exchangeSkills: SkillsService;
    /** Exchange charters: agents' public commitments, versioned. */
    exchangeCharters: ChartersService;
    /** Exchange activity views: active agents, swarm stats, real agents, continuations, audit, automation. */
    exchangeActivity: ActivityService;
    /** Exchange channels, channel and direct messages, trending channels, digests (docs/exchange-messages.md). */
    exchangeMessages: MessagesService;
    /** The exchange's server-sent event streams of messages. */
    exchangeStreams: MessageStreams;
    /** The agent workspace: private documents and the event inbox (emit writes an event; docs/workspace.md). */
    workspace: WorkspaceService;
    /** Feedback tickets: corrections, data requests, metric proposals (docs/feedback.md). */
    feedback: FeedbackService;
    /** Applied corrections laid over observed vessel and port data, cached in memory. */
    overrides: OverridesService;
    /** Vessel snapshot and history for entitled vessels, and the operator's grants. */
    vesselServices: VesselServicesService;
    /** Data views of the routes section: freshness, lag alerts, completeness, freshness SLA, network coverage (docs/routes-readiness.md). */
    routesData: RoutesDataService;
    /** Routes section contracts, engine benchmark, readiness and its history, release gate, regressions, rollout score, budget guard. */
    routesReadiness: RoutesReadinessService;
    /** Service-quality views of the routes operations over request telemetry (docs/routes-service-quality.md). */
    routesQuality: RoutesQualityService;
    /** Voyages and lanes analytics from the detected port calls (docs/lanes.md). */
    lanes: LanesService;
    /** Corridor analytics over the chokepoint transits (docs/corridors.md). */
    corridors: CorridorsService;
  }
}

export type { Services } from '../platform/services.js';
