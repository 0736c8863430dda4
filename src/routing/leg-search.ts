/**
 * A* over the sea graph for one leg of a route, from the joins of one place to the joins of the next,
 * on typed arrays allocated once per engine and reused by generation stamps (hot code: no allocation
 * per relaxed edge). The heuristic is a landmark (ALT) bound (decision 137): network distances from a
 * few landmarks, computed when the engine is made, bound the distance left through the triangle
 * inequality; the great circle to the target, which underestimates badly when a route goes round a
 * continent, serves only when the mask opens edges the landmarks were computed without.
 */
import type { SeaGraph } from './graph.js';
import { NodeHeap } from './node-heap.js';
import { RoutingError, type LatLon } from './route-types.js';
import type { Snap } from './snap.js';

const RAD = Math.PI / 180;
const EARTH_NM = 6_371_008.8 / 1852;
/**
 * Both bounds are scaled down by this: it absorbs the snapped point's planar interpolation (great circle), and
 * keeps near-equal ways to the target evaluated as with the great circle, so that the same one is kept (decision 137).
 */
const HEURISTIC_FACTOR = 0.999;
/** Landmarks of the ALT bound (decision 137), and the most of them read per search (those bounding the sources best). */
const LANDMARKS = 16;
const ACTIVE_LANDMARKS = 6;

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

/**
 * Network distances (nm) from LANDMARKS nodes spread over the graph (each the node farthest from those
 * chosen before), over the edges `mask` allows: node-major, distance from landmark l to node v at
 * v * LANDMARKS + l; Infinity where a node is not reached.
 */
export function landmarkDistances(graph: SeaGraph, mask: number, count = LANDMARKS): Float64Array {
  const n = graph.nodeCount;
  const table = new Float64Array(n * count).fill(Infinity);
  const dist = new Float64Array(n);
  const nearest = new Float64Array(n).fill(Infinity);
  const heap = new NodeHeap(n);
  const dijkstra = (from: number) => {
    dist.fill(Infinity);
    dist[from] = 0;
    heap.size = 0;
    heap.push(0, from);
    while (heap.size > 0) {
      const d = heap.peekKey();
      const u = heap.pop();
      if (d > dist[u]!) continue;
      for (let i = graph.offsets[u]!, end = graph.offsets[u + 1]!; i < end; i++) {
        const e = graph.arcEdge[i]!;
        if (mask & (1 << graph.edgePassage[e]!)) continue;
        const v = graph.target[i]!;
        const dv = d + graph.edgeNm[e]!;
        if (dv < dist[v]!) {
          dist[v] = dv;
          heap.push(dv, v);
        }
      }
    }
  };
  // the first landmark is the node farthest from node 0 in the largest connected part of the graph (under
  // the mask, the insides of closed passages are cut off); each next one the node of that part farthest
  // from all chosen. Nodes outside it are at Infinity from every landmark: they bound nothing.
  if (n === 0) return table;
  let start = 0;
  let largest = 0;
  const part = new Int32Array(n).fill(-1);
  for (let v = 0; v < n; v++) {
    if (part[v] !== -1) continue;
    dijkstra(v);
    let size = 0;
    for (let u = 0; u < n; u++) {
      if (Number.isFinite(dist[u]!)) {
        part[u] = v;
        size++;
      }
    }
    if (size > largest) {
      largest = size;
      start = v;
    }
    if (2 * size > n) break;
  }
  dijkstra(start);
  let next = start;
  for (let v = 0; v < n; v++) if (Number.isFinite(dist[v]!) && dist[v]! > dist[next]!) next = v;
  for (let l = 0; l < count; l++) {
    dijkstra(next);
    for (let v = 0; v < n; v++) {
      table[v * count + l] = dist[v]!;
      if (dist[v]! < nearest[v]!) nearest[v] = dist[v]!;
    }
    for (let v = 0; v < n; v++) if (Number.isFinite(nearest[v]!) && nearest[v]! > nearest[next]!) next = v;
  }
  return table;
}

