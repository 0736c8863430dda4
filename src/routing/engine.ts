/**
 * The sea routing engine: A* over the sea graph with a great-circle heuristic, passage exclusions
 * as a bitmask read during relaxation (the graph is never rebuilt), vias as consecutive legs.
 * Pure: no HTTP, no store; callers map RoutingError codes to their own errors.
 */
import type { LandIndex } from '../geo/land.js';
import { graphBytes, PASSAGES, passageAt, passageByName, type PassageInfo, type SeaGraph } from './graph.js';
import { connectorOverLandKm, CONNECTOR_LAND_TOLERANCE_KM } from './connector-land.js';
import { createSnapIndex, SNAP_MAX_NM, type Snap } from './snap.js';
import { greatCircleAtSea, PULL_END_ALLOWANCE_KM, pullChain, slideCorners } from './pull.js';
import { distanceNm } from '../geo/distance.js';

export type RoutingErrorCode = 'point_off_network' | 'route_unreachable' | 'unknown_passage' | 'same_origin_destination';

export class RoutingError extends Error {
  constructor(
    readonly code: RoutingErrorCode,
    message: string,
    /** Which input point (0 = origin, then vias, last = destination), when one is at fault. */
    readonly pointIndex?: number,
  ) {
    super(message);
  }
}

export interface LatLon {
  lat: number;
  lon: number;
}

export interface PassageCrossing {
  id: string;
  name: string;
  kind: PassageInfo['kind'];
  /** Where the route enters it and how far from the start of the route (nm). */
  lat: number;
  lon: number;
  at_nm: number;
}

export interface RouteLeg {
  from: Snap;
  to: Snap;
  distanceNm: number;
  /** Of which the connectors from the points to the network (included in distanceNm). */
  connectorNm: number;
  passages: PassageCrossing[];
  /** [lon, lat] pairs, longitudes unwrapped (continuous across the antimeridian; may leave -180..180). */
  coordinates: [number, number][];
}

export interface Route {
  distanceNm: number;
  connectorNm: number;
  legs: RouteLeg[];
  /** Passages of all legs in order (at_nm from the start of the route). */
  passages: PassageCrossing[];
  /** Unwrapped [lon, lat] of the whole route (see toGeoJsonGeometry for RFC 7946 output). */
  coordinates: [number, number][];
  excludedMask: number;
}

export interface EngineOptions {
  /**
   * Natural Earth land for the connectors (decision 082): a place joins the network only by a connector
   * that stays at sea (or, from a place on land, one that crosses no more land than the way to the
   * coast). Without it (small test graphs) connectors are not checked.
   */
  land?: () => LandIndex;
  /** Pull the route's chain straight over great circles that stay off land (decision 126); default true when `land` is given. */
  pull?: boolean;
}

/** Candidate joins of a place: the nearest point of each edge within this much of the nearest edge (nm), at most MAX_CANDIDATES. */
const CANDIDATE_EXTRA_NM = 12;
/** When no candidate within the first radius has a connector at sea, the search widens to every edge within SNAP_MAX_NM. */
const CANDIDATE_WIDE_EXTRA_NM = SNAP_MAX_NM;
const MAX_CANDIDATES = 8;
/** A join at sea found by the wide search replaces the near join over land only within 2 × its connector + 10 nm. */
const WIDE_JOIN_FACTOR = 2;
const WIDE_JOIN_EXTRA_NM = 10;
/** Connectors land-checked per place at most (nearest first), in the first radius and in the wide one. */
const MAX_CHECKED = 40;
const MAX_CHECKED_WIDE = 400;
/** Candidate sets kept per place (a port is joined the same way every time). */
const CANDIDATE_CACHE = 4096;
/** Great-circle land tests remembered (decision 126). */
const SEA_MEMO = 200_000;

export interface RouteOptions {
  /** Bit i set: edges of passage index i are not used (see passageMask). */
  excludedMask?: number;
}

/**
 * Passages a route uses only when the caller allows them (passageMask's `allow`): the Arctic ones are
 * seasonal and ice-bound, the Corinth Canal takes only small ships (beam under 18 m).
 */
