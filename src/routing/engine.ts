/**
 * The sea routing engine: A* over the sea graph with a great-circle heuristic, passage exclusions
 * as a bitmask read during relaxation (the graph is never rebuilt), vias as consecutive legs.
 * Pure: no HTTP, no store; callers map RoutingError codes to their own errors.
 * Its parts: joins.ts (where a place joins the network), leg-search.ts (the A*), leg.ts (a leg's
 * geometry and passages), sea-memo.ts (the pull's land tests, remembered).
 */
import type { LandIndex } from '../geo/land.js';
import { graphBytes, PASSAGES, passageByName, type PassageInfo, type SeaGraph } from './graph.js';
import { createJoinFinder, type KnownJoins } from './joins.js';
import { createLegSearch } from './leg-search.js';
import { legAlong, unwrapPush } from './leg.js';
import { RoutingError, type LatLon, type Route, type RouteLeg } from './route-types.js';
import { createSeaTestMemo } from './sea-memo.js';
import { createSnapIndex, type Snap } from './snap.js';

export { RoutingError, type LatLon, type PassageCrossing, type Route, type RouteLeg, type RoutingErrorCode } from './route-types.js';

export interface EngineOptions {
  /**
   * Natural Earth land for the connectors (decision 082): a place joins the network only by a connector
   * that stays at sea (or, from a place on land, one that crosses no more land than the way to the
   * coast). Without it (small test graphs) connectors are not checked.
   */
  land?: () => LandIndex;
  /** Pull the route's chain straight over great circles that stay off land (decision 126); default true when `land` is given. */
  pull?: boolean;
  /**
   * The candidate joins of known places, found before with this graph and `land` (decision 148: the port table's,
   * shipped in the network file): a route from such a place does not search for its joins. Other places are joined as usual.
   */
  knownJoins?: KnownJoins;
}

export interface RouteOptions {
  /** Bit i set: edges of passage index i are not used (see passageMask). */
  excludedMask?: number;
}

/**
 * Passages a route uses only when the caller allows them (passageMask's `allow`): the Arctic ones are
 * seasonal and ice-bound, the Corinth Canal takes only small ships (beam under 18 m).
 */
export const DEFAULT_EXCLUDED = ['northeast', 'northwest', 'corinth'] as const;

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

/** Exclusion mask from passage names (ids or aliases); throws unknown_passage. DEFAULT_EXCLUDED passages are excluded unless in `allow`. */
function passageMask(avoid: readonly string[], allow: readonly string[] = []): number {
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
}

/** Network edges per passage index. */
function passageEdgeCounts(graph: SeaGraph): Map<number, number> {
  const edgeCount = new Map<number, number>();
  for (let e = 0; e < graph.edgeCount; e++) {
    const p = graph.edgePassage[e]!;
    if (p !== 0) edgeCount.set(p, (edgeCount.get(p) ?? 0) + 1);
  }
  return edgeCount;
}

export function createRoutingEngine(graph: SeaGraph, options: EngineOptions = {}): RoutingEngine {
  const index = createSnapIndex(graph);
  // the landmark bound serves routes under the default closures (and more): most routes
  const search = createLegSearch(graph, passageMask([]));
  const joinFinder = createJoinFinder(graph, index, options.land, options.knownJoins);
  const seaTest = createSeaTestMemo();
  const edgeCount = passageEdgeCounts(graph);

  const leg = (sources: readonly Snap[], targets: readonly Snap[], target: LatLon, mask: number, startNm: number): RouteLeg => {
    const found = search.searchLeg(sources, targets, target, mask);
    const land = options.pull === false ? undefined : options.land?.();
    return legAlong(graph, found, startNm, land === undefined ? null : seaTest(land));
  };

  const route = (points: readonly LatLon[], options: RouteOptions = {}): Route => {
    const mask = options.excludedMask ?? 0;
    if (points.length < 2) throw new Error('a route needs at least two points');
    const joins = points.map((p, i) => joinFinder.joinsOf(p, mask, i));
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

  return {
    graph,
    bytes: graphBytes(graph) + index.bytes + search.bytes,
    passageMask,
    maskNames: (mask) => PASSAGES.filter((p) => mask & (1 << p.index)).map((p) => p.id),
    passages: () => PASSAGES.map((p) => ({ ...p, edges: edgeCount.get(p.index) ?? 0 })),
    snap: joinFinder.snap,
    joins: (point, excludedMask = 0, pointIndex) => joinFinder.joinsOf(point, excludedMask, pointIndex),
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
