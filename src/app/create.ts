import type { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { MemoryBus, RedisBus, type Bus } from '../bus/index.js';
import { closeRedis } from '../bus/close-redis.js';
import { buildCatalogView } from '../catalog/catalog.js';
import { systemClock, HOUR, MINUTE, SECOND, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import { createAgentsRepo } from '../features/agents/agents-repo.js';
import { createAgentsService } from '../features/agents/agents-service.js';
import { createAuditRepo } from '../features/audit/audit-repo.js';
import { createAuditService } from '../features/audit/audit-service.js';
import { createRoutesArea } from '../features/routes/routes-area.js';
import { createExchangeArea } from '../features/exchange/exchange-area.js';
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
import { createPortAreasRepo } from '../features/events/port-areas-repo.js';
import { createPortAreasService } from '../features/events/port-areas-service.js';
import { createStsService } from '../features/sts/sts-service.js';
import { createEventsApiService } from '../features/events-api/events-api-service.js';
import { createEventsListRepo } from '../features/events-api/events-list-repo.js';
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
import { createFeedOwner } from '../feeds/feed-owner.js';
import { configuredFeeds } from '../feeds/serve-feeds.js';
import { createLeaseRepo } from '../store/leases.js';
import { createPositionPartitions } from '../store/position-partitions.js';
import { createPositionRetention } from '../fleet/position-retention.js';

/** Days after today whose position partitions the hourly job keeps ready. */
const PARTITION_DAYS_AHEAD = 3;
import { buildHttpApp } from '../http/app.js';
import { createCursorCodec, newCursorSecret } from '../http/cursor-codec.js';
import { createSecretsRepo } from '../features/secrets/secrets-repo.js';
import { createScheduler, type Job, type Scheduler } from '../jobs/scheduler.js';
import { FallbackLimiterBackend, Limiter, MemoryLimiterBackend, RedisLimiterBackend } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import { openMigratedStore, type Store } from '../store/db.js';
import { pingStore } from '../store/dialect.js';
import type { AppContext } from './context.js';
import type { StatusReporter } from '../observability/status.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { connectBusPublisher, connectRedis, REDIS_COMMAND_TIMEOUT_MS, redisFallbackLog } from './redis.js';
import { withinDeadline } from '../platform/deadline.js';
import { createBillingService } from '../features/billing/billing-service.js';
import { withUsageMetering } from '../features/billing/metered-telemetry.js';
import { createUsageMeter } from '../features/billing/usage-meter.js';
import { createUsageRepo } from '../features/billing/usage-repo.js';

import { shippedSeaNetwork } from '../routing/network-file.js';
import { createDiscoveryService, discoveryPages } from '../features/discovery/discovery-service.js';
import { createWorkspaceRepo } from '../features/workspace/workspace-repo.js';
import { createWorkspaceService } from '../features/workspace/workspace-service.js';
import { createOverridesRepo } from '../features/feedback/overrides-repo.js';
import { createOverridesService } from '../features/feedback/overrides-service.js';
import { createFeedbackRepo } from '../features/feedback/feedback-repo.js';
import { createFeedbackService } from '../features/feedback/feedback-service.js';
import { createVesselServicesRepo } from '../features/vessel-services/vessel-services-repo.js';
import { createVesselServicesService } from '../features/vessel-services/vessel-services-service.js';

export interface CoreOptions {
  clock?: Clock;
  logger?: Logger;
  /** Attach extra limit policies to operations (for deployments that want stricter limits). */
  ratePolicyOverrides?: Record<string, readonly LimitPolicyName[]>;
  /** The built resource_infra layer loaded into an empty layer (docs/decisions/090): default the shipped file, null for none. */
  infraLayerFile?: string | null;
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
  const positionPartitions = createPositionPartitions(store.db, store.dialect);
  const fleetRepo = createFleetRepo(store.db, store.dialect, positionPartitions);
  const positionRetention = createPositionRetention({ db: store.db, dialect: store.dialect, partitions: positionPartitions, clock, settings: config.positions });
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
  const eventsRepo = createEventsRepo(store.db);
  // applied feedback corrections, laid over vessel and port data where it is served (docs/feedback.md)
  const overrides = createOverridesService({ repo: createOverridesRepo(store.db) });
  const ports = createPortsService({ cursors, repo: createPortsRepo(store.db), clock, corrections: { version: () => overrides.version(), corrected: () => overrides.corrected('port') } });
  // the port-call detector reads the stored port areas (docs/decisions/120); a rebuild or a correction here reloads them at once
  const portAreasRepo = createPortAreasRepo(store.db);
  const eventRunner = createEventRunner({
    repo: eventsRepo,
    fleetReads,
    ports: () => ports.table(),
    areas: { version: () => portAreasRepo.version(), load: () => portAreas.load() },
    clock,
    owner: fleet.instanceId,
  });
  const portAreas = createPortAreasService({
    repo: portAreasRepo,
    ports: () => ports.table(),
    portById: (id) => ports.byId(id),
    clock,
    leases: createLeaseRepo(store.db),
    owner: fleet.instanceId,
    onChanged: () => eventRunner.areasChanged(),
  });
  const events = createEventsService({ repo: eventsRepo, runner: eventRunner, areas: portAreas, clock });
  const operatorService = createOperatorService({ repo: createOperatorRepo(store.db), clock, audit });
  const exchange = createExchangeArea({
    store,
    bus,
    clock,
    cursors,
    audit,
    agents,
    profiles: harbor.services.profiles,
    telemetry,
    fleet,
    fleetReads,
    ports,
    notify: workspace.emit,
    streamSlots: redis
      ? redisSlots(redis, `${config.redis!.prefix}exchange-streams:`, REDIS_COMMAND_TIMEOUT_MS, (err) => logger.warn({ err }, 'exchange stream lease not renewed or released; it lapses'))
      : memorySlots(),
    flushUsage: () => usageMeter.flush(),
    onStreamError: (err) => logger.error({ err }, 'exchange message stream failed'),
  });
  const payments = createPaymentsService({
    repo: createPaymentsRepo(store.db),
    clock,
    audit,
    rails: config.payments.rails,
    intentsEnabled: () => config.payments.intentsEnabled,
    transaction: store.transaction,
  });
  const vessels = createVesselsService({
    fleet,
    fleetReads,
    repo: createVesselsRepo(store.db),
    bus,
    clock,
    cursors,
    pollSlots: redis
      ? redisSlots(redis, `${config.redis!.prefix}polls:`, REDIS_COMMAND_TIMEOUT_MS, (err) => logger.warn({ err }, 'poll lease not released; it lapses at its deadline'))
      : memorySlots(() => clock.now()),
    findTrial: (agentId) => trialRecords.find(agentId),
    corrections: (vslId) => overrides.corrections('vessel', vslId),
    onError: (err, context) => logger.error({ err }, context),
  });
  const billing = createBillingService({
    usage: usageRepo,
    meter: usageMeter,
    clock,
    catalog,
    cursors,
    payments: { rails: () => payments.rails(), intentsEnabled: () => payments.intentsEnabled() },
  });
  const meteredTelemetry = withUsageMetering(telemetry, usageMeter);
  const routesArea = createRoutesArea({
    store,
    clock,
    cursors,
    catalog,
    network: shippedSeaNetwork,
    ports,
    events,
    vessels,
    fleetReads,
    telemetry: meteredTelemetry,
    flushTelemetry: () => telemetry.flush(),
    usageLines: async (agentId, sinceDay) => {
      await usageMeter.flush();
      return usageRepo.agentLines(agentId, sinceDay);
    },
    allowance: async (agent) => (await billing.status(agent)).allowance,
  });
  const services: Services = {
    cursors,
    ports,
    events,
    sts: createStsService({ events, fleet, cursors, clock, corrections: (vslId) => overrides.corrections('vessel', vslId) }),
    eventsApi: createEventsApiService({ events, repo: createEventsListRepo(store.db), fleet, ports, cursors, clock, corrections: (vslId) => overrides.corrections('vessel', vslId) }),
    congestion: createCongestionService({ events, fleet, repo: createVisitRankRepo(store.db), clock, ports, corrections: (vslId) => overrides.corrections('vessel', vslId) }),
    consoleSessions: createConsoleSessions({ repo: createConsoleSessionsRepo(store.db), operator: operatorService, audit, clock }),
    resourceInfra: createInfraService({ repo: createInfraRepo(store.db), cursors, clock, ports: () => ports.table(), layerFile: options.infraLayerFile }),
    idempotency: createIdempotencyService({ repo: createIdempotencyRepo(store.db), clock }),
    audit,
    agents,
    operator: operatorService,
    telemetry: meteredTelemetry,
    payments,
    vessels,
    billing,
    ...routesArea.services,
    fleet,
    meta: createMetaService({
      config,
      catalog,
      clock,
      startedAt,
      statusReporters,
      ratePolicyOverrides: options.ratePolicyOverrides ?? {},
      storeDialect: store.dialect.name,
      pingStore: () => pingStore(store.db, () => performance.now()),
      pingRedis: redis ? async () => (await withinDeadline(redis.ping(), REDIS_COMMAND_TIMEOUT_MS, 'Redis')) === 'PONG' : null,
      pendingTelemetry: () => telemetry.pending(),
    }),
    webmcp: createWebmcpService({ repo: createWebmcpRepo(store.db), clock, catalog, cursors }),
    ...harbor.services,
    ...exchange.services,
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
      areas: portAreas,
    }),
    vesselServices: createVesselServicesService({
      repo: createVesselServicesRepo(store.db),
      clock,
      cursors,
      audit,
      vessels,
      events,
      ports,
      fleetReads,
      corrections: (vslId) => overrides.corrections('vessel', vslId),
    }),
  };
  const jobs: Job[] = [
    { name: 'audit_retention', everyMs: HOUR, run: () => services.audit.enforceRetention() },
    { name: 'console_sessions_expiry', everyMs: HOUR, run: () => services.consoleSessions.deleteExpired() },
    { name: 'telemetry_retention', everyMs: HOUR, run: () => services.telemetry.enforceRetention() },
    { name: 'usage_ledger_retention', everyMs: HOUR, run: () => services.billing.enforceRetention() },
    { name: 'payment_intent_expiry', everyMs: MINUTE, run: () => services.payments.expireDue() },
    { name: 'vessel_lookups_retention', everyMs: HOUR, run: () => services.vessels.enforceRetention() },
    { name: 'idempotency_retention', everyMs: HOUR, run: () => services.idempotency.enforceRetention() },
    // PostgreSQL's daily position partitions, created ahead so writers rarely create one (docs/decisions/101)
    { name: 'positions_partitions', everyMs: HOUR, run: () => positionPartitions.createAhead(clock.now(), PARTITION_DAYS_AHEAD) },
    { name: 'positions_retention', everyMs: HOUR, run: () => positionRetention.run() },
    { name: 'event_detection', everyMs: 2 * SECOND, run: () => services.events.runner.follow(SECOND) },
    { name: 'port_table_refresh', everyMs: MINUTE, run: () => services.ports.refreshIfLoaded() },
    { name: 'port_areas_rebuild', everyMs: HOUR, run: () => services.events.areas.rebuildIfDue() },
    { name: 'webmcp_dispatch_retention', everyMs: HOUR, run: () => services.webmcp.enforceRetention() },
    ...harbor.jobs,
    ...exchange.jobs,
    { name: 'workspace_events_retention', everyMs: HOUR, run: () => services.workspace.enforceRetention() },
    { name: 'overrides_refresh', everyMs: 5 * SECOND, run: () => services.overrides.refresh() },
    ...routesArea.jobs,
  ];

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
    redis
      ? new FallbackLimiterBackend(new RedisLimiterBackend(redis, config.redis!.prefix, REDIS_COMMAND_TIMEOUT_MS), new MemoryLimiterBackend(), redisFallbackLog(logger, clock))
      : new MemoryLimiterBackend(),
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
  // Feeds run in the one process holding the feed lease (docs/decisions/100); a process without feeds never claims it.
  let feeds: FeedManager | null = null;
  const feedOwner =
    options.background && configuredFeeds(config.feeds, { demo: config.demo, fleet: services.fleet, sink: services.fleet, clock, logger }).size > 0
      ? createFeedOwner({
          leases: createLeaseRepo(core.store.db),
          owner: services.fleet.instanceId,
          clock,
          leaseMs: config.feedLeaseMs,
          logger,
          start: async () => {
            const manager = configuredFeeds(config.feeds, { demo: config.demo, fleet: services.fleet, sink: services.fleet, clock, logger });
            await manager.start();
            feeds = manager;
            return {
              stop: async () => {
                feeds = null;
                await manager.stop();
              },
            };
          },
        })
      : null;
  if (feedOwner) {
    scheduler.add({ name: 'feed_lease', everyMs: Math.max(SECOND, Math.floor(config.feedLeaseMs / 3)), run: () => feedOwner.tick() });
    statusReporters.push(feedOwner.statusReporter());
  }
  if (options.background) {
    statusReporters.push({ name: 'feeds', report: () => feeds?.statusReporter().report() ?? { sources: [] } });
    services.telemetry.start();
    services.billing.meter.start();
    scheduler.start();
    services.fleet.startFlushing();
    services.vessels.start();
  }

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
      await feedOwner?.stop();
      await http.close();
      await scheduler.stop();
      await limiter.close();
      await core.close();
    },
  };
  if (feedOwner) {
    try {
      // the first claim at start: a single process (or the first of several) starts its feeds before serving
      await feedOwner.tick();
    } catch (e) {
      await bosun.close();
      throw e;
    }
  }
  return bosun;
}
