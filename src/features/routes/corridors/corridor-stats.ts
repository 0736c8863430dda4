import { DAY, HOUR } from '../../../platform/clock.js';
import { coefficientOfVariation, mean, median, round, slope, stdDev } from '../../../platform/stats.js';
import type { TransitsTable } from '../../../store/schema.js';
import { speedTenthsOf } from '../../../events/transit-cells.js';

/**
 * Corridor analytics over chokepoint transits (docs/corridors.md, docs/decisions/064 and 065): the
 * figures of a window, daily series, robust z-scores, stability and regimes. Pure functions of
 * transit rows; the service reads the rows and decides which windows the stored data covers.
 */
export type TransitFact = Pick<TransitsTable, 'vsl_id' | 'zone' | 'direction' | 'entered_at' | 'exited_at' | 'mean_speed_kn' | 'stopped_ms' | 'simulated'>;

export interface DirectionCount {
  direction: string;
  transits: number;
}

/**
 * What a window's figures are made of: sums that add up across windows, so that the transit cells kept per
 * gate, direction and UTC hour (docs/decisions/155) give a window's figures exactly.
 */
export interface TransitSums {
  transits: number;
  /** Transits per direction (a direction the gate does not name counts in `transits` only). */
  byDirection: Record<string, number>;
  simulated: number;
  /** Transits with a mean speed, and the sum of those speeds in tenths of a knot (the detector's precision). */
  speeds: number;
  speedTenths: number;
  /** Sum of max(0, exited − entered) in ms. */
  inGateMs: number;
  stoppedMs: number;
}

export const emptySums = (): TransitSums => ({ transits: 0, byDirection: {}, simulated: 0, speeds: 0, speedTenths: 0, inGateMs: 0, stoppedMs: 0 });

/** `into` plus `sign` × `sums` (in place). */
export function addSums(into: TransitSums, sums: TransitSums, sign: 1 | -1 = 1): TransitSums {
  into.transits += sign * sums.transits;
  for (const [direction, n] of Object.entries(sums.byDirection)) into.byDirection[direction] = (into.byDirection[direction] ?? 0) + sign * n;
  into.simulated += sign * sums.simulated;
  into.speeds += sign * sums.speeds;
  into.speedTenths += sign * sums.speedTenths;
  into.inGateMs += sign * sums.inGateMs;
  into.stoppedMs += sign * sums.stoppedMs;
  return into;
}

/** The sums of a list of transits (the per-transit path: edges of a window read raw, tests). */
export function sumsOfTransits(transits: readonly TransitFact[]): TransitSums {
  const sums = emptySums();
  for (const t of transits) {
    sums.transits++;
    sums.byDirection[t.direction] = (sums.byDirection[t.direction] ?? 0) + 1;
    sums.simulated += t.simulated === 1 ? 1 : 0;
    if (t.mean_speed_kn !== null) {
      sums.speeds++;
      sums.speedTenths += speedTenthsOf(t.mean_speed_kn);
    }
    sums.inGateMs += Math.max(0, t.exited_at - t.entered_at);
    sums.stoppedMs += t.stopped_ms;
  }
  return sums;
}

/** The figures of a window that come from sums (every figure but distinct vessels and the median time in the gate). */
export interface WindowFigures {
  transits: number;
  by_direction: DirectionCount[];
  mean_speed_kn: number | null;
  /** Time stopped (< 0.5 kn) in the gate over time in the gate, 0–1. */
  stopped_share: number | null;
  waiting_hours_per_transit: number | null;
}

/** Distinct vessels and the median hours in the gate of a window's transits: not sums, read from the transits themselves. */
export interface TransitSpread {
  vessels: number;
  median_transit_hours: number | null;
}

/** A window's figures with its spread (the figures the corridors and watch answers show of the current window). */
export type WindowDetail = WindowFigures & TransitSpread;

/** A modified z-score at or beyond this is an anomaly (Iglewicz and Hoaglin, 1993). */
export const ANOMALY_Z = 3.5;
/** Values a metric's history needs before a z-score is given. */
export const MIN_HISTORY = 5;
/** MAD of a normal distribution is 0.6745 σ: 1.4826 × MAD estimates σ. */
const MAD_SCALE = 1.4826;
/** Mean absolute deviation of a normal distribution is 0.7979 σ (used when the MAD is 0). */
const MEAN_AD_SCALE = 1.253314;

