/**
 * The land check of the sea network (decisions 052 and 136, docs/routing.md): how far a point or a segment
 * lies inland on Natural Earth 1:10m outside the declared waterways, and the repair the network build
 * applies to marnet — nodes on land moved to the nearest water, edges with a run of land longer than the
 * land audit allows (issue 28) replaced by a path found over a water grid around them (then straightened as
 * far as the water allows).
 */
import { distanceM, interpolate, normalizeLon } from '../geo/distance.js';
import type { LandIndex } from '../geo/land.js';
import type { NetworkLine } from './graph.js';
import { lineOverLand } from './line-land.js';
import { NodeHeap } from './node-heap.js';
import { waterwayAt } from './waterways.js';

/**
 * A network edge with a run of land longer than this (km; consecutive samples 100 m apart on land outside the
 * declared waterways) crosses land: the rule of the land audit (issue 28, decision 136).
 */
export const NETWORK_LAND_RUN_KM = 0.5;
/** segmentLand's default: deeper than this inland (km) a sample counts as inland. */
const DEPTH_TOLERANCE_KM = 0.5;
/** Repaired segments are held to runs of land of at most this (km), so a repair is clearly clean. */
const REPAIR_LAND_RUN_KM = 0.3;
/** Deepest inland distance measured; farther is reported as this. */
const MAX_MEASURED_KM = 100;

/** Km inland at the point: 0 at sea, on the coast or inside a declared waterway. */
export function inlandKm(land: LandIndex, lon: number, lat: number): number {
  const x = normalizeLon(lon);
  if (!land.isLand(x, lat) || waterwayAt(x, lat) !== null) return 0;
  const d = land.coastDistanceKm(x, lat, MAX_MEASURED_KM);
  return Number.isFinite(d) ? d : MAX_MEASURED_KM;
}

export interface SegmentLand {
  /** Deepest inland point of the segment (km) and where it is. */
  maxKm: number;
  at: [number, number] | null;
  /** Length of the segment's samples inland deeper than `tolerance` (km). */
  inlandLengthKm: number;
}

/** True inside a declared waterway (water the 1:10m land mask draws as land). */
export const inWaterway = (lon: number, lat: number) => waterwayAt(lon, lat) !== null;

/** The land a straight join crosses as the land audit counts it: its longest run of land not starting at the place (km). */
export function joinLandRunKm(land: LandIndex, place: { lat: number; lon: number }, join: { snappedLat: number; snappedLon: number }): number {
  return lineOverLand(
    land,
    [
      [place.lon, place.lat],
      [join.snappedLon, join.snappedLat],
    ],
    inWaterway,
  ).longestInnerRunKm;
}

/**
 * The longest run of land (km) on the great circle from a to b, sampled every 100 m, outside the declared
 * waterways; the walk stops once a run exceeds `stopAboveKm`.
 */
export function landRunKm(land: LandIndex, a: readonly [number, number], b: readonly [number, number], stopAboveKm = Infinity): { km: number; at: [number, number] | null } {
  const r = lineOverLand(land, [a, b], inWaterway, stopAboveKm);
  return { km: r.longestRunKm, at: r.runAt };
}

/** Segments longer than this (km) are checked in halves; shorter ones are first tested whole against the coast. */
const OPEN_SEA_TEST_KM = 100;

/** True when the whole segment is at sea: its midpoint is, and no coast lies within half its length of it. */
function openSea(land: LandIndex, a: readonly [number, number], b: readonly [number, number], lengthKm: number): boolean {
  const m = interpolate(a[1], a[0], b[1], b[0], 0.5);
  return !land.isLand(m.lon, m.lat) && land.coastDistanceKm(m.lon, m.lat, lengthKm / 2 + 0.1) === Infinity;
}

