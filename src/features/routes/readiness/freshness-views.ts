import { HOUR, iso, isoOrNull, MINUTE, SECOND } from '../../../platform/clock.js';
import { percentile, round } from '../../../platform/stats.js';
import type { ReadinessRepo } from './readiness-repo.js';

/**
 * The data views of the routes section about the positions' freshness (freshness, lag alerts, completeness,
 * freshness SLA) as pure functions of the rows the data service read.
 */

/** Size of the freshness regions (an ocean grid), degrees. */
export const REGION_DEG = 30;
/** The ingest lag percentiles read at most this many of the newest positions of the window. */
export const LAG_SAMPLE_CAP = 50_000;
/** Default thresholds of data-lag-alerts (decision 068). */
export const DEFAULT_MAX_AGE_SECONDS = 3600;
export const DEFAULT_MAX_LAG_SECONDS = 300;
/** Default freshness SLA target and bucket. */
export const DEFAULT_SLA_TARGET_SECONDS = 900;
export const DEFAULT_SLA_BUCKET_MINUTES = 60;

export const SIMULATED_FLAG = 'simulated_source';
export const NO_POSITIONS_FLAG = 'no_positions_in_window';

const share = (part: number, whole: number) => (whole > 0 ? round(part / whole) : null);
export const ageSeconds = (now: number, at: number) => Math.round((now - at) / SECOND);

const lagSeconds = (sortedMs: readonly number[], p: number) => {
  const v = percentile(sortedMs, p);
  return v === null ? null : round(v / SECOND, 3);
};

function region(lat: number, lon: number) {
  const south = Math.min(90 - REGION_DEG, Math.floor((lat + 90) / REGION_DEG) * REGION_DEG - 90);
  const west = Math.min(180 - REGION_DEG, Math.floor((lon + 180) / REGION_DEG) * REGION_DEG - 180);
  return { id: `${south}/${west}`, south, west, north: south + REGION_DEG, east: west + REGION_DEG };
}

type Rows<K extends keyof ReadinessRepo> = Awaited<ReturnType<ReadinessRepo[K]>>;

/** A window of `hours` ending at `until`, as numbers and as the answer states it. */
export function windowEndingAt(until: number, hours: number) {
  const since = until - hours * HOUR;
  return { since, until, window: { hours, since: iso(since), until: iso(until) } };
}
export type DataWindow = ReturnType<typeof windowEndingAt>;

