/** Small statistics shared by the telemetry, quality, dispatch, readiness, lane, corridor and event views. */

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

/** A number rounded to `digits` decimals. */
export const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The middle value (the mean of the two middle ones for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Population standard deviation; null when empty. */
export function stdDev(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null) return null;
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / values.length);
}

/** Coefficient of variation (population standard deviation / mean); null when the mean is 0 or there are no values. */
export function coefficientOfVariation(values: readonly number[]): number | null {
  const m = mean(values);
  if (m === null || m === 0) return null;
  return stdDev(values)! / m;
}

/** Least-squares slope of values against their index (per step); null with fewer than two values. */
export function slope(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 2) return null;
  const mx = (n - 1) / 2;
  const my = values.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (i - mx) * (values[i]! - my);
    den += (i - mx) ** 2;
  }
  return num / den;
}