/** Samples the great circle from a to b (both [lon, lat]) every `stepKm` (ends included). */
export function segmentLand(land: LandIndex, a: readonly [number, number], b: readonly [number, number], stepKm = 0.5, tolerance = DEPTH_TOLERANCE_KM): SegmentLand {
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  if (lengthKm > OPEN_SEA_TEST_KM) {
    // Halves, so that stretches of open ocean are recognised whole (openSea) instead of sampled.
    const m = interpolate(a[1], a[0], b[1], b[0], 0.5);
    const first = segmentLand(land, a, [m.lon, m.lat], stepKm, tolerance);
    const second = segmentLand(land, [m.lon, m.lat], b, stepKm, tolerance);
    const deeper = second.maxKm > first.maxKm ? second : first;
    return { maxKm: deeper.maxKm, at: deeper.at, inlandLengthKm: first.inlandLengthKm + second.inlandLengthKm };
  }
  if (openSea(land, a, b, lengthKm)) return { maxKm: 0, at: null, inlandLengthKm: 0 };
  const n = Math.max(1, Math.ceil(lengthKm / stepKm));
  let maxKm = 0;
  let at: [number, number] | null = null;
  let inlandLengthKm = 0;
  for (let i = 0; i <= n; i++) {
    const p = interpolate(a[1], a[0], b[1], b[0], i / n);
    const d = inlandKm(land, p.lon, p.lat);
    if (d > tolerance) inlandLengthKm += lengthKm / n;
    if (d > maxKm) {
      maxKm = d;
      at = [p.lon, p.lat];
    }
  }
  return { maxKm, at, inlandLengthKm };
}

/** True when no sample of the segment lies deeper inland than `tolerance` km (early exit). */
export function segmentClear(land: LandIndex, a: readonly [number, number], b: readonly [number, number], tolerance: number, stepKm = 0.5): boolean {
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  if (lengthKm > OPEN_SEA_TEST_KM) {
    const m = interpolate(a[1], a[0], b[1], b[0], 0.5);
    return segmentClear(land, a, [m.lon, m.lat], tolerance, stepKm) && segmentClear(land, [m.lon, m.lat], b, tolerance, stepKm);
  }
  if (openSea(land, a, b, lengthKm)) return true;
  const n = Math.max(1, Math.ceil(lengthKm / stepKm));
  // Coarse to fine (every 64th sample first, then the 32nds between…): land is usually found early.
  for (let stride = 64; stride >= 1; stride /= 2) {
    for (let i = 0; i <= n; i += stride) {
      if (stride < 64 && i % (stride * 2) === 0) continue;
      const p = interpolate(a[1], a[0], b[1], b[0], i / n);
      if (inlandKm(land, p.lon, p.lat) > tolerance) return false;
    }
  }
  return true;
}

