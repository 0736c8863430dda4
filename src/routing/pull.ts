/**
 * Great circles where the water allows (issue 28, decision 126): after the search, a route's chain of
 * points is "string-pulled" — from each kept point, the farthest later point whose great circle touches
 * no Natural Earth 1:10m land replaces the points between; then corners with a large detour slide toward
 * the great circle between their neighbours. The point where the route enters a passage is kept, so
 * passages, where they begin and the distance at which they do stay as the network has them.
 *
 * The land test walks the great circle through 1° cells known to be all sea and the land index's 0.125°
 * cells, and tests the coast segments exactly only inside cells the coast crosses, so an ocean crossing of
 * thousands of km costs a few hundred cell lookups. Declared waterways are NOT water here: a pull never
 * cuts across what the 1:10m mask draws as land.
 */
import { distanceM, EARTH_RADIUS_M, interpolate, normalizeLon } from '../geo/distance.js';
import { LAND_CELL_DEG, type LandIndex } from '../geo/land.js';

/** Great circles are followed as straight lon/lat chords at most this long (km): the chord departs from the arc by < 0.02 km, so a cape the audit finds on the arc is not missed. */
const CHORD_KM = 25;
/** Land this close (km) to either end of a segment is not counted: the ends are network points on the coast. */
export const PULL_END_ALLOWANCE_KM = 0.3;
/** Coarse cells (degrees): per land index, whether each is all sea, and its open-sea rings (decision 144). */
const COARSE_DEG = 1;
interface CoarseCells {
  /** 1 all sea, 2 not (0 not yet asked). */
  sea: Uint8Array;
  /** openSeaRings's answer (-2 not yet asked). */
  openRings: Int8Array;
  /** openSeaRadiusKm's answer for a point of the cell (NaN not yet asked): it depends on the cell alone. */
  openRadiusKm: Float64Array;
}
const coarseByLand = new WeakMap<LandIndex, CoarseCells>();
/** The land index asked last and its cells: a WeakMap look-up per cell visited costs more than the visit (decision 152). */
let lastLand: LandIndex | null = null;
let lastCells: CoarseCells = { sea: new Uint8Array(0), openRings: new Int8Array(0), openRadiusKm: new Float64Array(0) };

function coarseCells(land: LandIndex): CoarseCells {
  if (land === lastLand) return lastCells;
  let cells = coarseByLand.get(land);
  if (cells === undefined) {
    const count = (360 / COARSE_DEG) * (180 / COARSE_DEG);
    cells = { sea: new Uint8Array(count), openRings: new Int8Array(count).fill(-2), openRadiusKm: new Float64Array(count).fill(NaN) };
    coarseByLand.set(land, cells);
  }
  lastLand = land;
  lastCells = cells;
  return cells;
}

function coarseSea(land: LandIndex, lon: number, lat: number): boolean {
  const cells = coarseCells(land).sea;
  const cx = Math.min(360 / COARSE_DEG - 1, Math.max(0, Math.floor((lon + 180) / COARSE_DEG)));
  const cy = Math.min(180 / COARSE_DEG - 1, Math.max(0, Math.floor((lat + 90) / COARSE_DEG)));
  const i = cy * (360 / COARSE_DEG) + cx;
  if (cells[i] === 0) {
    const west = -180 + cx * COARSE_DEG;
    const south = -90 + cy * COARSE_DEG;
    cells[i] = !land.boxTouchesCoast(west, south, west + COARSE_DEG, south + COARSE_DEG) && !land.isLand(west + COARSE_DEG / 2, south + COARSE_DEG / 2) ? 1 : 2;
  }
  return cells[i] === 1;
}

const RAD = Math.PI / 180;
/** Rings of coarse cells looked at around a point for its open-sea radius (decision 144). */
const OPEN_SEA_RINGS = 6;
/** No open-sea radius where its block of coarse cells would reach beyond this latitude (degrees): the chord bound below holds up to here. */
const OPEN_SEA_MAX_LAT = 80;
/**
 * How far (km) a chord of the test strays from the great circle at most, up to OPEN_SEA_MAX_LAT: a chord joins two
 * points of the arc at most CHORD_KM apart and stays in their lon/lat box (≤ 25 km of latitude plus ≤ 26 km along a
 * parallel at 80°), so within 51 km of an arc point; 60 with room.
 */
const CHORD_STRAY_KM = 60;

/** The number of rings of coarse cells around cell (cx, cy), up to OPEN_SEA_RINGS, that are all sea with it (-1: the cell itself is not). */
function openSeaRings(land: LandIndex, cx: number, cy: number): number {
  const columns = 360 / COARSE_DEG;
  const rings = coarseCells(land).openRings;
  const at = cy * columns + cx;
  if (rings[at] === -2) {
    let k = -1;
    while (k < OPEN_SEA_RINGS && ringAtSea(land, cx, cy, k + 1)) k++;
    rings[at] = k;
  }
  return rings[at]!;
}

