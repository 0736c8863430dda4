/**
 * Spurs to ports (decision 136): a port that no straight connector joins to the network without crossing
 * land (a run of land over 0.5 km away from the port itself, the land audit's rule) gets a spur in the
 * network build — a water path from the port's water to the nearest point of a network edge it reaches (the
 * edge is split there, on its own great circle) — so that the port is joined at its nearest reachable point
 * instead of over a headland or along a river drawn as land.
 */
import { closestFractionOnSegment, distanceM, interpolate, normalizeLon } from '../geo/distance.js';
import type { LandIndex } from '../geo/land.js';
import { createRoutingEngine } from './engine.js';
import { buildSeaGraph, type NetworkLine, type SeaGraph } from './graph.js';
import { inlandKm, joinLandRunKm, nearestWaterPoint, NETWORK_LAND_RUN_KM, round6, waterPath } from './land-check.js';
import { RoutingError } from './route-types.js';
import { edgeEnds } from './snap.js';

export interface SpurPlace {
  name: string;
  lat: number;
  lon: number;
}

export interface PortSpurReport {
  placesChecked: number;
  spurs: { name: string; from: [number, number]; to: [number, number]; lengthKm: number; points: number; connectorLandKm: number }[];
  /** Places whose joins cross land and for which no water path to the network was found. */
  unjoined: { name: string; at: [number, number]; connectorLandKm: number }[];
}

/** Edge points tried as the end of a spur, nearest first (one farther than the shortest spur found so far is not tried). */
const SPUR_TARGETS = 24;
/** Farthest edge point tried (km). */
const SPUR_MAX_KM = 300;

interface EdgePoint {
  edge: number;
  at: [number, number];
  km: number;
}

/** The point of each edge nearest to p (local plane for the fraction, great circle for the point), within SPUR_MAX_KM, nearest first. */
function nearestEdgePoints(graph: SeaGraph, p: readonly [number, number]): EdgePoint[] {
  const k = Math.cos((p[1] * Math.PI) / 180);
  const out: EdgePoint[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    const [aLat, aLon, bLat, bLon] = edgeEnds(graph, e);
    let px = p[0];
    if (px - aLon > 180) px -= 360;
    else if (aLon - px > 180) px += 360;
    const t = closestFractionOnSegment(px, p[1], aLon, aLat, bLon, bLat, k);
    const q = t <= 0 ? { lon: aLon, lat: aLat } : t >= 1 ? { lon: bLon, lat: bLat } : interpolate(aLat, aLon, bLat, bLon, t);
    const km = distanceM(p[1], p[0], q.lat, q.lon) / 1000;
    if (km <= SPUR_MAX_KM) out.push({ edge: e, at: [t <= 0 ? aLon : t >= 1 ? graph.lon[graph.edgeB[e]!]! : round6(normalizeLon(q.lon)), t <= 0 || t >= 1 ? q.lat : round6(q.lat)], km });
  }
  return out.sort((x, y) => x.km - y.km);
}

/** The lines of the network with a spur added for every place whose joins all cross land (see the module comment). */
export function addPortSpurs(lines: readonly NetworkLine[], places: readonly SpurPlace[], land: LandIndex): { lines: NetworkLine[]; report: PortSpurReport } {
  const graph = buildSeaGraph(lines);
  const engine = createRoutingEngine(graph, { land: () => land, pull: false });
  const report: PortSpurReport = { placesChecked: 0, spurs: [], unjoined: [] };
  const spurs: NetworkLine[] = [];
  /** Per edge, the points where spurs end on it. */
  const splits = new Map<number, [number, number][]>();
  for (const place of places) {
    let joins;
    try {
      joins = engine.joins(place);
    } catch (error) {
      if (error instanceof RoutingError) continue;
      throw error;
    }
    report.placesChecked++;
    const connectorLandKm = Math.min(...joins.map((j) => joinLandRunKm(land, place, j)));
    if (connectorLandKm <= NETWORK_LAND_RUN_KM) continue;
    const start =
      inlandKm(land, place.lon, place.lat) === 0
        ? ([place.lon, place.lat] as [number, number])
        : (nearestWaterPoint(land, place.lon, place.lat, 2, 0.001) ?? nearestWaterPoint(land, place.lon, place.lat));
    if (start === null) {
      report.unjoined.push({ name: place.name, at: [place.lon, place.lat], connectorLandKm: round6(connectorLandKm) });
      continue;
    }
    let best: { path: [number, number][]; target: EdgePoint } | null = null;
    let bestKm = Infinity;
    for (const target of nearestEdgePoints(graph, start).slice(0, SPUR_TARGETS)) {
      if (target.km >= bestKm) break;
      const path = waterPath(land, start, target.at);
      if (path === null) continue;
      let km = 0;
      for (let k = 1; k < path.length; k++) km += distanceM(path[k - 1]![1], path[k - 1]![0], path[k]![1], path[k]![0]) / 1000;
      if (km < bestKm) {
        bestKm = km;
        best = { path: [[round6(start[0]), round6(start[1])], ...path.slice(1, -1).map(([x, y]) => [round6(normalizeLon(x)), round6(y)] as [number, number]), target.at], target };
      }
    }
    if (best === null) {
      report.unjoined.push({ name: place.name, at: [place.lon, place.lat], connectorLandKm: round6(connectorLandKm) });
      continue;
    }
    spurs.push({ pass: null, coordinates: best.path });
    const split = splits.get(best.target.edge) ?? [];
    split.push(best.target.at);
    splits.set(best.target.edge, split);
    report.spurs.push({ name: place.name, from: best.path[0]!, to: best.target.at, lengthKm: round6(bestKm), points: best.path.length, connectorLandKm: round6(connectorLandKm) });
  }
  return { lines: [...splitEdges(lines, graph, splits), ...spurs], report };
}

/** The lines with the points where spurs end inserted into their edges (in order along each edge). */
function splitEdges(lines: readonly NetworkLine[], graph: SeaGraph, splits: Map<number, [number, number][]>): NetworkLine[] {
  const key = (lon: number, lat: number) => `${lon === -180 ? 180 : lon},${lat}`;
  const byEnds = new Map<string, [number, number][]>();
  for (const [e, points] of splits) {
    const a = graph.edgeA[e]!;
    const b = graph.edgeB[e]!;
    const from = (p: [number, number]) => distanceM(graph.lat[a]!, graph.lon[a]!, p[1], p[0]);
    const ordered = points.filter((p) => key(p[0], p[1]) !== key(graph.lon[a]!, graph.lat[a]!) && key(p[0], p[1]) !== key(graph.lon[b]!, graph.lat[b]!)).sort((p, q) => from(p) - from(q));
    byEnds.set(`${key(graph.lon[a]!, graph.lat[a]!)}|${key(graph.lon[b]!, graph.lat[b]!)}`, ordered);
    byEnds.set(`${key(graph.lon[b]!, graph.lat[b]!)}|${key(graph.lon[a]!, graph.lat[a]!)}`, [...ordered].reverse());
  }
  return lines.map((line) => {
    const coordinates: (readonly [number, number])[] = [line.coordinates[0]!];
    for (let i = 1; i < line.coordinates.length; i++) {
      const p = line.coordinates[i - 1]!;
      const q = line.coordinates[i]!;
      coordinates.push(...(byEnds.get(`${key(p[0], p[1])}|${key(q[0], q[1])}`) ?? []), q);
    }
    return { pass: line.pass, coordinates };
  });
}