/** A ratio rounded to 6 decimals, so that thresholds hold exactly at their edges (8.4 / 12 is 0.7). */
const ratio = (a: number, b: number) => round(a / b, 6);
export { mean, median, round, slope };

const roundOrNull = (x: number | null, digits: number) => (x === null ? null : round(x, digits));

/** The figures of the transits that left a gate in one window, from their sums. */
export function figuresOf(sums: TransitSums, directions: readonly [string, string]): WindowFigures {
  const n = sums.transits;
  return {
    transits: n,
    by_direction: directions.map((direction) => ({ direction, transits: sums.byDirection[direction] ?? 0 })),
    mean_speed_kn: sums.speeds === 0 ? null : round(sums.speedTenths / 10 / sums.speeds, 2),
    stopped_share: n === 0 ? null : sums.inGateMs > 0 ? round(Math.min(1, sums.stoppedMs / sums.inGateMs), 3) : 0,
    waiting_hours_per_transit: n === 0 ? null : round(sums.stoppedMs / n / HOUR, 3),
  };
}

/** The median of the hours in the gate from the middle one or two durations (ms) of a window's transits in order. */
export const medianHoursOfMiddle = (middle: readonly number[]) => roundOrNull(median(middle.map((ms) => ms / HOUR)), 2);

/** Distinct vessels and median hours in the gate of a list of transits. */
export function spreadOfTransits(transits: readonly TransitFact[]): TransitSpread {
  return { vessels: new Set(transits.map((t) => t.vsl_id)).size, median_transit_hours: roundOrNull(median(transits.map((t) => (t.exited_at - t.entered_at) / HOUR)), 2) };
}

/** A window's figures and spread in the order the answers show them. */
export function detailOf(figures: WindowFigures, spread: TransitSpread): WindowDetail {
  const { transits, by_direction, ...rest } = figures;
  return { transits, by_direction, ...spread, ...rest };
}

/** The figures and spread of the transits that left a gate in one window (membership is the caller's). */
export function windowFigures(transits: readonly TransitFact[], directions: readonly [string, string]): WindowDetail {
  return detailOf(figuresOf(sumsOfTransits(transits), directions), spreadOfTransits(transits));
}

export interface BaselineFigures {
  windows: number;
  transits: number | null;
  mean_speed_kn: number | null;
  stopped_share: number | null;
  waiting_hours_per_transit: number | null;
}

/** Means over the baseline windows: counts over every window (an empty one counts 0), the others over the windows that have a value. */
export function baselineFigures(windows: readonly WindowFigures[]): BaselineFigures {
  const of = (pick: (w: WindowFigures) => number | null) => mean(windows.map(pick).filter((x): x is number => x !== null));
  return {
    windows: windows.length,
    transits: roundOrNull(
      of((w) => w.transits),
      3,
    ),
    mean_speed_kn: roundOrNull(
      of((w) => w.mean_speed_kn),
      2,
    ),
    stopped_share: roundOrNull(
      of((w) => w.stopped_share),
      3,
    ),
    waiting_hours_per_transit: roundOrNull(
      of((w) => w.waiting_hours_per_transit),
      3,
    ),
  };
}

/** Windows of `lengthMs` back from `to`, newest first: [0] is (to − length, to]. */
export function windowsBack(to: number, lengthMs: number, count: number): Array<{ from: number; to: number }> {
  return Array.from({ length: count }, (_, k) => ({ from: to - (k + 1) * lengthMs, to: to - k * lengthMs }));
}

export const exitedIn = (t: TransitFact, w: { from: number; to: number }) => t.exited_at > w.from && t.exited_at <= w.to;

export interface DayFigures extends WindowFigures {
  from: number;
  to: number;
  /** transits × (1 + stopped_share): traffic weighted up by the time it spent stopped. */
  pressure: number;
}

/** 24-hour days back from `to`, oldest first, those that begin at or after `coveredFrom` (the stored data covers them). */
export function daysBack(to: number, days: number, coveredFrom: number): Array<{ from: number; to: number }> {
  return windowsBack(to, DAY, days)
    .reverse()
    .filter((w) => w.from >= coveredFrom);
}