/** A water path between two points over a grid of cells whose centres are water, or null. */
function gridWaterPath(land: LandIndex, a: readonly [number, number], b: readonly [number, number], cellDeg: number): [number, number][] | null {
  let bx = b[0];
  if (bx - a[0] > 180) bx -= 360;
  else if (a[0] - bx > 180) bx += 360;
  const span = Math.max(Math.abs(bx - a[0]), Math.abs(b[1] - a[1]));
  let margin = Math.max(0.3, 0.5 * span);
  const maxCells = 2_000_000;
  let west: number;
  let south: number;
  let width: number;
  let height: number;
  for (;;) {
    west = Math.min(a[0], bx) - margin;
    south = Math.max(-89.9, Math.min(a[1], b[1]) - margin);
    const north = Math.min(89.9, Math.max(a[1], b[1]) + margin);
    width = Math.ceil((Math.max(a[0], bx) + margin - west) / cellDeg) + 1;
    height = Math.ceil((north - south) / cellDeg) + 1;
    if (width * height <= maxCells || margin <= 0.1) break;
    margin /= 2;
  }
  const cells = width * height;
  if (cells > 4 * maxCells) return null;
  const water = new Uint8Array(cells); // 0 unknown, 1 water, 2 land
  const centre = (c: number): [number, number] => [west + (c % width) * cellDeg, south + Math.floor(c / width) * cellDeg];
  const isWater = (c: number) => {
    if (water[c] === 0) {
      const [x, y] = centre(c);
      water[c] = inlandKm(land, x, y) === 0 ? 1 : 2;
    }
    return water[c] === 1;
  };
  const cellOf = (x: number, y: number) => Math.round((y - south) / cellDeg) * width + Math.round((x - west) / cellDeg);
  /** The water cell nearest to a cell (rings of growing radius), or -1. */
  const nearestWater = (c0: number) => {
    const cx = c0 % width;
    const cy = Math.floor(c0 / width);
    for (let r = 0; r <= 40; r++) {
      let best = -1;
      let bestD = Infinity;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= width || y >= height) continue;
          const c = y * width + x;
          if (isWater(c) && dx * dx + dy * dy < bestD) {
            bestD = dx * dx + dy * dy;
            best = c;
          }
        }
      }
      if (best >= 0) return best;
    }
    return -1;
  };
  const start = nearestWater(cellOf(a[0], a[1]));
  const goal = nearestWater(cellOf(bx, b[1]));
  if (start < 0 || goal < 0) return null;
  const kx = Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180);
  const gx = goal % width;
  const gy = Math.floor(goal / width);
  const h = (c: number) => Math.hypot(((c % width) - gx) * kx, Math.floor(c / width) - gy);
  const cost = new Float64Array(cells).fill(Infinity);
  const from = new Int32Array(cells).fill(-1);
  const heap = new NodeHeap();
  cost[start] = 0;
  heap.push(h(start), start);
  const steps: [number, number, number][] = [];
  for (const dy of [-1, 0, 1]) for (const dx of [-1, 0, 1]) if (dx !== 0 || dy !== 0) steps.push([dx, dy, Math.hypot(dx * kx, dy)]);
  let found = false;
  while (heap.size > 0) {
    const c = heap.pop();
    if (c === goal) {
      found = true;
      break;
    }
    const x = c % width;
    const y = Math.floor(c / width);
    for (const [dx, dy, w] of steps) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const n = ny * width + nx;
      if (!isWater(n)) continue;
      // no corner cutting: a diagonal step needs both cells beside it to be water, or its line may cross land;
      // and no step over a strip of land narrower than a cell (its midpoint on land)
      if (dx !== 0 && dy !== 0 && !(isWater(y * width + nx) && isWater(ny * width + x))) continue;
      const [cx, cy] = centre(c);
      if (inlandKm(land, cx + (dx * cellDeg) / 2, cy + (dy * cellDeg) / 2) > 0) continue;
      const candidate = cost[c]! + w;
      if (candidate < cost[n]!) {
        cost[n] = candidate;
        from[n] = c;
        heap.push(candidate + h(n), n);
      }
    }
  }
  if (!found) return null;
  const path: [number, number][] = [];
  for (let c = goal; c !== -1; c = from[c]!) path.push(centre(c));
  path.reverse();
  return [[a[0], a[1]], ...path, [bx, b[1]]];
}

/** Greedy straightening: from each kept point, the farthest later point reachable with no run of land over REPAIR_LAND_RUN_KM. */
export function straightenWaterPath(land: LandIndex, points: [number, number][]): [number, number][] | null {
  const clear = (a: [number, number], b: [number, number]) => landRunKm(land, a, b, REPAIR_LAND_RUN_KM).km <= REPAIR_LAND_RUN_KM;
  const kept: [number, number][] = [points[0]!];
  let i = 0;
  while (i < points.length - 1) {
    let j = i + 1;
    if (!clear(points[i]!, points[j]!)) return null;
    while (j + 1 < points.length && clear(points[i]!, points[j + 1]!)) j++;
    kept.push(points[j]!);
    i = j;
  }
  return kept;
}

/** A clear path from a to b over water (finer grids when coarse ones fail), ends included, longitudes unwrapped from a. */
export function waterPath(land: LandIndex, a: readonly [number, number], b: readonly [number, number]): [number, number][] | null {
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  const sizes = [0.05, 0.02, 0.008, 0.004].filter((deg) => deg * 111 < Math.max(lengthKm, 3) && (deg >= 0.008 || lengthKm < 80));
  for (const deg of sizes.length > 0 ? sizes : [0.004]) {
    const grid = gridWaterPath(land, a, b, deg);
    if (grid === null) continue;
    const straight = straightenWaterPath(land, grid);
    if (straight !== null) return straight;
  }
  return null;
}

