import { DAY, iso } from '../../../platform/clock.js';
import { CHOKEPOINTS } from '../../../events/chokepoints.js';
import { distanceM } from '../../../geo/distance.js';
import { round } from '../../../platform/stats.js';
import type { LoadedSeaNetwork } from '../../../routing/network-file.js';
import type { PortRecord } from '../../ports/port-table.js';
import { NO_POSITIONS_FLAG, SIMULATED_FLAG, type DataWindow } from './freshness-views.js';
import { cellCol, cellCorner, cellKey, cellRow, contiguousGroups, COVERAGE_CELL_DEG } from './network-cells.js';
import type { ReadinessRepo } from './readiness-repo.js';

/**
 * The coverage views of the routes section (which cells of the sea-lane network saw positions) as pure
 * functions of the network's cells and the cells the data service read.
 */

type Rows<K extends keyof ReadinessRepo> = Awaited<ReturnType<ReadinessRepo[K]>>;

export function coverageView(window: DataWindow['window'], lanes: ReadonlySet<number>, observed: Rows<'byCell'>, engine: LoadedSeaNetwork['engine']) {
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

/** Per UTC day from `since`, the network cells that saw positions. */
export function coverageHistoryView(days: number, since: number, until: number, lanes: ReadonlySet<number>, rows: Rows<'byDayCell'>) {
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

/**
 * The west and east edges of the columns a group of cells occupies, read around the globe: the group lies
 * east of the widest run of columns it leaves empty. A group in every column spans −180 to 180.
 */
export function longitudeSpan(columns: readonly number[]): { west: number; east: number; crossesAntimeridian: boolean } {
  const all = Math.round(360 / COVERAGE_CELL_DEG);
  const occupied = [...new Set(columns)].sort((a, b) => a - b);
  if (occupied.length === all) return { west: -180, east: 180, crossesAntimeridian: false };
  // the widest empty run lies after `before` (circularly): the group begins at the column after it
  let widest = -1;
  let before = occupied[occupied.length - 1]!;
  let westCol = occupied[0]!;
  for (let i = 0; i < occupied.length; i++) {
    const previous = i === 0 ? occupied[occupied.length - 1]! - all : occupied[i - 1]!;
    const empty = occupied[i]! - previous - 1;
    if (empty > widest) {
      widest = empty;
      westCol = occupied[i]!;
      before = (previous + all) % all;
    }
  }
  const west = westCol * COVERAGE_CELL_DEG - 180;
  const east = (before + 1) * COVERAGE_CELL_DEG - 180;
  return { west, east, crossesAntimeridian: east <= west };
}

/** The network cells without positions, in contiguous groups (largest first), each with the nearest chokepoint and port. */
export function coverageGapsView(window: DataWindow['window'], lanes: ReadonlySet<number>, cellsSeen: Rows<'byCell'>, ports: readonly PortRecord[], limit: number, minCells: number) {
  const observed = new Set(cellsSeen.map((c) => cellKey(c.row, c.col)));
  const missing = new Set([...lanes].filter((k) => !observed.has(k)));
  const groups = contiguousGroups(missing)
    .filter((g) => g.length >= minCells)
    .sort((a, b) => b.length - a.length || a[0]! - b[0]!);
  const gaps = groups.slice(0, limit).map((group, i) => {
    const span = longitudeSpan(group.map(cellCol));
    // longitudes unwrapped to run east from the gap's western edge
    const lonOf = (key: number) => {
      const lon = cellCorner(key).lon;
      return lon < span.west ? lon + 360 : lon;
    };
    const lats = group.map((k) => cellCorner(k).lat);
    const lons = group.map(lonOf);
    const south = Math.min(...lats);
    const north = Math.max(...lats) + COVERAGE_CELL_DEG;
    const centreLat = lats.reduce((s, v) => s + v, 0) / group.length + COVERAGE_CELL_DEG / 2;
    let centreLon = lons.reduce((s, v) => s + v, 0) / group.length + COVERAGE_CELL_DEG / 2;
    if (centreLon >= 180) centreLon -= 360;
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
      extent: { south, west: span.west, north, east: span.east, crosses_antimeridian: span.crossesAntimeridian },
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
