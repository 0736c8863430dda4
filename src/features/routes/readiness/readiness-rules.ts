import { MINUTE } from '../../../platform/clock.js';
import { REFERENCE_MAX_TOLERANCE, REFERENCE_PAIRS, SHORT_SEA_TOLERANCE } from '../../../routing/reference-pairs.js';

/**
 * The definitions behind the routes readiness views (decision 069): the benchmark's reference pairs,
 * the snapshot cadence, the release gate, regression and rollout thresholds, and the shape of a check.
 */

/**
 * The reference pairs of docs/routing.md ("Accuracy"): distances published by others, each with its
 * source (src/routing/reference-pairs.ts, decision 080); never the engine's own figures. A pair is
 * within tolerance at 4 % of its published figure or range (short-sea pairs under 100 nm: 5 %).
 */
export const BENCHMARK_PAIRS: readonly { from: string; to: string; avoid: string | null; label: string; source: string; reference_nm: { min: number; max: number }; tolerance: number }[] =
  REFERENCE_PAIRS.map((p) => ({
    from: p.from,
    to: p.to,
    avoid: p.avoid,
    label: p.label,
    source: p.source,
    reference_nm: p.published_nm,
    tolerance: p.short_sea ? SHORT_SEA_TOLERANCE : REFERENCE_MAX_TOLERANCE,
  }));
/** A benchmark distance within this fraction of its reference (range) is accurate (short-sea pairs: SHORT_SEA_TOLERANCE). */
export const BENCHMARK_TOLERANCE = REFERENCE_MAX_TOLERANCE;
export const BENCHMARK_CACHE_MS = 5 * MINUTE;
export const MAX_BENCHMARK_RUNS = 5;

/** Readiness: a request records a snapshot unless one is younger than this; the job records one every interval. */
export const SNAPSHOT_MIN_INTERVAL_MS = MINUTE;
export const SNAPSHOT_JOB_EVERY_MS = 15 * MINUTE;
export const SNAPSHOT_RETENTION_DAYS = 90;
export const DEFAULT_READINESS_EVENT_DAYS = 7;
export const DEFAULT_READINESS_MAX_AGE_SECONDS = 3600;

/** Release gate thresholds (decision 069). */
export const RELEASE_SCHEMA_COMPLETE_MIN = 0.9;
export const RELEASE_MAX_SERVER_ERROR_RATE = 0.01;

/** Regression thresholds (decision 069): both windows need this many requests of an operation. */
export const REGRESSION_MIN_REQUESTS = 10;
export const REGRESSION_LATENCY_FACTOR = 1.5;
export const REGRESSION_LATENCY_MIN_MS = 50;
export const REGRESSION_ERROR_RATE_DELTA = 0.02;

/** Rollout score weights (decision 069). */
export const ROLLOUT_WEIGHTS = { readiness: 40, release: 30, regression: 30 } as const;

export type Comparison = 'at_least' | 'at_most';
export interface ReadinessCheck {
  name: 'engine_loaded' | 'port_table' | 'event_layer' | 'data_freshness';
  pass: boolean;
  value: number | null;
  threshold: number;
  comparison: Comparison;
  unit: string;
  detail: string;
}

export type Criterion = { name: string; status: 'pass' | 'fail' | 'no_data'; value: number | null; threshold: number; comparison: Comparison; detail: string };
/** A criterion's status: no value is no data; otherwise the value against its threshold. */
export const judge = (value: number | null, threshold: number, comparison: Comparison): Criterion['status'] =>
  value === null ? 'no_data' : (comparison === 'at_least' ? value >= threshold : value <= threshold) ? 'pass' : 'fail';
