/**
 * A* over the sea graph for one leg of a route, from the joins of one place to the joins of the next,
 * on typed arrays allocated once per engine and reused by generation stamps (hot code: no allocation
 * per relaxed edge).
 */
import type { SeaGraph } from './graph.js';
import { RoutingError, type LatLon } from './route-types.js';
import type { Snap } from './snap.js';

const RAD = Math.PI / 180;
const EARTH_NM = 6_371_008.8 / 1852;
/** The heuristic is the great-circle distance; the factor absorbs the snapped point's planar interpolation. */
const HEURISTIC_FACTOR = 0.999;

/** The network part of the best leg: its edges from startNode to endNode (none when both joins lie on one edge) and the joins used. */
export interface LegPath {
  edges: number[];
  startNode: number;
  endNode: number;
  lengthNm: number;
  s: Snap;
  t: Snap;
}

export interface LegSearch {
  /** Bytes of the search arrays. */
  bytes: number;
  /**
   * The best leg from any source join to any target join (connectors included in lengthNm): A* seeded
   * from both ends of every source join's edge, ended at the ends of the target joins' edges. The
   * heuristic is the great circle to the target place, a lower bound whichever join is used.
   */
  searchLeg(sources: readonly Snap[], targets: readonly Snap[], target: LatLon, mask: number): LegPath;
}

export function createLegSearch(graph: SeaGraph): LegSearch {
  const n = graph.nodeCount;
  const cosLat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    cosLat[i] = Math.cos(graph.lat[i]! * RAD);
  }
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

  const searchLeg = (sources: readonly Snap[], targets: readonly Snap[], target: LatLon, mask: number): LegPath => {
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

  return { bytes: n * 44 + heapKey.byteLength + heapNode.byteLength, searchLeg };
}
