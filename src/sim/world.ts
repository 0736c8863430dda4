/** The simulator's geography: ports joined to the sea routing engine's network, STS areas, and cached routes. */
import { distanceM, METRES_PER_NM, type LatLon } from '../geo/distance.js';
import { Polyline } from '../geo/polyline.js';
import { BUILTIN_PORTS, type BuiltinPort } from '../geo/ports-builtin.js';
import type { LaneTree, SeaLanes } from './lanes.js';

export interface SimPort extends BuiltinPort {
  index: number;
  /** Network node where the port's approach meets the sea lanes. */
  node: number;
  /** Anchorage → (channel) → berth. */
  inbound: Polyline;
  /** Anchorage → (approach) → the nearest point of the network → the node. */
  seaward: Polyline;
}

/** An open-sea area where a storage tanker lies and shuttle tankers come alongside. */
export interface StsArea {
  name: string;
  /** What the shuttles announce as AIS destination (≤ 20 characters). */
  code: string;
  lat: number;
  lon: number;
  /** Ports the shuttles load or discharge at. */
  ports: readonly string[];
  node: number;
  /** The node → the area (along its edge, then straight). */
  seaward: Polyline;
}

/** Route variants: which passages to avoid (besides those the engine closes by default). */
export type RouteVariant = 'shortest' | 'avoid_suez' | 'avoid_panama' | 'avoid_malacca';

/** Engine passage ids per variant (src/routing/graph.ts PASSAGES). */
const VARIANT_PASSAGES: Record<RouteVariant, readonly string[]> = {
  shortest: [],
  avoid_suez: ['suez', 'babelmandeb'],
  avoid_panama: ['panama'],
  avoid_malacca: ['malacca'],
};

const STS_AREAS: readonly { name: string; code: string; lat: number; lon: number; ports: readonly string[] }[] = [
  { name: 'Off Lome', code: 'LOME STS AREA', lat: 5.75, lon: 1.55, ports: ['TGLFW', 'NGLOS'] },
  { name: 'East of Singapore', code: 'SINGAPORE EOPL', lat: 1.4, lon: 104.5, ports: ['SGSIN', 'MYTPP'] },
  { name: 'Gulf of Mexico lightering', code: 'GOM LIGHTERING', lat: 28.2, lon: -94.2, ports: ['USHOU'] },
  { name: 'Skagen', code: 'SKAGEN STS', lat: 57.85, lon: 10.95, ports: ['SEGOT', 'DKAAR'] },
];

/** Ports the tankers load at, the LNG carriers load and discharge at, and bulk carriers frequent. */
export const OIL_PORTS = ['SARTA', 'AEFJR', 'IRBND', 'NGLOS', 'USHOU', 'SGSIN', 'NLRTM', 'CNNGB', 'INMUN', 'AOLAD', 'FRMRS'];
export const LNG_EXPORT_PORTS = ['QARLF', 'USHOU', 'NGLOS'];
export const LNG_IMPORT_PORTS = ['JPTYO', 'JPNGO', 'KRPUS', 'CNSHA', 'TWKHH', 'GBLGP', 'ESBCN', 'FRMRS', 'NLRTM'];
export const BULK_PORTS = ['AUPHE', 'AUNTL', 'BRTUB', 'CNTXG', 'CNTAO', 'JPNGO', 'ZADUR', 'NLRTM', 'KRPUS', 'INMUN'];
export const FERRY_PAIRS: readonly (readonly [string, string])[] = [
  ['GBDVR', 'FRCQF'],
  ['FIHEL', 'EETLL'],
  ['ESALG', 'MAPTM'],
];

/** Below this straight-line distance a hop may bypass a long detour of the network. */
const SHORT_HOP_M = 300_000;

export class SimWorld {
  readonly ports: SimPort[];
  readonly stsAreas: StsArea[];
  private readonly byLocode = new Map<string, SimPort>();
  private readonly trees = new Map<string, LaneTree>();
  private readonly masks: Record<RouteVariant, number>;
  private readonly fishingGrounds = new Map<number, number[]>();

