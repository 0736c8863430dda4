/** The simulator's geography: ports joined to the sea routing engine's network, STS areas, and cached routes. */
import { bearingDeg, distanceM, METRES_PER_NM, type LatLon } from '../geo/distance.js';
import { landIndex, type LandIndex } from '../geo/land.js';
import { Polyline } from '../geo/polyline.js';
import { BUILTIN_PORTS, type BuiltinPort } from '../geo/ports-builtin.js';
import { segmentClear } from '../routing/land-check.js';
import { SIM_APPROACHES } from './approaches.js';
import type { LaneTree, SeaLanes } from './lanes.js';

/** Somewhere a passage starts or ends: its lane node and the way from the place out to that node. */
export interface SimPlace {
  /** Cache key of the place. */
  key: string;
  node: number;
  /** From the place to its lane node. */
  seaward: Polyline;
}

export interface SimPort extends BuiltinPort, SimPlace {
  index: number;
  /** Network node where the port's approach meets the sea lanes. */
  node: number;
  /** Anchorage → (channel) → berth. */
  inbound: Polyline;
  /** Anchorage → (approach) → the nearest point of the network → the node. */
  seaward: Polyline;
}

/** An open-sea area where a storage tanker lies and shuttle tankers come alongside. */
export interface StsArea extends SimPlace {
  name: string;
  /** What the shuttles announce as AIS destination (≤ 20 characters). */
  code: string;
  lat: number;
  lon: number;
  /** Ports the shuttles load or discharge at. */
  ports: readonly string[];
  node: number;
  /** The area → its lane node (straight, then along its edge). */
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
/** A passage turning back by more than this at a vertex is straightened there when the water allows. */
const SPIKE_DEG = 150;
/** How deep inland (km) a straightened or short-hop stretch may graze Natural Earth's coast. */
const SHORTCUT_TOLERANCE_KM = 0.3;
/** Longest shortcut tried across a spike that does not run straight back (checked over water). */
const MAX_SHORTCUT_M = 150_000;
/** Fishing grounds lie at least this far off the coast (km). */
const FISHING_COAST_KM = 7;

export class SimWorld {
  readonly ports: SimPort[];
  readonly stsAreas: StsArea[];
  private readonly byLocode = new Map<string, SimPort>();
  private readonly trees = new Map<string, LaneTree>();
  private readonly masks: Record<RouteVariant, number>;
  private readonly fishingGrounds = new Map<number, number[]>();
  private readonly passages = new Map<string, Polyline>();
  private landCache: LandIndex | null;