/** A day's figures from the sums of its transits. */
export function dayFigures(day: { from: number; to: number }, sums: TransitSums, directions: readonly [string, string]): DayFigures {
  const f = figuresOf(sums, directions);
  return { ...day, ...f, pressure: round(f.transits * (1 + (f.stopped_share ?? 0)), 3) };
}

export interface RobustZ {
  value: number | null;
  median: number | null;
  /** Median absolute deviation from the median. */
  mad: number | null;
  /** The spread the z-score divides by: 1.4826 × MAD, or 1.2533 × the mean absolute deviation when the MAD is 0. */
  scale: number | null;
  z: number | null;
  history: number;
  anomalous: boolean;
  note: string | null;
}

/** Robust (modified) z-score of `value` against `history`: (value − median) / (1.4826 × MAD). */
export function robustZ(value: number | null, history: readonly number[]): RobustZ {
  const base = { value, history: history.length };
  if (history.length < MIN_HISTORY) return { ...base, median: null, mad: null, scale: null, z: null, anomalous: false, note: `fewer than ${MIN_HISTORY} days of history with a value` };
  const med = median(history)!;
  const mad = median(history.map((x) => Math.abs(x - med)))!;
  const meanAd = mean(history.map((x) => Math.abs(x - med)))!;
  const scale = mad > 0 ? MAD_SCALE * mad : meanAd > 0 ? MEAN_AD_SCALE * meanAd : null;
  const stats = { median: round(med, 3), mad: round(mad, 3), scale: roundOrNull(scale, 4) };
  if (value === null) return { ...base, ...stats, z: null, anomalous: false, note: 'no value on the latest day' };
  if (scale === null) {
    // a constant history: the same value is ordinary, any other one has no finite score
    return value === med
      ? { ...base, ...stats, z: 0, anomalous: false, note: null }
      : { ...base, ...stats, z: null, anomalous: true, note: 'the history is constant and the latest day differs from it' };
  }
  const z = round((value - med) / scale, 2);
  return { ...base, ...stats, z, anomalous: Math.abs(z) >= ANOMALY_Z, note: null };
}

export interface Stability {
  days: number;
  mean_daily_transits: number | null;
  sd_daily_transits: number | null;
  /** Standard deviation over mean of the daily transits (population). */
  cv: number | null;
  class: 'stable' | 'variable' | 'volatile' | null;
  by_direction: DirectionCount[];
  /** 1 − |a − b| / (a + b): 1 when both directions carry the same traffic, 0 when one carries all. */
  direction_balance: number | null;
  anomalous_days: number;
  anomalous_day_share: number | null;
}

export const CV_STABLE = 0.25;
export const CV_VARIABLE = 0.5;

export function stability(series: readonly DayFigures[], directions: readonly [string, string]): Stability {
  const counts = series.map((d) => d.transits);
  const m = mean(counts);
  const sd = stdDev(counts);
  const cv = coefficientOfVariation(counts);
  const dirs = directions.map((direction) => ({ direction, transits: series.reduce((sum, d) => sum + (d.by_direction.find((b) => b.direction === direction)?.transits ?? 0), 0) }));
  const [a, b] = [dirs[0]!.transits, dirs[1]!.transits];
  const anomalous = counts.length >= MIN_HISTORY ? counts.filter((c) => robustZ(c, counts).anomalous).length : 0;
  return {
    days: series.length,
    mean_daily_transits: roundOrNull(m, 3),
    sd_daily_transits: roundOrNull(sd, 3),
    cv: roundOrNull(cv, 3),
    class: cv === null ? null : cv < CV_STABLE ? 'stable' : cv < CV_VARIABLE ? 'variable' : 'volatile',
    by_direction: dirs,
    direction_balance: a + b === 0 ? null : round(1 - Math.abs(a - b) / (a + b), 3),
    anomalous_days: anomalous,
    anomalous_day_share: counts.length >= MIN_HISTORY ? round(anomalous / counts.length, 3) : null,
  };
}

export type Regime = 'normal' | 'busy' | 'quiet' | 'disrupted';

/** Regime thresholds (decision 065), against the medians of the period's days. */
export const REGIME_RULES = {
  /** stopped share of a day at or above this: disrupted */
  disruptedStoppedShare: 0.25,
  /** mean speed of a day at or below this fraction of the median daily speed: disrupted */
  disruptedSpeedRatio: 0.7,
  /** transits below this fraction of the median daily transits: quiet */
  quietRatio: 0.5,
  /** transits at or above this multiple of the median daily transits (and above it): busy */
  busyRatio: 1.5,
} as const;

