import type { Static } from '@sinclair/typebox';
import { CHOKEPOINTS, type Chokepoint } from '../../../events/chokepoints.js';
import { distanceM, distanceToSegmentM, EARTH_RADIUS_M } from '../../../geo/distance.js';
import { round } from '../../../platform/stats.js';
import { CHOKEPOINT_PASSAGES } from '../chokepoint-passages.js';
import type { RouteData } from '../schemas.js';

/** A planned route's line as the conditions read it: the gates it crosses, the corridor around it, distances to it. Pure. */

type RouteView = Static<typeof RouteData>;

/** The lines of a route geometry as [lon, lat] runs (a MultiLineString is cut at ±180°). */
export function linesOf(geometry: RouteView['geometry']): [number, number][][] {
  return geometry.type === 'LineString' ? [geometry.coordinates as [number, number][]] : (geometry.coordinates as [number, number][][]);
}

/** Shortest distance from a point to the route's lines, metres. */
export function distanceToRouteM(lines: [number, number][][], lat: number, lon: number): number {
  let best = Infinity;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [aLon, aLat] = line[i - 1]!;
      const [bLon, bLat] = line[i]!;
      best = Math.min(best, distanceToSegmentM({ lat, lon }, { lat: aLat, lon: aLon }, { lat: bLat, lon: bLon }));
    }
    if (line.length === 1) best = Math.min(best, distanceM(lat, lon, line[0]![1], line[0]![0]));
  }
  return best;
}

/** Where along the route (nm from the origin) its line first comes within the gate's radius, or null. */
export function gateReachedAtNm(lines: [number, number][][], gate: Chokepoint): number | null {
  let along = 0;
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [aLon, aLat] = line[i - 1]!;
      const [bLon, bLat] = line[i]!;
      if (distanceToSegmentM({ lat: gate.lat, lon: gate.lon }, { lat: aLat, lon: aLon }, { lat: bLat, lon: bLon }) <= gate.radiusKm * 1000) return round(along / 1852, 1);
      along += distanceM(aLat, aLon, bLat, bLon);
    }
  }
  return null;
}

/**
 * Boxes covering the route's lines with a margin, each at most BOX_SPAN_DEG wide and high so that a
 * long route reads a corridor, not the ocean; boxes over ±180° are split in two.
 */
const BOX_SPAN_DEG = 8;
export function corridorBoxes(lines: [number, number][][], marginKm: number) {
  const boxes: { minLon: number; minLat: number; maxLon: number; maxLat: number }[] = [];
  const marginLat = ((marginKm * 1000) / EARTH_RADIUS_M) * (180 / Math.PI);
  const push = (minLon: number, minLat: number, maxLon: number, maxLat: number) => {
    const marginLon = Math.min(180, marginLat / Math.max(0.05, Math.cos((Math.min(89, Math.max(Math.abs(minLat), Math.abs(maxLat)) + marginLat) * Math.PI) / 180)));
    const box = { minLat: Math.max(-90, minLat - marginLat), maxLat: Math.min(90, maxLat + marginLat), minLon: minLon - marginLon, maxLon: maxLon + marginLon };
    if (box.minLon < -180) boxes.push({ ...box, minLon: box.minLon + 360, maxLon: 180 }, { ...box, minLon: -180 });
    else if (box.maxLon > 180) boxes.push({ ...box, minLon: -180, maxLon: box.maxLon - 360 }, { ...box, maxLon: 180 });
    else boxes.push(box);
  };
  for (const line of lines) {
    let box: [number, number, number, number] | null = null;
    let prev: [number, number] | null = null;
    for (const [lon, lat] of line) {
      if (box === null || prev === null) box = [lon, lat, lon, lat];
      else {
        const next: [number, number, number, number] = [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)];
        if (next[2] - next[0] > BOX_SPAN_DEG || next[3] - next[1] > BOX_SPAN_DEG) {
          push(...box);
          // the next box starts at the previous point so the segment between them stays covered
          box = [Math.min(prev[0], lon), Math.min(prev[1], lat), Math.max(prev[0], lon), Math.max(prev[1], lat)];
        } else box = next;
      }
      prev = [lon, lat];
    }
    if (box) push(...box);
  }
  return boxes;
}

/** The chokepoints a route crosses, in route order: at its passage's crossing, or where its line first comes within the gate's radius. */
export function crossedGates(route: Pick<RouteView, 'passages'>, lines: [number, number][][]): { gate: Chokepoint; passage: string | null; atNm: number }[] {
  const crossed: { gate: Chokepoint; passage: string | null; atNm: number }[] = [];
  for (const gate of CHOKEPOINTS) {
    const passage = CHOKEPOINT_PASSAGES[gate.key] ?? null;
    const atNm = passage !== null ? (route.passages.find((p) => p.id === passage)?.at_nm ?? null) : gateReachedAtNm(lines, gate);
    if (atNm !== null) crossed.push({ gate, passage, atNm });
  }
  return crossed.sort((a, b) => a.atNm - b.atNm);
}
