import { ANOMALY_Z, CV_STABLE, CV_VARIABLE, HEALTH_WEIGHTS, MIN_HISTORY, REGIME_RULES, WATCH_RULES } from './corridor-stats.js';
import { PRESSURE_TREND_PCT } from './corridors-service.js';
import { defineRoute } from '../../kit/route.js';
import {
  CorridorAnomalyScoreData,
  CorridorDailyQuery,
  CorridorHealthData,
  CorridorPressureTrendData,
  CorridorRankingData,
  CorridorRankingQuery,
  CorridorRegimesData,
  CorridorStabilityData,
  CorridorsData,
  CorridorWatchData,
  CorridorWindowQuery,
} from './schemas.js';

const CORRIDORS = 'A corridor is one of the twelve chokepoint gates of the event layer (docs/events.md); its figures come from the chokepoint transits the event detector stored.';
const WINDOW =
  'The window is range (24H, 7D, 30D; default 7D) ending at your horizon (now with vessels:live, else the preview delay ago: delayed_position); the baseline is the mean over the 4 windows of the same length before it that the stored positions cover (no_baseline when none).';
const DAILY = 'Days are 24-hour days back from your horizon (days, default 28, 7-60); days that begin before the oldest stored position are left out (days_covered).';
const FLAGS = 'quality_flags: no_transits_in_window (nothing to measure: values are null or empty), events_not_analysed, simulated_source (demo transits used).';
const WINDOW_ERRORS = ['invalid_request', 'invalid_range', 'unknown_zone'] as const;
const DAILY_ERRORS = ['invalid_request', 'unknown_zone'] as const;

