import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Flatbush from 'flatbush';
import { feature } from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import type { Ring } from './clip.js';
import { closestFractionOnSegment, distanceM } from './distance.js';

/**
 * Natural Earth 1:10m land (the `world-atlas` package, public domain) as a spatial index of its
 * coastline segments: a point is on land when a ray from it eastwards crosses the coast an odd
 * number of times (lakes are holes), found with an index query on the ray instead of a walk over
 * the 409,000 vertices; the distance to the coast is the nearest segment's.
 */
export interface LandIndex {
  /** True when the point lies on Natural Earth 1:10m land (most lakes are land there; the Caspian Sea is water). */
  isLand(lon: number, lat: number): boolean;
  /** Great-circle distance in km from the point to the nearest coastline segment, or Infinity beyond `maxKm`. */
  coastDistanceKm(lon: number, lat: number, maxKm: number): number;
  /** Positive km inland, negative km offshore (0 on the coast); Infinity-limited by `maxKm` like coastDistanceKm. */
  signedCoastDistanceKm(lon: number, lat: number, maxKm: number): number;
  /**
   * What the index knows of the CELL_DEG cell holding the point (lon in -180..180): 1 all sea, 2 all land
   * (no coast segment touches it), 3 the coast crosses it (ask isLand for each point). Decision 126.
   */
  cellState(lon: number, lat: number): 1 | 2 | 3;
  /** True when the straight lon/lat segment from a to b (longitudes within -180..180) crosses or touches a coast segment. */
  crossesCoast(ax: number, ay: number, bx: number, by: number): boolean;
  /**
   * True when the straight lon/lat segment from a to b, which lies inside the CELL_DEG cell holding
   * (lon, lat), crosses or touches a coast segment: tested against the segments of that cell, kept per cell.
   */
  crossesCoastInCell(lon: number, lat: number, ax: number, ay: number, bx: number, by: number): boolean;
  /** True when a coast segment touches the box (longitudes within -180..180). */
  boxTouchesCoast(west: number, south: number, east: number, north: number): boolean;
  readonly segments: number;
}

/** Side of the cells of LandIndex.cellState, degrees. */
export const LAND_CELL_DEG = 0.125;

export const LAND_ATTRIBUTION = 'Natural Earth 1:10m land (public domain), via the world-atlas package';

let shared: LandIndex | null = null;

/** One index per process, built on first use (about a second). */
export function landIndex(): LandIndex {
  shared ??= buildLandIndex(loadLandRings());
  return shared;
}

/** The Natural Earth 1:10m land polygons (each its exterior ring, then its holes), read from world-atlas. */
export function readLandPolygons(): Ring[][] {
  // read, not require()d: the parsed topology (about 400,000 small arrays) is not kept in the module cache
  const require = createRequire(import.meta.url);
  const topology = JSON.parse(readFileSync(require.resolve('world-atlas/land-10m.json'), 'utf8')) as Topology;
  const land = feature(topology, topology.objects.land as GeometryObject) as unknown as GeoJSON.FeatureCollection<GeoJSON.MultiPolygon | GeoJSON.Polygon>;
  const polygons: Ring[][] = [];
  for (const f of land.features) for (const polygon of f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) polygons.push(polygon as Ring[]);
  return polygons;
}

function loadLandRings(): Ring[] {
  return readLandPolygons().flat();
}

/**
 * The rings' segments, cut at the antimeridian. world-atlas merges land across ±180° (Eurasia runs on
 * through Chukotka, Wrangel Island, Fiji, Antarctica), so a ring may step from 179.9° to −180°. The ray
 * test looks east up to 180° only: a segment crossing the antimeridian is split there, and the part of
 * the ring on the eastern side is closed along 180° between consecutive crossings (towards the pole
 * when a ring crosses once, as Antarctica does). Without this, whole bands of latitude flip between
 * land and sea (the Norwegian Sea at 66° N read as land).
 */
export function ringSegments(rings: readonly Ring[]): number[][] {
  const segments: number[][] = [];
  eachRingSegment(rings, (ax, ay, bx, by) => segments.push([ax, ay, bx, by]));
  return segments;
}