/** Bits of a Hilbert curve's grid side: 2^16 cells per side over lon × lat. */
const HILBERT_ORDER = 16;

/** The position along a Hilbert curve of the cell (x, y) of a 2^HILBERT_ORDER grid. */
function hilbertIndex(x: number, y: number): number {
  let index = 0;
  for (let s = 1 << (HILBERT_ORDER - 1); s > 0; s >>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    index += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const swap = x;
      x = y;
      y = swap;
    }
  }
  return index;
}

/**
 * The nodes in the order of a Hilbert curve over lon/lat: nodes near each other at sea get near places in the
 * search's arrays, so a search, which spreads over neighbouring nodes, reads fewer cache lines (decision 152).
 */
export function localityOrder(graph: SeaGraph): Int32Array {
  const side = 2 ** HILBERT_ORDER;
  const n = graph.nodeCount;
  // the curve position and the node in one number (exact below 2^53: up to 2^21 nodes), sorted natively
  const key = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const x = Math.min(side - 1, Math.floor(((graph.lon[v]! + 180) / 360) * side));
    const y = Math.min(side - 1, Math.floor(((graph.lat[v]! + 90) / 180) * side));
    key[v] = hilbertIndex(x, y) * n + v;
  }
  key.sort();
  return Int32Array.from(key, (k) => k % n);
}

/** Per arc of the search's adjacency: the local id of the node it leads to, the edge's length (nm), its passage bit, the edge. */
const ARC_STRIDE = 4;
/** Per node of the search's state: g, its generation stamp, closed stamp, parent edge, seed, terminal stamp, terminal cost, terminal join. */
const STATE_STRIDE = 8;
const G = 0;
const STAMP = 1;
const CLOSED = 2;
const PARENT_EDGE = 3;
const SEED_OF = 4;
const TERM_STAMP = 5;
const TERM_COST = 6;
const TERM_OF = 7;

/**
 * `landmarkMask`: the closures the landmark bound is computed under; it serves searches whose mask closes at least these.
 * The search runs over its own copy of the graph's adjacency and the landmark table, renumbered in localityOrder,
 * with what it reads of a node or an arc side by side: a cold search (a route between places met for the first time,
 * the caches filled by other work) pays for memory it reads, not for arithmetic (decision 152). The renumbering keeps
 * every arc's order, so the search pops the same nodes in the same order as over the graph's own numbering.
 */