/** Positions, ingest lags (by source, by region, overall) and the newest position of a window. */
export function freshnessFactsOf(at: DataWindow, newest: Rows<'newestPosition'>, sources: Rows<'bySource'>, lagRows: Rows<'lagSample'>, regionCells: Rows<'byCell'>) {
  const { until, window } = at;
  const positions = sources.reduce((sum, s) => sum + s.positions, 0);
  const simulated = sources.reduce((sum, s) => sum + s.simulated, 0);
  const lagsBySource = new Map<string, number[]>();
  const lagsByRegion = new Map<string, number[]>();
  for (const r of lagRows) {
    const bySource = lagsBySource.get(r.source) ?? [];
    bySource.push(r.lag_ms);
    lagsBySource.set(r.source, bySource);
    const id = region(r.lat, r.lon).id;
    const byRegion = lagsByRegion.get(id) ?? [];
    byRegion.push(r.lag_ms);
    lagsByRegion.set(id, byRegion);
  }
  for (const list of [...lagsBySource.values(), ...lagsByRegion.values()]) list.sort((a, b) => a - b);
  const allLags = lagRows.map((r) => r.lag_ms).sort((a, b) => a - b);
  const regions = new Map<string, ReturnType<typeof region> & { positions: number; newest: number }>();
  for (const c of regionCells) {
    const r = region(c.row * REGION_DEG - 90, c.col * REGION_DEG - 180);
    const held = regions.get(r.id);
    if (held) {
      held.positions += c.positions;
      held.newest = Math.max(held.newest, c.newest_observed);
    } else regions.set(r.id, { ...r, positions: c.positions, newest: c.newest_observed });
  }
  const flags: string[] = [];
  if (positions === 0) flags.push(NO_POSITIONS_FLAG);
  if (simulated > 0 || newest?.simulated) flags.push(SIMULATED_FLAG);
  if (lagRows.length >= LAG_SAMPLE_CAP) flags.push('lag_sample_truncated');
  return {
    until,
    window,
    newest,
    positions,
    simulated,
    flags,
    sources: sources
      .map((s) => {
        const lags = lagsBySource.get(s.source) ?? [];
        return {
          source: s.source,
          positions: s.positions,
          simulated_positions: s.simulated,
          newest_observed_at: iso(s.newest_observed),
          age_seconds: ageSeconds(until, s.newest_observed),
          lag_sample_size: lags.length,
          lag_p50_seconds: lagSeconds(lags, 50),
          lag_p95_seconds: lagSeconds(lags, 95),
        };
      })
      .sort((a, b) => a.age_seconds - b.age_seconds || a.source.localeCompare(b.source)),
    regions: [...regions.values()]
      .map((r) => {
        const lags = lagsByRegion.get(r.id) ?? [];
        return {
          region_id: r.id,
          south: r.south,
          west: r.west,
          north: r.north,
          east: r.east,
          positions: r.positions,
          newest_observed_at: iso(r.newest),
          age_seconds: ageSeconds(until, r.newest),
          lag_sample_size: lags.length,
          lag_p95_seconds: lagSeconds(lags, 95),
        };
      })
      .sort((a, b) => a.age_seconds - b.age_seconds || a.region_id.localeCompare(b.region_id)),
    lag: {
      sample_size: lagRows.length,
      truncated: lagRows.length >= LAG_SAMPLE_CAP,
      p50_seconds: lagSeconds(allLags, 50),
      p90_seconds: lagSeconds(allLags, 90),
      p95_seconds: lagSeconds(allLags, 95),
      p99_seconds: lagSeconds(allLags, 99),
      max_seconds: allLags.length ? round(allLags.at(-1)! / SECOND, 3) : null,
    },
  };
}
export type FreshnessFacts = ReturnType<typeof freshnessFactsOf>;

export function freshnessView(f: FreshnessFacts) {
  return {
    data: {
      window: f.window,
      region_deg: REGION_DEG,
      newest: f.newest ? { observed_at: iso(f.newest.observed_at), age_seconds: ageSeconds(f.until, f.newest.observed_at), source: f.newest.source, simulated: f.newest.simulated } : null,
      positions_in_window: f.positions,
      simulated_positions: f.simulated,
      ingest_lag: f.lag,
      sources: f.sources,
      regions: f.regions,
    },
    qualityFlags: f.flags,
  };
}

export function lagAlertsView(f: FreshnessFacts, maxAge: number, maxLag: number) {
  type Alert = { scope: 'overall' | 'source' | 'region'; key: string; metric: 'data_age' | 'ingest_lag_p95'; value_seconds: number; threshold_seconds: number; ratio: number; sample_size: number };
  const alerts: Alert[] = [];
  const check = (scope: Alert['scope'], key: string, metric: Alert['metric'], value: number | null, threshold: number, sampleSize: number) => {
    if (value !== null && value > threshold) alerts.push({ scope, key, metric, value_seconds: value, threshold_seconds: threshold, ratio: round(value / threshold, 2), sample_size: sampleSize });
  };
  if (f.newest) check('overall', 'all', 'data_age', ageSeconds(f.until, f.newest.observed_at), maxAge, f.positions);
  check('overall', 'all', 'ingest_lag_p95', f.lag.p95_seconds, maxLag, f.lag.sample_size);
  for (const s of f.sources) {
    check('source', s.source, 'data_age', s.age_seconds, maxAge, s.positions);
    check('source', s.source, 'ingest_lag_p95', s.lag_p95_seconds, maxLag, s.lag_sample_size);
  }
  for (const r of f.regions) {
    check('region', r.region_id, 'data_age', r.age_seconds, maxAge, r.positions);
    check('region', r.region_id, 'ingest_lag_p95', r.lag_p95_seconds, maxLag, r.lag_sample_size);
  }
  alerts.sort((a, b) => b.ratio - a.ratio || a.scope.localeCompare(b.scope) || a.key.localeCompare(b.key) || a.metric.localeCompare(b.metric));
  const flags = [...f.flags];
  if (!f.newest) flags.push('no_positions_stored');
  return {
    data: {
      window: f.window,
      thresholds: { max_age_seconds: maxAge, max_lag_seconds: maxLag, region_deg: REGION_DEG },
      checked: { sources: f.sources.length, regions: f.regions.length, positions_in_window: f.positions, lag_sample_size: f.lag.sample_size },
      alert_count: alerts.length,
      alerts,
    },
    qualityFlags: flags,
  };
}