export const DEFAULT_EXCLUDED = ['northeast', 'northwest', 'corinth'] as const;

const RAD = Math.PI / 180;
const EARTH_NM = 6_371_008.8 / 1852;
/** The heuristic is the great-circle distance; the factor absorbs the snapped point's planar interpolation. */
const HEURISTIC_FACTOR = 0.999;

export interface RoutingEngine {
  graph: SeaGraph;
  /** Bytes of the graph, the snapping grid and the search arrays. */
  bytes: number;
  /** Exclusion mask from passage names (ids or aliases); throws unknown_passage. DEFAULT_EXCLUDED passages are excluded unless in `allow`. */
  passageMask(avoid: readonly string[], allow?: readonly string[]): number;
  /** Names of the passages in a mask. */
  maskNames(mask: number): string[];
  /** The passages known to the engine with the number of network edges in each (0: absent from this network). */
  passages(): (PassageInfo & { edges: number })[];
  snap(point: LatLon, excludedMask?: number, pointIndex?: number): Snap;
  /**
   * The joins of a place a route may use (decision 082): the nearest point of each edge near it whose
   * connector is at sea, nearest first, chosen without regard to closures and then filtered by the mask,
   * so that closing a passage only ever removes joins.
   */
  joins(point: LatLon, excludedMask?: number, pointIndex?: number): Snap[];
  /** Shortest route through the points in order (origin, vias…, destination). */
  route(points: readonly LatLon[], options?: RouteOptions): Route;
  /**
   * The best route and, for each passage it crosses, the best route avoiding that passage too (what
   * `explain` and `what-if` show); routes that do not exist under a closure are left out.
   */
  alternatives(points: readonly LatLon[], options?: RouteOptions): { best: Route; without: { passage: string; route: Route }[] };
}

