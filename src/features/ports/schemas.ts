import { Type } from '@sinclair/typebox';
import { Nullable } from '../kit/schema-kit.js';

export const PORTS_SEARCH_LIMIT_MAX = 100;
export const NEAR_RADIUS_DEFAULT_KM = 50;
export const NEAR_RADIUS_MAX_KM = 2000;

export const PortsSearchQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Port name, alternate name or UN/LOCODE; diacritics and case ignored, one or two typos forgiven.' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Same as q (the name existing clients send); q wins when both are given.' })),
    locode: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2} ?[A-Za-z2-9]{3}$', description: 'UN/LOCODE, e.g. NLRTM or NL RTM.' })),
    country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country.' })),
    near: Type.Optional(Type.String({ maxLength: 40, description: 'lat,lon in decimal degrees: only ports within radius_km, nearest first among equal matches.' })),
    radius_km: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: NEAR_RADIUS_MAX_KM, description: `Radius for near, km (default ${NEAR_RADIUS_DEFAULT_KM}).` })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PORTS_SEARCH_LIMIT_MAX, default: 20, description: `Page size 1-${PORTS_SEARCH_LIMIT_MAX} (default 20).` })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'next_cursor of the previous page (same query).' })),
  },
  { additionalProperties: false },
);

export const PortItem = Type.Object({
  port_id: Type.Integer({ description: 'World Port Index number, or 100,000,000 + the UN/LOCODE in base 36 for a port only UN/LOCODE lists.' }),
  name: Type.String(),
  alternate_names: Type.Array(Type.String()),
  country: Nullable(Type.String(), 'ISO 3166-1 alpha-2.'),
  locode: Nullable(Type.String()),
  lat: Type.Number(),
  lon: Type.Number(),
  harbor_size: Nullable(Type.Union([Type.Literal('large'), Type.Literal('medium'), Type.Literal('small'), Type.Literal('very_small')])),
  harbor_type: Nullable(Type.String()),
  sources: Type.Array(Type.Union([Type.Literal('wpi'), Type.Literal('unlocode')])),
  anchorage_points: Type.Integer({ description: 'Anchorage points (Global Fishing Watch) assigned to the port.' }),
  flags: Type.Array(Type.String(), { description: 'coordinate_conflict: the sources place the port more than 20 km apart (the World Port Index position is kept).' }),
  conflict: Nullable(Type.Object({ unlocode_lat: Type.Number(), unlocode_lon: Type.Number(), distance_km: Type.Number() })),
  match: Type.Object({
    kind: Type.Union(['locode', 'exact', 'prefix', 'contains', 'typo', 'near', 'filter'].map((k) => Type.Literal(k))),
    score: Type.Number({ description: '0-1: how well the text matched.' }),
    matched_name: Nullable(Type.String()),
  }),
  distance_km: Nullable(Type.Number({ description: 'From near, when given.' })),
  areas_url: Type.String({ description: "GeoJSON of the port's berth and anchorage areas (GET /v1/ports/{port_id}/areas, a Bosun extension)." }),
  corrections: Type.Optional(
    Type.Array(
      Type.Object({ field: Type.String(), value: Type.Union([Type.String(), Type.Number()]), ticket_id: Type.String(), provenance: Type.String(), applied_at: Type.String({ format: 'date-time' }) }),
      {
        description:
          'Present when name, lat or lon is served from an operator correction (feedback ticket) instead of the port table; the answer then carries the quality flag operator_corrected. Matching (text, near) uses the table values.',
      },
    ),
  ),
});

export const PortsSearchData = Type.Object({
  items: Type.Array(PortItem),
  total: Type.Integer({ description: 'Ports matching the query.' }),
  next_cursor: Nullable(Type.String()),
  attribution: Type.Array(Type.String(), { description: 'Sources of the port table, to cite when reusing it.' }),
});

export const PortAreasParams = Type.Object(
  { port_id: Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'A port_id of the port table (find one with /v1/ports/search).' }) },
  { additionalProperties: false },
);

export const PortAreasData = Type.Object({
  type: Type.Literal('FeatureCollection'),
  port: Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()) }),
  features: Type.Array(
    Type.Object({
      type: Type.Literal('Feature'),
      id: Type.Integer({ description: 'area_id.' }),
      geometry: Type.Object({
        type: Type.Literal('MultiPolygon'),
        coordinates: Type.Array(Type.Array(Type.Array(Type.Array(Type.Number()))), { description: 'One square per grid cell of 0.005°, counter-clockwise (RFC 7946).' }),
      }),
      properties: Type.Object({
        area_id: Type.Integer(),
        area_key: Nullable(
          Type.String(),
          "Stable key port_id:row:col of the area's busiest grid cell: area_id changes at each rebuild, the key does not. Name the area by it in a feedback correction (subject kind area): kind, lat/lon (move), removed.",
        ),
        kind: Type.Union([Type.Literal('berth'), Type.Literal('anchorage')], { description: 'By how ships behaved in its stops: most at anchor (swinging, or AIS status 1) is anchorage.' }),
        provenance: Type.Union([Type.Literal('gfw'), Type.Literal('learnt'), Type.Literal('operator')], {
          description: 'gfw: cells of Global Fishing Watch anchorage points; learnt: cells where at least two distinct vessels stopped in port calls; operator: set by the operator.',
        }),
        confidence: Type.Number({ description: '(stops agreeing with the kind + 1) / (stops + 2); 0.5 without evidence.' }),
        centre: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
        vessels: Type.Integer({ description: 'Distinct vessels that stopped in it (stored port calls).' }),
        stops: Type.Integer(),
        anchor_stops: Type.Integer(),
        gfw_points: Type.Integer(),
        updated_at: Type.String({ format: 'date-time', description: 'When the area was last built (bosun events areas rebuild).' }),
      }),
    }),
  ),
  attribution: Type.Array(Type.String()),
});
