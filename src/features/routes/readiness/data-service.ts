import type { Clock } from '../../../platform/clock.js';
import { DAY, HOUR, iso, isoOrNull, MINUTE, SECOND } from '../../../platform/clock.js';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import { distanceM } from '../../../geo/distance.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { PortRecord } from '../../ports/port-table.js';
import { cellCol, cellCorner, cellKey, cellRow, contiguousGroups, COVERAGE_CELL_DEG, networkCells } from './network-cells.js';
import type { ReadinessRepo } from './readiness-repo.js';
import { percentile, round } from '../../../platform/stats.js';

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
const ageSeconds = (now: number, at: number) => Math.round((now - at) / SECOND);

const lagSeconds = (sortedMs: readonly number[], p: number) => {
  const v = percentile(sortedMs, p);
  return v === null ? null : round(v / SECOND, 3);
};

function region(lat: number, lon: number) {
  const south = Math.min(90 - REGION_DEG, Math.floor((lat + 90) / REGION_DEG) * REGION_DEG - 90);
  const west = Math.min(180 - REGION_DEG, Math.floor((lon + 180) / REGION_DEG) * REGION_DEG - 180);
  return { id: `${south}/${west}`, south, west, north: south + REGION_DEG, east: west + REGION_DEG };
}

export interface DataServiceDeps {
  repo: ReadinessRepo;
  clock: Clock;
  network: () => LoadedSeaNetwork;
  ports: () => readonly PortRecord[];
}