export function classifyDay(day: DayFigures, reference: { transits: number; speed: number | null }): Regime {
  const r = REGIME_RULES;
  if (
    day.transits > 0 &&
    ((day.stopped_share ?? 0) >= r.disruptedStoppedShare ||
      (reference.speed !== null && reference.speed > 0 && day.mean_speed_kn !== null && ratio(day.mean_speed_kn, reference.speed) <= r.disruptedSpeedRatio))
  ) {
    return 'disrupted';
  }
  if (reference.transits > 0 && ratio(day.transits, reference.transits) < r.quietRatio) return 'quiet';
  if (day.transits > reference.transits && (reference.transits === 0 || ratio(day.transits, reference.transits) >= r.busyRatio)) return 'busy';
  return 'normal';
}

export interface RegimeSegment {
  regime: Regime;
  from: number;
  to: number;
  days: number;
  transits: number;
  mean_daily_transits: number;
  mean_speed_kn: number | null;
  stopped_share: number | null;
}

/** Consecutive days of one regime joined into segments, oldest first; `daySums[i]` are the sums of `series[i]`. */
export function regimes(series: readonly DayFigures[], daySums: readonly TransitSums[], directions: readonly [string, string]) {
  const reference = { transits: median(series.map((d) => d.transits)) ?? 0, speed: median(series.filter((d) => d.mean_speed_kn !== null).map((d) => d.mean_speed_kn!)) };
  const labelled = series.map((d) => ({ day: d, regime: classifyDay(d, reference) }));
  const segments: RegimeSegment[] = [];
  let start = 0;
  for (let i = 1; i <= labelled.length; i++) {
    if (i < labelled.length && labelled[i]!.regime === labelled[start]!.regime) continue;
    const days = labelled.slice(start, i);
    const from = days[0]!.day.from;
    const to = days[days.length - 1]!.day.to;
    const f = figuresOf(
      daySums.slice(start, i).reduce((sum, d) => addSums(sum, d), emptySums()),
      directions,
    );
    segments.push({
      regime: labelled[start]!.regime,
      from,
      to,
      days: days.length,
      transits: f.transits,
      mean_daily_transits: round(f.transits / days.length, 3),
      mean_speed_kn: f.mean_speed_kn,
      stopped_share: f.stopped_share,
    });
    start = i;
  }
  return { reference: { median_daily_transits: round(reference.transits, 3), median_daily_speed_kn: roundOrNull(reference.speed, 2) }, days: labelled, segments };
}

export type HealthComponentName = 'speed' | 'stopped' | 'volume';

/** Weights of the health components (decision 064). */
export const HEALTH_WEIGHTS: Readonly<Record<HealthComponentName, number>> = { speed: 0.4, stopped: 0.3, volume: 0.3 };

export interface HealthComponent {
  name: HealthComponentName;
  value: number | null;
  baseline: number | null;
  score: number | null;
  weight: number;
  available: boolean;
  note: string | null;
}

/**
 * Health 0–100 of a corridor's window: speed = 100 × min(1, speed / baseline speed); stopped =
 * 100 × (1 − stopped share); volume = 100 × max(0, 1 − |transits / baseline transits − 1|); the
 * weighted mean of the available components.
 */
