import type { Static, TSchema } from '@sinclair/typebox';
import type { OperationExample } from '../../../catalog/types.js';
import type { EnvelopeResult } from '../../../http/route.js';
import { defineRoute } from '../../kit/route.js';
import type { Services } from '../../../platform/services.js';
import { AVAILABILITY_TARGET, DOWN_SERVER_ERROR_RATE, LATENCY_TARGET, MIN_ALERT_REQUESTS, DEFAULT_LATENCY_SLO_MS, LATENCY_SLO_MS } from './rules.js';
import type { QualityQuery as QualityInput } from './quality-service.js';
import * as S from './schemas.js';

const SLOS = Object.entries(LATENCY_SLO_MS)
  .map(([op, ms]) => `${op} ${ms} ms`)
  .join(', ');
const COMMON = `A view over request telemetry of the routes operations (every answered request's latency, status, error code, answer-cache use and fallback; the quality views themselves are not counted). Window: hours (default 24, at most 720) or days (at most 30) back from now; bucket_minutes (default 60, at most 720 buckets); operation = one routes operation (id or path name). No telemetry in the window: counts 0, rates and scores null, quality flag no_telemetry_in_window. SLOs: availability ${AVAILABILITY_TARGET} (share without 5xx), ${LATENCY_TARGET} of requests within the latency SLO (${SLOS}, others ${DEFAULT_LATENCY_SLO_MS} ms). See docs/routes-service-quality.md.`;
const ALERTS = `Alerts per bucket and operation (at least ${MIN_ALERT_REQUESTS} requests): server_error_rate > 5 % (critical ≥ 25 %), latency_p95 over the SLO (critical over twice it), fallback_share > 25 % (critical ≥ 50 %). A bucket is down when ≥ ${DOWN_SERVER_ERROR_RATE * 100} % of at least ${MIN_ALERT_REQUESTS} requests failed with 5xx, degraded when an alert fired, ok otherwise, no_data without requests.`;

const EXAMPLES: readonly OperationExample[] = [
  { summary: 'Every routes operation, the last 24 hours', query: {} },
  { summary: 'Route direct, 7 days in 6-hour buckets', query: { operation: 'direct', days: 7, bucket_minutes: 360 } },
];

/** One view: the service's answer for the window of `query`, checked against `response` by the compiler. */
function view<R extends TSchema>(operationId: string, description: string, response: R, answer: (query: QualityInput, quality: Services['routesQuality']) => Promise<EnvelopeResult<Static<R>>>) {
  return defineRoute({
    operationId,
    description: `${description} ${COMMON}`,
    query: S.QualityQuery,
    response,
    errors: ['invalid_request'],
    examples: EXAMPLES,
    handler: ({ query }, call) => answer(query, call.services.routesQuality),
  });
}