/** The data views of the routes section: freshness, lag alerts, completeness, freshness SLA and coverage of the sea-lane network. */
export function createRoutesDataService(deps: DataServiceDeps) {
  const { repo, clock } = deps;
  let cells: { engine: unknown; keys: Set<number> } | null = null;
  const laneCells = () => {
    const { engine } = deps.network();
    if (cells === null || cells.engine !== engine) cells = { engine, keys: networkCells(engine.graph) };
    return cells.keys;
  };
  const windowOf = (hours: number) => {
    const until = clock.now();
    const since = until - hours * HOUR;
    return { since, until, window: { hours, since: iso(since), until: iso(until) } };
  };

  async function freshnessFacts(hours: number) {
    const { since, until, window } = windowOf(hours);
    const [newest, sources, lagRows] = await Promise.all([repo.newestPosition(until), repo.bySource(since, until), repo.lagSample(since, until, LAG_SAMPLE_CAP)]);
    const regionCells = await repo.byCell(since, until, REGION_DEG);
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

  async function freshness(query: { hours?: number }) {
    const f = await freshnessFacts(query.hours ?? 24);
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

  /** Age of the newest stored position (observed at or before now), or null when none is stored. */
  async function newestAge(): Promise<{ observed_at: number; age_seconds: number; simulated: boolean } | null> {
    const now = clock.now();
    const newest = await repo.newestPosition(now);
    return newest ? { observed_at: newest.observed_at, age_seconds: ageSeconds(now, newest.observed_at), simulated: newest.simulated } : null;
  }

  async function lagAlerts(query: { hours?: number; max_age_seconds?: number; max_lag_seconds?: number }) {
    const maxAge = query.max_age_seconds ?? DEFAULT_MAX_AGE_SECONDS;
    const maxLag = query.max_lag_seconds ?? DEFAULT_MAX_LAG_SECONDS;
    const f = await freshnessFacts(query.hours ?? 24);
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

  async function completeness(query: { hours?: number }) {
    const { since, until, window } = windowOf(query.hours ?? 24);
    const [v, p] = await Promise.all([repo.vesselCompleteness(since, until), repo.positionCompleteness(since, until)]);
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

  async function freshnessSla(query: { hours?: number; bucket_minutes?: number; target_seconds?: number }) {
    const hours = query.hours ?? 24;
    const bucketMs = (query.bucket_minutes ?? DEFAULT_SLA_BUCKET_MINUTES) * MINUTE;
    const target = query.target_seconds ?? DEFAULT_SLA_TARGET_SECONDS;
    const { since, until, window } = windowOf(hours);
    const [before, perBucket] = await Promise.all([repo.newestPosition(since - 1), repo.newestPerBucket(since, until, bucketMs)]);
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

  async function coverage(query: { hours?: number }) {
    const { since, until, window } = windowOf(query.hours ?? 24);
    const lanes = laneCells();
    const observed = await repo.byCell(since, until, COVERAGE_CELL_DEG);
    let covered = 0;
    let onLanes = 0;
    let positions = 0;
    for (const c of observed) {
      positions += c.positions;
      if (lanes.has(cellKey(c.row, c.col))) {
        covered++;
        onLanes += c.positions;
      }
    }
    const simulated = observed.reduce((sum, c) => sum + c.simulated, 0);
    const { engine } = deps.network();
    const flags: string[] = [];
    if (positions === 0) flags.push(NO_POSITIONS_FLAG);
    if (simulated > 0) flags.push(SIMULATED_FLAG);
    return {
      data: {
        window,
        cell_deg: COVERAGE_CELL_DEG,
        network: { name: 'Eurostat marnet', nodes: engine.graph.nodeCount, edges: engine.graph.edgeCount, cells: lanes.size },
        observed_cells: observed.length,
        covered_cells: covered,
        share: round(covered / lanes.size),
        positions: { in_window: positions, in_network_cells: onLanes, simulated },
      },
      qualityFlags: flags,
    };
  }

  async function coverageHistory(query: { days?: number }) {
    const days = query.days ?? 7;
    const until = clock.now();
    const since = Math.floor(until / DAY) * DAY - (days - 1) * DAY;
    const lanes = laneCells();
    const rows = await repo.byDayCell(since, until, DAY, COVERAGE_CELL_DEG);
    const perDay = Array.from({ length: days }, () => ({ positions: 0, covered: 0, observed: 0 }));
    let simulated = 0;
    for (const r of rows) {
      const d = perDay[r.day];
      if (!d) continue;
      d.positions += r.positions;
      simulated += r.simulated;
      d.observed++;
      if (lanes.has(cellKey(r.row, r.col))) d.covered++;
    }
    const flags: string[] = [];
    if (perDay.every((d) => d.positions === 0)) flags.push(NO_POSITIONS_FLAG);
    else if (perDay.some((d) => d.positions === 0)) flags.push('days_without_positions');
    if (simulated > 0) flags.push(SIMULATED_FLAG);
    return {
      data: {
        window: { days, since: iso(since), until: iso(until) },
        cell_deg: COVERAGE_CELL_DEG,
        network_cells: lanes.size,
        days: perDay.map((d, i) => ({
          day: iso(since + i * DAY).slice(0, 10),
          positions: d.positions,
          observed_cells: d.observed,
          covered_cells: d.covered,
          share: d.positions === 0 ? null : round(d.covered / lanes.size),
        })),
      },
      qualityFlags: flags,
    };
  }

  async function coverageGaps(query: { hours?: number; limit?: number; min_cells?: number }) {
    const limit = query.limit ?? 20;
    const minCells = query.min_cells ?? 1;
    const { since, until, window } = windowOf(query.hours ?? 24);
    const lanes = laneCells();
    const cellsSeen = await repo.byCell(since, until, COVERAGE_CELL_DEG);
    const observed = new Set(cellsSeen.map((c) => cellKey(c.row, c.col)));
    const missing = new Set([...lanes].filter((k) => !observed.has(k)));
    const groups = contiguousGroups(missing)
      .filter((g) => g.length >= minCells)
      .sort((a, b) => b.length - a.length || a[0]! - b[0]!);
    const ports = deps.ports();
    const gaps = groups.slice(0, limit).map((group, i) => {
      const cols = new Set(group.map(cellCol));
      const wraps = cols.has(0) && cols.has(360 / COVERAGE_CELL_DEG - 1);
      // longitudes unwrapped to the east of the antimeridian when the gap spans it
      const lonOf = (key: number) => {
        const lon = cellCorner(key).lon;
        return wraps && lon < 0 ? lon + 360 : lon;
      };
      const lats = group.map((k) => cellCorner(k).lat);
      const lons = group.map(lonOf);
      const south = Math.min(...lats);
      const north = Math.max(...lats) + COVERAGE_CELL_DEG;
      const west = Math.min(...lons);
      const east = Math.max(...lons) + COVERAGE_CELL_DEG;
      const centreLat = lats.reduce((s, v) => s + v, 0) / group.length + COVERAGE_CELL_DEG / 2;
      let centreLon = lons.reduce((s, v) => s + v, 0) / group.length + COVERAGE_CELL_DEG / 2;
      if (centreLon >= 180) centreLon -= 360;
      const norm = (lon: number) => (lon > 180 ? lon - 360 : lon);
      const chokepoint = CHOKEPOINTS.map((c) => ({ key: c.key, name: c.name, distance_km: round(distanceM(centreLat, centreLon, c.lat, c.lon) / 1000, 0) })).sort(
        (a, b) => a.distance_km - b.distance_km,
      )[0]!;
      let port: { port_id: number; name: string; locode: string | null; distance_km: number } | null = null;
      for (const p of ports) {
        const d = distanceM(centreLat, centreLon, p.lat, p.lon) / 1000;
        if (port === null || d < port.distance_km) port = { port_id: p.port_id, name: p.name, locode: p.locode, distance_km: d };
      }
      return {
        rank: i + 1,
        cells: group.length,
        extent: { south, west: norm(west), north, east: norm(east), crosses_antimeridian: wraps },
        centre: { lat: round(centreLat, 2), lon: round(centreLon, 2) },
        nearest_chokepoint: chokepoint,
        nearest_port: port ? { ...port, distance_km: round(port.distance_km, 0) } : null,
        first_cell: { south: cellCorner(group[0]!).lat, west: cellCorner(group[0]!).lon, row: cellRow(group[0]!), col: cellCol(group[0]!) },
      };
    });
    const flags: string[] = [];
    if (observed.size === 0) flags.push(NO_POSITIONS_FLAG);
    if (cellsSeen.some((c) => c.simulated > 0)) flags.push(SIMULATED_FLAG);
    return {
      data: {
        window,
        cell_deg: COVERAGE_CELL_DEG,
        network_cells: lanes.size,
        unobserved_cells: missing.size,
        gap_count: groups.length,
        min_cells: minCells,
        gaps,
      },
      qualityFlags: flags,
    };
  }

  return { freshness, lagAlerts, completeness, freshnessSla, coverage, coverageHistory, coverageGaps, newestAge };
}
export type RoutesDataService = ReturnType<typeof createRoutesDataService>;
