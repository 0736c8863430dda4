import type { ErrorDefinitions } from './definition.js';

/** Routes, ports and the analytics over events (core-interface: routes, ports, metrics). */
export const ROUTES_ERRORS = {
  invalid_range: { status: 400, retryable: false, summary: 'The time range is malformed or too long (ranges are written like 24H, 7D, 30D).' },
  port_not_found: { status: 404, retryable: false, summary: 'No port with this port_id in the port table (find one with /v1/ports/search).' },
  point_off_network: { status: 422, retryable: false, summary: 'A place is more than 300 km from the sea network (inland, or a coast the network does not serve); give a port or a position at sea.' },
  point_on_land: {
    status: 422,
    retryable: false,
    summary: 'A position given as lat,lon lies more than 1 km inland (Natural Earth 1:10m); the message names the nearest coastal point to route from instead.',
  },
  route_unreachable: { status: 422, retryable: false, summary: 'No sea route joins the places with the passages closed by this request; close fewer passages or allow the Arctic ones.' },
  unknown_passage: { status: 400, retryable: false, summary: 'A passage name is not known (the operation description lists them).' },
  same_origin_destination: { status: 400, retryable: false, summary: 'Two consecutive places of the route are the same place.' },
  too_many_vias: { status: 400, retryable: false, summary: 'More vias than the operation accepts (its description gives the maximum).' },
  too_many_pairs: { status: 400, retryable: false, summary: 'More origin–destination pairs than the operation accepts (its description gives the maximum).' },
  position_unavailable: { status: 422, retryable: false, summary: 'The vessel has no position this credential may see (without vessels:live only positions at least 14 h old).' },
  destination_unknown: { status: 422, retryable: false, summary: 'The vessel reports no AIS destination (or, without vessels:live, was first heard within the delay); give the destination (to).' },
  destination_unresolved: { status: 422, retryable: false, summary: 'The AIS destination names no port of the port table (no UN/LOCODE or port name in it); give the destination (to).' },
  unknown_zone: { status: 400, retryable: false, summary: 'The zone is not a known chokepoint key (see the operation description for the list) nor a bbox.' },
} as const satisfies ErrorDefinitions;