export const routesQualityRoutes = [
  view(
    'getRoutesQuality',
    'Service quality of the routes operations: per operation and overall requests, availability, error rates, latency percentiles, latency SLO attainment, cache hits, fallback share and the quality score 100 × (0.5 availability + 0.3 latency attainment + 0.2 (1 − fallback share)).',
    S.QualityData,
    (q, quality) => quality.quality(q),
  ),
  view('getRoutesPerf', 'Latency of the routes operations: p50, p90, p95, p99, max and mean per operation and overall, with the latency SLO and its attainment.', S.PerfData, (q, quality) =>
    quality.perf(q),
  ),
  view('getRoutesPerfBreakdown', 'Latency percentiles per operation split by status class (2xx, 4xx, 5xx) and by answer-cache use (hit, miss, miss_evict, none).', S.PerfBreakdownData, (q, quality) =>
    quality.perfBreakdown(q),
  ),
  view('getRoutesLatencyTrend', 'Latency per bucket: p50, p95, p99, max and the requests over their latency SLO.', S.LatencyTrendData, (q, quality) => quality.latencyTrend(q)),
  view(
    'getRoutesCacheEfficiency',
    'The route answer cache (direct, with-via): hits, misses, evictions, hit ratio, median latency of hits and misses and the time hits saved = hits × (p50 miss − p50 hit); and the answering process cache counters.',
    S.CacheEfficiencyData,
    (q, quality) => quality.cacheEfficiency(q),
  ),
  view('getRoutesCacheHitTrend', 'Answer-cache hits, misses, evictions and hit ratio per bucket.', S.CacheHitTrendData, (q, quality) => quality.cacheHitTrend(q)),
  view(
    'getRoutesCacheStaleness',
    'Age of the answers served from the cache (percentiles of the cached answer age at the time it was served) and the ages of the answers the answering process holds now.',
    S.CacheStalenessData,
    (q, quality) => quality.cacheStaleness(q),
  ),
  view(
    'getRoutesCacheTurnover',
    'Answer-cache turnover per bucket: inserts (misses), evictions (inserts that evicted the least recently used answer), hits and hit ratio.',
    S.CacheTurnoverData,
    (q, quality) => quality.cacheTurnover(q),
  ),
  view(
    'getRoutesFallbackTrend',
    'Answers produced by a documented fallback per bucket, by reason: long_connector (a place over 27 nm from the network), no_event_data (advisory or risk-flags without the event layer), ship_type_default_speed (forecast-lite without a measured speed).',
    S.FallbackTrendData,
    (q, quality) => quality.fallbackTrend(q),
  ),
  view('getRoutesSlaBreaches', 'Requests over their latency SLO and server errors per operation against the SLO targets, and the newest 50 breaching requests.', S.SlaBreachesData, (q, quality) =>
    quality.slaBreaches(q),
  ),
  view(
    'getRoutesSloSnapshot',
    'SLO targets, attainment, and the error budget left: allowed failures = (1 − availability target) × requests, remaining = 1 − failures / allowed (negative when overspent); the same for the latency budget.',
    S.SloSnapshotData,
    (q, quality) => quality.sloSnapshot(q),
  ),
  view(
    'getRoutesEndpointReliability',
    `Per operation: availability, success and client error rates, latency attainment, buckets ok/degraded/down, the longest unhealthy streak, the last server error and the reliability index. ${ALERTS}`,
    S.EndpointReliabilityData,
    (q, quality) => quality.endpointReliability(q),
  ),
  view(
    'getRoutesReliabilityIndex',
    `Reliability index 0–100 = 100 × (0.6 availability + 0.2 latency attainment + 0.2 share of ok buckets among buckets with requests), overall and per operation. ${ALERTS}`,
    S.ReliabilityIndexData,
    (q, quality) => quality.reliabilityIndex(q),
  ),
  view(
    'getRoutesReliabilityDrivers',
    'What drives unreliability (requests with 5xx or over their latency SLO): operations by their share of unreliable requests, server error codes by their share of server errors.',
    S.ReliabilityDriversData,
    (q, quality) => quality.reliabilityDrivers(q),
  ),
  view(
    'getRoutesErrorCatalog',
    'Error codes answered in the window with counts, statuses and operations, and per routes operation the codes its catalog entry declares, those seen, and those seen but neither declared nor a pipeline code.',
    S.ErrorCatalogData,
    (q, quality) => quality.errorCatalog(q),
  ),
  view('getRoutesStatusTimeline', `Status per bucket over the routes operations. ${ALERTS}`, S.StatusTimelineData, (q, quality) => quality.statusTimeline(q)),
  view('getRoutesAlertsFeed', `Alerts raised in the window, newest first, with value, threshold and message. ${ALERTS}`, S.AlertsFeedData, (q, quality) => quality.alertsFeed(q)),
  view('getRoutesAlertsSummary', `Alert counts by rule, severity and operation, and the alerts of the current bucket. ${ALERTS}`, S.AlertsSummaryData, (q, quality) => quality.alertsSummary(q)),
  view('getRoutesAlertKeysTrend', `Alerts per bucket by rule, with their keys (rule:operation). ${ALERTS}`, S.AlertKeysTrendData, (q, quality) => quality.alertKeysTrend(q)),
  view(
    'getRoutesIncidentQueue',
    `Incidents: consecutive buckets raising the same alert key; open while the current bucket raises it, otherwise closed at the end of its last bucket. Open first, newest first. ${ALERTS}`,
    S.IncidentQueueData,
    (q, quality) => quality.incidentQueue(q),
  ),
  view(
    'getRoutesQualityHistory',
    'Per bucket: requests, availability, success and server error rates, latency p50/p95 and attainment, cache hit ratio, fallback share and quality score.',
    S.QualityHistoryData,
    (q, quality) => quality.qualityHistory(q),
  ),
  view(
    'getRoutesQualityScoreTrend',
    'Quality score per bucket (100 × (0.5 availability + 0.3 latency attainment + 0.2 (1 − fallback share)); null without requests), over the window, and its min, max, mean and change.',
    S.QualityScoreTrendData,
    (q, quality) => quality.qualityScoreTrend(q),
  ),
  view(
    'getRoutesOpsDigest',
    `Operator digest: headline numbers and sentences quoting them (requests, availability, score, lowest-scoring operation, top error code, cache, alerts, incidents). ${ALERTS}`,
    S.OpsDigestData,
    (q, quality) => quality.opsDigest(q),
  ),
  view('getRoutesOpsScorecard', 'Operator scorecard: per operation the quality score and its grade (A ≥ 95, B ≥ 90, C ≥ 80, D ≥ 70, F below).', S.OpsScorecardData, (q, quality) =>
    quality.opsScorecard(q),
  ),
  view('getRoutesOpsOverview', `Operator overview: status now, totals, SLO, alerts firing, open incidents, cache, fallbacks, the busiest operations. ${ALERTS}`, S.OpsOverviewData, (q, quality) =>
    quality.opsOverview(q),
  ),
  view(
    'getRoutesOpsVolatility',
    'Operator volatility: mean, standard deviation and coefficient of variation across buckets of requests per bucket, p95 latency and server error rate (buckets with requests), overall and per operation.',
    S.OpsVolatilityData,
    (q, quality) => quality.opsVolatility(q),
  ),
  view(
    'getRoutesOpsControlTower',
    `Operator control tower: per operation status now, availability, p95 against SLO, error budget left, score, alerts firing and open incidents. ${ALERTS}`,
    S.OpsControlTowerData,
    (q, quality) => quality.opsControlTower(q),
  ),
  view(
    'getRoutesOpsRecommendations',
    `Operator recommendations derived by rule, each with its evidence: availability or latency below target, frequent fallback (reason-specific action), answer cache churning (evictions while under half the requests hit), open incidents. Priority 1 first. ${ALERTS}`,
    S.OpsRecommendationsData,
    (q, quality) => quality.opsRecommendations(q),
  ),
  view(
    'getRoutesOpsHealth',
    `Operator health checks: telemetry recorded, status now, availability and latency SLOs, open incidents, answer cache; health = unknown without requests, unhealthy when down or three checks fail, degraded when one fails. ${ALERTS}`,
    S.OpsHealthData,
    (q, quality) => quality.opsHealth(q),
  ),
];