export function completenessView(window: DataWindow['window'], v: Rows<'vesselCompleteness'>, p: Rows<'positionCompleteness'>) {
  const field = (count: number, whole: number) => ({ count, share: share(count, whole) });
  const flags: string[] = [];
  if (v.vessels === 0) flags.push('no_vessels_in_window');
  if (p.positions === 0) flags.push(NO_POSITIONS_FLAG);
  if (v.simulated > 0 || p.simulated > 0) flags.push(SIMULATED_FLAG);
  return {
    data: {
      window,
      vessels: {
        seen: v.vessels,
        simulated: v.simulated,
        fields: {
          name: field(v.name, v.vessels),
          imo: field(v.imo, v.vessels),
          ship_type: field(v.ship_type, v.vessels),
          dimensions: field(v.dimensions, v.vessels),
          destination: field(v.destination, v.vessels),
        },
      },
      positions: {
        observed: p.positions,
        simulated: p.simulated,
        fields: { sog: field(p.sog, p.positions), cog: field(p.cog, p.positions), heading: field(p.heading, p.positions) },
      },
    },
    qualityFlags: flags,
  };
}

/** Per bucket of the window, the newest position seen by its end and whether its age meets the target. */
export function freshnessSlaView(at: DataWindow, bucketMs: number, target: number, before: Rows<'newestPosition'>, perBucket: Rows<'newestPerBucket'>) {
  const { since, until, window } = at;
  const count = Math.ceil((until - since) / bucketMs);
  // a position observed exactly at the window end falls one past the last bucket: it belongs to the last
  const newestIn = new Map<number, { newest: number; positions: number }>();
  for (const b of perBucket) {
    const i = Math.min(count - 1, b.bucket);
    const held = newestIn.get(i);
    newestIn.set(i, held ? { newest: Math.max(held.newest, b.newest), positions: held.positions + b.positions } : { newest: b.newest, positions: b.positions });
  }
  let newest = before?.observed_at ?? null;
  let met = 0;
  const buckets = Array.from({ length: count }, (_, i) => {
    const start = since + i * bucketMs;
    const end = Math.min(until, start + bucketMs);
    const inBucket = newestIn.get(i);
    if (inBucket) newest = Math.max(newest ?? inBucket.newest, inBucket.newest);
    const age = newest === null ? null : ageSeconds(end, newest);
    const ok = age !== null && age <= target;
    if (ok) met++;
    return { start: iso(start), end: iso(end), positions: inBucket?.positions ?? 0, newest_observed_at: isoOrNull(newest), age_seconds: age, met: ok };
  });
  const positions = perBucket.reduce((sum, b) => sum + b.positions, 0);
  const flags: string[] = [];
  if (positions === 0) flags.push(NO_POSITIONS_FLAG);
  if (before === null && positions === 0) flags.push('no_positions_stored');
  return {
    data: {
      window: { ...window, bucket_minutes: bucketMs / MINUTE, buckets: count },
      target_seconds: target,
      positions_in_window: positions,
      met_buckets: met,
      share: before === null && positions === 0 ? null : round(met / count),
      buckets,
    },
    qualityFlags: flags,
  };
}