/** The water point nearest to a point on land, searched on a grid of `step` degrees out to `maxKm`, or null. */
export function nearestWaterPoint(land: LandIndex, lon: number, lat: number, maxKm = 25, step = 0.005): [number, number] | null {
  const rings = Math.ceil(maxKm / (step * 111));
  const k = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  for (let r = 1; r <= rings; r++) {
    let best: [number, number] | null = null;
    let bestD = Infinity;
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== r) continue;
        const x = lon + (dx * step) / k;
        const y = lat + dy * step;
        if (inlandKm(land, x, y) === 0 && !land.isLand(normalizeLon(x), y)) {
          const d = dx * dx + dy * dy;
          if (d < bestD) {
            bestD = d;
            best = [normalizeLon(x), y];
          }
        }
      }
    }
    if (best !== null) return best;
  }
  return null;
}

export interface LandRepairReport {
  nodesChecked: number;
  edgesChecked: number;
  nodesMoved: { from: [number, number]; to: [number, number]; inlandKm: number }[];
  nodesUnmoved: { at: [number, number]; inlandKm: number }[];
  /** Edges whose longest run of land (`landRunKm`) was over NETWORK_LAND_RUN_KM. */
  edgesRepaired: { from: [number, number]; to: [number, number]; pass: string | null; landRunKm: number; addedPoints: number; lengthKm: number; newLengthKm: number }[];
  edgesUnresolved: { from: [number, number]; to: [number, number]; pass: string | null; landRunKm: number; at: [number, number] | null }[];
}

const key = (p: readonly [number, number]) => `${p[0] === -180 ? 180 : p[0]},${p[1]}`;
/** Coordinates and figures of the network file and its reports: 6 decimals. */
export const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The network build's land check (decisions 052, 136): every node and edge of the lines is checked against
 * Natural Earth 1:10m outside the declared waterways; nodes on land (at any depth, so that no run of land
 * continues from one edge into the next) move to the nearest water, edges with a run of land longer than
 * NETWORK_LAND_RUN_KM are replaced by a clear water path (so no edge is dropped and the graph keeps its
 * connections and passages). Edges with no water path are kept and reported.
 */
export function repairNetworkLines(lines: readonly NetworkLine[], land: LandIndex): { lines: NetworkLine[]; report: LandRepairReport } {
  const report: LandRepairReport = { nodesChecked: 0, edgesChecked: 0, nodesMoved: [], nodesUnmoved: [], edgesRepaired: [], edgesUnresolved: [] };
  const moved = new Map<string, [number, number]>();
  const seenNodes = new Set<string>();
  for (const line of lines) {
    for (const p of line.coordinates) {
      const k = key(p);
      if (seenNodes.has(k)) continue;
      seenNodes.add(k);
      const depth = inlandKm(land, p[0], p[1]);
      if (depth === 0) continue;
      const to = nearestWaterPoint(land, p[0], p[1], 2, 0.001) ?? nearestWaterPoint(land, p[0], p[1]);
      if (to === null) {
        report.nodesUnmoved.push({ at: [p[0], p[1]], inlandKm: round6(depth) });
        continue;
      }
      const rounded: [number, number] = [round6(to[0]), round6(to[1])];
      moved.set(k, rounded);
      report.nodesMoved.push({ from: [p[0], p[1]], to: rounded, inlandKm: round6(depth) });
    }
  }
  report.nodesChecked = seenNodes.size;
  /** Per edge checked: null when clear (or unresolved), else the interior points of its water path from `fromKey`. */
  const repaired = new Map<string, { fromKey: string; interior: [number, number][] } | null>();
  const out: NetworkLine[] = [];
  for (const line of lines) {
    const coordinates = line.coordinates.map((p) => moved.get(key(p)) ?? ([p[0], p[1]] as [number, number]));
    const result: [number, number][] = [coordinates[0]!];
    for (let i = 1; i < coordinates.length; i++) {
      const a = coordinates[i - 1]!;
      const b = coordinates[i]!;
      const ka = key(a);
      const kb = key(b);
      const edgeKey = ka < kb ? `${ka}|${kb}` : `${kb}|${ka}`;
      if (!repaired.has(edgeKey)) {
        const interior = checkEdge(land, a, b, line.pass, report);
        repaired.set(edgeKey, interior === null ? null : { fromKey: ka, interior });
      }
      const entry = repaired.get(edgeKey);
      if (entry) result.push(...(entry.fromKey === ka ? entry.interior : [...entry.interior].reverse()));
      result.push(b);
    }
    out.push({ pass: line.pass, coordinates: result });
  }
  return { lines: out, report };
}