  constructor(readonly graph: SeaLanes) {
    this.ports = BUILTIN_PORTS.map((port, index) => {
      const seawardPoints = [port.anchorage, ...(port.approach ?? [])];
      const join = graph.join(seawardPoints[seawardPoints.length - 1]!);
      return {
        ...port,
        index,
        node: join.node,
        inbound: new Polyline([port.anchorage, ...(port.channel ?? []), { lat: port.lat, lon: port.lon }]),
        seaward: new Polyline([...seawardPoints, join.snapped, graph.point(join.node)]),
      };
    });
    for (const port of this.ports) this.byLocode.set(port.locode, port);
    this.stsAreas = STS_AREAS.map((area) => {
      const join = graph.join(area);
      return { ...area, node: join.node, seaward: new Polyline([graph.point(join.node), join.snapped, { lat: area.lat, lon: area.lon }]) };
    });
    const masks = {} as Record<RouteVariant, number>;
    for (const [variant, ids] of Object.entries(VARIANT_PASSAGES) as [RouteVariant, readonly string[]][]) masks[variant] = graph.mask(ids);
    this.masks = masks;
  }

  port(locode: string): SimPort {
    const port = this.byLocode.get(locode);
    if (port === undefined) throw new Error(`unknown built-in port ${locode}`);
    return port;
  }

  private tree(from: number, variant: RouteVariant): LaneTree {
    const key = `${from}:${variant}`;
    let tree = this.trees.get(key);
    if (tree === undefined) {
      tree = this.graph.tree(from, this.masks[variant]);
      this.trees.set(key, tree);
    }
    return tree;
  }

  /**
   * Two nodes close together whose lanes only meet far away (the network is coarse along some
   * coasts): such short hops are sailed straight across.
   */
  private isShortHop(from: number, to: number): boolean {
    const a = this.graph.point(from);
    const b = this.graph.point(to);
    const direct = distanceM(a.lat, a.lon, b.lat, b.lon);
    return direct < SHORT_HOP_M && this.tree(from, 'shortest').distance[to]! > 2 * direct + 20_000;
  }

  /** Sea distance between two graph nodes (Infinity when the variant has no route). */
  distance(from: number, to: number, variant: RouteVariant = 'shortest'): number {
    if (this.isShortHop(from, to)) {
      const a = this.graph.point(from);
      const b = this.graph.point(to);
      return distanceM(a.lat, a.lon, b.lat, b.lon);
    }
    return this.tree(from, variant).distance[to]!;
  }

  /** True when the shortest route between the nodes enters a passage that `variant` avoids. */
  shortestPasses(from: number, to: number, variant: RouteVariant): boolean {
    return this.graph.pathUses(this.tree(from, 'shortest'), to, this.masks[variant] & ~this.masks.shortest);
  }

  /** The graph nodes' points from `from` to `to` (inclusive). */
  routePoints(from: number, to: number, variant: RouteVariant = 'shortest'): LatLon[] {
    if (this.isShortHop(from, to)) return [this.graph.point(from), this.graph.point(to)];
    return this.graph.pathPoints(this.tree(from, variant), to) ?? [this.graph.point(from), this.graph.point(to)];
  }

  /** Graph nodes 40–120 nm by sea from a port: where its fishing boats fish. */
  fishingGroundsOf(port: SimPort): number[] {
    let grounds = this.fishingGrounds.get(port.index);
    if (grounds === undefined) {
      const distance = this.tree(port.node, 'shortest').distance;
      grounds = [];
      const portAt = port.anchorage;
      for (let node = 0; node < distance.length; node++) {
        const d = distance[node]!;
        if (d < 40 * METRES_PER_NM || d > 120 * METRES_PER_NM) continue;
        const p = this.graph.point(node);
        // Keep away from other ports' approaches so boats fish in open water.
        if (distanceM(p.lat, p.lon, portAt.lat, portAt.lon) < 30_000) continue;
        grounds.push(node);
      }
      if (grounds.length === 0) grounds.push(port.node);
      this.fishingGrounds.set(port.index, grounds);
    }
    return grounds;
  }
}
