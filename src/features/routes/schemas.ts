import { Type } from '@sinclair/typebox';
import { PASSAGES } from '../../routing/graph.js';
import { FUEL_METHOD } from './fuel.js';
import { Nullable } from '../kit/schema-kit.js';
import { SHIP_CLASS_IDS, SHIP_CLASSES } from '../../routing/ship-size.js';

/** Vias one with-via route may pass through (each is a search of its own). */
export const MAX_VIAS = 10;

export { DEFAULT_SPEED_KN, SHIP_TYPES, type ShipType } from './ship-types.js';
import { DEFAULT_SPEED_KN, SHIP_TYPES } from './ship-types.js';

const PASSAGE_LIST = PASSAGES.map((p) => p.id).join(', ');
const PLACE = 'A port_id (e.g. 31140), a UN/LOCODE (NLRTM or NL RTM) or a position lat,lon in decimal degrees.';

/** Ship size (decision 084): a class and/or dimensions close the passages the ship does not fit. */
export const shipSizeParams = {
  ship_class: Type.Optional(
    Type.Union(
      SHIP_CLASS_IDS.map((c) => Type.Literal(c)),
      {
        description: `Size class of the ship: ${SHIP_CLASS_IDS.map((c) => `${c} (${SHIP_CLASSES[c].loa_m} × ${SHIP_CLASSES[c].beam_m} m, draught ${SHIP_CLASSES[c].draught_m} m)`).join(', ')}. Closes the passages it does not fit (Panama, Suez, Malacca, Kiel, Corinth, Bosporus limits in docs/routing.md); loa_m, beam_m and draught_m override the class's values.`,
      },
    ),
  ),
  loa_m: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 500, description: 'Length overall, metres (AIS static data: A + B).' })),
  beam_m: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 80, description: 'Beam, metres (AIS static data: C + D).' })),
  draught_m: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 30, description: 'Draught, metres (AIS static data: the reported draught).' })),
};

export const ShipSize = Type.Object(
  {
    ship_class: Nullable(Type.String()),
    loa_m: Nullable(Type.Number()),
    beam_m: Nullable(Type.Number()),
    draught_m: Nullable(Type.Number()),
    closed_by_size: Type.Array(Type.Object({ passage: Type.String(), limit: Type.String(), source: Type.String(), exceeds: Type.Array(Type.String()) }), {
      description: 'Passages closed to this ship by its size, the published limit, its source and what the ship exceeds.',
    }),
  },
  { description: 'The ship size the route was planned for (decision 084); null when no size was given.' },
);

const routeParams = {
  from: Type.String({ minLength: 1, maxLength: 40, description: `Origin. ${PLACE}` }),
  to: Type.String({ minLength: 1, maxLength: 40, description: `Destination. ${PLACE}` }),
  avoid: Type.Optional(Type.String({ maxLength: 300, description: `Passages not to use, comma-separated: ${PASSAGE_LIST} (bab_el_mandeb is accepted for babelmandeb).` })),
  allow: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Passages avoided unless listed here, comma-separated: northeast (Northern Sea Route) and northwest (seasonal, ice), corinth (small ships only).',
    }),
  ),
  speed_kn: Type.Optional(
    Type.Number({
      minimum: 1,
      maximum: 40,
      description: `Speed for the duration, knots. Default by ship_type: ${Object.entries(DEFAULT_SPEED_KN)
        .map(([t, s]) => `${t} ${s}`)
        .join(', ')} (other when no ship_type).`,
    }),
  ),
  ship_type: Type.Optional(
    Type.Union(
      SHIP_TYPES.map((t) => Type.Literal(t)),
      { description: 'Ship type: sets the default speed and the reference ship of the fuel and CO2 estimates.' },
    ),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('geojson')], {
      default: 'json',
      description: 'json (default): the route object with its geometry; geojson: a GeoJSON Feature whose properties are the route object.',
    }),
  ),
  ...shipSizeParams,
};

export const RoutesDirectQuery = Type.Object(routeParams, { additionalProperties: false });

export const RoutesWithViaQuery = Type.Object(
  {
    ...routeParams,
    via: Type.String({ minLength: 1, maxLength: 600, description: `Places to pass through in order, separated by ; (each ${PLACE.slice(2)}). At most ${MAX_VIAS}.` }),
  },
  { additionalProperties: false },
);