const corridors = defineRoute({
  operationId: 'getRoutesCorridors',
  description: `Every corridor with its window figures: transits by direction, distinct vessels, median transit hours, mean speed, stopped share (time stopped below 0.5 kn over time in the gate), hours stopped per transit, the baseline of each, the route stress index of the gate over the same range, and the routing passage it corresponds to. ${CORRIDORS} ${WINDOW} ${FLAGS}`,
  query: CorridorWindowQuery,
  response: CorridorsData,
  errors: WINDOW_ERRORS,
  examples: [
    { summary: 'All corridors over the last 7 days', query: {} },
    { summary: 'Suez over 24 hours', query: { corridor: 'suez', range: '24H' } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.corridors(call.caller, query);
  },
});

const ranking = defineRoute({
  operationId: 'getRoutesCorridorRanking',
  description: `Corridors ranked by one metric, highest first (ties by key): by=transits (default) transits that left the gate; stress the route stress index; slowdown (baseline speed − speed) / baseline speed × 100; waiting hours stopped in the gate per transit. Corridors without a value are listed in unranked with the reason. ${CORRIDORS} ${WINDOW} ${FLAGS}`,
  query: CorridorRankingQuery,
  response: CorridorRankingData,
  errors: ['invalid_request', 'invalid_range'],
  examples: [
    { summary: 'Busiest corridors this week', query: { by: 'transits' } },
    { summary: 'Most slowed corridors over 24 hours', query: { by: 'slowdown', range: '24H' } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.ranking(call.caller, query);
  },
});

const healthRoute = defineRoute({
  operationId: 'getRoutesCorridorHealth',
  description: `Per corridor a health score 0-100: the weighted mean of the available components, speed (weight ${HEALTH_WEIGHTS.speed}) = 100 × min(1, mean speed / baseline mean speed), stopped (${HEALTH_WEIGHTS.stopped}) = 100 × (1 − stopped share), volume (${HEALTH_WEIGHTS.volume}) = 100 × max(0, 1 − |transits / baseline transits − 1|); level healthy ≥ 75 > strained ≥ 50 > impaired. Each component is shown with its value, baseline and score, or why it is unavailable. ${CORRIDORS} ${WINDOW} ${FLAGS}`,
  query: CorridorWindowQuery,
  response: CorridorHealthData,
  errors: WINDOW_ERRORS,
  examples: [
    { summary: 'Health of every corridor, 7 days', query: {} },
    { summary: 'Gibraltar over 24 hours', query: { corridor: 'gibraltar', range: '24H' } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.health(call.caller, query);
  },
});

const watchRoute = defineRoute({
  operationId: 'getRoutesCorridorWatch',
  description: `Corridors whose window departs from their baseline, with the reason and the numbers: volume_drop (transits ≤ ${WATCH_RULES.volumeDropRatio} × baseline), volume_surge (≥ ${WATCH_RULES.volumeSurgeRatio} × baseline), slowdown (mean speed ≤ ${WATCH_RULES.slowdownRatio} × baseline), waiting (hours stopped per transit ≥ baseline + ${WATCH_RULES.waitingExcessHours} h). Only corridors with an alert are listed; checked says how many were examined. ${CORRIDORS} ${WINDOW} ${FLAGS}`,
  query: CorridorWindowQuery,
  response: CorridorWatchData,
  errors: WINDOW_ERRORS,
  examples: [
    { summary: 'Every corridor, last 24 hours against the 4 days before', query: { range: '24H' } },
    { summary: 'Bab-el-Mandeb this week', query: { corridor: 'bab_el_mandeb' } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.watch(call.caller, query);
  },
});

const pressureTrend = defineRoute({
  operationId: 'getRoutesCorridorPressureTrend',
  description: `Daily pressure per corridor, pressure = transits × (1 + stopped share) of the day (traffic weighted up by the time it spent stopped), with the least-squares slope per day, the slope as a percentage of the mean pressure and the direction (rising ≥ +${PRESSURE_TREND_PCT} %/day, falling ≤ −${PRESSURE_TREND_PCT} %/day, else steady). ${CORRIDORS} ${DAILY} ${FLAGS}`,
  query: CorridorDailyQuery,
  response: CorridorPressureTrendData,
  errors: DAILY_ERRORS,
  examples: [
    { summary: 'Every corridor, 28 days', query: {} },
    { summary: 'Malacca over 14 days', query: { corridor: 'malacca', days: 14 } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.pressureTrend(call.caller, query);
  },
});

const anomalyScore = defineRoute({
  operationId: 'getRoutesCorridorAnomalyScore',
  description: `Robust z-score of the latest day (the 24 hours up to your horizon) against the corridor's history (the days before it): z = (value − median) / (1.4826 × MAD), with 1.2533 × the mean absolute deviation when the MAD is 0, for transits, mean speed and stopped share; anomalous at |z| ≥ ${ANOMALY_Z} (Iglewicz and Hoaglin); at least ${MIN_HISTORY} history days with a value. combined.score is the root mean square of the metric z-scores; combined.anomalous when a metric is anomalous or the score reaches ${ANOMALY_Z}. ${CORRIDORS} ${DAILY} ${FLAGS}`,
  query: CorridorDailyQuery,
  response: CorridorAnomalyScoreData,
  errors: DAILY_ERRORS,
  examples: [
    { summary: 'Every corridor against its last 27 days', query: {} },
    { summary: 'Hormuz against 13 days', query: { corridor: 'hormuz', days: 14 } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.anomalyScore(call.caller, query);
  },
});

const stabilityRoute = defineRoute({
  operationId: 'getRoutesCorridorStability',
  description: `Stability of each corridor's traffic over the days: coefficient of variation of daily transits (population sd / mean; stable < ${CV_STABLE} ≤ variable < ${CV_VARIABLE} ≤ volatile), transits by direction and the direction balance 1 − |a − b| / (a + b), and the share of anomalous days (|robust z| of the day's transits against all the days ≥ ${ANOMALY_Z}; at least ${MIN_HISTORY} days). ${CORRIDORS} ${DAILY} ${FLAGS}`,
  query: CorridorDailyQuery,
  response: CorridorStabilityData,
  errors: DAILY_ERRORS,
  examples: [
    { summary: 'Every corridor, 28 days', query: {} },
    { summary: 'Dover over 60 days', query: { corridor: 'dover', days: 60 } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.stability(call.caller, query);
  },
});

const regimesRoute = defineRoute({
  operationId: 'getRoutesCorridorRegimes',
  description: `The daily series cut into regimes: each day is disrupted (it has transits and a stopped share ≥ ${REGIME_RULES.disruptedStoppedShare}, or a mean speed ≤ ${REGIME_RULES.disruptedSpeedRatio} × the median daily speed), else quiet (transits < ${REGIME_RULES.quietRatio} × the median daily transits), else busy (transits ≥ ${REGIME_RULES.busyRatio} × the median and above it), else normal; medians over the period's days. Consecutive days of one regime form a segment with its start, end, transits, mean daily transits, mean speed and stopped share. ${CORRIDORS} ${DAILY} ${FLAGS}`,
  query: CorridorDailyQuery,
  response: CorridorRegimesData,
  errors: DAILY_ERRORS,
  examples: [
    { summary: 'Every corridor, 28 days', query: {} },
    { summary: 'Panama over 21 days', query: { corridor: 'panama', days: 21 } },
  ],
  async handler({ query }, call) {
    return call.services.corridors.regimes(call.caller, query);
  },
});

export const corridorRoutes = [corridors, ranking, healthRoute, watchRoute, pressureTrend, anomalyScore, stabilityRoute, regimesRoute];
