/**
 * Where a place joins the sea network (decision 082): the candidate joins near it whose connector
 * stays at sea, land-checked once per place and cached, then filtered by the closed passages.
 */
import type { LandIndex } from '../geo/land.js';
import { PASSAGES, type SeaGraph } from './graph.js';
import { connectorOverLandKm, CONNECTOR_LAND_TOLERANCE_KM } from './connector-land.js';
import { offNetworkError, type LatLon } from './route-types.js';
import { edgeEnds, SNAP_MAX_NM, type Snap, type SnapIndex } from './snap.js';
import { waterwayAt } from './waterways.js';
import { inlandKm, joinLandRunKm, nearestWaterPoint, straightenWaterPath, waterPath, waterPathToNetwork, type EdgeSegment } from './land-check.js';
import { normalizeLon, pathLengthNm } from '../geo/distance.js';

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
/** Farthest a place on land is looked at from the coast (km), and the nearer radii tried first. */
const COAST_SEARCH_KM = 400;
const COAST_NEAR_KM = [10, 100] as const;

/**
 * The place's distance to the coast within COAST_SEARCH_KM: the same answer as one search that far, from
 * a nearer search when it finds the coast within half its radius (the box searched then holds every
 * nearer segment), so that a port a few km inland does not read the coast of 800 km of box.
 */
function coastDistanceKm(land: LandIndex, lon: number, lat: number): number {
  for (const radius of COAST_NEAR_KM) {
    const km = land.coastDistanceKm(lon, lat, radius);
    if (km <= radius / 2) return km;
  }
  return land.coastDistanceKm(lon, lat, COAST_SEARCH_KM);
}

/** Water-path joins (decision 141): edge points tried (nearest first), within this much of the nearest (nm); a place on land starts from water within this (km). */
const WATER_JOIN_TARGETS = 6;
const WATER_JOIN_EXTRA_NM = 30;
const WATER_JOIN_START_KM = 2;
/**
 * When none of those is reached over water (decision 145): searches from the place over a grid of `cellDeg`
 * cells within `radiusDeg`, finer and closer first (narrow channels), then coarser and wider (a delta, a sound).
 */
interface WideWaterSearch {
  radiusDeg: number;
  cellDeg: number;
}
const WIDE_WATER_SEARCHES: readonly WideWaterSearch[] = [
  { radiusDeg: 0.5, cellDeg: 0.005 },
  { radiusDeg: 1.5, cellDeg: 0.005 },
  { radiusDeg: 3, cellDeg: 0.005 },
];

/** Candidate sets kept per place (a port is joined the same way every time). */
const CANDIDATE_CACHE = 4096;

/** The key of a place's joins: its coordinates exactly as given. */
export const placeKey = (point: LatLon): string => `${point.lat},${point.lon}`;

/** Joins of known places found before the process started (decision 148: the port table's, shipped in the network file); undefined for any other place. */
export type KnownJoins = (point: LatLon) => Snap[] | undefined;

export interface JoinFinder {
  /** The nearest point of the network allowed by the mask; throws point_off_network. */
  snap(point: LatLon, excludedMask?: number, pointIndex?: number): Snap;
  /** The joins of a place a route may use under the mask, nearest first; throws point_off_network. */
  joinsOf(point: LatLon, mask: number, pointIndex?: number): Snap[];
}

/**
 * `landIndex`: Natural Earth land for the connectors (EngineOptions.land); without it connectors are not checked.
 * `knownJoins`: the candidate joins of places found with the same graph and land before (EngineOptions.knownJoins).
 */
