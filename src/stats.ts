/** Small statistics shared by the telemetry, quality, dispatch, readiness and event views. */

/** Nearest-rank percentile (p in 0..100) of ascending values; null when there are none; rounded to `decimals` when given. */
export function percentile(sorted: readonly number[], p: number, decimals?: number): number | null {
  if (sorted.length === 0) return null;
  const value = sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  return decimals === undefined ? value : Math.round(value * 10 ** decimals) / 10 ** decimals;
}

/** Items grouped by key, groups in order of their first item. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