  /** `land`: Natural Earth 1:10m (loaded on the first passage when not given), for straightening passages. */
  constructor(
    readonly graph: SeaLanes,
    land?: LandIndex,
  ) {
    this.landCache = land ?? null;
    this.ports = BUILTIN_PORTS.map((port, index) => {
      const override = SIM_APPROACHES[port.locode];
      const approach = override?.approach ?? port.approach ?? [];
      const seawardPoints = [port.anchorage, ...approach];
      const join = graph.join(seawardPoints[seawardPoints.length - 1]!);
      const berth = override?.berth ?? { lat: port.lat, lon: port.lon };
      return {
        ...port,
        ...berth,
        ...(approach.length > 0 ? { approach } : {}),
        ...(override?.channel ? { channel: override.channel } : {}),
        key: `port:${port.locode}`,
        index,
        node: join.node,
        inbound: new Polyline([port.anchorage, ...(override?.channel ?? port.channel ?? []), berth]),
        seaward: new Polyline([...seawardPoints, join.snapped, graph.point(join.node)]),
      };
    });
    for (const port of this.ports) this.byLocode.set(port.locode, port);
    this.stsAreas = STS_AREAS.map((area) => {
      const join = graph.join(area);
      return { ...area, key: `sts:${area.code}`, node: join.node, seaward: new Polyline([{ lat: area.lat, lon: area.lon }, join.snapped, graph.point(join.node)]) };
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

  /** The graph nodes' points from `from` to `to` (inclusive); a short hop straight across only where it stays at sea. */
  routePoints(from: number, to: number, variant: RouteVariant = 'shortest'): LatLon[] {
    const a = this.graph.point(from);
    const b = this.graph.point(to);
    if (this.isShortHop(from, to) && segmentClear(this.land(), [a.lon, a.lat], [b.lon, b.lat], SHORTCUT_TOLERANCE_KM)) return [a, b];
    return this.graph.pathPoints(this.tree(from, variant), to) ?? [a, b];
  }

  /** A fishing ground (or any lane node) as a place: the node itself. */
  nodePlace(node: number): SimPlace {
    return { key: `node:${node}`, node, seaward: new Polyline([this.graph.point(node)]) };
  }

  /**
   * From a place out to its lane node, along the lanes, and in to the other place; straightened where it
   * turns back on itself (a join on an edge whose far end the route takes, a spur of the network) as far
   * as the water allows. Cached per pair and variant.
   */
  passage(from: SimPlace, to: SimPlace, variant: RouteVariant = 'shortest'): Polyline {
    const key = `${from.key}>${to.key}:${variant}`;
    let line = this.passages.get(key);
    if (line === undefined) {
      const points = [...from.seaward.points, ...this.routePoints(from.node, to.node, variant), ...to.seaward.reversed().points];
      line = new Polyline(this.withoutSpikes(new Polyline(points).points));
      this.passages.set(key, line);
    }
    return line;
  }

  /** The passages worked out so far (straightened where they turned back), for tests. */
  cachedPassages(): Polyline[] {
    return [...this.passages.values()];
  }

  private land(): LandIndex {
    this.landCache ??= landIndex();
    return this.landCache;
  }

  /** Drops the vertices where the line turns back by more than SPIKE_DEG, when the shortcut stays at sea. */
  private withoutSpikes(input: readonly LatLon[]): LatLon[] {
    const points = [...input];
    const turn = (i: number) => {
      const a = points[i - 1]!;
      const b = points[i]!;
      const c = points[i + 1]!;
      const inBearing = bearingDeg(a.lat, a.lon, b.lat, b.lon);
      const outBearing = bearingDeg(b.lat, b.lon, c.lat, c.lon);
      return Math.abs(((outBearing - inBearing + 540) % 360) - 180);
    };
    const shortcut = (i: number) => {
      const angle = turn(i);
      if (angle <= SPIKE_DEG) return false;
      // Straight back the way it came: the shortcut lies on the stretch already sailed.
      if (angle > 179.5) return true;
      const a = points[i - 1]!;
      const c = points[i + 1]!;
      return distanceM(a.lat, a.lon, c.lat, c.lon) <= MAX_SHORTCUT_M && segmentClear(this.land(), [a.lon, a.lat], [c.lon, c.lat], SHORTCUT_TOLERANCE_KM);
    };
    for (let i = 1; i < points.length - 1;) {
      if (shortcut(i)) {
        points.splice(i, 1);
        i = Math.max(1, i - 1);
      } else {
        i++;
      }
    }
    return points;
  }

  /** Graph nodes 40–120 nm by sea from a port: where its fishing boats fish. */
  fishingGroundsOf(port: SimPort): number[] {
    let grounds = this.fishingGrounds.get(port.index);
    if (grounds === undefined) {
      const distance = this.tree(port.node, 'shortest').distance;
      grounds = [];
      const portAt = port.anchorage;
      // The fishing circle (up to 3 km radius, entered on its rim) must stay at sea.
      const openWater = (p: LatLon) => !this.land().isLand(p.lon, p.lat) && this.land().coastDistanceKm(p.lon, p.lat, FISHING_COAST_KM) === Infinity;
      let nearest = -1;
      for (let node = 0; node < distance.length; node++) {
        const d = distance[node]!;
        if (d > 120 * METRES_PER_NM) continue;
        const p = this.graph.point(node);
        if (d < 40 * METRES_PER_NM) {
          // Fallback when the lanes 40–120 nm out all run along the coast: the nearest open water.
          if (node !== port.node && (nearest < 0 || d < distance[nearest]!) && openWater(p)) nearest = node;
          continue;
        }
        // Keep away from other ports' approaches so boats fish in open water.
        if (distanceM(p.lat, p.lon, portAt.lat, portAt.lon) < 30_000) continue;
        if (openWater(p)) grounds.push(node);
      }
      if (grounds.length === 0) grounds.push(nearest >= 0 ? nearest : port.node);
      this.fishingGrounds.set(port.index, grounds);
    }
    return grounds;
  }
}