/** Checks one edge; when it crosses land, the interior points of its replacement (reported either way). */
function checkEdge(land: LandIndex, a: [number, number], b: [number, number], pass: string | null, report: LandRepairReport): [number, number][] | null {
  report.edgesChecked++;
  const check = landRunKm(land, a, b);
  if (check.km <= NETWORK_LAND_RUN_KM) return null;
  const path = waterPath(land, a, b);
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  if (path === null) {
    report.edgesUnresolved.push({ from: a, to: b, pass, landRunKm: round6(check.km), at: check.at });
    return null;
  }
  // Interior points on [-180, 180]; the graph joins ±180 itself.
  const interior = path.slice(1, -1).map(([x, y]) => [round6(normalizeLon(x)), round6(y)] as [number, number]);
  const all = [a, ...interior, b];
  let newLengthKm = 0;
  for (let k = 1; k < all.length; k++) newLengthKm += distanceM(all[k - 1]![1], all[k - 1]![0], all[k]![1], all[k]![0]) / 1000;
  report.edgesRepaired.push({ from: a, to: b, pass, landRunKm: round6(check.km), addedPoints: interior.length, lengthKm: round6(lengthKm), newLengthKm: round6(newLengthKm) });
  return interior;
}

/** A network edge given to `waterPathToNetwork`: its id and its ends as [lon, lat]. */
export interface EdgeSegment {
  edge: number;
  a: readonly [number, number];
  b: readonly [number, number];
}

/** A grid of square cells (degrees) around a centre, with longitudes unwrapped from the centre. */
interface WaterGrid {
  west: number;
  south: number;
  width: number;
  height: number;
  cellDeg: number;
  /** 0 unknown, 1 water, 2 land (outside the declared waterways). */
  water: Uint8Array;
}

function gridCellOf(grid: WaterGrid, lon: number, lat: number): number {
  const x = Math.round((lon - grid.west) / grid.cellDeg);
  const y = Math.round((lat - grid.south) / grid.cellDeg);
  return x < 0 || y < 0 || x >= grid.width || y >= grid.height ? -1 : y * grid.width + x;
}

function gridCentre(grid: WaterGrid, cell: number): [number, number] {
  return [grid.west + (cell % grid.width) * grid.cellDeg, grid.south + Math.floor(cell / grid.width) * grid.cellDeg];
}

function gridIsWater(land: LandIndex, grid: WaterGrid, cell: number): boolean {
  if (grid.water[cell] === 0) {
    const [x, y] = gridCentre(grid, cell);
    const lon = normalizeLon(x);
    grid.water[cell] = !land.isLand(lon, y) || inWaterway(lon, y) ? 1 : 2;
  }
  return grid.water[cell] === 1;
}

/** The cells each edge passes through (sampled every half cell), mapped to the edge; longitudes brought to the grid's side. */
function edgeCells(grid: WaterGrid, edges: readonly EdgeSegment[], centreLon: number): Map<number, number> {
  const cells = new Map<number, number>();
  for (const { edge, a, b } of edges) {
    let aLon = a[0];
    let bLon = b[0];
    while (aLon - centreLon > 180) aLon -= 360;
    while (centreLon - aLon > 180) aLon += 360;
    while (bLon - aLon > 180) bLon -= 360;
    while (aLon - bLon > 180) bLon += 360;
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(bLon - aLon), Math.abs(b[1] - a[1])) / (grid.cellDeg / 2)));
    for (let i = 0; i <= n; i++) {
      const cell = gridCellOf(grid, aLon + ((bLon - aLon) * i) / n, a[1] + ((b[1] - a[1]) * i) / n);
      if (cell >= 0 && !cells.has(cell)) cells.set(cell, edge);
    }
  }
  return cells;
}