const Endpoint = Type.Object({
  input: Type.String({ description: 'The place as given.' }),
  kind: Type.Union([Type.Literal('port'), Type.Literal('position')]),
  port: Nullable(Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()), country: Nullable(Type.String()) })),
  lat: Type.Number(),
  lon: Type.Number(),
  network: Type.Object(
    {
      lat: Type.Number(),
      lon: Type.Number(),
      connector_nm: Type.Number({ description: 'Straight great-circle connector from the place to this point of the network; included in the distance and the geometry.' }),
      over_land_km: Type.Number({
        description:
          'Length of the connector over land (Natural Earth 1:10m, declared waterways as water). Above 0.5 km the place lies on land (a port position inland) and the answer carries the connector_over_land quality flag.',
      }),
    },
    { description: 'Where the place joins the sea network: the nearest point of the network reachable by a connector at sea (decision 082).' },
  ),
  alias: Type.Optional(
    Type.Object(
      { locode: Type.String(), note: Type.String() },
      { description: 'The UN/LOCODE given is no port of its own (a city listed with its airport, as CNSHA): it resolved to the port that serves it (decision 084).' },
    ),
  ),
});

const Passage = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: Type.Union(['canal', 'strait', 'cape', 'arctic'].map((k) => Type.Literal(k))),
  lat: Type.Number({ description: 'Where the route enters the passage.' }),
  lon: Type.Number(),
  at_nm: Type.Number({ description: 'Distance from the origin where the route enters the passage.' }),
});

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lon, lat]' });
export const RouteGeometrySchema = Type.Union(
  [Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }), Type.Object({ type: Type.Literal('MultiLineString'), coordinates: Type.Array(Type.Array(Position)) })],
  { description: '[lon, lat] positions; a MultiLineString cut at ±180° when the route crosses the antimeridian (RFC 7946 §3.1.9).' },
);

const RouteProperties = {
  from: Endpoint,
  to: Endpoint,
  via: Type.Array(Endpoint, { description: 'Vias in order (empty for direct).' }),
  distance_nm: Type.Number({ description: 'Nautical miles (1,852 m), great-circle lengths of the network segments plus the connectors.' }),
  connector_nm: Type.Number({ description: 'Of which off-network connectors.' }),
  speed_kn: Type.Number(),
  speed_source: Type.Union([Type.Literal('speed_kn'), Type.Literal('ship_type_default')]),
  ship_type: Type.Union(SHIP_TYPES.map((t) => Type.Literal(t))),
  duration_hours: Type.Number({ description: 'distance_nm / speed_kn, at sea only (no port, canal or weather time).' }),
  duration_days: Type.Number(),
  passages: Type.Array(Passage, { description: 'Passages crossed, in order.' }),
  avoided: Type.Array(Type.String(), { description: 'Passages the route was not allowed to use (avoid, plus northeast, northwest and corinth unless allowed, plus those closed by the ship size).' }),
  ship_size: Nullable(ShipSize),
  legs: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), distance_nm: Type.Number(), duration_hours: Type.Number(), passages: Type.Array(Type.String()) }), {
    description: 'One per stretch between consecutive places.',
  }),
  estimates: Type.Object(
    {
      fuel_t: Type.Number({ description: 'Main-engine fuel for the whole route, tonnes.' }),
      co2_t: Type.Number({ description: 'CO2 from that fuel, tonnes (fuel_t x Cf).' }),
      fuel_t_per_day: Type.Number(),
      fuel: Type.Union([Type.Literal('HFO'), Type.Literal('LNG')]),
      engine_load: Type.Number({ description: '(speed_kn / design speed)^3, capped at 1.' }),
      speed_above_design: Type.Boolean({ description: 'speed_kn is above the reference ship design speed: the estimate is capped at full load.' }),
      reference_ship: Type.Object({ label: Type.String(), main_engine_kw: Type.Number(), design_speed_kn: Type.Number(), sfoc_g_per_kwh: Type.Number() }),
      method: Type.String(),
    },
    { description: `Estimates, not measurements: fuel and CO2 of the reference ship of ship_type at speed_kn. ${FUEL_METHOD}` },
  ),
  network: Type.Object({ name: Type.String(), resolution_km: Type.Number() }),
  attribution: Type.Array(Type.String()),
};

export const RouteData = Type.Object({ ...RouteProperties, geometry: RouteGeometrySchema });

export const RouteFeature = Type.Object({
  type: Type.Literal('Feature'),
  geometry: RouteGeometrySchema,
  properties: Type.Object(RouteProperties),
});

export const RouteResponse = Type.Union([RouteData, RouteFeature], { description: 'The route (format=json) or the route as a GeoJSON Feature (format=geojson).' });
