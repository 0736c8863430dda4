import type { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { MemoryBus, RedisBus, type Bus } from '../bus/index.js';
import { closeRedis } from '../bus/close-redis.js';
import { buildCatalogView } from '../catalog/catalog.js';
import { systemClock, HOUR, SECOND, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { Services } from '../features/services.js';
import { AREAS } from '../features/areas.js';
import type { ProcessBase } from '../features/kit/area.js';
import { consolePages } from '../features/console/console-pages.js';
import { sitePages } from '../features/site/site-pages.js';
import { mapPages } from '../features/map/map-pages.js';
import { createMapService } from '../features/map/map-service.js';
import { CONSOLE_SESSION } from '../features/console/console-sessions.js';
import { memorySlots, redisSlots } from '../limits/slots.js';
import { createFleetReads } from '../fleet/fleet-reads.js';
import { createFleetRepo } from '../fleet/fleet-repo.js';
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
import { openMigratedStore } from '../store/db.js';
import type { AppContext } from './context.js';
import type { StatusReporter } from '../observability/status.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { connectBusPublisher, connectRedis, REDIS_COMMAND_TIMEOUT_MS, redisFallbackLog } from './redis.js';
import { withinDeadline } from '../platform/deadline.js';

import { createDiscoveryService, discoveryPages } from '../features/discovery/discovery-service.js';

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
export interface BosunCore extends ProcessBase {
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

  const positionPartitions = createPositionPartitions(store.db, store.dialect);
  const fleetRepo = createFleetRepo(store.db, store.dialect, positionPartitions);
  const positionRetention = createPositionRetention({ db: store.db, dialect: store.dialect, partitions: positionPartitions, clock, settings: config.positions });
  const fleet = createFleetService({ repo: fleetRepo, bus, clock, onError: (err, context) => logger.error({ err }, context) });
  const fleetReads = createFleetReads(store.db);
  const catalog = buildCatalogView(AREAS.routes);
  const startedAt = clock.now();
  const statusReporters: StatusReporter[] = [];
  const processBase: ProcessBase = { config, clock, logger, store, redis, bus };
  const areas = AREAS.build({
    ...processBase,
    cursors,
    catalog,
    fleet,
    fleetReads,
    leaseSlots: (name, onError, now) => (redis ? redisSlots(redis, `${config.redis!.prefix}${name}:`, REDIS_COMMAND_TIMEOUT_MS, onError) : memorySlots(now)),
    pingRedis: redis ? async () => (await withinDeadline(redis.ping(), REDIS_COMMAND_TIMEOUT_MS, 'Redis')) === 'PONG' : null,
    statusReporters,
    startedAt,
    infraLayerFile: options.infraLayerFile,
    ratePolicyOverrides: options.ratePolicyOverrides ?? {},
  });
  const services: Services = { cursors, fleet, ...areas.services };
  const jobs: Job[] = [
    // PostgreSQL's daily position partitions, created ahead so writers rarely create one (docs/decisions/101)
    { name: 'positions_partitions', everyMs: HOUR, run: () => positionPartitions.createAhead(clock.now(), PARTITION_DAYS_AHEAD) },
    { name: 'positions_retention', everyMs: HOUR, run: () => positionRetention.run() },
    ...areas.jobs,
  ];

  let closed = false;
  return {
    ...processBase,
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
