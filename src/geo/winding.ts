/**
 * Ring orientation as RFC 7946 §3.1.6 asks it: a polygon's exterior ring counter-clockwise, its holes
 * clockwise (the right-hand rule). Shapefiles and d3/topojson draw exterior rings the other way round.
 * Orientation is the sign of the planar (lon/lat) shoelace area, as GeoJSON validators compute it.
 */

type Position = [number, number] | number[];
type Ring = Position[];

/** Twice the signed planar area of a ring: positive when it turns counter-clockwise. */
export function ringSignedArea(ring: readonly Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[j]!;
    const b = ring[i]!;
    sum += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  return sum;
}

const oriented = <R extends readonly Position[]>(ring: R, counterClockwise: boolean): R =>
  ringSignedArea(ring) > 0 === counterClockwise || ringSignedArea(ring) === 0 ? ring : ([...ring].reverse() as unknown as R);

/** The rings of one polygon turned as RFC 7946 asks (new arrays only where a ring is reversed). */
export function rewindPolygon<R extends readonly Position[]>(rings: readonly R[]): R[] {
  return rings.map((ring, i) => oriented(ring, i === 0));
}

/** A geometry with every polygon's rings turned as RFC 7946 asks; other geometries as they are. */
export function rewindGeometry<G extends { type: string; coordinates?: unknown }>(geometry: G): G {
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: rewindPolygon(geometry.coordinates as Ring[]) };
  if (geometry.type === 'MultiPolygon') return { ...geometry, coordinates: (geometry.coordinates as Ring[][]).map((p) => rewindPolygon(p)) };
  return geometry;
}

/** The rings of a geometry turned the wrong way, as "polygon P ring R: exterior clockwise" (empty when it complies). */
export function windingIssues(geometry: { type: string; coordinates?: unknown; geometries?: unknown }): string[] {
  const issues: string[] = [];
  const check = (rings: Ring[], polygon: number) =>
    rings.forEach((ring, i) => {
      const area = ringSignedArea(ring);
      if (area === 0) return;
      if (i === 0 && area < 0) issues.push(`polygon ${polygon} ring 0: exterior ring clockwise`);
      if (i > 0 && area > 0) issues.push(`polygon ${polygon} ring ${i}: hole counter-clockwise`);
    });
  if (geometry.type === 'Polygon') check(geometry.coordinates as Ring[], 0);
  else if (geometry.type === 'MultiPolygon') (geometry.coordinates as Ring[][]).forEach((p, i) => check(p, i));
  else if (geometry.type === 'GeometryCollection') for (const g of geometry.geometries as Array<{ type: string }>) issues.push(...windingIssues(g));
  return issues;
}
