/**
 * Snapping a point to the nearest edge of the sea graph through a 1° grid of edge bounding boxes:
 * only the cells within the search radius are read, never every edge.
 */
import { distanceNm } from '../geo/distance.js';
import type { SeaGraph } from './graph.js';

/** Farthest a point may lie from the network (300 km): beyond it the point is refused, not connected. */
export const SNAP_MAX_NM = 300_000 / 1852;
/** First search radius; most ports lie within it, and the wide radius is read only when it finds nothing. */
const SNAP_NEAR_NM = 40;
const NM_PER_DEG = 60;

export interface Snap {
  /** The point asked for. */
  lat: number;
  lon: number;
  /** The nearest point of the network, on edge `edge` at fraction t from edgeA to edgeB. */
  edge: number;
  t: number;
  snappedLat: number;
  snappedLon: number;
  /** Great-circle length of the connector from the point to the snapped point. */
  connectorNm: number;
  /** Length of the connector over land (km, Natural Earth 1:10m outside the declared waterways), when checked. */
  overLandKm?: number;
  /** A connector over water (decision 141): its [lon, lat] corners between the point and the snapped point; absent for a straight connector. */
  waterPath?: readonly (readonly [number, number])[];
}

export interface SnapIndex {
  /** Bytes held by the grid. */
  bytes: number;
  /** The nearest edge allowed by `excludedMask` within SNAP_MAX_NM, or null. */
  nearest(lat: number, lon: number, excludedMask: number): Snap | null;
  /** The nearest point of every edge allowed by `excludedMask` within `radiusNm`, nearest first. */
  within(lat: number, lon: number, radiusNm: number, excludedMask: number): Snap[];
}

/** An edge's endpoints with B's longitude moved by 360° when the edge touches the antimeridian from the other side. */
export function edgeEnds(g: SeaGraph, e: number): [number, number, number, number] {
  const a = g.edgeA[e]!;
  const b = g.edgeB[e]!;
  const aLon = g.lon[a]!;
  let bLon = g.lon[b]!;
  if (bLon - aLon > 180) bLon -= 360;
  else if (aLon - bLon > 180) bLon += 360;
  return [g.lat[a]!, aLon, g.lat[b]!, bLon];
}

/**
 * The nearest point of edge `e` to (lat, lon), in a local equirectangular plane centred on the point (`cosP`, the
 * cosine of its latitude), written into `out`: the snapped point, its fraction t, the great-circle connector.
 */
function nearestOnEdge(g: SeaGraph, e: number, lat: number, lon: number, cosP: number, out: Snap): void {
  const [aLat, edgeALon, bLat, edgeBLon] = edgeEnds(g, e);
  let aLon = edgeALon;
  let bLon = edgeBLon;
  // bring the edge to the point's side of the antimeridian
  if (aLon - lon > 180) {
    aLon -= 360;
    bLon -= 360;
  } else if (lon - aLon > 180) {
    aLon += 360;
    bLon += 360;
  }
  const ax = (aLon - lon) * cosP;
  const ay = aLat - lat;
  const bx = (bLon - lon) * cosP;
  const by = bLat - lat;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2));
  const sLat = aLat + t * (bLat - aLat);
  let sLon = aLon + t * (bLon - aLon);
  out.connectorNm = distanceNm(lat, lon, sLat, sLon);
  if (sLon > 180) sLon -= 360;
  else if (sLon < -180) sLon += 360;
  out.lat = lat;
  out.lon = lon;
  out.edge = e;
  out.t = t;
  out.snappedLat = sLat;
  out.snappedLon = sLon;
}

/** The point of edge `e` nearest to (lat, lon) as the snapping grid finds it, to the last bit (decision 148: shipped joins name only their edge). */
export function snapToEdge(g: SeaGraph, lat: number, lon: number, e: number): Snap {
  const snap: Snap = { lat, lon, edge: e, t: 0, snappedLat: 0, snappedLon: 0, connectorNm: 0 };
  nearestOnEdge(g, e, lat, lon, Math.cos((lat * Math.PI) / 180), snap);
  return snap;
}

export function createSnapIndex(g: SeaGraph): SnapIndex {
  // cells as CSR: the edges of cell c are cellEdges[cellStart[c] .. cellStart[c+1]-1]
  const cellCount = 180 * 360;
  const forEachCell = (e: number, visit: (cell: number) => void) => {
    const [aLat, aLon, bLat, bLon] = edgeEnds(g, e);
    const r0 = Math.max(0, Math.floor(Math.min(aLat, bLat) + 90));
    const r1 = Math.min(179, Math.floor(Math.max(aLat, bLat) + 90));
    const c0 = Math.floor(Math.min(aLon, bLon) + 180);
    const c1 = Math.floor(Math.max(aLon, bLon) + 180);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * 360 + (((c % 360) + 360) % 360));
  };
  const cellStart = new Int32Array(cellCount + 1);
  for (let e = 0; e < g.edgeCount; e++) forEachCell(e, (cell) => cellStart[cell + 1]!++);
  for (let c = 0; c < cellCount; c++) cellStart[c + 1]! += cellStart[c]!;
  const cellEdges = new Int32Array(cellStart[cellCount]!);
  const fill = cellStart.slice(0, cellCount);
  for (let e = 0; e < g.edgeCount; e++) forEachCell(e, (cell) => (cellEdges[fill[cell]!++] = e));
  const seen = new Int32Array(g.edgeCount);
  let generation = 0;
  const onEdge: Snap = { lat: 0, lon: 0, edge: -1, t: 0, snappedLat: 0, snappedLon: 0, connectorNm: 0 };

  const search = (lat: number, lon: number, radiusNm: number, excludedMask: number, all?: Snap[]): Snap | null => {
    generation++;
    const dLat = radiusNm / NM_PER_DEG;
    const cosLat = Math.max(Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180), 0.01);
    const dLon = Math.min(180, dLat / cosLat);
    let best: Snap | null = null;
    const rowLo = Math.max(0, Math.floor(lat - dLat + 90));
    const rowHi = Math.min(179, Math.floor(lat + dLat + 90));
    const colLo = Math.floor(lon - dLon + 180);
    const colHi = Math.floor(lon + dLon + 180);
    const cosP = Math.cos((lat * Math.PI) / 180);
    for (let r = rowLo; r <= rowHi; r++) {
      for (let c = colLo; c <= colHi; c++) {
        const cell = r * 360 + (((c % 360) + 360) % 360);
        for (let i = cellStart[cell]!, end = cellStart[cell + 1]!; i < end; i++) {
          const e = cellEdges[i]!;
          if (seen[e] === generation) continue;
          seen[e] = generation;
          if (excludedMask & (1 << g.edgePassage[e]!)) continue;
          nearestOnEdge(g, e, lat, lon, cosP, onEdge);
          const d = onEdge.connectorNm;
          if (d <= radiusNm && (all !== undefined || best === null || d < best.connectorNm)) {
            const found = { ...onEdge };
            if (all !== undefined) all.push(found);
            if (best === null || d < best.connectorNm) best = found;
          }
        }
      }
    }
    return best;
  };

  return {
    bytes: cellStart.byteLength + cellEdges.byteLength + seen.byteLength,
    nearest(lat, lon, excludedMask) {
      return search(lat, lon, SNAP_NEAR_NM, excludedMask) ?? search(lat, lon, SNAP_MAX_NM, excludedMask);
    },
    within(lat, lon, radiusNm, excludedMask) {
      const all: Snap[] = [];
      search(lat, lon, radiusNm, excludedMask, all);
      return all.sort((a, b) => a.connectorNm - b.connectorNm);
    },
  };
}
