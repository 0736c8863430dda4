/**
 * The simulator's view of the sea routing engine (src/routing, decision 032): graph nodes, shortest-path
 * trees from a node under a passage exclusion mask, and paths read off them. The simulator routes
 * between a few fixed nodes (its ports' and STS areas' lane nodes) many times, so it keeps whole trees
 * per source (SimWorld caches them) instead of asking the engine for one A* route per voyage.
 */
import { METRES_PER_NM, type LatLon } from '../geo/distance.js';
import type { RoutingEngine } from '../routing/engine.js';
import { shippedSeaNetwork } from '../routing/network-file.js';
import { NodeHeap } from '../routing/node-heap.js';

/** Shortest distances (metres) from a source node and the edge each node was reached by (-1: source or unreached). */
export interface LaneTree {
  source: number;
  mask: number;
  distance: Float64Array;
  previousEdge: Int32Array;
}

/** Where a point joins the lanes: the point of the nearest edge, and the nearer end of that edge. */
export interface LaneJoin {
  node: number;
  /** The nearest point of the network (on the edge leading to `node`). */
  snapped: LatLon;
}

export class SeaLanes {
  /** The mask the engine applies by default (Arctic passages and the Corinth Canal closed). */
  readonly defaultMask: number;

  constructor(readonly engine: RoutingEngine) {
    this.defaultMask = engine.passageMask([]);
  }

  get nodeCount(): number {
    return this.engine.graph.nodeCount;
  }

  point(node: number): LatLon {
    return { lat: this.engine.graph.lat[node]!, lon: this.engine.graph.lon[node]! };
  }

  /** Every edge once, as node pairs. */
  *edges(): Generator<[number, number]> {
    const g = this.engine.graph;
    for (let e = 0; e < g.edgeCount; e++) yield [g.edgeA[e]!, g.edgeB[e]!];
  }

  /** Exclusion mask of the default passages plus `avoid` (engine passage ids). */
  mask(avoid: readonly string[]): number {
    return this.engine.passageMask(avoid);
  }

  /** Through the engine's spatial index: the nearest open edge to the point and its nearer end. */
  join(point: LatLon): LaneJoin {
    const g = this.engine.graph;
    const snap = this.engine.snap(point, this.defaultMask);
    const node = snap.t <= 0.5 ? g.edgeA[snap.edge]! : g.edgeB[snap.edge]!;
    return { node, snapped: { lat: snap.snappedLat, lon: snap.snappedLon } };
  }

  /** Dijkstra from `source` over the whole graph, never along an edge of a passage in `mask`. */
  tree(source: number, mask: number): LaneTree {
    const g = this.engine.graph;
    const n = g.nodeCount;
    const distance = new Float64Array(n).fill(Infinity);
    const previousEdge = new Int32Array(n).fill(-1);
    const done = new Uint8Array(n);
    const heap = new NodeHeap(n);
    distance[source] = 0;
    heap.push(0, source);
    while (heap.size > 0) {
      const d = heap.peekKey();
      const u = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      for (let i = g.offsets[u]!, end = g.offsets[u + 1]!; i < end; i++) {
        const e = g.arcEdge[i]!;
        if (mask & (1 << g.edgePassage[e]!)) continue;
        const v = g.target[i]!;
        if (done[v]) continue;
        const candidate = d + g.edgeNm[e]! * METRES_PER_NM;
        if (candidate < distance[v]!) {
          distance[v] = candidate;
          previousEdge[v] = e;
          heap.push(candidate, v);
        }
      }
    }
    return { source, mask, distance, previousEdge };
  }

  /** The edges of the tree's path to `target`, from the source onwards ([] when target is the source; null when unreachable). */
  pathEdges(tree: LaneTree, target: number): number[] | null {
    if (!Number.isFinite(tree.distance[target]!)) return null;
    const g = this.engine.graph;
    const edges: number[] = [];
    for (let v = target; v !== tree.source;) {
      const e = tree.previousEdge[v]!;
      edges.push(e);
      v = g.edgeA[e] === v ? g.edgeB[e]! : g.edgeA[e]!;
    }
    return edges.reverse();
  }

  /** The nodes' points of the tree's path from its source to `target` (inclusive), or null when unreachable. */
  pathPoints(tree: LaneTree, target: number): LatLon[] | null {
    const edges = this.pathEdges(tree, target);
    if (edges === null) return null;
    const g = this.engine.graph;
    const points = [this.point(tree.source)];
    let node = tree.source;
    for (const e of edges) {
      node = g.edgeA[e] === node ? g.edgeB[e]! : g.edgeA[e]!;
      points.push(this.point(node));
    }
    return points;
  }

  /** True when the tree's path to `target` uses an edge of a passage in `mask`. */
  pathUses(tree: LaneTree, target: number, mask: number): boolean {
    const edges = this.pathEdges(tree, target) ?? [];
    return edges.some((e) => (mask & (1 << this.engine.graph.edgePassage[e]!)) !== 0);
  }
}

let shipped: SeaLanes | null = null;

/** The lanes of the shipped sea network (the routing engine's), built once per process. */
export function shippedSeaLanes(): SeaLanes {
  shipped ??= new SeaLanes(shippedSeaNetwork().engine);
  return shipped;
}