/** The segments of ringSegments, handed one at a time to `emit` (no array per segment: the 1:10m land has 405,000). */
function eachRingSegment(rings: readonly Ring[], emit: (ax: number, ay: number, bx: number, by: number) => void): void {
  const add = (ax: number, ay: number, bx: number, by: number) => {
    if (ax !== bx || ay !== by) emit(ax, ay, bx, by);
  };
  for (const ring of rings) {
    const n = ring.length - 1;
    if (n < 1) continue;
    // A vertex on ±180° takes the side of the last vertex before it that is not on the meridian.
    let side = 1;
    for (let k = n - 1; k >= 0; k--) {
      const x = ring[k]![0];
      if (Math.abs(x) !== 180) {
        side = Math.sign(x) || 1;
        break;
      }
    }
    const xs: number[] = [];
    for (let k = 0; k < n; k++) {
      const x = ring[k]![0];
      if (Math.abs(x) === 180) xs.push(side * 180);
      else {
        xs.push(x);
        side = Math.sign(x) || side;
      }
    }
    const crossings: number[] = [];
    for (let k = 0; k < n; k++) {
      const ax = xs[k]!;
      const ay = ring[k]![1];
      const bx = xs[(k + 1) % n]!;
      const by = ring[(k + 1) % n]![1];
      if (Math.abs(bx - ax) <= 180) {
        add(ax, ay, bx, by);
        continue;
      }
      const aSide = Math.sign(ax);
      const unwrappedB = bx + aSide * 360;
      const f = unwrappedB === ax ? 0 : (aSide * 180 - ax) / (unwrappedB - ax);
      const y = ay + f * (by - ay);
      add(ax, ay, aSide * 180, y);
      add(-aSide * 180, y, bx, by);
      crossings.push(y);
    }
    for (let c = 0; c + 1 < crossings.length; c += 2) add(180, crossings[c]!, 180, crossings[c + 1]!);
    if (crossings.length % 2 === 1) {
      const y = crossings[crossings.length - 1]!;
      add(180, y, 180, y < 0 ? -90 : 90);
    }
  }
}

/** Side of the cells whose land-or-sea answer is kept (0.125°: 4 MB for the globe, filled on first use). */
const CELL_DEG = LAND_CELL_DEG;
const CELL_SEGMENTS_KEPT = 100_000;
const CELL_EPSILON = 1e-9;
const SUBCELLS = 8;
const SPLIT_AFTER = 4;
const CELL_UNKNOWN = 0;
const CELL_SEA = 1;
const CELL_LAND = 2;
const CELL_COAST = 3;

