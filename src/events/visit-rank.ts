/**
 * Visit rank (docs/decisions/024-visit-rank.md, 030): the most-visited ports, or the vessels with the
 * most calls, over a window, from port calls that began in it. The counting is an SQL GROUP BY
 * (src/features/congestion/visit-rank-repo.ts); the median dwell of each ranked port is computed here.
 */

/** Median (mean of the middle two for an even count) of durations in ms, in hours to one decimal; null for none. */
export function medianHours(durationsMs: readonly number[]): number | null {
  if (durationsMs.length === 0) return null;
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return Math.round((median / 3_600_000) * 10) / 10;
}