/** Most cells of one `waterPathToNetwork` grid (14 bytes each while it runs). */
const MAX_NETWORK_SEARCH_CELLS = 4_500_000;

/**
 * The shortest path over water from `start` ([lon, lat], at sea) to the network (decision 145): a Dijkstra
 * search over a grid of `finestCellDeg` cells (coarser near the poles) within `radiusDeg` of latitude (and as many km of longitude) that stops
 * at the first cell an edge passes through whose path `finish` accepts (it returns the finished join, or null to
 * search on; it is given the cell's size). Cells are water when the 1:10m mask has them at sea or in a declared waterway; a step is taken only
 * when its midpoint is water too, and a diagonal one only between two water cells, so that the path never steps
 * over a strip of land. Null when no cell of the network is reached within the box.
 */
export function waterPathToNetwork<T>(
  land: LandIndex,
  start: readonly [number, number],
  edges: readonly EdgeSegment[],
  radiusDeg: number,
  finestCellDeg: number,
  finish: (cells: [number, number][], edge: number, cellDeg: number) => T | null,
): T | null {
  const kx = Math.max(0.05, Math.cos((start[1] * Math.PI) / 180));
  const halfWidth = Math.min(180, radiusDeg / kx);
  const south = Math.max(-89.9, start[1] - radiusDeg);
  const north = Math.min(89.9, start[1] + radiusDeg);
  // near the poles a box of as many km of longitude holds more cells: coarser there, so that the cost stays bounded
  const cellDeg = finestCellDeg * Math.max(1, Math.sqrt((((2 * halfWidth) / finestCellDeg) * (north - south)) / finestCellDeg / MAX_NETWORK_SEARCH_CELLS));
  const width = Math.ceil((2 * halfWidth) / cellDeg) + 1;
  const height = Math.ceil((north - south) / cellDeg) + 1;
  const grid: WaterGrid = { west: start[0] - halfWidth, south, width, height, cellDeg, water: new Uint8Array(width * height) };
  const targets = edgeCells(grid, edges, start[0]);
  const first = gridCellOf(grid, start[0], start[1]);
  if (first < 0 || !gridIsWater(land, grid, first)) return null;
  const cost = new Float64Array(width * height).fill(Infinity);
  const from = new Int32Array(width * height).fill(-1);
  const heap = new NodeHeap();
  cost[first] = 0;
  heap.push(0, first);
  const done = new Uint8Array(width * height);
  while (heap.size > 0) {
    const c = heap.pop();
    if (done[c] === 1) continue;
    done[c] = 1;
    const edge = targets.get(c);
    if (edge !== undefined) {
      const cells: [number, number][] = [];
      for (let k = c; k !== -1; k = from[k]!) cells.push(gridCentre(grid, k));
      const result = finish(cells.reverse(), edge, cellDeg);
      if (result !== null) return result;
    }
    relaxNeighbours(land, grid, c, kx, cost, from, heap);
  }
  return null;
}

/** The 8 steps of a grid cell with their lengths (a degree of longitude counted as `kx` of one of latitude). */
function relaxNeighbours(land: LandIndex, grid: WaterGrid, c: number, kx: number, cost: Float64Array, from: Int32Array, heap: NodeHeap): void {
  const { width, height, cellDeg } = grid;
  const x = c % width;
  const y = Math.floor(c / width);
  const [cx, cy] = gridCentre(grid, c);
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      const ny = y + dy;
      if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const n = ny * width + nx;
      if (!gridIsWater(land, grid, n)) continue;
      if (dx !== 0 && dy !== 0 && !(gridIsWater(land, grid, y * width + nx) && gridIsWater(land, grid, ny * width + x))) continue;
      const midLon = normalizeLon(cx + (dx * cellDeg) / 2);
      const midLat = cy + (dy * cellDeg) / 2;
      if (land.isLand(midLon, midLat) && !inWaterway(midLon, midLat)) continue;
      const candidate = cost[c]! + Math.hypot(dx * kx, dy);
      if (candidate < cost[n]!) {
        cost[n] = candidate;
        from[n] = c;
        heap.push(candidate, n);
      }
    }
  }
}