export function createRoutingEngine(graph: SeaGraph, options: EngineOptions = {}): RoutingEngine {
  const n = graph.nodeCount;
  const cosLat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    cosLat[i] = Math.cos(graph.lat[i]! * RAD);
  }
  const index = createSnapIndex(graph);
  const g = new Float64Array(n);
  const parentEdge = new Int32Array(n);
  const stamp = new Int32Array(n);
  const closed = new Int32Array(n);
  const seedOf = new Int32Array(n);
  const termCost = new Float64Array(n);
  const termOf = new Int32Array(n);
  const termStamp = new Int32Array(n);
  let generation = 0;
  let heapKey = new Float64Array(1024);
  let heapNode = new Int32Array(1024);
  let heapSize = 0;

  const push = (key: number, node: number) => {
    if (heapSize === heapKey.length) {
      const k = new Float64Array(heapSize * 2);
      k.set(heapKey);
      heapKey = k;
      const v = new Int32Array(heapSize * 2);
      v.set(heapNode);
      heapNode = v;
    }
    let i = heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapKey[p]! <= key) break;
      heapKey[i] = heapKey[p]!;
      heapNode[i] = heapNode[p]!;
      i = p;
    }
    heapKey[i] = key;
    heapNode[i] = node;
  };
  const pop = (): number => {
    const top = heapNode[0]!;
    const lastKey = heapKey[--heapSize]!;
    const lastNode = heapNode[heapSize]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= heapSize) break;
      if (c + 1 < heapSize && heapKey[c + 1]! < heapKey[c]!) c++;
      if (heapKey[c]! >= lastKey) break;
      heapKey[i] = heapKey[c]!;
      heapNode[i] = heapNode[c]!;
      i = c;
    }
    heapKey[i] = lastKey;
    heapNode[i] = lastNode;
    return top;
  };

  const edgeCount = new Map<number, number>();
  for (let e = 0; e < graph.edgeCount; e++) {
    const p = graph.edgePassage[e]!;
    if (p !== 0) edgeCount.set(p, (edgeCount.get(p) ?? 0) + 1);
  }

  const snap = (point: LatLon, excludedMask = 0, pointIndex?: number): Snap => {
    const found = index.nearest(point.lat, point.lon, excludedMask);
    if (found === null) {
      throw new RoutingError(
        'point_off_network',
        `${point.lat},${point.lon} is more than ${Math.round(SNAP_MAX_NM * 1.852)} km from the sea network (inland, or on a coast the network does not serve)`,
        pointIndex,
      );
    }
    return found;
  };

  const candidateCache = new Map<string, Snap[]>();
  /** Every passage bit: joins outside all passages are kept apart, so that closing passages never leaves a place without its usual joins. */
  const allPassages = PASSAGES.reduce((m, p) => m | (1 << p.index), 0);
  /**
   * Land-checked candidate joins within `extraNm` of the nearest edge allowed by `mask`, and the same
   * among edges outside every passage; with none at sea, the join crossing the least land.
   */
  const landChecked = (point: LatLon, extraNm: number, mask: number, maxChecked = MAX_CHECKED): Snap[] => {
    const nearest = index.nearest(point.lat, point.lon, mask);
    if (nearest === null) return [];
    const lists = [index.within(point.lat, point.lon, Math.min(SNAP_MAX_NM, nearest.connectorNm + extraNm), mask)];
    const plain = index.nearest(point.lat, point.lon, mask | allPassages);
    if (plain !== null && plain.edge !== nearest.edge) lists.push(index.within(point.lat, point.lon, Math.min(SNAP_MAX_NM, plain.connectorNm + extraNm), mask | allPassages));
    const land = options.land?.();
    const seen = new Set<number>();
    const clear: Snap[] = [];
    const rejected: Snap[] = [];
    // a place on land crosses land on any connector: it may cross as much as its way to the coast
    const allowance = land === undefined ? Infinity : CONNECTOR_LAND_TOLERANCE_KM + (land.isLand(point.lon, point.lat) ? land.coastDistanceKm(point.lon, point.lat, 400) : 0);
    for (const list of lists) {
      let found = 0;
      for (let i = 0; i < list.length && i < maxChecked && found < MAX_CANDIDATES; i++) {
        const c = list[i]!;
        if (seen.has(c.edge)) {
          if (clear.some((x) => x.edge === c.edge)) found++;
          continue;
        }
        seen.add(c.edge);
        const over = land === undefined ? 0 : connectorOverLandKm(land, [point.lon, point.lat], [c.snappedLon, c.snappedLat], allowance);
        if (over <= allowance) {
          clear.push({ ...c, overLandKm: over });
          found++;
        } else rejected.push(c);
      }
    }
    if (clear.length > 0) return clear.sort((a, b) => a.connectorNm - b.connectorNm);
    // none at sea: the join whose connector crosses the least land (measured whole), flagged by its overLandKm
    let least: Snap | null = null;
    for (const c of rejected.slice(0, MAX_CHECKED)) {
      // a count past the least so far stops there: that join is not the least
      const m = measured(c, least?.overLandKm ?? Infinity);
      if (least === null || m.overLandKm! < least.overLandKm!) least = m;
    }
    return least === null ? [measured(nearest)] : [least];
  };
  const joinsOf = (point: LatLon, mask: number, pointIndex?: number): Snap[] => {
    const offNetwork = () =>
      new RoutingError(
        'point_off_network',
        `${point.lat},${point.lon} is more than ${Math.round(SNAP_MAX_NM * 1.852)} km from the sea network (inland, or on a coast the network does not serve)`,
        pointIndex,
      );
    const key = `${point.lat},${point.lon}`;
    let candidates = candidateCache.get(key);
    if (candidates === undefined) {
      if (index.nearest(point.lat, point.lon, 0) === null) throw offNetwork();
      candidates = landChecked(point, CANDIDATE_EXTRA_NM, 0);
      if (candidates.every((c) => (c.overLandKm ?? 0) > CONNECTOR_LAND_TOLERANCE_KM)) {
        // a join at sea farther off is taken only when it is not much longer than the near join over land
        const wide = landChecked(point, CANDIDATE_WIDE_EXTRA_NM, 0, MAX_CHECKED_WIDE);
        const near = candidates[0]?.connectorNm ?? Infinity;
        if ((wide[0]?.overLandKm ?? Infinity) < (candidates[0]?.overLandKm ?? Infinity) && wide[0]!.connectorNm <= WIDE_JOIN_FACTOR * near + WIDE_JOIN_EXTRA_NM) candidates = wide;
      }
      if (candidateCache.size >= CANDIDATE_CACHE) candidateCache.delete(candidateCache.keys().next().value!);
      candidateCache.set(key, candidates);
    }
    const open = candidates.filter((c) => (mask & (1 << graph.edgePassage[c.edge]!)) === 0);
    if (open.length > 0) return open;
    // every join lies in a closed passage (a place with no join outside the passages): the joins outside it
    const found = landChecked(point, CANDIDATE_EXTRA_NM, mask);
    if (found.length === 0) throw offNetwork();
    return found;
  };
  /** A join whose connector crosses land, with its over-land length measured whole (or up to just past stopAboveKm). */
  const measured = (snap: Snap, stopAboveKm = Infinity): Snap => {
    const land = options.land?.();
    return land === undefined ? snap : { ...snap, overLandKm: connectorOverLandKm(land, [snap.lon, snap.lat], [snap.snappedLon, snap.snappedLat], stopAboveKm) };
  };

  /** A point as one number (1e-5° steps, about a metre): the key of the memos below. */
  const pointKey = (p: readonly [number, number]) => Math.round((p[0] + 540) * 1e5) * 2 ** 25 + Math.round((p[1] + 90) * 1e5);
  /** Whether a point of a route lies at sea (1:10m), remembered per point. */
  const pointMemo = new Map<number, boolean>();
  const atSeaPoint = (land: LandIndex, p: readonly [number, number], key: number) => {
    let sea = pointMemo.get(key);
    if (sea === undefined) {
      const lon = p[0] > 180 ? p[0] - 360 : p[0] < -180 ? p[0] + 360 : p[0];
      sea = !land.isLand(lon, p[1]);
      if (pointMemo.size >= SEA_MEMO) pointMemo.clear();
      pointMemo.set(key, sea);
    }
    return sea;
  };
  /**
   * Great-circle land tests of the pull (decision 126), remembered: routes share most of their network
   * points, so a server answers the same question many times. Bounded; cleared when full.
   */
  const seaMemo = new Map<number, Map<number, boolean>>();
  let seaMemoSize = 0;
  const seaTest = (land: LandIndex) => (a: readonly [number, number], b: readonly [number, number]) => {
    const ka = pointKey(a);
    const kb = pointKey(b);
    let row = seaMemo.get(ka);
    let answer = row?.get(kb);
    if (answer === undefined) {
      answer = greatCircleAtSea(land, a, b, PULL_END_ALLOWANCE_KM, atSeaPoint(land, a, ka), atSeaPoint(land, b, kb));
      if (seaMemoSize >= SEA_MEMO) {
        seaMemo.clear();
        seaMemoSize = 0;
        row = undefined;
      }
      if (row === undefined) {
        row = new Map();
        seaMemo.set(ka, row);
      }
      row.set(kb, answer);
      seaMemoSize++;
    }
    return answer;
  };

  /** Network part of a leg: the edges from the source snap to the target snap (snap edges included when partly used). */
  /**
   * The best leg from any source join to any target join (connectors included in lengthNm): A* seeded
   * from both ends of every source join's edge, ended at the ends of the target joins' edges. The
   * heuristic is the great circle to the target place, a lower bound whichever join is used.
   */
  const searchLeg = (sources: readonly Snap[], targets: readonly Snap[], target: LatLon, mask: number): { edges: number[]; startNode: number; endNode: number; lengthNm: number; s: Snap; t: Snap } => {
    let best = Infinity;
    let bestEnd = -1;
    let bestS = -1;
    let bestT = -1;
    for (let si = 0; si < sources.length; si++) {
      for (let ti = 0; ti < targets.length; ti++) {
        const s = sources[si]!;
        const t = targets[ti]!;
        if (s.edge !== t.edge) continue;
        const direct = s.connectorNm + Math.abs(s.t - t.t) * graph.edgeNm[s.edge]! + t.connectorNm;
        if (direct < best) {
          best = direct;
          bestEnd = -2;
          bestS = si;
          bestT = ti;
        }
      }
    }
    generation++;
    heapSize = 0;
    const cosT = Math.cos(target.lat * RAD);
    const latT = target.lat * RAD;
    const lonT = target.lon * RAD;
    const h = (node: number) => {
      const sdLat = Math.sin((graph.lat[node]! * RAD - latT) / 2);
      const sdLon = Math.sin((graph.lon[node]! * RAD - lonT) / 2);
      const a = sdLat * sdLat + cosLat[node]! * cosT * sdLon * sdLon;
      return 2 * EARTH_NM * Math.asin(Math.min(1, Math.sqrt(a))) * HEURISTIC_FACTOR;
    };
    const seed = (node: number, cost: number, si: number) => {
      if (stamp[node] === generation && g[node]! <= cost) return;
      stamp[node] = generation;
      g[node] = cost;
      parentEdge[node] = -1;
      seedOf[node] = si;
      push(cost + h(node), node);
    };
    const terminal = (node: number, cost: number, ti: number) => {
      if (termStamp[node] === generation && termCost[node]! <= cost) return;
      termStamp[node] = generation;
      termCost[node] = cost;
      termOf[node] = ti;
    };
    for (let si = 0; si < sources.length; si++) {
      const s = sources[si]!;
      const len = graph.edgeNm[s.edge]!;
      seed(graph.edgeA[s.edge]!, s.connectorNm + s.t * len, si);
      seed(graph.edgeB[s.edge]!, s.connectorNm + (1 - s.t) * len, si);
    }
    for (let ti = 0; ti < targets.length; ti++) {
      const t = targets[ti]!;
      const len = graph.edgeNm[t.edge]!;
      terminal(graph.edgeA[t.edge]!, t.connectorNm + t.t * len, ti);
      terminal(graph.edgeB[t.edge]!, t.connectorNm + (1 - t.t) * len, ti);
    }
    while (heapSize > 0) {
      const f = heapKey[0]!;
      if (f >= best) break;
      const u = pop();
      if (closed[u] === generation) continue;
      closed[u] = generation;
      const gu = g[u]!;
      if (termStamp[u] === generation && gu + termCost[u]! < best) {
        best = gu + termCost[u]!;
        bestEnd = u;
        bestT = termOf[u]!;
      }
      for (let i = graph.offsets[u]!, end = graph.offsets[u + 1]!; i < end; i++) {
        const e = graph.arcEdge[i]!;
        if (mask & (1 << graph.edgePassage[e]!)) continue;
        const v = graph.target[i]!;
        if (closed[v] === generation) continue;
        const gv = gu + graph.edgeNm[e]!;
        if (stamp[v] !== generation || gv < g[v]!) {
          stamp[v] = generation;
          g[v] = gv;
          parentEdge[v] = e;
          seedOf[v] = seedOf[u]!;
          push(gv + h(v), v);
        }
      }
    }
    if (bestEnd === -1) throw new RoutingError('route_unreachable', 'no sea route joins these points with the given closures');
    if (bestEnd === -2) return { edges: [], startNode: -1, endNode: -1, lengthNm: best, s: sources[bestS]!, t: targets[bestT]! };
    const path: number[] = [];
    let node = bestEnd;
    while (parentEdge[node] !== -1) {
      const e = parentEdge[node]!;
      path.push(e);
      node = graph.edgeA[e] === node ? graph.edgeB[e]! : graph.edgeA[e]!;
    }
    path.reverse();
    return { edges: path, startNode: node, endNode: bestEnd, lengthNm: best, s: sources[seedOf[node]!]!, t: targets[bestT]! };
  };

  const unwrapPush = (coords: [number, number][], lon: number, lat: number) => {
    const last = coords[coords.length - 1];
    let l = lon;
    if (last !== undefined) {
      while (l - last[0] > 180) l -= 360;
      while (last[0] - l > 180) l += 360;
      if (Math.abs(last[0] - l) < 1e-9 && Math.abs(last[1] - lat) < 1e-9) return;
    }
    coords.push([l, lat]);
  };

  const leg = (sources: readonly Snap[], targets: readonly Snap[], target: LatLon, mask: number, startNm: number): RouteLeg => {
    const found = searchLeg(sources, targets, target, mask);
    const { s, t } = found;
    // the chain of points with, per point k ≥ 1, the passage of the segment ending there and whether it is a connector
    const raw: [number, number][] = [];
    const group: number[] = [0];
    const connector: boolean[] = [false];
    const rawNm: number[] = [0];
    const step = (edge: number, lengthNm: number, lon: number, lat: number) => {
      const before = raw.length;
      unwrapPush(raw, lon, lat);
      if (raw.length === before) {
        // the same point again (a zero-length step): its length, if any, stays on the segment before
        rawNm[rawNm.length - 1]! += lengthNm;
        return;
      }
      group.push(edge < 0 ? 0 : graph.edgePassage[edge]!);
      connector.push(edge < 0);
      rawNm.push(lengthNm);
    };
    unwrapPush(raw, s.lon, s.lat);
    step(-1, s.connectorNm, s.snappedLon, s.snappedLat);
    const sLen = graph.edgeNm[s.edge]!;
    const tLen = graph.edgeNm[t.edge]!;
    if (found.startNode === -1) {
      step(s.edge, found.lengthNm - s.connectorNm - t.connectorNm, t.snappedLon, t.snappedLat);
    } else {
      const toStart = found.startNode === graph.edgeA[s.edge] ? s.t * sLen : (1 - s.t) * sLen;
      if (toStart > 0) step(s.edge, toStart, graph.lon[found.startNode]!, graph.lat[found.startNode]!);
      let node = found.startNode;
      for (const e of found.edges) {
        node = graph.edgeA[e] === node ? graph.edgeB[e]! : graph.edgeA[e]!;
        step(e, graph.edgeNm[e]!, graph.lon[node]!, graph.lat[node]!);
      }
      const fromEnd = found.endNode === graph.edgeA[t.edge] ? t.t * tLen : (1 - t.t) * tLen;
      if (fromEnd > 0) step(t.edge, fromEnd, t.snappedLon, t.snappedLat);
    }
    step(-1, t.connectorNm, t.lon, t.lat);
    // great circles where the water allows (decision 126): the chain pulled straight within each passage group
    const land = options.pull === false ? undefined : options.land?.();
    const atSea = land === undefined ? null : seaTest(land);
    const kept = atSea === null ? raw.map((_, i) => i) : pullChain(raw, group, atSea);
    const coordinates = kept.map((k) => [raw[k]![0], raw[k]![1]] as [number, number]);
    // a pulled segment is of the passage of its first segment (it may leave a passage, never enter one)
    const segGroup = kept.map((k, m) => (m === 0 ? 0 : group[kept[m - 1]! + 1]!));
    let changed = kept.length < raw.length;
    if (atSea !== null) {
      // the point where the route enters a passage stays where the network has it
      const fixed = kept.map((_, m) => m === 0 || m === kept.length - 1 || (segGroup[m + 1]! !== 0 && segGroup[m + 1] !== segGroup[m]));
      const before = coordinates.map((c) => c[0] + c[1]);
      slideCorners(coordinates, fixed, atSea);
      changed ||= coordinates.some((c, m) => c[0] + c[1] !== before[m]);
    }
    const passages: PassageCrossing[] = [];
    let along = startNm;
    let previous = 0;
    for (let m = 1; m < kept.length; m++) {
      const k = kept[m]!;
      const j = kept[m - 1]!;
      const p = segGroup[m]!;
      const isConnector = k - j === 1 && connector[k]!;
      if (p !== 0 && p !== previous) {
        const [atLon, atLat] = coordinates[m - 1]!;
        const info = passageAt(p);
        passages.push({ id: info.id, name: info.name, kind: info.kind, lat: atLat, lon: atLon > 180 ? atLon - 360 : atLon < -180 ? atLon + 360 : atLon, at_nm: Math.round(along * 10) / 10 });
      }
      if (!isConnector) previous = p;
      along += changed ? distanceNm(coordinates[m - 1]![1], coordinates[m - 1]![0], coordinates[m]![1], coordinates[m]![0]) : rawNm[k]!;
    }
    const connectorNm = s.connectorNm + t.connectorNm;
    return { from: s, to: t, distanceNm: changed ? along - startNm : found.lengthNm, connectorNm, passages, coordinates };
  };

  const route = (points: readonly LatLon[], options: RouteOptions = {}): Route => {
    const mask = options.excludedMask ?? 0;
    if (points.length < 2) throw new Error('a route needs at least two points');
    const joins = points.map((p, i) => joinsOf(p, mask, i));
    const legs: RouteLeg[] = [];
    let total = 0;
    for (let i = 1; i < joins.length; i++) {
      const l = leg(joins[i - 1]!, joins[i]!, points[i]!, mask, total);
      legs.push(l);
      total += l.distanceNm;
    }
    const coordinates: [number, number][] = [];
    for (const l of legs) for (const c of l.coordinates) unwrapPush(coordinates, c[0], c[1]);
    return {
      distanceNm: total,
      connectorNm: legs.reduce((s, l) => s + l.connectorNm, 0),
      legs,
      passages: legs.flatMap((l) => l.passages),
      coordinates,
      excludedMask: mask,
    };
  };

  const passageMask = (avoid: readonly string[], allow: readonly string[] = []): number => {
    let mask = 0;
    const resolve = (name: string) => {
      const p = passageByName(name);
      if (p === undefined) throw new RoutingError('unknown_passage', `unknown passage "${name}"; known: ${PASSAGES.map((x) => x.id).join(', ')}`);
      return p.index;
    };
    const allowed = new Set(allow.map(resolve));
    for (const id of DEFAULT_EXCLUDED) {
      const i = passageByName(id)!.index;
      if (!allowed.has(i)) mask |= 1 << i;
    }
    for (const name of avoid) mask |= 1 << resolve(name);
    return mask;
  };

  return {
    graph,
    bytes: graphBytes(graph) + index.bytes + n * 44 + heapKey.byteLength + heapNode.byteLength,
    passageMask,
    maskNames: (mask) => PASSAGES.filter((p) => mask & (1 << p.index)).map((p) => p.id),
    passages: () => PASSAGES.map((p) => ({ ...p, edges: edgeCount.get(p.index) ?? 0 })),
    snap,
    joins: (point, excludedMask = 0, pointIndex) => joinsOf(point, excludedMask, pointIndex),
    route,
    alternatives(points, options = {}) {
      // The search is shortest on the network; the pull (decision 126) may make a route under one more
      // closure shorter than the best. Such a route is a route without the closure too: it becomes the best
      // (then its own passages are closed in turn), so no alternative is ever shorter than the best.
      let best = route(points, options);
      let without: { passage: string; route: Route }[] = [];
      for (let round = 0; round < 4; round++) {
        without = [];
        for (const crossing of new Set(best.passages.map((p) => p.id))) {
          const mask = best.excludedMask | (1 << passageByName(crossing)!.index);
          try {
            without.push({ passage: crossing, route: route(points, { excludedMask: mask }) });
          } catch (error) {
            if (!(error instanceof RoutingError)) throw error;
          }
        }
        const shorter = without.reduce<Route | null>((m, w) => (w.route.distanceNm < (m?.distanceNm ?? best.distanceNm) ? w.route : m), null);
        if (shorter === null) break;
        best = { ...shorter, excludedMask: best.excludedMask };
      }
      without = without.filter((w) => w.route.distanceNm >= best.distanceNm);
      return { best, without };
    },
  };
}
