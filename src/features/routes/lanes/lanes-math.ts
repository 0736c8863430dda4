import { coefficientOfVariation, mean, median, percentile, round, slope, stdDev } from '../../../platform/stats.js';
/** Pure computations of the lanes analytics (docs/lanes.md, decisions 062 and 063): no store, no clock. */

/** A vessel's departure from one port followed by its next arrival at another. */
export interface Voyage {
  vslId: string;
  from: number;
  to: number;
  departure: number;
  arrival: number;
  shipType: number | null;
  simulated: boolean;
}

/** Percentile by nearest rank (p in 0..100) of values in any order; null when empty. */
export const nearestRank = (values: readonly number[], p: number): number | null =>
  percentile(
    [...values].sort((a, b) => a - b),
    p,
  );

export { coefficientOfVariation, mean, median, round, slope, stdDev };

/** Change in percent from previous to current; null when previous is 0. */
export const changePct = (current: number, previous: number): number | null => (previous === 0 ? null : round(((current - previous) / previous) * 100, 1));

/**
 * Robust z-scores (Iglewicz and Hoaglin's modified z): 0.6745 (x - median) / MAD; when the MAD is 0,
 * (x - median) / (1.253314 mean absolute deviation); null for every value when both are 0.
 */
export function robustZ(values: readonly number[]): { median: number | null; mad: number | null; z: (number | null)[]; scale: 'mad' | 'mean_absolute_deviation' | 'none' } {
  const med = median(values);
  if (med === null) return { median: null, mad: null, z: [], scale: 'none' };
  const deviations = values.map((v) => Math.abs(v - med));
  const mad = median(deviations)!;
  if (mad > 0) return { median: med, mad, z: values.map((v) => (0.6745 * (v - med)) / mad), scale: 'mad' };
  const meanAd = mean(deviations)!;
  if (meanAd > 0) return { median: med, mad, z: values.map((v) => (v - med) / (1.253314 * meanAd)), scale: 'mean_absolute_deviation' };
  return { median: med, mad, z: values.map(() => null), scale: 'none' };
}

/**
 * Next-bucket forecast by the mean of the last k values, with its backtest on the series: every bucket
 * from index k on is predicted from the k before it. The interval is forecast ± 1.96 RMSE (floored at 0).
 */
export function meanOfLastK(values: readonly number[], k: number) {
  if (values.length < k + 2) return null;
  const errors: number[] = [];
  for (let t = k; t < values.length; t++) {
    const predicted = mean(values.slice(t - k, t))!;
    errors.push(values[t]! - predicted);
  }
  const forecast = mean(values.slice(-k))!;
  const mae = mean(errors.map(Math.abs))!;
  const rmse = Math.sqrt(mean(errors.map((e) => e * e))!);
  return { forecast, mae, rmse, backtestPoints: errors.length, low: Math.max(0, forecast - 1.96 * rmse), high: forecast + 1.96 * rmse };
}

/** Connected components of an undirected graph given by its edges; sizes, largest first. */
export function componentSizes(nodes: Iterable<number>, edges: Iterable<readonly [number, number]>): number[] {
  const parent = new Map<number, number>();
  for (const n of nodes) parent.set(n, n);
  const find = (x: number): number => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    let c = x;
    while (c !== r) {
      const next = parent.get(c)!;
      parent.set(c, r);
      c = next;
    }
    return r;
  };
  for (const [a, b] of edges) {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  }
  const sizes = new Map<number, number>();
  for (const n of parent.keys()) {
    const r = find(n);
    sizes.set(r, (sizes.get(r) ?? 0) + 1);
  }
  return [...sizes.values()].sort((a, b) => b - a);
}

/** A grid cell by its south-west corner indices: lon index, lat index (cell = floor(coordinate / size)). */
export type CellKey = string;

/**
 * The grid cells a line passes through: each segment is sampled every quarter cell in lon/lat
 * (planar interpolation between the route's vertices, which lie at most ~50 km apart on the network),
 * longitudes wrapped into -180..180. Returns distinct keys "i,j".
 */
export function cellsOfLines(lines: readonly (readonly (readonly number[])[])[], cellDeg: number): Set<CellKey> {
  const cells = new Set<CellKey>();
  const add = (lon: number, lat: number) => {
    const wrapped = ((((lon + 180) % 360) + 360) % 360) - 180;
    const i = Math.floor(wrapped / cellDeg);
    const j = Math.floor(Math.min(lat, 89.999999) / cellDeg);
    cells.add(`${i},${j}`);
  };
  const step = cellDeg / 4;
  for (const line of lines) {
    for (let s = 0; s < line.length; s++) {
      const [lon, lat] = line[s]! as [number, number];
      if (s === 0) {
        add(lon, lat);
        continue;
      }
      const [plon, plat] = line[s - 1]! as [number, number];
      const n = Math.max(1, Math.ceil(Math.max(Math.abs(lon - plon), Math.abs(lat - plat)) / step));
      for (let k = 1; k <= n; k++) add(plon + ((lon - plon) * k) / n, plat + ((lat - plat) * k) / n);
    }
  }
  return cells;
}