export function createLegSearch(graph: SeaGraph, landmarkMask = 0): LegSearch {
  const n = graph.nodeCount;
  const nodeOf = localityOrder(graph);
  const localOf = new Int32Array(n);
  for (let local = 0; local < n; local++) localOf[nodeOf[local]!] = local;
  const arcStart = new Int32Array(n + 1);
  const arcs = new Float64Array(graph.target.length * ARC_STRIDE);
  for (let local = 0, k = 0; local < n; local++) {
    const u = nodeOf[local]!;
    arcStart[local] = k / ARC_STRIDE;
    for (let i = graph.offsets[u]!, end = graph.offsets[u + 1]!; i < end; i++, k += ARC_STRIDE) {
      const e = graph.arcEdge[i]!;
      arcs[k] = localOf[graph.target[i]!]!;
      arcs[k + 1] = graph.edgeNm[e]!;
      arcs[k + 2] = 1 << graph.edgePassage[e]!;
      arcs[k + 3] = e;
    }
    arcStart[local + 1] = arcStart[local]! + graph.offsets[u + 1]! - graph.offsets[u]!;
  }
  const byNode = landmarkDistances(graph, landmarkMask);
  const landmarks = new Float64Array(byNode.length);
  for (let local = 0; local < n; local++) landmarks.set(byNode.subarray(nodeOf[local]! * LANDMARKS, (nodeOf[local]! + 1) * LANDMARKS), local * LANDMARKS);
  /** Per active landmark (the search under way): the bound's two constants, from the target joins. */
  const activeLandmark = new Int32Array(ACTIVE_LANDMARKS);
  const activeLow = new Float64Array(ACTIVE_LANDMARKS);
  const activeHigh = new Float64Array(ACTIVE_LANDMARKS);
  let activeCount = 0;
  /** Per local node: latitude and longitude in radians, cosine of the latitude (the great-circle bound). */
  const position = new Float64Array(n * 3);
  for (let local = 0; local < n; local++) {
    const v = nodeOf[local]!;
    position[local * 3] = graph.lat[v]! * RAD;
    position[local * 3 + 1] = graph.lon[v]! * RAD;
    position[local * 3 + 2] = Math.cos(graph.lat[v]! * RAD);
  }
  const state = new Float64Array(n * STATE_STRIDE);
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

  /**
   * The landmarks of this search: none when the mask opens an edge the landmark distances were computed
   * without; else those whose bound at the first source is largest, with their constants over the target
   * joins' ends (a landmark that does not reach every end is left out).
   */
  const landmarkLow = new Float64Array(LANDMARKS);
  const landmarkHigh = new Float64Array(LANDMARKS);
  const landmarkAtSource = new Float64Array(LANDMARKS);
  const chooseLandmarks = (sources: readonly Snap[], targets: readonly Snap[], mask: number) => {
    activeCount = 0;
    if ((mask & landmarkMask) !== landmarkMask || n === 0) return;
    const from = localOf[graph.edgeA[sources[0]!.edge]!]! * LANDMARKS;
    for (let l = 0; l < LANDMARKS; l++) {
      let low = Infinity;
      let high = -Infinity;
      for (let ti = 0; ti < targets.length; ti++) {
        const t = targets[ti]!;
        const len = graph.edgeNm[t.edge]!;
        const dA = landmarks[localOf[graph.edgeA[t.edge]!]! * LANDMARKS + l]!;
        const dB = landmarks[localOf[graph.edgeB[t.edge]!]! * LANDMARKS + l]!;
        const cA = t.connectorNm + t.t * len;
        const cB = t.connectorNm + (1 - t.t) * len;
        low = Math.min(low, dA + cA, dB + cB);
        high = Math.max(high, dA - cA, dB - cB);
      }
      landmarkLow[l] = low;
      landmarkHigh[l] = high;
      const d = landmarks[from + l]!;
      landmarkAtSource[l] = Number.isFinite(low) && Number.isFinite(high) && Number.isFinite(d) ? Math.max(low - d, d - high) : -Infinity;
    }
    // the best ACTIVE_LANDMARKS by their bound at the source (insertion into a short sorted list)
    for (let l = 0; l < LANDMARKS; l++) {
      const value = landmarkAtSource[l]!;
      if (value === -Infinity) continue;
      let k: number;
      if (activeCount < ACTIVE_LANDMARKS) k = activeCount++;
      else if (landmarkAtSource[activeLandmark[ACTIVE_LANDMARKS - 1]!]! >= value) continue;
      else k = ACTIVE_LANDMARKS - 1;
      while (k > 0 && landmarkAtSource[activeLandmark[k - 1]!]! < value) {
        activeLandmark[k] = activeLandmark[k - 1]!;
        k--;
      }
      activeLandmark[k] = l;
    }
    for (let k = 0; k < activeCount; k++) {
      activeLow[k] = landmarkLow[activeLandmark[k]!]!;
      activeHigh[k] = landmarkHigh[activeLandmark[k]!]!;
    }
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
    const h = (local: number) => {
      // with landmarks the great circle is left out: their bound is the tighter one almost everywhere, and cheaper
      let bound = 0;
      if (activeCount === 0) {
        const sdLat = Math.sin((position[local * 3]! - latT) / 2);
        const sdLon = Math.sin((position[local * 3 + 1]! - lonT) / 2);
        const a = sdLat * sdLat + position[local * 3 + 2]! * cosT * sdLon * sdLon;
        bound = 2 * EARTH_NM * Math.asin(Math.min(1, Math.sqrt(a))) * HEURISTIC_FACTOR;
      }
      // through landmark l, for every target join τ (cost c_τ beyond its node): d(v, τ) + c_τ ≥ d(l, τ) + c_τ − d(l, v) and ≥ d(l, v) − (d(l, τ) − c_τ)
      const row = local * LANDMARKS;
      for (let k = 0; k < activeCount; k++) {
        const d = landmarks[row + activeLandmark[k]!]!;
        const viaLandmark = Math.max(activeLow[k]! - d, d - activeHigh[k]!) * HEURISTIC_FACTOR;
        if (viaLandmark > bound) bound = viaLandmark;
      }
      return bound;
    };
    const seed = (node: number, cost: number, si: number) => {
      const local = localOf[node]!;
      const at = local * STATE_STRIDE;
      if (state[at + STAMP] === generation && state[at + G]! <= cost) return;
      state[at + STAMP] = generation;
      state[at + G] = cost;
      state[at + PARENT_EDGE] = -1;
      state[at + SEED_OF] = si;
      push(cost + h(local), local);
    };
    const terminal = (node: number, cost: number, ti: number) => {
      const at = localOf[node]! * STATE_STRIDE;
      if (state[at + TERM_STAMP] === generation && state[at + TERM_COST]! <= cost) return;
      state[at + TERM_STAMP] = generation;
      state[at + TERM_COST] = cost;
      state[at + TERM_OF] = ti;
    };
    chooseLandmarks(sources, targets, mask);
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
      const at = u * STATE_STRIDE;
      if (state[at + CLOSED] === generation) continue;
      state[at + CLOSED] = generation;
      const gu = state[at + G]!;
      if (state[at + TERM_STAMP] === generation && gu + state[at + TERM_COST]! < best) {
        best = gu + state[at + TERM_COST]!;
        bestEnd = u;
        bestT = state[at + TERM_OF]!;
      }
      const seedOfU = state[at + SEED_OF]!;
      for (let k = arcStart[u]! * ARC_STRIDE, end = arcStart[u + 1]! * ARC_STRIDE; k < end; k += ARC_STRIDE) {
        if (mask & arcs[k + 2]!) continue;
        const v = arcs[k]!;
        const av = v * STATE_STRIDE;
        if (state[av + CLOSED] === generation) continue;
        const gv = gu + arcs[k + 1]!;
        if (state[av + STAMP] !== generation || gv < state[av + G]!) {
          state[av + STAMP] = generation;
          state[av + G] = gv;
          state[av + PARENT_EDGE] = arcs[k + 3]!;
          state[av + SEED_OF] = seedOfU;
          push(gv + h(v), v);
        }
      }
    }
    if (bestEnd === -1) throw new RoutingError('route_unreachable', 'no sea route joins these points with the given closures');
    if (bestEnd === -2) return { edges: [], startNode: -1, endNode: -1, lengthNm: best, s: sources[bestS]!, t: targets[bestT]! };
    const path: number[] = [];
    const endNode = nodeOf[bestEnd]!;
    let node = endNode;
    for (let e = state[bestEnd * STATE_STRIDE + PARENT_EDGE]!; e !== -1; e = state[localOf[node]! * STATE_STRIDE + PARENT_EDGE]!) {
      path.push(e);
      node = graph.edgeA[e] === node ? graph.edgeB[e]! : graph.edgeA[e]!;
    }
    path.reverse();
    return { edges: path, startNode: node, endNode, lengthNm: best, s: sources[state[localOf[node]! * STATE_STRIDE + SEED_OF]!]!, t: targets[bestT]! };
  };

  return {
    bytes: arcStart.byteLength + arcs.byteLength + landmarks.byteLength + position.byteLength + state.byteLength + localOf.byteLength + nodeOf.byteLength + heapKey.byteLength + heapNode.byteLength,
    searchLeg,
  };
}