/** Whether every coarse cell at Chebyshev distance `k` of cell (cx, cy) is all sea and no farther than OPEN_SEA_MAX_LAT (longitudes wrap). */
function ringAtSea(land: LandIndex, cx: number, cy: number, k: number): boolean {
  const south = -90 + (cy - k) * COARSE_DEG;
  const north = -90 + (cy + k + 1) * COARSE_DEG;
  if (south < -OPEN_SEA_MAX_LAT || north > OPEN_SEA_MAX_LAT) return false;
  for (let y = cy - k; y <= cy + k; y++) {
    const step = y === cy - k || y === cy + k ? 1 : 2 * k;
    for (let x = cx - k; x <= cx + k; x += Math.max(1, step)) {
      const lon = -180 + (((x % 360) + 360) % 360) * COARSE_DEG + COARSE_DEG / 2;
      if (!coarseSea(land, lon, -90 + y * COARSE_DEG + COARSE_DEG / 2)) return false;
    }
  }
  return true;
}

/**
 * A radius (km) around a point (longitude may be unwrapped) within which every point of a chord of the
 * land test near the arc lies in all-sea coarse cells: the distance from the point to the edge of its block of all-sea
 * rings, less CHORD_STRAY_KM; 0 when there is none. A point outside a block of k rings differs from it by at least
 * k° of latitude, or by k° of longitude with both latitudes within Φ (the block's largest |latitude|), so it lies at
 * least 2R·cos Φ·sin(k°/2) away (haversine), which is also below R·k° for the latitude case.
 */
function openSeaRadiusKm(land: LandIndex, lon: number, lat: number): number {
  const cx = Math.min(360 / COARSE_DEG - 1, Math.max(0, Math.floor((normalizeLon(lon) + 180) / COARSE_DEG)));
  const cy = Math.min(180 / COARSE_DEG - 1, Math.max(0, Math.floor((lat + 90) / COARSE_DEG)));
  const radii = coarseCells(land).openRadiusKm;
  const at = cy * (360 / COARSE_DEG) + cx;
  let radiusKm = radii[at]!;
  if (Number.isNaN(radiusKm)) {
    const k = openSeaRings(land, cx, cy);
    const maxLat = Math.max(Math.abs(-90 + (cy - k) * COARSE_DEG), Math.abs(-90 + (cy + k + 1) * COARSE_DEG));
    radiusKm = k <= 0 ? 0 : Math.max(0, (2 * EARTH_RADIUS_M * Math.cos(maxLat * RAD) * Math.sin((k * COARSE_DEG * RAD) / 2)) / 1000 - CHORD_STRAY_KM);
    radii[at] = radiusKm;
  }
  return radiusKm;
}

/** Chord ends of the test under way (the test is not re-entered). */
let scratchLon = new Float64Array(256);
let scratchLat = new Float64Array(256);
/** Per chord of the test under way: 1 when known at sea from an open-sea radius (decision 144). */
let scratchCertified = new Uint8Array(256);

/**
 * True when the great circle from a to b ([lon, lat], longitudes may be unwrapped) touches no 1:10m land,
 * except within `endKm` of its ends: its first point past `endKm` is at sea and no chord crosses the coast.
 * An end the caller knows to be at sea (`aAtSea`, `bAtSea`) is checked from the end itself, without a
 * point-in-land test.
 * Chords are tried middle first (an obstacle usually lies between the ends of a detour).
 */