/** A copy twice as long. */
function growInt32(array: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/** Builds the index from closed rings (exported for tests with small shapes). */
export function buildLandIndex(rings: Ring[]): LandIndex {
  // segment ends straight into one typed array (x1, y1, x2, y2 per segment), grown by doubling
  let ends = new Float64Array(
    4 *
      Math.max(
        16,
        rings.reduce((a, r) => a + r.length, 0),
      ),
  );
  let count = 0;
  eachRingSegment(rings, (ax, ay, bx, by) => {
    if (4 * count + 4 > ends.length) {
      const grown = new Float64Array(ends.length * 2);
      grown.set(ends);
      ends = grown;
    }
    const at = 4 * count++;
    ends[at] = ax;
    ends[at + 1] = ay;
    ends[at + 2] = bx;
    ends[at + 3] = by;
  });
  const x1 = new Float64Array(count);
  const y1 = new Float64Array(count);
  const x2 = new Float64Array(count);
  const y2 = new Float64Array(count);
  const index = new Flatbush(Math.max(1, count));
  for (let i = 0; i < count; i++) {
    const ax = (x1[i] = ends[4 * i]!);
    const ay = (y1[i] = ends[4 * i + 1]!);
    const bx = (x2[i] = ends[4 * i + 2]!);
    const by = (y2[i] = ends[4 * i + 3]!);
    index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
  }
  if (count === 0) index.add(0, 0, 0, 0);
  index.finish();

  // Cells of CELL_DEG: a cell no segment touches is all land or all sea (a point's ray parity cannot change
  // without crossing a segment), so its answer is computed once; cells a segment touches take the ray test.
  const columns = Math.round(360 / CELL_DEG);
  const rows = Math.round(180 / CELL_DEG);
  const cells = new Uint8Array(columns * rows);

  /** True when a coast segment touches the cell whose south-west corner is given. */
  function cellTouched(west: number, south: number): boolean {
    let touched = false;
    index.search(west - CELL_EPSILON, south - CELL_EPSILON, west + CELL_DEG + CELL_EPSILON, south + CELL_DEG + CELL_EPSILON, (s) => {
      if (s < count) touched = true;
      return false;
    });
    return touched;
  }

  function cellStateOf(cell: number, cx: number, cy: number): number {
    let state = cells[cell]!;
    if (state === CELL_UNKNOWN) {
      const west = -180 + cx * CELL_DEG;
      const south = -90 + cy * CELL_DEG;
      if (cellTouched(west, south)) cells[cell] = CELL_COAST;
      else cells[cell] = rowCentreIsLand(cy, west + CELL_DEG / 2) ? CELL_LAND : CELL_SEA;
      state = cells[cell]!;
    }
    return state;
  }

  function isLand(lon: number, lat: number): boolean {
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return rayIsLand(lon, lat);
    const cx = Math.min(columns - 1, Math.floor((lon + 180) / CELL_DEG));
    const cy = Math.min(rows - 1, Math.floor((lat + 90) / CELL_DEG));
    const cell = cy * columns + cx;
    const state = cellStateOf(cell, cx, cy);
    return state === CELL_COAST ? coastCellIsLand(cell, cx, cy, lon, lat) : state === CELL_LAND;
  }

  function cellState(lon: number, lat: number): 1 | 2 | 3 {
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return CELL_COAST;
    const cx = Math.min(columns - 1, Math.floor((lon + 180) / CELL_DEG));
    const cy = Math.min(rows - 1, Math.floor((lat + 90) / CELL_DEG));
    return cellStateOf(cy * columns + cx, cx, cy) as 1 | 2 | 3;
  }

  // A cell the coast crosses is split the same way into SUBCELLS × SUBCELLS, kept for the cells asked about.
  // Split only once asked SPLIT_AFTER times: scattered single questions (a random sample) pay the ray test alone.
  const subcells = new Map<number, Uint8Array>();
  const coastQuestions = new Map<number, number>();
  function coastCellIsLand(cell: number, cx: number, cy: number, lon: number, lat: number): boolean {
    let sub = subcells.get(cell);
    if (sub === undefined) {
      const asked = (coastQuestions.get(cell) ?? 0) + 1;
      if (asked < SPLIT_AFTER) {
        coastQuestions.set(cell, asked);
        return rayIsLand(lon, lat);
      }
      coastQuestions.delete(cell);
      sub = new Uint8Array(SUBCELLS * SUBCELLS);
      subcells.set(cell, sub);
    }
    const size = CELL_DEG / SUBCELLS;
    const west = -180 + cx * CELL_DEG;
    const south = -90 + cy * CELL_DEG;
    const sx = Math.max(0, Math.min(SUBCELLS - 1, Math.floor((lon - west) / size)));
    const sy = Math.max(0, Math.min(SUBCELLS - 1, Math.floor((lat - south) / size)));
    const at = sy * SUBCELLS + sx;
    let state = sub[at]!;
    if (state === CELL_UNKNOWN) {
      const w = west + sx * size;
      const s = south + sy * size;
      // the point must lie in the box searched (a rounding step outside it would leave a segment unseen)
      const inBox = lon >= w && lon <= w + size && lat >= s && lat <= s + size;
      if (!inBox) return rayIsLand(lon, lat);
      const touched = index.search(w - CELL_EPSILON, s - CELL_EPSILON, w + size + CELL_EPSILON, s + size + CELL_EPSILON, (i) => i < count);
      state = touched.length > 0 ? CELL_COAST : rayIsLand(w + size / 2, s + size / 2) ? CELL_LAND : CELL_SEA;
      sub[at] = state;
    }
    return state === CELL_COAST ? rayIsLand(lon, lat) : state === CELL_LAND;
  }

  /**
   * The ray test of a point on the centre line of a row of cells, from the crossings of that line sorted
   * once per row: the same count as rayIsLand's walk (every crossing east of the point lies in a coast
   * cell, counted once), found by a binary search instead of a walk across the row cell by cell.
   */
  const rowCrossings = new Map<number, Float64Array>();
  function rowCentreIsLand(cy: number, lon: number): boolean {
    let xs = rowCrossings.get(cy);
    if (xs === undefined) {
      const lat = -90 + cy * CELL_DEG + CELL_DEG / 2;
      const found: number[] = [];
      for (const s of index.search(-180, lat, 180, lat)) {
        if (s >= count) continue;
        const x = crossesRayAt(s, lat);
        if (x !== -Infinity) found.push(x);
      }
      xs = Float64Array.from(found).sort();
      rowCrossings.set(cy, xs);
    }
    // crossings strictly east of lon: those after the last one ≤ lon
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid]! <= lon) lo = mid + 1;
      else hi = mid;
    }
    return (xs.length - lo) % 2 === 1;
  }

  /** The ray test over every coast segment east of the point (for points outside -180..180 × -90..90). */
  function rayIsLandFullScan(lon: number, lat: number): boolean {
    let inside = false;
    for (const s of index.search(lon, lat, 180, lat)) {
      if (s >= count) continue;
      if (crossesRayAt(s, lat) > lon) inside = !inside;
    }
    return inside;
  }

  /** Where segment s crosses the horizontal line at lat, or -Infinity when it does not (half-open: a vertex on the line counts for one segment only). */
  function crossesRayAt(s: number, lat: number): number {
    const ay = y1[s]!;
    const by = y2[s]!;
    if (ay > lat === by > lat) return -Infinity;
    const ax = x1[s]!;
    return ax + ((lat - ay) / (by - ay)) * (x2[s]! - ax);
  }

  /**
   * The ray test walked cell by cell: the crossings east of the point are counted in the coast cells of its
   * row up to the first cell no segment touches, whose all-land or all-sea state gives the parity beyond it
   * (without such a cell, the sea past 180°). Cells passed that no segment touches and whose state was not
   * known get it on the way. Each crossing is counted in the one cell whose columns hold it.
   */
  // the cells a walk passes whose state it sets at the end, and the crossings counted before each (reused: a walk runs often, never nested)
  let passed = new Int32Array(64);
  let crossingsBefore = new Int32Array(64);
  function rayIsLand(lon: number, lat: number): boolean {
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) return rayIsLandFullScan(lon, lat);
    const cy = Math.min(rows - 1, Math.floor((lat + 90) / CELL_DEG));
    const south = -90 + cy * CELL_DEG;
    let crossings = 0;
    let landBeyond = false;
    let passedCount = 0;
    for (let cx = Math.min(columns - 1, Math.floor((lon + 180) / CELL_DEG)); cx < columns; cx++) {
      const cell = cy * columns + cx;
      const west = -180 + cx * CELL_DEG;
      let state = cells[cell]!;
      if (state === CELL_UNKNOWN && cellTouched(west, south)) state = cells[cell] = CELL_COAST;
      if (state === CELL_SEA || state === CELL_LAND) {
        landBeyond = state === CELL_LAND;
        break;
      }
      if (state === CELL_UNKNOWN) {
        if (passedCount === passed.length) {
          passed = growInt32(passed);
          crossingsBefore = growInt32(crossingsBefore);
        }
        passed[passedCount] = cell;
        crossingsBefore[passedCount++] = crossings;
        continue;
      }
      const east = cx === columns - 1 ? Infinity : west + CELL_DEG;
      const segs = segmentsOf(cell, cx, cy);
      for (let i = 0; i < segs.length; i++) {
        const x = crossesRayAt(segs[i]!, lat);
        if (x > lon && x >= west && x < east) crossings++;
      }
    }
    for (let i = 0; i < passedCount; i++) cells[passed[i]!] = landBeyond !== ((crossings - crossingsBefore[i]!) % 2 === 1) ? CELL_LAND : CELL_SEA;
    return landBeyond !== (crossings % 2 === 1);
  }

  function coastDistanceKm(lon: number, lat: number, maxKm: number): number {
    // Candidate segments within the box of maxKm around the point (degrees of longitude shrink with latitude).
    const dLat = maxKm / 111.2;
    const dLon = Math.min(180, maxKm / (111.2 * Math.max(0.01, Math.cos((lat * Math.PI) / 180))));
    let best = Infinity;
    for (const s of index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat)) {
      if (s >= count) continue;
      const km = pointSegmentKm(lon, lat, x1[s]!, y1[s]!, x2[s]!, y2[s]!);
      if (km < best) best = km;
    }
    return best <= maxKm ? best : Infinity;
  }

  function crossesCoast(ax: number, ay: number, bx: number, by: number): boolean {
    // the test runs inside the search's filter, which keeps nothing: no result array is built
    let crossed = false;
    index.search(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by), (s) => {
      if (!crossed && s < count && segmentsIntersect(ax, ay, bx, by, x1[s]!, y1[s]!, x2[s]!, y2[s]!)) crossed = true;
      return false;
    });
    return crossed;
  }

  // coast segments touching each cell asked about (cleared past CELL_SEGMENTS_KEPT cells)
  const cellSegments = new Map<number, Int32Array>();
  function segmentsOf(cell: number, cx: number, cy: number): Int32Array {
    let segs = cellSegments.get(cell);
    if (segs === undefined) {
      const west = -180 + cx * CELL_DEG;
      const south = -90 + cy * CELL_DEG;
      const margin = 1e-6;
      segs = Int32Array.from(index.search(west - margin, south - margin, west + CELL_DEG + margin, south + CELL_DEG + margin, (i) => i < count));
      if (cellSegments.size >= CELL_SEGMENTS_KEPT) cellSegments.clear();
      cellSegments.set(cell, segs);
    }
    return segs;
  }

  function crossesCoastInCell(lon: number, lat: number, ax: number, ay: number, bx: number, by: number): boolean {
    const cx = Math.max(0, Math.min(columns - 1, Math.floor((lon + 180) / CELL_DEG)));
    const cy = Math.max(0, Math.min(rows - 1, Math.floor((lat + 90) / CELL_DEG)));
    const segs = segmentsOf(cy * columns + cx, cx, cy);
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      if (segmentsIntersect(ax, ay, bx, by, x1[s]!, y1[s]!, x2[s]!, y2[s]!)) return true;
    }
    return false;
  }

  return {
    isLand,
    cellState,
    crossesCoast,
    crossesCoastInCell,
    boxTouchesCoast(west, south, east, north) {
      let touched = false;
      index.search(west - CELL_EPSILON, south - CELL_EPSILON, east + CELL_EPSILON, north + CELL_EPSILON, (s) => {
        if (s < count) touched = true;
        return false;
      });
      return touched;
    },
    coastDistanceKm,
    signedCoastDistanceKm(lon, lat, maxKm) {
      const d = coastDistanceKm(lon, lat, maxKm);
      return isLand(lon, lat) ? d : -d;
    },
    segments: count,
  };
}

