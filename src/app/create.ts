import type { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { MemoryBus, RedisBus, type Bus } from '../bus/index.js';
import { closeRedis } from '../bus/close-redis.js';
import { buildCatalogView } from '../catalog/catalog.js';
import { systemClock, HOUR, MINUTE, SECOND, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createAgentsRepo } from '../features/agents/agents-repo.js';
import { createAgentsService } from '../features/agents/agents-service.js';
import { createAuditRepo } from '../features/audit/audit-repo.js';
import { createAuditService } from '../features/audit/audit-service.js';
import { createHarborServices } from '../features/harbor/harbor-services.js';
import { createMetaService } from '../features/meta/meta-service.js';
import type { Services } from '../features/services.js';
import { ALL_ROUTES } from '../features/index.js';
import { createOperatorRepo } from '../features/operator/operator-repo.js';
import { createConsoleSessions } from '../features/console/console-sessions.js';
import { createConsoleSessionsRepo } from '../features/console/console-sessions-repo.js';
import { consolePages } from '../features/console/console-pages.js';
import { sitePages } from '../features/site/site-pages.js';
import { mapPages } from '../features/map/map-pages.js';
import { createMapService } from '../features/map/map-service.js';
import { CONSOLE_SESSION } from '../features/console/console-sessions.js';
import { createExchangeGate } from '../features/exchange/exchange-gate.js';
import { createExchangeGateRepo } from '../features/exchange/exchange-gate-repo.js';
import { createExchangeCore, registerExchangeCoreKinds } from '../features/exchange-core/exchange-core.js';
import { createOperatorService } from '../features/operator/operator-service.js';
import { createPaymentsRepo } from '../features/payments/payments-repo.js';
import { createPaymentsService } from '../features/payments/payments-service.js';
import { createTelemetryRepo } from '../features/telemetry/telemetry-repo.js';
import { createTelemetryService } from '../features/telemetry/telemetry-service.js';
import { memorySlots, redisSlots } from '../limits/slots.js';
import { createVesselsRepo } from '../features/vessels/vessels-repo.js';
import { createTrialsRepo } from '../features/harbor/trials/trials-repo.js';
import { createVesselsService } from '../features/vessels/vessels-service.js';
import { createFleetReads } from '../fleet/fleet-reads.js';
import { createPortsService } from '../features/ports/ports-service.js';
import { createEventsRepo } from '../features/events/events-repo.js';
import { createEventRunner } from '../features/events/event-runner.js';
import { createEventsService } from '../features/events/events-service.js';
import { createStsService } from '../features/sts/sts-service.js';
import { createRouteStressService } from '../features/metrics/route-stress-service.js';
import { createRoutesService } from '../features/routes/routes-service.js';
import { createRoutesQualityRepo } from '../features/routes-quality/quality-repo.js';
import { createRoutesQualityService } from '../features/routes-quality/quality-service.js';
import { createPlanningService } from '../features/routes/planning-service.js';
import { createRouteConditionsService } from '../features/routes/conditions-service.js';
import { createCorridorsService } from '../features/corridors/corridors-service.js';
import { createCorridorsRepo } from '../features/corridors/corridors-repo.js';
import { createPortsRepo } from '../features/ports/ports-repo.js';
import { createInfraRepo } from '../features/resource-infra/infra-repo.js';
import { createInfraService } from '../features/resource-infra/infra-service.js';
import { createCongestionService } from '../features/congestion/congestion-service.js';
import { createVisitRankRepo } from '../features/congestion/visit-rank-repo.js';
import { createIdempotencyRepo } from '../features/idempotency/idempotency-repo.js';
import { createIdempotencyService } from '../features/idempotency/idempotency-service.js';
import { createFleetRepo } from '../fleet/fleet-repo.js';
import { createWebmcpRepo } from '../features/mcp/webmcp-repo.js';
import { createWebmcpService } from '../features/mcp/webmcp-service.js';
import { mountMcpEndpoint } from '../features/mcp/mcp-endpoint.js';
import { createFleetService } from '../fleet/fleet-service.js';
import type { FeedManager } from '../feeds/feed-manager.js';
import { configuredFeeds } from '../feeds/serve-feeds.js';
import { buildHttpApp } from '../http/app.js';
import { AppError } from '../http/errors.js';
import { createCursorCodec, newCursorSecret } from '../http/cursor-codec.js';
import { createSecretsRepo } from '../features/secrets/secrets-repo.js';
import { createScheduler, type Job, type Scheduler } from '../jobs/scheduler.js';
import { createExchangeCommunityServices, registerExchangeCommunityKinds } from '../features/exchange-community/community-services.js';
import { FallbackLimiterBackend, Limiter, MemoryLimiterBackend, RedisLimiterBackend } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import { openMigratedStore, type Store } from '../store/db.js';
import { pingStore } from '../store/dialect.js';
import type { AppContext } from './context.js';
import type { StatusReporter } from '../observability/status.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { connectBusPublisher, connectRedis, redisFallbackLog } from './redis.js';
import { createBillingService } from '../features/billing/billing-service.js';
import { withUsageMetering } from '../features/billing/metered-telemetry.js';
import { createUsageMeter } from '../features/billing/usage-meter.js';
import { createUsageRepo } from '../features/billing/usage-repo.js';
import { createReadinessRepo } from '../features/routes-readiness/readiness-repo.js';
import { createRoutesDataService } from '../features/routes-readiness/data-service.js';
import { createRoutesReadinessService, SNAPSHOT_JOB_EVERY_MS } from '../features/routes-readiness/readiness-service.js';
import { shippedSeaNetwork } from '../routing/network-file.js';
import { createDiscoveryService, discoveryPages } from '../features/discovery/discovery-service.js';
import { createMessagesRepo } from '../features/exchange-messages/messages-repo.js';
import { createMessagesService, MESSAGES_TOPIC } from '../features/exchange-messages/messages-service.js';
import { createStreamHub } from '../features/exchange-messages/stream-hub.js';
import { createMessageStreams } from '../features/exchange-messages/stream-service.js';
import { createWorkspaceRepo } from '../features/workspace/workspace-repo.js';
import { createWorkspaceService } from '../features/workspace/workspace-service.js';
import { createOverridesRepo } from '../features/feedback/overrides-repo.js';
import { createOverridesService } from '../features/feedback/overrides-service.js';
import { createFeedbackRepo } from '../features/feedback/feedback-repo.js';
import { createFeedbackService } from '../features/feedback/feedback-service.js';
import { createVesselServicesRepo } from '../features/vessel-services/vessel-services-repo.js';
import { createVesselServicesService } from '../features/vessel-services/vessel-services-service.js';
import { createLanesRepo } from '../features/lanes/lanes-repo.js';
import { createLanesService } from '../features/lanes/lanes-service.js';

export interface CoreOptions {
  clock?: Clock;
  logger?: Logger;
  /** Attach extra limit policies to operations (for deployments that want stricter limits). */
  ratePolicyOverrides?: Record<string, readonly LimitPolicyName[]>;
}

export interface BosunOptions extends CoreOptions {
  /** Start interval jobs and telemetry flushing (the serve command); off for one-shot CLI use. */
  background?: boolean;
}

/** The store, Redis, the bus and every service, started nothing (see createCore). */
export interface BosunCore {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  redis: Redis | null;
  bus: Bus;
  catalog: AppContext['catalog'];
  services: Services;
  startedAt: number;
  /** Components reporting into /v1/status; createBosun adds the jobs, the fleet and the feeds. */
  statusReporters: StatusReporter[];
  /** The services' interval jobs, for createBosun's scheduler. */
  jobs: Job[];
  /** The fleet's read API over stored positions (the site's figures). */
  fleetReads: ReturnType<typeof createFleetReads>;
  close(): Promise<void>;
}

export interface Bosun {
  ctx: AppContext;
  http: FastifyInstance;
  scheduler: Scheduler;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * What one-shot commands need: the store (migrated), Redis and the bus (so other processes hear of
 * their writes), and every service. Starts nothing: no fleet state loaded (vessels are read from the
 * store on demand), no jobs, no HTTP app, no feeds.
 */
export async function createCore(config: Config, options: CoreOptions = {}): Promise<BosunCore> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const { store } = await openMigratedStore(config.database, {
    onConnectionError: (err) => logger.warn({ err: err.message, code: (err as { code?: string }).code }, 'database connection lost; the pool reconnects on next use'),
  });
  const cursors = createCursorCodec(config.cursorSecret ?? (await createSecretsRepo(store.db).getOrCreate('cursor_signing', newCursorSecret(), clock.now())));

  let redis: Redis | null = null;
  if (config.redis) {
    try {
      redis = await connectRedis(config.redis, logger);
    } catch (e) {
      await store.close();
      throw e;
    }
  }
  const onBusError = (topic: string, err: unknown) => logger.warn({ err, topic }, 'bus handler failed');
  const busPublisher = redis ? await connectBusPublisher(redis) : null;
  const bus: Bus = busPublisher ? new RedisBus(busPublisher, config.redis!.prefix, onBusError) : new MemoryBus(onBusError);

  const audit = createAuditService({ repo: createAuditRepo(store.db), clock });
  const agents = createAgentsService({ repo: createAgentsRepo(store.db, store.readNow), clock, audit, autoSandbox: () => config.autoSandbox });
  const fleetRepo = createFleetRepo(store.db, store.dialect);
  const fleet = createFleetService({ repo: fleetRepo, bus, clock, onError: (err, context) => logger.error({ err }, context) });
  // the harbor writes workspace events (help and operator request changes) in its own transactions
  const workspace = createWorkspaceService({ repo: createWorkspaceRepo(store.db), clock, bus, transaction: store.transaction });
  const harbor = createHarborServices({ store, clock, audit, agents, fleet, cursors, emit: workspace.emit });
  // The vessels entitlement reads the snapshot trial record (one vessel) of callers holding snapshot:read.
  const trialRecords = createTrialsRepo(store.db);
  const catalog = buildCatalogView(ALL_ROUTES);
  const startedAt = clock.now();
  const statusReporters: StatusReporter[] = [];
  const telemetry = createTelemetryService({
    repo: createTelemetryRepo(store.db),
    clock,
    enabled: () => config.telemetry,
    onFlushError: (err) => logger.error({ err }, 'telemetry flush failed'),
  });
  const usageRepo = createUsageRepo(store.db);
  const usageMeter = createUsageMeter({ repo: usageRepo, clock, onFlushError: (err) => logger.error({ err }, 'usage ledger flush failed; counts kept for the next flush') });
  const fleetReads = createFleetReads(store.db);
  const readinessRepo = createReadinessRepo(store.db, store.dialect.name);
  const eventsRepo = createEventsRepo(store.db);
  // applied feedback corrections, laid over vessel and port data where it is served (docs/feedback.md)
  const overrides = createOverridesService({ repo: createOverridesRepo(store.db) });
  const ports = createPortsService({ cursors, repo: createPortsRepo(store.db), clock, corrections: { version: () => overrides.version(), corrected: () => overrides.corrected('port') } });
  const events = createEventsService({
    repo: eventsRepo,
    runner: createEventRunner({ repo: eventsRepo, fleetReads, ports: () => ports.table(), clock, owner: fleet.instanceId }),
    clock,
  });
  const operatorService = createOperatorService({ repo: createOperatorRepo(store.db), clock, audit });
  const exchangeCommunity = createExchangeCommunityServices({ store, clock, cursors, audit, agents, telemetry, flushUsage: () => usageMeter.flush(), gate: () => services.exchangeGate });
  const exchangeGate = createExchangeGate({ repo: createExchangeGateRepo(store.db), agents, audit, clock });
  const messagesRepo = createMessagesRepo(store.db);
  const exchangeMessages = createMessagesService({
    repo: messagesRepo,
    bus,
    clock,
    cursors,
    agents,
    audit,
    transaction: store.transaction,
    isBanned: (id) => exchangeGate.isBanned(id),
    notify: workspace.emit,
  });
  exchangeGate.registerKind('message', exchangeMessages.moderation('message'));
  exchangeGate.registerKind('channel', exchangeMessages.moderation('channel'));
  exchangeGate.onBan((agentId) => exchangeMessages.announceBan(agentId));
  const messageHub = createStreamHub({ repo: messagesRepo, bus, clock, topic: MESSAGES_TOPIC, onError: (err) => logger.error({ err }, 'exchange message stream failed') });
  const services: Services = {
    exchangeMessages,
    exchangeStreams: createMessageStreams({
      hub: messageHub,
      slots: redis ? redisSlots(redis, `${config.redis!.prefix}exchange-streams:`, (err) => logger.warn({ err }, 'exchange stream lease not renewed or released; it lapses')) : memorySlots(),
      checkChannels: async (names) => {
        const known = new Set((await exchangeMessages.channels()).map((c) => c.name));
        const missing = names.find((n) => !known.has(n));
        if (missing !== undefined) throw new AppError('exchange_channel_not_found', `no channel ${missing}; GET /v1/exchange/channels lists them`, { field: 'channel' });
      },
    }),
    cursors,
    ports,
    routes: createRoutesService({ ports: () => ports.table(), clock }),
    planning: createPlanningService({ routes: () => services.routes, events: () => events, clock }),
    routesQuality: createRoutesQualityService({
      repo: createRoutesQualityRepo(store.db),
      clock,
      catalog,
      flushTelemetry: () => telemetry.flush(),
      cacheStatus: () => services.routes.status(),
      cachedAt: () => services.routes.cachedAt(),
    }),
    events,
    sts: createStsService({ events: () => events, fleet, cursors, clock }),
    routeStress: createRouteStressService({ events: () => events, fleetReads, clock, ports: () => ports.table() }),
    congestion: createCongestionService({ events, fleet, repo: createVisitRankRepo(store.db), clock, ports }),
    corridors: createCorridorsService({ repo: createCorridorsRepo(store.db), events: () => events, routeStress: () => services.routeStress, fleetReads, clock }),
    routeConditions: createRouteConditionsService({
      routes: () => services.routes,
      routeStress: () => services.routeStress,
      events: () => events,
      ports: () => ports,
      vessels: () => services.vessels,
      fleetReads,
      clock,
    }),
    consoleSessions: createConsoleSessions({ repo: createConsoleSessionsRepo(store.db), operator: operatorService, audit, clock }),
    exchangeGate,
    exchangeCore: createExchangeCore({
      db: store.db,
      transaction: store.transaction,
      clock,
      audit,
      cursors,
      agents,
      profiles: harbor.services.profiles,
      fleet,
      fleetReads,
      ports,
      gate: () => services.exchangeGate,
      notify: workspace.emit,
    }),
    resourceInfra: createInfraService({ repo: createInfraRepo(store.db), cursors, clock, ports: () => ports.table() }),
    idempotency: createIdempotencyService({ repo: createIdempotencyRepo(store.db), clock }),
    audit,
    agents,
    operator: operatorService,
    telemetry: withUsageMetering(telemetry, usageMeter),
    payments: createPaymentsService({
      repo: createPaymentsRepo(store.db),
      clock,
      audit,
      rails: config.payments.rails,
      intentsEnabled: () => config.payments.intentsEnabled,
      transaction: store.transaction,
    }),
    fleet,
    vessels: createVesselsService({
      fleet,
      fleetReads,
      repo: createVesselsRepo(store.db),
      bus,
      clock,
      cursors,
      pollSlots: redis ? redisSlots(redis, `${config.redis!.prefix}polls:`, (err) => logger.warn({ err }, 'poll lease not released; it lapses at its deadline')) : memorySlots(() => clock.now()),
      findTrial: (agentId) => trialRecords.find(agentId),
      corrections: (vslId) => overrides.corrections('vessel', vslId),
      onError: (err, context) => logger.error({ err }, context),
    }),
    meta: createMetaService({
      config,
      catalog,
      clock,
      startedAt,
      statusReporters,
      ratePolicyOverrides: options.ratePolicyOverrides ?? {},
      storeDialect: store.dialect.name,
      pingStore: () => pingStore(store.db, () => performance.now()),
      pingRedis: redis ? async () => (await redis.ping()) === 'PONG' : null,
      pendingTelemetry: () => telemetry.pending(),
    }),
    billing: createBillingService({
      usage: usageRepo,
      meter: usageMeter,
      clock,
      catalog,
      cursors,
      payments: { rails: () => services.payments.rails(), intentsEnabled: () => services.payments.intentsEnabled() },
    }),
    webmcp: createWebmcpService({ repo: createWebmcpRepo(store.db), clock, catalog, cursors }),
    ...harbor.services,
    ...exchangeCommunity.services,
    workspace,
    overrides,
    feedback: createFeedbackService({
      repo: createFeedbackRepo(store.db),
      overrides,
      clock,
      audit,
      transaction: store.transaction,
      emit: workspace.emit,
      fleet,
      portExists: (portId) => ports.byId(portId) !== undefined,
    }),
    vesselServices: createVesselServicesService({
      repo: createVesselServicesRepo(store.db),
      clock,
      cursors,
      audit,
      vessels: () => services.vessels,
      events: () => events,
      ports: () => ports,
      fleetReads,
      corrections: (vslId) => overrides.corrections('vessel', vslId),
    }),
    routesData: createRoutesDataService({ repo: readinessRepo, clock, network: shippedSeaNetwork, ports: () => ports.table() }),
    routesReadiness: createRoutesReadinessService({
      repo: readinessRepo,
      clock,
      catalog,
      network: shippedSeaNetwork,
      routes: () => services.routes,
      ports: () => ports,
      telemetry: () => services.telemetry,
      data: () => services.routesData,
      usageLines: async (agentId, sinceDay) => {
        await usageMeter.flush();
        return usageRepo.agentLines(agentId, sinceDay);
      },
      allowance: async (agent) => (await services.billing.status(agent)).allowance,
    }),
    lanes: createLanesService({ repo: createLanesRepo(store.db), events: () => events, ports: () => ports, routes: () => services.routes, clock }),
  };
  registerExchangeCommunityKinds(services.exchangeGate, exchangeCommunity.services);
  const jobs: Job[] = [
    { name: 'audit_retention', everyMs: HOUR, run: () => services.audit.enforceRetention() },
    { name: 'console_sessions_expiry', everyMs: HOUR, run: () => services.consoleSessions.deleteExpired() },
    { name: 'telemetry_retention', everyMs: HOUR, run: () => services.telemetry.enforceRetention() },
    { name: 'usage_ledger_retention', everyMs: HOUR, run: () => services.billing.enforceRetention() },
    { name: 'payment_intent_expiry', everyMs: MINUTE, run: () => services.payments.expireDue() },
    { name: 'vessel_lookups_retention', everyMs: HOUR, run: () => services.vessels.enforceRetention() },
    { name: 'idempotency_retention', everyMs: HOUR, run: () => services.idempotency.enforceRetention() },
    { name: 'event_detection', everyMs: 2 * SECOND, run: () => services.events.runner.follow(SECOND) },
    { name: 'port_table_refresh', everyMs: MINUTE, run: () => services.ports.refreshIfLoaded() },
    { name: 'webmcp_dispatch_retention', everyMs: HOUR, run: () => services.webmcp.enforceRetention() },
    { name: 'exchange_digests', everyMs: HOUR, run: () => services.exchangeMessages.buildDigests() },
    ...harbor.jobs,
    ...exchangeCommunity.jobs,
    { name: 'exchange_core_sweep', everyMs: MINUTE, run: () => services.exchangeCore.sweep() },
    { name: 'workspace_events_retention', everyMs: HOUR, run: () => services.workspace.enforceRetention() },
    { name: 'overrides_refresh', everyMs: 5 * SECOND, run: () => services.overrides.refresh() },
    { name: 'routes_readiness_snapshot', everyMs: SNAPSHOT_JOB_EVERY_MS, run: () => services.routesReadiness.snapshotJob() },
  ];
  registerExchangeCoreKinds(services.exchangeGate, services.exchangeCore);

  let closed = false;
  return {
    config,
    clock,
    logger,
    store,
    redis,
    bus,
    catalog,
    services,
    startedAt,
    statusReporters,
    jobs,
    fleetReads,
    async close() {
      if (closed) return;
      closed = true;
      await services.telemetry.stop();
      await services.billing.meter.stop();
      await services.events.runner.stop().catch((err) => logger.error({ err }, 'event detector state not saved'));
      await services.vessels.stop().catch((err) => logger.error({ err }, 'vessel lookup records or preview labels not written'));
      await services.fleet.stop();
      await bus.close();
      if (busPublisher) await closeRedis(busPublisher);
      if (redis) await closeRedis(redis);
      await store.close();
    },
  };
}

/** Builds the whole service from a configuration: the core, then fleet state, jobs, limits and HTTP (and feeds in the background). */
export async function createBosun(config: Config, options: BosunOptions = {}): Promise<Bosun> {
  const core = await createCore(config, options);
  const { clock, logger, redis, services, statusReporters } = core;
  try {
    await services.overrides.refresh();
    await services.fleet.start();
    await services.vessels.followPositions();
  } catch (e) {
    await core.close();
    throw e;
  }
  const limiter = new Limiter(
    redis ? new FallbackLimiterBackend(new RedisLimiterBackend(redis, config.redis!.prefix), new MemoryLimiterBackend(), redisFallbackLog(logger, clock)) : new MemoryLimiterBackend(),
  );
  const scheduler = createScheduler(logger, () => clock.now());
  for (const job of core.jobs) scheduler.add(job);
  services.exchangeActivity.observeScheduler(scheduler);
  statusReporters.push({ name: 'jobs', report: () => ({ jobs: scheduler.statuses() }) }, services.fleet.statusReporter(), services.events.runner.statusReporter());

  const ctx: AppContext = {
    config,
    clock,
    logger,
    store: core.store,
    redis,
    bus: core.bus,
    limiter,
    catalog: core.catalog,
    services,
    startedAt: core.startedAt,
    statusReporters,
    ratePolicyOverrides: options.ratePolicyOverrides ?? {},
  };
  // llms.txt, llms-full.txt and the A2A agent card: bare documents outside the catalog (docs/billing.md)
  const discovery = createDiscoveryService({ catalog: core.catalog, version: config.version, mcpAvailable: () => http.hasRoute({ method: 'POST', url: '/mcp' }) });
  const pages = [
    ...sitePages({ services, catalog: core.catalog, clock, countPositionsSince: (since) => core.fleetReads.countObservedSince(since), siteUrl: config.siteUrl }),
    ...consolePages({ sessions: services.consoleSessions, services }),
    ...discoveryPages(discovery, config.siteUrl),
    ...mapPages({
      map: createMapService({ clock, fleet: services.fleet, vessels: services.vessels, ports: services.ports, sts: services.sts, congestion: services.congestion }),
      resumeSession: (cookie, options) => services.consoleSessions.resume(cookie, options),
      sessionCookie: CONSOLE_SESSION.cookie,
    }),
  ];
  const http = buildHttpApp({ ...ctx, pages });
  mountMcpEndpoint(http, { config, services, limiter, clock });
  services.webmcp.attach(async (request) => http.inject(request));
  if (options.background) {
    services.telemetry.start();
    services.billing.meter.start();
    scheduler.start();
    services.fleet.startFlushing();
    services.vessels.start();
  }
  let feeds: FeedManager | null = null;

  let closed = false;
  const bosun: Bosun = {
    ctx,
    http,
    scheduler,
    async listen() {
      return http.listen({ host: config.host, port: config.port });
    },
    async close() {
      if (closed) return;
      closed = true;
      await feeds?.stop();
      await http.close();
      await scheduler.stop();
      await limiter.close();
      await core.close();
    },
  };
  if (options.background) {
    try {
      feeds = configuredFeeds(config.feeds, { demo: config.demo, fleet: services.fleet, sink: services.fleet, clock, logger });
      statusReporters.push(feeds.statusReporter());
      await feeds.start();
    } catch (e) {
      await bosun.close();
      throw e;
    }
  }
  return bosun;
}
