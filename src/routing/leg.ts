/**
 * A leg's geometry and passages from the network path the search found: the chain of points from
 * the origin's connector to the destination's, pulled straight over great circles where the water
 * allows (decision 126), with the passages it enters and where.
 */
import { passageAt, type SeaGraph } from './graph.js';
import { distanceNm, pathLegsNm } from '../geo/distance.js';
import type { LegPath } from './leg-search.js';
import { pullChain, slideCorners } from './pull.js';
import type { PassageCrossing, RouteLeg } from './route-types.js';
import type { SeaTest } from './sea-memo.js';
import type { Snap } from './snap.js';

/** Appends [lon, lat] with the longitude unwrapped against the last point (continuous across the antimeridian); a repeated point is skipped. */
export function unwrapPush(coords: [number, number][], lon: number, lat: number): void {
  const last = coords[coords.length - 1];
  let l = lon;
  if (last !== undefined) {
    while (l - last[0] > 180) l -= 360;
    while (last[0] - l > 180) l += 360;
    if (Math.abs(last[0] - l) < 1e-9 && Math.abs(last[1] - lat) < 1e-9) return;
  }
  coords.push([l, lat]);
}

/** The connector's steps from the place to the network (or back, `toPlace`): straight, or along its water path (decision 141). */
function connectorSteps(snap: Snap, toPlace: boolean, step: (edge: number, lengthNm: number, lon: number, lat: number) => void): void {
  const points: (readonly [number, number])[] = [[snap.lon, snap.lat], ...(snap.waterPath ?? []), [snap.snappedLon, snap.snappedLat]];
  if (toPlace) points.reverse();
  const legs = pathLegsNm(points);
  let doneNm = 0;
  for (let k = 1; k < points.length; k++) {
    // the segments' lengths add up to the connector's length (the last takes the remainder)
    const lengthNm = k < points.length - 1 ? legs[k - 1]! : snap.connectorNm - doneNm;
    doneNm += lengthNm;
    step(-1, lengthNm, points[k]![0], points[k]![1]);
  }
}

/** The leg along `found`, its distances counted from `startNm`; `atSea` null: the network chain as is (no pull). */
export function legAlong(graph: SeaGraph, found: LegPath, startNm: number, atSea: SeaTest | null): RouteLeg {
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
  connectorSteps(s, false, step);
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
  connectorSteps(t, true, step);
  // great circles where the water allows (decision 126): the chain pulled straight within each passage group
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
}
