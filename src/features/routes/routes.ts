import { defineRoute } from '../kit/route.js';
import { MAX_VIAS, RouteResponse, RoutesDirectQuery, RoutesWithViaQuery } from './schemas.js';

const ERRORS = ['invalid_request', 'port_not_found', 'point_off_network', 'point_on_land', 'same_origin_destination', 'unknown_passage', 'route_unreachable'] as const;

const METHOD =
  'Shortest sea route over the Eurostat marnet network (50 km resolution, EUPL-1.2; attribution in data.attribution): A* on great-circle segment lengths, distances in nautical miles of 1,852 m. Each place joins the network at the nearest point of the nearest edge by a straight connector, counted in the distance and drawn in the geometry; a place more than 300 km from the network is refused (point_off_network: the service cannot tell land from sea, only distance from the network). The Arctic passages (northeast, northwest) and the Corinth Canal are used only when allow lists them. Passages crossed are listed in order: suez, panama, malacca, gibraltar, dover, bering, magellan, babelmandeb, kiel, corinth, northwest, northeast from the network, bosporus, hormuz, good_hope (the Cape), cape_horn marked by Bosun. duration_hours is time at sea at speed_kn (default by ship_type). The geometry is a GeoJSON LineString, cut into a MultiLineString at ±180° when the route crosses the antimeridian.';

const direct = defineRoute({
  operationId: 'getRoutesDirect',
  description: `${METHOD} Give from and to; avoid closes passages (e.g. avoid=suez goes round the Cape of Good Hope).`,
  query: RoutesDirectQuery,
  response: RouteResponse,
  errors: ERRORS,
  examples: [
    { summary: 'Rotterdam to Singapore (Suez)', query: { from: 'NLRTM', to: 'SGSIN' } },
    { summary: 'The same avoiding Suez (Cape of Good Hope)', query: { from: 'NLRTM', to: 'SGSIN', avoid: 'suez', ship_type: 'container' } },
    { summary: 'Shanghai to Los Angeles across the antimeridian, as GeoJSON', query: { from: 'CNSGH', to: 'USLAX', format: 'geojson' } },
    { summary: 'Between positions at 12 knots', query: { from: '29.3,-94.6', to: '51.98,3.9', speed_kn: 12 } },
  ],
  async handler({ query }, call) {
    return call.services.routes.direct(query);
  },
});

const withVia = defineRoute({
  operationId: 'getRoutesWithVia',
  description: `${METHOD} The route passes through via, in order (ports or positions separated by ;, at most ${MAX_VIAS}); legs gives each stretch.`,
  query: RoutesWithViaQuery,
  response: RouteResponse,
  errors: [...ERRORS, 'too_many_vias'],
  examples: [
    { summary: 'Rotterdam to Singapore calling at Piraeus and Jeddah', query: { from: 'NLRTM', to: 'SGSIN', via: 'GRPIR;SAJED' } },
    { summary: 'Houston to Rotterdam through a position off the Azores', query: { from: 'USHOU', to: 'NLRTM', via: '38.5,-28.0', ship_type: 'tanker' } },
  ],
  async handler({ query }, call) {
    return call.services.routes.withVia(query);
  },
});

export const routeRoutes = [direct, withVia];