export function greatCircleAtSea(land: LandIndex, a: readonly [number, number], b: readonly [number, number], endKm = PULL_END_ALLOWANCE_KM, aAtSea = false, bAtSea = false): boolean {
  const lengthKm = distanceM(a[1], a[0], b[1], b[0]) / 1000;
  if (lengthKm <= (aAtSea ? 0 : endKm) + (bAtSea ? 0 : endKm)) return true;
  // slerp between the unit vectors of a and b
  const ca = Math.cos(a[1] * RAD);
  const cb = Math.cos(b[1] * RAD);
  const ax = ca * Math.cos(a[0] * RAD);
  const ay = ca * Math.sin(a[0] * RAD);
  const az = Math.sin(a[1] * RAD);
  const bx = cb * Math.cos(b[0] * RAD);
  const by = cb * Math.sin(b[0] * RAD);
  const bz = Math.sin(b[1] * RAD);
  const delta = lengthKm / (EARTH_RADIUS_M / 1000);
  const sinDelta = Math.sin(delta);
  // an end known to be at sea is checked from the end itself; an end on land (a port inland) from endKm on
  const f0 = aAtSea ? 0 : endKm / lengthKm;
  const f1 = bAtSea ? 1 : 1 - endKm / lengthKm;
  const chords = Math.max(1, Math.ceil(((f1 - f0) * lengthKm) / CHORD_KM));
  // chord ends computed when first needed (a check that fails in the middle computes few)
  if (scratchLat.length < chords + 1) {
    scratchLon = new Float64Array(2 * (chords + 1));
    scratchLat = new Float64Array(2 * (chords + 1));
    scratchCertified = new Uint8Array(2 * (chords + 1));
  }
  const lon = scratchLon;
  const lat = scratchLat;
  lat.fill(NaN, 0, chords + 1);
  const point = (c: number) => {
    if (!Number.isNaN(lat[c]!)) return;
    const f = f0 + ((f1 - f0) * c) / chords;
    const A = Math.sin((1 - f) * delta) / sinDelta;
    const B = Math.sin(f * delta) / sinDelta;
    const x = A * ax + B * bx;
    const y = A * ay + B * by;
    const z = A * az + B * bz;
    lat[c] = Math.atan2(z, Math.sqrt(x * x + y * y)) / RAD;
    lon[c] = Math.atan2(y, x) / RAD;
  };
  point(0);
  if (!aAtSea && land.isLand(normalizeLon(lon[0]!), lat[0]!)) return false;
  // chords known at sea without their walk: those starting within the open-sea radius of a chord end (decision 144)
  const certified = scratchCertified;
  certified.fill(0, 0, chords + 1);
  const chordKm = ((f1 - f0) * lengthKm) / chords;
  for (let start = 0; start < chords;) {
    point(start);
    const radiusKm = openSeaRadiusKm(land, lon[start]!, lat[start]!);
    if (radiusKm === 0) {
      start++;
      continue;
    }
    const last = Math.min(chords, start + 1 + Math.floor(radiusKm / chordKm));
    certified.fill(1, start + 1, last + 1);
    start = last;
  }
  let stride = 1;
  while (stride * 2 <= chords) stride *= 2;
  for (; stride >= 1; stride = stride / 2) {
    for (let c = stride; c <= chords; c += stride) {
      if ((stride * 2 <= chords && c % (stride * 2) === 0) || certified[c] === 1) continue;
      point(c - 1);
      point(c);
      const px = lon[c - 1]!;
      let qx = lon[c]!;
      while (qx - px > 180) qx -= 360;
      while (px - qx > 180) qx += 360;
      if (!chordAtSea(land, px, lat[c - 1]!, qx, lat[c]!)) return false;
    }
  }
  return true;
}

/** What a cell traversal does in each cell of a segment from (x0, y0) along (ex, ey), entered at fraction t0 and left at t1: false stops it. */
type CellVisit = (land: LandIndex, x0: number, y0: number, ex: number, ey: number, t0: number, t1: number) => boolean;

/**
 * Visits the cells of a grid of `cellDeg` (from -180, -90) that the segment (x0, y0)–(x1, y1) passes, in
 * order along it (Amanatides–Woo traversal): `visit` gets the segment and the fractions of it where it
 * enters and leaves the cell, and answers false to stop. Whether every visit answered true. The visits are
 * plain functions given the segment (no closure per segment: the pull walks many).
 */
function everyCellAlong(land: LandIndex, x0: number, y0: number, x1: number, y1: number, cellDeg: number, visit: CellVisit): boolean {
  const ex = x1 - x0;
  const ey = y1 - y0;
  const gx0 = (x0 + 180) / cellDeg;
  const gy0 = (y0 + 90) / cellDeg;
  const dx = ex / cellDeg;
  const dy = ey / cellDeg;
  const cx = Math.floor(gx0);
  const cy = Math.floor(gy0);
  const tDeltaX = dx !== 0 ? 1 / Math.abs(dx) : Infinity;
  const tDeltaY = dy !== 0 ? 1 / Math.abs(dy) : Infinity;
  let tMaxX = dx > 0 ? (cx + 1 - gx0) / dx : dx < 0 ? (gx0 - cx) / -dx : Infinity;
  let tMaxY = dy > 0 ? (cy + 1 - gy0) / dy : dy < 0 ? (gy0 - cy) / -dy : Infinity;
  let t = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    const tNext = Math.min(tMaxX, tMaxY, 1);
    if (!visit(land, x0, y0, ex, ey, t, tNext)) return false;
    if (tNext >= 1) return true;
    t = tNext;
    if (tMaxX < tMaxY) tMaxX += tDeltaX;
    else tMaxY += tDeltaY;
  }
  return true;
}

