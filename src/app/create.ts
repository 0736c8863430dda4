import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { MemoryBus, RedisBus, type Bus } from '../bus/index.js';
import { buildCatalogView } from '../catalog/catalog.js';
import { systemClock, HOUR, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createAgentsRepo } from '../features/agents/agents-repo.js';
import { createAgentsService } from '../features/agents/agents-service.js';
import { createAuditRepo } from '../features/audit/audit-repo.js';
import { createAuditService } from '../features/audit/audit-service.js';
import { createOperatorRequestsRepo } from '../features/harbor/operator-requests/operator-requests-repo.js';
import { createOperatorRequestsService } from '../features/harbor/operator-requests/operator-requests-service.js';
import { createProfilesRepo } from '../features/harbor/profiles/profiles-repo.js';
import { createProfilesService } from '../features/harbor/profiles/profiles-service.js';
import { ALL_ROUTES } from '../features/index.js';
import { createOperatorRepo } from '../features/operator/operator-repo.js';
import { createOperatorService } from '../features/operator/operator-service.js';
import { createTelemetryRepo } from '../features/telemetry/telemetry-repo.js';
import { createTelemetryService } from '../features/telemetry/telemetry-service.js';
import { memoryPollSlots, redisPollSlots } from '../features/vessels/poll-slots.js';
import { createVesselsRepo } from '../features/vessels/vessels-repo.js';
import { createVesselsService } from '../features/vessels/vessels-service.js';
import { createFleetRepo } from '../fleet/fleet-repo.js';
import { createFleetService } from '../fleet/fleet-service.js';
import { buildHttpApp } from '../http/app.js';
import { createScheduler, type Scheduler } from '../jobs/scheduler.js';
import { Limiter, MemoryLimiterBackend, RedisLimiterBackend } from '../limits/limiter.js';
import type { LimitPolicyName } from '../limits/policies.js';
import { migrateToLatest, openStore } from '../store/db.js';
import type { AppContext, StatusReporter } from './context.js';
import { createLogger, type Logger } from './logger.js';

export interface BosunOptions {
  clock?: Clock;
  logger?: Logger;
  /** Attach extra limit policies to operations (for deployments that want stricter limits). */
  ratePolicyOverrides?: Record<string, readonly LimitPolicyName[]>;
  /** Start interval jobs and telemetry flushing (the serve command); off for one-shot CLI use. */
  background?: boolean;
}

export interface Bosun {
  ctx: AppContext;
  http: FastifyInstance;
  scheduler: Scheduler;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Builds the whole service from a configuration: store, Redis, services, jobs and HTTP. */
export async function createBosun(config: Config, options: BosunOptions = {}): Promise<Bosun> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = await openStore(config.database);
  await migrateToLatest(store);

  let redis: Redis | null = null;
  if (config.redis) {
    redis = new Redis(config.redis.url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
    await redis.connect();
  }
  const onBusError = (topic: string, err: unknown) => logger.warn({ err, topic }, 'bus handler failed');
  const bus: Bus = redis ? new RedisBus(redis, config.redis!.prefix, onBusError) : new MemoryBus(onBusError);
  const limiter = new Limiter(redis ? new RedisLimiterBackend(redis, config.redis!.prefix) : new MemoryLimiterBackend());

  const audit = createAuditService({ repo: createAuditRepo(store.db), clock });
  const agents = createAgentsService({ repo: createAgentsRepo(store.db), clock, audit, autoSandbox: () => config.autoSandbox });
  const fleetRepo = createFleetRepo(store.db);
  const fleet = createFleetService({ repo: fleetRepo, bus, clock, onError: (err, context) => logger.error({ err }, context) });
  const services = {
    audit,
    agents,
    operator: createOperatorService({ repo: createOperatorRepo(store.db), clock, audit }),
    telemetry: createTelemetryService({
      repo: createTelemetryRepo(store.db),
      clock,
      enabled: () => config.telemetry,
      onFlushError: (err) => logger.error({ err }, 'telemetry flush failed'),
    }),
    operatorRequests: createOperatorRequestsService({ repo: createOperatorRequestsRepo(store.db), clock, audit, agents }),
    profiles: createProfilesService({
      repo: createProfilesRepo(store.db, store.dialect),
      clock,
      audit,
      interactionSources: [],
      discoverySources: [],
    }),
    fleet,
    vessels: createVesselsService({
      fleet,
      fleetRepo,
      repo: createVesselsRepo(store.db),
      bus,
      clock,
      pollSlots: redis ? redisPollSlots(redis, config.redis!.prefix) : memoryPollSlots(),
      onError: (err, context) => logger.error({ err }, context),
    }),
  };
  await services.fleet.start();

  const scheduler = createScheduler(logger, () => clock.now());
  scheduler.add({ name: 'audit_retention', everyMs: HOUR, run: () => services.audit.enforceRetention() });
  scheduler.add({ name: 'telemetry_retention', everyMs: HOUR, run: () => services.telemetry.enforceRetention() });
  scheduler.add({ name: 'vessel_lookups_retention', everyMs: HOUR, run: () => services.vessels.enforceRetention() });
  const statusReporters: StatusReporter[] = [{ name: 'jobs', report: () => ({ jobs: scheduler.statuses() }) }];
  statusReporters.push(services.fleet.statusReporter());

  const ctx: AppContext = {
    config,
    clock,
    logger,
    store,
    redis,
    bus,
    limiter,
    catalog: buildCatalogView(ALL_ROUTES),
    services,
    startedAt: clock.now(),
    statusReporters,
    ratePolicyOverrides: options.ratePolicyOverrides ?? {},
  };
  const http = buildHttpApp(ctx);
  if (options.background) {
    services.telemetry.start();
    scheduler.start();
    services.fleet.startFlushing();
    services.vessels.start();
  }

  let closed = false;
  return {
    ctx,
    http,
    scheduler,
    async listen() {
      return http.listen({ host: config.host, port: config.port });
    },
    async close() {
      if (closed) return;
      closed = true;
      await http.close();
      await scheduler.stop();
      await services.telemetry.stop();
      await services.vessels.stop().catch((err) => logger.error({ err }, 'vessel lookup records not written'));
      await services.fleet.stop();
      await bus.close();
      await limiter.close();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await store.close();
    },
  };
}