/** Distance from a point to a short segment: the closest point found in a local equirectangular projection, measured on the sphere. */
function pointSegmentKm(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const t = closestFractionOnSegment(px, py, ax, ay, bx, by, Math.cos((py * Math.PI) / 180));
  return distanceM(py, px, ay + t * (by - ay), ax + t * (bx - ax)) / 1000;
}

/** Planar intersection of segments p1-p2 and q1-q2 (touching counts). */
function segmentsIntersect(p1x: number, p1y: number, p2x: number, p2y: number, q1x: number, q1y: number, q2x: number, q2y: number): boolean {
  const d1 = (q2x - q1x) * (p1y - q1y) - (q2y - q1y) * (p1x - q1x);
  const d2 = (q2x - q1x) * (p2y - q1y) - (q2y - q1y) * (p2x - q1x);
  const d3 = (p2x - p1x) * (q1y - p1y) - (p2y - p1y) * (q1x - p1x);
  const d4 = (p2x - p1x) * (q2y - p1y) - (p2y - p1y) * (q2x - p1x);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
  return (
    (d1 === 0 && on(q1x, q1y, q2x, q2y, p1x, p1y)) || (d2 === 0 && on(q1x, q1y, q2x, q2y, p2x, p2y)) || (d3 === 0 && on(p1x, p1y, p2x, p2y, q1x, q1y)) || (d4 === 0 && on(p1x, p1y, p2x, p2y, q2x, q2y))
  );
}