export function createJoinFinder(graph: SeaGraph, index: SnapIndex, landIndex: (() => LandIndex) | undefined, knownJoins?: KnownJoins): JoinFinder {
  const snap = (point: LatLon, excludedMask = 0, pointIndex?: number): Snap => {
    const found = index.nearest(point.lat, point.lon, excludedMask);
    if (found === null) throw offNetworkError(point, pointIndex);
    return found;
  };

  const candidateCache = new Map<string, Snap[]>();
  /** Every passage bit: joins outside all passages are kept apart, so that closing passages never leaves a place without its usual joins. */
  const allPassages = PASSAGES.reduce((m, p) => m | (1 << p.index), 0);
  /**
   * Land-checked candidate joins within `extraNm` of the nearest edge allowed by `mask`, and the same
   * among edges outside every passage; with none at sea, the join crossing the least land.
   */
  const landChecked = (point: LatLon, extraNm: number, mask: number, allowance: number, maxChecked = MAX_CHECKED): Snap[] => {
    const nearest = index.nearest(point.lat, point.lon, mask);
    if (nearest === null) return [];
    const lists = [index.within(point.lat, point.lon, Math.min(SNAP_MAX_NM, nearest.connectorNm + extraNm), mask)];
    const plain = index.nearest(point.lat, point.lon, mask | allPassages);
    if (plain !== null && plain.edge !== nearest.edge) lists.push(index.within(point.lat, point.lon, Math.min(SNAP_MAX_NM, plain.connectorNm + extraNm), mask | allPassages));
    const land = landIndex?.();
    const seen = new Set<number>();
    const clear: Snap[] = [];
    const rejected: Snap[] = [];
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
  /** The land a connector from the place may cross (km): a place on land crosses land on any connector, as much as its way to the coast. */
  const landAllowance = (point: LatLon): number => {
    const land = landIndex?.();
    if (land === undefined) return Infinity;
    return CONNECTOR_LAND_TOLERANCE_KM + (land.isLand(point.lon, point.lat) && waterwayAt(point.lon, point.lat) === null ? coastDistanceKm(land, point.lon, point.lat) : 0);
  };
  /** Every candidate join of a place, land-checked, whatever the closures (decision 082). */
  const candidateJoins = (point: LatLon, pointIndex?: number): Snap[] => {
    if (index.nearest(point.lat, point.lon, 0) === null) throw offNetworkError(point, pointIndex);
    const allowance = landAllowance(point);
    let candidates = landChecked(point, CANDIDATE_EXTRA_NM, 0, allowance);
    if (candidates.every((c) => (c.overLandKm ?? 0) > CONNECTOR_LAND_TOLERANCE_KM)) {
      // a join at sea farther off is taken only when it is not much longer than the near join over land
      const wide = landChecked(point, CANDIDATE_WIDE_EXTRA_NM, 0, allowance, MAX_CHECKED_WIDE);
      const near = candidates[0]?.connectorNm ?? Infinity;
      if ((wide[0]?.overLandKm ?? Infinity) < (candidates[0]?.overLandKm ?? Infinity) && wide[0]!.connectorNm <= WIDE_JOIN_FACTOR * near + WIDE_JOIN_EXTRA_NM) candidates = wide;
    }
    if (candidates.every((c) => (c.overLandKm ?? 0) > CONNECTOR_LAND_TOLERANCE_KM) && !candidates.some((c) => joinLandRunKm(landIndex!(), point, c) <= CONNECTOR_LAND_TOLERANCE_KM)) {
      candidates = waterJoin(point) ?? candidates;
    }
    return candidates;
  };
  const joinsOf = (point: LatLon, mask: number, pointIndex?: number): Snap[] => {
    const key = placeKey(point);
    let candidates = candidateCache.get(key);
    if (candidates === undefined) {
      candidates = knownJoins?.(point) ?? candidateJoins(point, pointIndex);
      if (candidateCache.size >= CANDIDATE_CACHE) candidateCache.delete(candidateCache.keys().next().value!);
      candidateCache.set(key, candidates);
    }
    const open = candidates.filter((c) => (mask & (1 << graph.edgePassage[c.edge]!)) === 0);
    if (open.length > 0) return open;
    // every join lies in a closed passage (a place with no join outside the passages): the joins outside it
    const found = landChecked(point, CANDIDATE_EXTRA_NM, mask, landAllowance(point));
    if (found.length === 0) throw offNetworkError(point, pointIndex);
    return found;
  };
  /**
   * A place whose every straight join crosses land (the audit's rule): the join by the shortest path over water
   * (src/routing/land-check.ts waterPath, a grid search in a box around the place and the join) to one of the
   * nearest edge points, as a one-element list; when none of them is reached, the search from the place over a
   * widening grid to whichever edge it reaches first (decision 145); null when the water around it reaches none.
   */
  const waterJoin = (point: LatLon): Snap[] | null => {
    const land = landIndex!();
    const onLand = inlandKm(land, point.lon, point.lat) > 0;
    const start = onLand ? nearestWaterPoint(land, point.lon, point.lat, WATER_JOIN_START_KM, 0.001) : ([point.lon, point.lat] as [number, number]);
    const nearest = index.nearest(point.lat, point.lon, 0);
    if (start === null || nearest === null) return null;
    const joinAlong = (path: [number, number][], target: Snap): Snap => {
      const points = onLand ? [[point.lon, point.lat] as [number, number], ...path] : path;
      const overLandKm = onLand ? connectorOverLandKm(land, [point.lon, point.lat], start, Infinity) : 0;
      // the target may have been snapped from the search's last cell: the join is the place's
      return { ...target, lat: point.lat, lon: point.lon, connectorNm: pathLengthNm(points), overLandKm, waterPath: points.slice(1, -1) };
    };
    let best: Snap | null = null;
    const targets = index.within(point.lat, point.lon, Math.min(SNAP_MAX_NM, nearest.connectorNm + WATER_JOIN_EXTRA_NM), 0);
    for (const target of targets.slice(0, WATER_JOIN_TARGETS)) {
      if (best !== null && target.connectorNm >= best.connectorNm) break;
      const path = waterPath(land, start, [target.snappedLon, target.snappedLat]);
      if (path === null) continue;
      const join = joinAlong(path, target);
      if (best === null || join.connectorNm < best.connectorNm) best = join;
    }
    for (const search of WIDE_WATER_SEARCHES) {
      if (best !== null) break;
      best = wideWaterJoin(start, search, joinAlong);
    }
    return best === null ? null : [best];
  };
  /** The widening search of `waterJoin` in one box: the water path from `start` to the first edge it reaches whose last step is clear. */
  const wideWaterJoin = (start: [number, number], search: WideWaterSearch, joinAlong: (path: [number, number][], target: Snap) => Snap): Snap | null => {
    const land = landIndex!();
    const edges: EdgeSegment[] = index.within(start[1], start[0], search.radiusDeg * 60 * Math.SQRT2, 0).map(({ edge }) => {
      const [aLat, aLon, bLat, bLon] = edgeEnds(graph, edge);
      return { edge, a: [aLon, aLat], b: [bLon, bLat] };
    });
    return waterPathToNetwork(land, start, edges, search.radiusDeg, search.cellDeg, (cells, edge, cellDeg) => {
      const [lon, lat] = cells[cells.length - 1]!;
      const target = index.within(lat, normalizeLon(lon), cellDeg * 60 * 2, 0).find((s) => s.edge === edge);
      if (target === undefined) return null;
      // the cells' longitudes are unwrapped from the place: the target's too, so that no step spans the antimeridian
      const targetLon = lon + normalizeLon(target.snappedLon - lon);
      const path = straightenWaterPath(land, [start, ...cells.slice(1), [targetLon, target.snappedLat]]);
      return path === null ? null : joinAlong(path, target);
    });
  };
  /** A join whose connector crosses land, with its over-land length measured whole (or up to just past stopAboveKm). */
  const measured = (snap: Snap, stopAboveKm = Infinity): Snap => {
    const land = landIndex?.();
    return land === undefined ? snap : { ...snap, overLandKm: connectorOverLandKm(land, [snap.lon, snap.lat], [snap.snappedLon, snap.snappedLat], stopAboveKm) };
  };

  return { snap, joinsOf };
}
