import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { MemoryBus, RedisBus, type Bus } from '../bus/index.js';
import { buildCatalogView } from '../catalog/catalog.js';
import { systemClock, HOUR, MINUTE, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import { createAgentsRepo } from '../features/agents/agents-repo.js';
import { createAgentsService } from '../features/agents/agents-service.js';
import { createAuditRepo } from '../features/audit/audit-repo.js';
import { createAuditService } from '../features/audit/audit-service.js';
import { createFeedService, type FeedSource } from '../features/harbor/feed/feed-service.js';
import { createGroupsRepo } from '../features/harbor/groups/groups-repo.js';
import { createGroupsService, publicNameFromProfiles } from '../features/harbor/groups/groups-service.js';
import { createHelpRepo } from '../features/harbor/help/help-repo.js';
import { createHelpService } from '../features/harbor/help/help-service.js';
import { createOperatorRequestsRepo } from '../features/harbor/operator-requests/operator-requests-repo.js';
import { createOperatorRequestsService } from '../features/harbor/operator-requests/operator-requests-service.js';
import { createProfilesRepo } from '../features/harbor/profiles/profiles-repo.js';
import { createProfilesService } from '../features/harbor/profiles/profiles-service.js';
import { createQuotaRepo } from '../features/harbor/quota/quota-repo.js';
import { createQuotaService, type ActiveItemSource } from '../features/harbor/quota/quota-service.js';
import type { OnboardingCheck } from '../features/harbor/tasks/onboarding.js';
import { createProductionTasksRepo } from '../features/harbor/tasks/production-tasks-repo.js';
import { createProductionTasksService } from '../features/harbor/tasks/production-tasks-service.js';
import { createSandboxTasksRepo } from '../features/harbor/tasks/sandbox-tasks-repo.js';
import { createSandboxTasksService } from '../features/harbor/tasks/sandbox-tasks-service.js';
import { createTaskCompletionsRepo } from '../features/harbor/tasks/task-completions-repo.js';
import { createIdempotencyRepo } from '../features/idempotency/idempotency-repo.js';
import { createIdempotencyService } from '../features/idempotency/idempotency-service.js';
import { createTrialsRepo } from '../features/harbor/trials/trials-repo.js';
import { createTrialsService } from '../features/harbor/trials/trials-service.js';
import { ALL_ROUTES } from '../features/index.js';
import { createOperatorRepo } from '../features/operator/operator-repo.js';
import { createOperatorService } from '../features/operator/operator-service.js';
import { createPaymentsRepo } from '../features/payments/payments-repo.js';
import { createPaymentsService } from '../features/payments/payments-service.js';
import { createTelemetryRepo } from '../features/telemetry/telemetry-repo.js';
import { createTelemetryService } from '../features/telemetry/telemetry-service.js';
import { memoryPollSlots, redisPollSlots } from '../features/vessels/poll-slots.js';
import { createVesselsRepo } from '../features/vessels/vessels-repo.js';
import { createVesselsService } from '../features/vessels/vessels-service.js';
import { createFleetRepo } from '../fleet/fleet-repo.js';
import { createFleetService } from '../fleet/fleet-service.js';
import type { FeedManager } from '../feeds/feed-manager.js';
import { configuredFeeds } from '../feeds/serve-feeds.js';
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
  /** Harbor features that hold active items add their counters here (contract-wide active limit). */
  const activeItemSources: ActiveItemSource[] = [];
  const harborQuota = createQuotaService({ repo: createQuotaRepo(store.db), clock, activeSources: activeItemSources });
  const agents = createAgentsService({ repo: createAgentsRepo(store.db), clock, audit, autoSandbox: () => config.autoSandbox });
  /** Onboarding checklist items the service can verify; a feature wires its item here (welcome_desk_intro, help_request). */
  const profileRows = createProfilesRepo(store.db, store.dialect);
  const operatorRequestRows = createOperatorRequestsRepo(store.db);
  const onboardingChecks: OnboardingCheck[] = [
    { taskKey: 'publish_profile', isDone: async (agentId) => (await profileRows.findPublic(agentId)) !== undefined },
    { taskKey: 'send_operator_request', isDone: async (agentId) => (await operatorRequestRows.listByAgent(agentId, 1)).length > 0 },
    { taskKey: 'welcome_desk_intro', isDone: (agentId) => groups.hasIntroduced(agentId) },
    { taskKey: 'help_request', isDone: (agentId) => help.hasTakenPart(agentId) },
  ];
  const taskDeps = { completions: createTaskCompletionsRepo(store.db), clock, audit, quota: harborQuota, agents };
  const fleetRepo = createFleetRepo(store.db);
  const fleet = createFleetService({ repo: fleetRepo, bus, clock, onError: (err, context) => logger.error({ err }, context) });
  const help = createHelpService({ repo: createHelpRepo(store.db), clock, audit, agents, quota: harborQuota });
  activeItemSources.push(help.activeItems);
  const sandboxTasks = createSandboxTasksService({ ...taskDeps, repo: createSandboxTasksRepo(store.db), onboardingChecks });
  const profiles = createProfilesService({
    repo: createProfilesRepo(store.db, store.dialect),
    clock,
    audit,
    quota: harborQuota,
    interactionSources: [help.feedbackInteractions],
    discoverySources: [help.discovery],
  });
  const groups = createGroupsService({
    repo: createGroupsRepo(store.db),
    clock,
    audit,
    quota: harborQuota,
    signals: {
      reputationScore: async (agentId) => (await help.feedbackScore(agentId)).score,
      completedTasks: (agentId) => sandboxTasks.completedTaskCount(agentId),
      incidents: async () => 0,
    },
    publicName: publicNameFromProfiles(profiles),
  });
  /** Harbor features that publish public activity add their sources here (help requests join the groups). */
  const feedSources: FeedSource[] = [groups.feedSource, help.feedSource];
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
    operatorRequests: createOperatorRequestsService({ repo: createOperatorRequestsRepo(store.db), clock, audit, agents, quota: harborQuota }),
    profiles,
    harborQuota,
    groups,
    feed: createFeedService({ sources: feedSources }),
    payments: createPaymentsService({
      repo: createPaymentsRepo(store.db),
      clock,
      audit,
      rails: config.payments.rails,
      intentsEnabled: () => config.payments.intentsEnabled,
    }),
    sandboxTasks,
    harborTasks: createProductionTasksService({ ...taskDeps, repo: createProductionTasksRepo(store.db) }),
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
    idempotency: createIdempotencyService({ repo: createIdempotencyRepo(store.db), clock }),
    help,
  };
  activeItemSources.push(services.sandboxTasks.activeItems, services.harborTasks.activeItems);
  const trials = createTrialsService({ repo: createTrialsRepo(store.db), clock, fleet, agents, audit });
  await services.fleet.start();

  const scheduler = createScheduler(logger, () => clock.now());
  scheduler.add({ name: 'audit_retention', everyMs: HOUR, run: () => services.audit.enforceRetention() });
  scheduler.add({ name: 'harbor_quota_retention', everyMs: HOUR, run: () => services.harborQuota.enforceRetention() });
  scheduler.add({ name: 'payment_intent_expiry', everyMs: MINUTE, run: () => services.payments.expireDue() });
  scheduler.add({ name: 'harbor_sandbox_tasks_retention', everyMs: HOUR, run: () => services.sandboxTasks.enforceRetention() });
  scheduler.add({ name: 'harbor_tasks_retention', everyMs: HOUR, run: () => services.harborTasks.enforceRetention() });
  scheduler.add({ name: 'harbor_groups_retention', everyMs: HOUR, run: () => services.groups.enforceRetention() });
  scheduler.add({ name: 'idempotency_retention', everyMs: HOUR, run: () => services.idempotency.enforceRetention() });
  scheduler.add({ name: 'harbor_help_retention', everyMs: HOUR, run: () => services.help.enforceRetention() });
  scheduler.add({ name: 'telemetry_retention', everyMs: HOUR, run: () => services.telemetry.enforceRetention() });
  scheduler.add({ name: 'vessel_lookups_retention', everyMs: HOUR, run: () => services.vessels.enforceRetention() });
  const statusReporters: StatusReporter[] = [{ name: 'jobs', report: () => ({ jobs: scheduler.statuses() }) }];
  statusReporters.push(services.fleet.statusReporter());

  scheduler.add({ name: 'trial_failures_retention', everyMs: HOUR, run: () => trials.enforceRetention() });
  const ctx: AppContext = {
    config,
    clock,
    logger,
    store,
    redis,
    bus,
    limiter,
    catalog: buildCatalogView(ALL_ROUTES),
    services: { ...services, trials },
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
      await services.telemetry.stop();
      await services.vessels.stop().catch((err) => logger.error({ err }, 'vessel lookup records not written'));
      await services.fleet.stop();
      await bus.close();
      await limiter.close();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await store.close();
    },
  };
  if (options.background) {
    try {
      feeds = configuredFeeds(config.feeds, { ctx, sink: services.fleet, clock, logger });
      statusReporters.push(feeds.statusReporter());
      await feeds.start();
    } catch (e) {
      await bosun.close();
      throw e;
    }
  }
  return bosun;
}
