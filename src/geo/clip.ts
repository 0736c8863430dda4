/** A ring of [lon, lat] positions, closed (its last position repeats the first) or not. */
export type Ring = Array<[number, number]>;

/** A lon/lat rectangle. */
export interface Box {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

type Edge = { inside: (p: [number, number]) => boolean; cross: (a: [number, number], b: [number, number]) => [number, number] };

const at = (a: [number, number], b: [number, number], t: number): [number, number] => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

function edges(box: Box): Edge[] {
  return [
    { inside: (p) => p[0] >= box.minLon, cross: (a, b) => at(a, b, (box.minLon - a[0]) / (b[0] - a[0])) },
    { inside: (p) => p[0] <= box.maxLon, cross: (a, b) => at(a, b, (box.maxLon - a[0]) / (b[0] - a[0])) },
    { inside: (p) => p[1] >= box.minLat, cross: (a, b) => at(a, b, (box.minLat - a[1]) / (b[1] - a[1])) },
    { inside: (p) => p[1] <= box.maxLat, cross: (a, b) => at(a, b, (box.maxLat - a[1]) / (b[1] - a[1])) },
  ];
}

/**
 * A ring clipped to a rectangle (Sutherland–Hodgman): the part of the polygon inside the box, closed,
 * or null when nothing of it is inside. A concave ring that leaves and re-enters the box comes back as
 * one ring joined along the box's edge, which a fill draws correctly.
 */
export function clipRing(ring: Ring, box: Box): Ring | null {
  let points = ring.length > 1 && ring[0]![0] === ring[ring.length - 1]![0] && ring[0]![1] === ring[ring.length - 1]![1] ? ring.slice(0, -1) : ring;
  for (const edge of edges(box)) {
    if (points.length === 0) break;
    const out: Ring = [];
    for (let i = 0; i < points.length; i++) {
      const current = points[i]!;
      const previous = points[(i + points.length - 1) % points.length]!;
      const inCurrent = edge.inside(current);
      if (inCurrent) {
        if (!edge.inside(previous)) out.push(edge.cross(previous, current));
        out.push(current);
      } else if (edge.inside(previous)) out.push(edge.cross(previous, current));
    }
    points = out;
  }
  if (points.length < 3) return null;
  return [...points, points[0]!];
}

/** The bounding box of a ring. */
export function ringBox(ring: Ring): Box {
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const [lon, lat] of ring) {
    if (lon < minLon) minLon = lon;
    if (lon > maxLon) maxLon = lon;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
  }
  return { minLon, minLat, maxLon, maxLat };
}