export function health(current: WindowFigures, baseline: BaselineFigures) {
  const noBaseline = baseline.windows === 0 ? 'no baseline window covered by the stored data' : null;
  const speed: HealthComponent =
    current.mean_speed_kn === null
      ? { name: 'speed', value: null, baseline: baseline.mean_speed_kn, score: null, weight: HEALTH_WEIGHTS.speed, available: false, note: 'no transit speeds in the window' }
      : baseline.mean_speed_kn === null || baseline.mean_speed_kn <= 0
        ? {
            name: 'speed',
            value: current.mean_speed_kn,
            baseline: baseline.mean_speed_kn,
            score: null,
            weight: HEALTH_WEIGHTS.speed,
            available: false,
            note: noBaseline ?? 'no transit speeds in the baseline windows',
          }
        : {
            name: 'speed',
            value: current.mean_speed_kn,
            baseline: baseline.mean_speed_kn,
            score: round(100 * Math.min(1, current.mean_speed_kn / baseline.mean_speed_kn), 1),
            weight: HEALTH_WEIGHTS.speed,
            available: true,
            note: null,
          };
  const stopped: HealthComponent =
    current.stopped_share === null
      ? { name: 'stopped', value: null, baseline: baseline.stopped_share, score: null, weight: HEALTH_WEIGHTS.stopped, available: false, note: 'no transits in the window' }
      : {
          name: 'stopped',
          value: current.stopped_share,
          baseline: baseline.stopped_share,
          score: round(100 * (1 - current.stopped_share), 1),
          weight: HEALTH_WEIGHTS.stopped,
          available: true,
          note: null,
        };
  const volume: HealthComponent =
    baseline.transits === null || baseline.transits <= 0
      ? {
          name: 'volume',
          value: current.transits,
          baseline: baseline.transits,
          score: null,
          weight: HEALTH_WEIGHTS.volume,
          available: false,
          note: noBaseline ?? 'no transits in the baseline windows',
        }
      : {
          name: 'volume',
          value: current.transits,
          baseline: baseline.transits,
          score: round(100 * Math.max(0, 1 - Math.abs(current.transits / baseline.transits - 1)), 1),
          weight: HEALTH_WEIGHTS.volume,
          available: true,
          note: null,
        };
  const components = [speed, stopped, volume];
  const used = components.filter((c) => c.available);
  const weight = used.reduce((sum, c) => sum + c.weight, 0);
  const score = weight === 0 ? null : round(used.reduce((sum, c) => sum + c.weight * c.score!, 0) / weight, 1);
  return {
    score,
    level: score === null ? null : score >= 75 ? ('healthy' as const) : score >= 50 ? ('strained' as const) : ('impaired' as const),
    weight_measured: round(weight, 2),
    components,
  };
}

export type WatchReason = 'volume_drop' | 'volume_surge' | 'slowdown' | 'waiting';

/** When a window departs from its baseline (decision 064). */
export const WATCH_RULES = {
  /** transits at or below this fraction of the baseline */
  volumeDropRatio: 0.5,
  /** transits at or above this multiple of the baseline */
  volumeSurgeRatio: 1.5,
  /** mean speed at or below this fraction of the baseline speed */
  slowdownRatio: 0.8,
  /** hours stopped per transit at least this much above the baseline */
  waitingExcessHours: 1,
} as const;

export interface WatchAlert {
  reason: WatchReason;
  metric: 'transits' | 'mean_speed_kn' | 'waiting_hours_per_transit';
  value: number;
  baseline: number;
  change_pct: number | null;
  threshold: string;
}

export function watch(current: WindowFigures, baseline: BaselineFigures): WatchAlert[] {
  const r = WATCH_RULES;
  const pct = (v: number, b: number) => (b === 0 ? null : round(((v - b) / b) * 100, 1));
  const alerts: WatchAlert[] = [];
  const bt = baseline.transits;
  if (bt !== null && bt > 0) {
    if (ratio(current.transits, bt) <= r.volumeDropRatio)
      alerts.push({ reason: 'volume_drop', metric: 'transits', value: current.transits, baseline: bt, change_pct: pct(current.transits, bt), threshold: `≤ ${r.volumeDropRatio} × baseline` });
    if (ratio(current.transits, bt) >= r.volumeSurgeRatio)
      alerts.push({ reason: 'volume_surge', metric: 'transits', value: current.transits, baseline: bt, change_pct: pct(current.transits, bt), threshold: `≥ ${r.volumeSurgeRatio} × baseline` });
  }
  const v = current.mean_speed_kn;
  const bs = baseline.mean_speed_kn;
  if (v !== null && bs !== null && bs > 0 && ratio(v, bs) <= r.slowdownRatio)
    alerts.push({ reason: 'slowdown', metric: 'mean_speed_kn', value: v, baseline: bs, change_pct: pct(v, bs), threshold: `≤ ${r.slowdownRatio} × baseline` });
  const w = current.waiting_hours_per_transit;
  const bw = baseline.waiting_hours_per_transit;
  if (w !== null && bw !== null && round(w - bw, 6) >= r.waitingExcessHours) {
    alerts.push({ reason: 'waiting', metric: 'waiting_hours_per_transit', value: w, baseline: bw, change_pct: pct(w, bw), threshold: `≥ baseline + ${r.waitingExcessHours} h` });
  }
  return alerts;
}