/**
 * A chord starting at sea (longitudes may pass ±180): at sea when it crosses no coast segment. Only the
 * 1° cells that are not all sea are looked into, and in them only the 0.125° cells the coast crosses
 * (or that are land) are tested exactly, each with the piece of the chord inside it.
 */
function chordAtSea(land: LandIndex, x0: number, y0: number, x1: number, y1: number): boolean {
  return everyCellAlong(land, x0, y0, x1, y1, COARSE_DEG, coarseCellAtSea);
}

/** The piece of a chord inside one coarse cell: at sea when the cell is all sea, else through the land index's cells. */
function coarseCellAtSea(land: LandIndex, x0: number, y0: number, ex: number, ey: number, t: number, tNext: number): boolean {
  const um = (t + tNext) / 2;
  return coarseSea(land, normalizeLon(x0 + um * ex), y0 + um * ey) || everyCellAlong(land, x0 + t * ex, y0 + t * ey, x0 + tNext * ex, y0 + tNext * ey, LAND_CELL_DEG, fineCellAtSea);
}

/** The piece of a chord inside one cell of the land index: at sea when the cell is all sea or the piece crosses no coast in it. */
function fineCellAtSea(land: LandIndex, ax: number, ay: number, fx: number, fy: number, v0: number, v1: number): boolean {
  const vm = (v0 + v1) / 2;
  const mx = ax + vm * fx;
  const my = ay + vm * fy;
  const shift = normalizeLon(mx) - mx;
  return land.cellState(mx + shift, my) === 1 || !land.crossesCoastInCell(mx + shift, my, ax + v0 * fx + shift, ay + v0 * fy, ax + v1 * fx + shift, ay + v1 * fy);
}

/**
 * The pulled chain: indices of the points kept. `group[k]` is the passage of the segment ending at point k
 * (k ≥ 1, 0 outside passages). The point where the route enters a passage is always kept (so is where the
 * passage begins and the distance at which it does), the rest is pulled: a pulled segment may leave a
 * passage, never enter one. From each kept point the farthest later point in reach is found by doubling
 * then bisection (the great circle to the next kept point is tried first).
 */
export function pullChain(points: readonly (readonly [number, number])[], group: readonly number[], atSea: (a: readonly [number, number], b: readonly [number, number]) => boolean): number[] {
  const last = points.length - 1;
  if (last < 2) return points.map((_, i) => i);
  const kept: number[] = [0];
  let runStart = 0;
  for (let k = 1; k <= last; k++) {
    if (k < last && (group[k + 1] === 0 || group[k + 1] === group[k])) continue;
    // points runStart..k form one run (k is kept)
    let i = runStart;
    while (i < k) {
      let j = i + 1;
      while (j < k && atSea(points[i]!, points[j + 1]!)) j++;
      kept.push(j);
      i = j;
    }
    runStart = k;
  }
  return kept;
}

/** A corner whose detour (nm) is below this is left as it is. */
const SLIDE_MIN_DETOUR_NM = 20;
const SLIDE_STEPS = 5;

/**
 * After the pull, each corner the route turns at (not a point where it enters a passage: `fixed`) slides
 * toward the great circle between its neighbours as far as both new segments stay at sea (bisection), so
 * a corner set by the network's vertex off a headland moves in to the headland. One pass, in order;
 * corners whose detour is under 20 nm are left. Changes `points` in place.
 */
export function slideCorners(points: [number, number][], fixed: readonly boolean[], atSea: (a: readonly [number, number], b: readonly [number, number]) => boolean): void {
  const nm = (a: readonly [number, number], b: readonly [number, number]) => distanceM(a[1], a[0], b[1], b[0]) / 1852;
  for (let m = 1; m < points.length - 1; m++) {
    if (fixed[m]) continue;
    const u = points[m - 1]!;
    const v = points[m]!;
    const w = points[m + 1]!;
    const uv = nm(u, v);
    const vw = nm(v, w);
    if (uv + vw - nm(u, w) < SLIDE_MIN_DETOUR_NM) continue;
    // the point of the great circle u–w at the corner's share of the way, as the target (longitudes unwrapped from v)
    const target = interpolate(u[1], u[0], w[1], w[0], uv / (uv + vw));
    let tx = target.lon;
    while (tx - v[0] > 180) tx -= 360;
    while (v[0] - tx > 180) tx += 360;
    let ok = 0;
    let fail = 1;
    for (let i = 0; i < SLIDE_STEPS; i++) {
      const s = (ok + fail) / 2;
      const p: [number, number] = [v[0] + s * (tx - v[0]), v[1] + s * (target.lat - v[1])];
      if (atSea(u, p) && atSea(p, w)) ok = s;
      else fail = s;
    }
    if (ok > 0) points[m] = [v[0] + ok * (tx - v[0]), v[1] + ok * (target.lat - v[1])];
  }
}
