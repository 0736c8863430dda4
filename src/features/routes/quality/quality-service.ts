import type { CatalogView } from '../../../catalog/catalog.js';
import { HOUR, type Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { RoutesQualityRepo } from './quality-repo.js';
import {
  DEFAULT_BUCKET_MINUTES,
  DEFAULT_HOURS,
  MAX_BUCKETS,
  QUALITY_OPERATION_IDS,
  QUALITY_VIEW_CAP,
  qualityWindow,
  type CacheStatus,
  type QualityProcess,
  type QualityQuery,
} from './quality-window.js';
import { opsViews } from './quality-views-ops.js';
import { perfViews } from './quality-views-perf.js';
import { reliabilityViews } from './quality-views-reliability.js';

export type { QualityQuery } from './quality-window.js';

/**
 * Service-quality views of the routes operations over request telemetry (docs/routes-service-quality.md,
 * decisions 066 and 067): one window reader, the rules of rules.ts, no value that telemetry did not record.
 */
export function createRoutesQualityService(deps: {
  repo: RoutesQualityRepo;
  clock: Clock;
  catalog: CatalogView;
  flushTelemetry: () => Promise<void>;
  cacheStatus: () => CacheStatus;
  cachedAt: () => number[];
}) {
  const { clock } = deps;
  const process: QualityProcess = { cacheStatus: deps.cacheStatus, cachedAt: deps.cachedAt, catalog: deps.catalog, now: () => clock.now() };
  const routesOps = deps.catalog.all.filter((e) => e.section === 'routes' && !QUALITY_OPERATION_IDS.has(e.operationId));
  const covered = routesOps.map((e) => e.operationId);
  const byName = new Map<string, string>();
  for (const e of routesOps) {
    byName.set(e.operationId, e.operationId);
    byName.set(e.path.replace(/^\/v1\/routes\//, ''), e.operationId);
  }

  function operationsOf(operation: string | undefined): string[] {
    if (operation === undefined) return covered;
    const id = byName.get(operation.trim());
    if (id === undefined) {
      const why =
        QUALITY_OPERATION_IDS.has(operation) || [...QUALITY_OPERATION_IDS].some((q) => deps.catalog.byOperationId.get(q)?.path === `/v1/routes/${operation}`)
          ? 'is a quality view, not covered'
          : 'is not a routes operation';
      throw new AppError('invalid_request', `operation ${operation} ${why}; give a routes operation id (e.g. getRoutesDirect) or its path name (e.g. direct, with-via)`, { field: 'operation' });
    }
    return [id];
  }

  /** The one window reader: validates the window, flushes pending telemetry, reads the samples and buckets them. */
  async function read(q: QualityQuery) {
    if (q.hours !== undefined && q.days !== undefined) throw new AppError('invalid_request', 'give hours or days, not both', { field: 'days' });
    const hours = q.days !== undefined ? q.days * 24 : (q.hours ?? DEFAULT_HOURS);
    const bucketMinutes = q.bucket_minutes ?? DEFAULT_BUCKET_MINUTES;
    const bucketMs = bucketMinutes * 60_000;
    const count = Math.ceil((hours * HOUR) / bucketMs);
    if (count > MAX_BUCKETS)
      throw new AppError('invalid_request', `${hours} hours in ${bucketMinutes}-minute buckets is ${count} buckets; at most ${MAX_BUCKETS}: widen bucket_minutes`, { field: 'bucket_minutes' });
    const operations = operationsOf(q.operation);
    const until = clock.now();
    // bucket edges on whole multiples of the bucket (UTC): the same alerts fall in the same buckets from call
    // to call, so an incident keeps its start and its id; the oldest bucket reaches back to the edge before
    const since = Math.floor((until - hours * HOUR) / bucketMs) * bucketMs;
    await deps.flushTelemetry();
    const samples = (await deps.repo.window(since, until, operations, QUALITY_VIEW_CAP)).reverse();
    return qualityWindow({ hours, bucketMinutes, since, until, operations, operation: q.operation }, samples, process);
  }

  return {
    quality: async (q: QualityQuery) => perfViews.quality(await read(q)),
    perf: async (q: QualityQuery) => perfViews.perf(await read(q)),
    perfBreakdown: async (q: QualityQuery) => perfViews.perfBreakdown(await read(q)),
    latencyTrend: async (q: QualityQuery) => perfViews.latencyTrend(await read(q)),
    cacheEfficiency: async (q: QualityQuery) => perfViews.cacheEfficiency(await read(q)),
    cacheHitTrend: async (q: QualityQuery) => perfViews.cacheHitTrend(await read(q)),
    cacheStaleness: async (q: QualityQuery) => perfViews.cacheStaleness(await read(q)),
    cacheTurnover: async (q: QualityQuery) => perfViews.cacheTurnover(await read(q)),
    fallbackTrend: async (q: QualityQuery) => perfViews.fallbackTrend(await read(q)),
    slaBreaches: async (q: QualityQuery) => reliabilityViews.slaBreaches(await read(q)),
    sloSnapshot: async (q: QualityQuery) => reliabilityViews.sloSnapshot(await read(q)),
    endpointReliability: async (q: QualityQuery) => reliabilityViews.endpointReliability(await read(q)),
    reliabilityIndex: async (q: QualityQuery) => reliabilityViews.reliabilityIndex(await read(q)),
    reliabilityDrivers: async (q: QualityQuery) => reliabilityViews.reliabilityDrivers(await read(q)),
    errorCatalog: async (q: QualityQuery) => reliabilityViews.errorCatalog(await read(q)),
    statusTimeline: async (q: QualityQuery) => reliabilityViews.statusTimeline(await read(q)),
    alertsFeed: async (q: QualityQuery) => opsViews.alertsFeed(await read(q)),
    alertsSummary: async (q: QualityQuery) => opsViews.alertsSummary(await read(q)),
    alertKeysTrend: async (q: QualityQuery) => opsViews.alertKeysTrend(await read(q)),
    incidentQueue: async (q: QualityQuery) => opsViews.incidentQueue(await read(q)),
    qualityHistory: async (q: QualityQuery) => opsViews.qualityHistory(await read(q)),
    qualityScoreTrend: async (q: QualityQuery) => opsViews.qualityScoreTrend(await read(q)),
    opsDigest: async (q: QualityQuery) => opsViews.opsDigest(await read(q)),
    opsScorecard: async (q: QualityQuery) => opsViews.opsScorecard(await read(q)),
    opsOverview: async (q: QualityQuery) => opsViews.opsOverview(await read(q)),
    opsVolatility: async (q: QualityQuery) => opsViews.opsVolatility(await read(q)),
    opsControlTower: async (q: QualityQuery) => opsViews.opsControlTower(await read(q)),
    opsRecommendations: async (q: QualityQuery) => opsViews.opsRecommendations(await read(q)),
    opsHealth: async (q: QualityQuery) => opsViews.opsHealth(await read(q)),
  };
}

export type RoutesQualityService = ReturnType<typeof createRoutesQualityService>;
