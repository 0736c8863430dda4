/**
 * The routing engine's vocabulary, shared by its parts (join finding, leg search, leg shaping):
 * the error callers map to their own codes, and the shapes of a route.
 */
import type { PassageInfo } from './graph.js';
import { SNAP_MAX_NM, type Snap } from './snap.js';

export type RoutingErrorCode = 'point_off_network' | 'route_unreachable' | 'unknown_passage' | 'same_origin_destination';

export class RoutingError extends Error {
  constructor(
    readonly code: RoutingErrorCode,
    message: string,
    /** Which input point (0 = origin, then vias, last = destination), when one is at fault. */
    readonly pointIndex?: number,
  ) {
    super(message);
  }
}

export interface LatLon {
  lat: number;
  lon: number;
}

export interface PassageCrossing {
  id: string;
  name: string;
  kind: PassageInfo['kind'];
  /** Where the route enters it and how far from the start of the route (nm). */
  lat: number;
  lon: number;
  at_nm: number;
}

export interface RouteLeg {
  from: Snap;
  to: Snap;
  distanceNm: number;
  /** Of which the connectors from the points to the network (included in distanceNm). */
  connectorNm: number;
  passages: PassageCrossing[];
  /** [lon, lat] pairs, longitudes unwrapped (continuous across the antimeridian; may leave -180..180). */
  coordinates: [number, number][];
}

export interface Route {
  distanceNm: number;
  connectorNm: number;
  legs: RouteLeg[];
  /** Passages of all legs in order (at_nm from the start of the route). */
  passages: PassageCrossing[];
  /** Unwrapped [lon, lat] of the whole route (see toGeoJsonGeometry for RFC 7946 output). */
  coordinates: [number, number][];
  excludedMask: number;
}

/** The error for a place farther than SNAP_MAX_NM from the network. */
export function offNetworkError(point: LatLon, pointIndex?: number): RoutingError {
  return new RoutingError(
    'point_off_network',
    `${point.lat},${point.lon} is more than ${Math.round(SNAP_MAX_NM * 1.852)} km from the sea network (inland, or on a coast the network does not serve)`,
    pointIndex,
  );
}
