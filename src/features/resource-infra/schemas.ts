import { Type, type TSchema } from '@sinclair/typebox';
import { STATUSES } from './classify.js';
import { INFRA_CATEGORIES, INFRA_SOURCES } from './sources.js';
import { Nullable, Limit, Cursor } from '../kit/schema-kit.js';

const InfraCursor = Cursor(400, 'next_cursor of the previous page (same query).');

export const LAYER_LIMIT_MAX = 500;
export const LAYER_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 200;
export const LIST_LIMIT_DEFAULT = 50;
export const NEAR_RADIUS_MAX_KM = 1000;
export const NEAR_RADIUS_DEFAULT_KM = 50;

const sourceParam = Type.Optional(Type.String({ enum: INFRA_SOURCES.map((s) => s.id), description: 'One declared source id (see /sources).' }));

export const LayerQuery = Type.Object(
  {
    bbox: Type.Optional(
      Type.String({ minLength: 7, maxLength: 100, description: 'minLon,minLat,maxLon,maxLat (WGS84; minLon > maxLon crosses the antimeridian): objects whose geometry box meets it.' }),
    ),
    near: Type.Optional(Type.String({ minLength: 3, maxLength: 60, description: 'lat,lon: objects with a vertex within radius_km, nearest first (with distance_km).' })),
    radius_km: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: NEAR_RADIUS_MAX_KM, description: `Radius for near, km (default ${NEAR_RADIUS_DEFAULT_KM}, at most ${NEAR_RADIUS_MAX_KM}).` })),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: `Comma-separated categories: ${INFRA_CATEGORIES.map((c) => c.id).join(', ')}.` })),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: `Comma-separated statuses: ${STATUSES.join(', ')}.` })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 80, description: 'Country or area name as the source writes it (case-insensitive), e.g. Norway.' })),
    source: sourceParam,
    setting: Type.Optional(
      Type.Union([Type.Literal('offshore'), Type.Literal('coastal'), Type.Literal('onshore')], {
        description: 'Against Natural Earth 1:10m land: offshore (at sea), coastal (on land within 10 km of the coast, or a line crossing it), onshore.',
      }),
    ),
    limit: Limit(LAYER_LIMIT_MAX, LAYER_LIMIT_DEFAULT),
    cursor: InfraCursor,
  },
  { additionalProperties: false },
);

/** The query of the GeoJSON operations: the layer filters, paged (default) or the whole match streamed (docs/decisions/057). */
export const LayerGeojsonQuery = Type.Object(
  {
    ...LayerQuery.properties,
    format: Type.Optional(
      Type.Union([Type.Literal('page'), Type.Literal('stream')], {
        default: 'page',
        description:
          'page (default): the envelope with at most limit features and next_cursor. stream: every matching feature in one RFC 7946 FeatureCollection streamed bare as application/geo+json (no envelope; limit does not apply and a cursor is refused; total gives the count, next_cursor is null).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const OverviewQuery = Type.Omit(LayerQuery, ['limit', 'cursor'], { additionalProperties: false });

export const ObjectQuery = Type.Object({ id: Type.String({ minLength: 3, maxLength: 300, description: 'Object id as listed (source id : source key).' }) }, { additionalProperties: false });

export const CoverageQuery = Type.Object(
  {
    group_by: Type.Optional(
      Type.Union([Type.Literal('category'), Type.Literal('country'), Type.Literal('region'), Type.Literal('source')], { default: 'category', description: 'Grouping (default category).' }),
    ),
  },
  { additionalProperties: false },
);

export const FINDING_KINDS = [
  'low_precision',
  'offshore_on_land',
  'unit_coordinates_differ',
  'swapped_coordinates',
  'placeholder_coordinates',
  'out_of_range',
  'missing_location',
  'duplicate',
  'duplicate_id',
  'capacity_implausible',
  'capacity_repeated',
  'landfall_inland',
] as const;

export const QualityQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ enum: [...FINDING_KINDS], description: 'One finding kind (duplicates are listed only when asked for; see qa_duplicates).' })),
    source: sourceParam,
    limit: Limit(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
    cursor: InfraCursor,
  },
  { additionalProperties: false },
);

export const SourceDetailQuery = Type.Object(
  {
    source: Type.String({ minLength: 1, maxLength: 60, description: 'A declared source id (see /sources).' }),
    runs: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Newest runs listed (default 10).' })),
  },
  { additionalProperties: false },
);

export const RunsQuery = Type.Object({ source: sourceParam, limit: Limit(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT), cursor: InfraCursor }, { additionalProperties: false });

export const FailuresQuery = Type.Object(
  {
    source: sourceParam,
    run_id: Type.Optional(Type.Integer({ minimum: 1, description: 'One run (default: the newest run of each source).' })),
    reason: Type.Optional(Type.String({ enum: ['missing_location', 'swapped_coordinates', 'out_of_range', 'invalid_geometry', 'missing_name'] })),
    limit: Limit(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT),
    cursor: InfraCursor,
  },
  { additionalProperties: false },
);

export const DuplicatesQuery = Type.Object({ source: sourceParam, limit: Limit(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT), cursor: InfraCursor }, { additionalProperties: false });

const Point = Type.Object({ lon: Type.Number(), lat: Type.Number() });
const BBox = Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'minLon, minLat, maxLon, maxLat of the geometry.' });
const NearestPort = Nullable(
  Type.Object({ port_id: Type.Integer(), name: Type.String(), locode: Nullable(Type.String()), distance_km: Type.Number() }),
  'Nearest port of the Bosun port table (great-circle km).',
);

const summaryFields = {
  id: Type.String({ description: 'Stable: source id : source key (lowest unit id for LNG terminals).' }),
  name: Type.String(),
  category: Type.String(),
  subcategory: Nullable(Type.String()),
  status: Type.String({ description: STATUSES.join(', ') }),
  country: Nullable(Type.String()),
  region: Nullable(Type.String()),
  setting: Type.String({ description: 'offshore, coastal or onshore (Natural Earth 1:10m).' }),
  coast_km: Nullable(Type.Number(), 'km to the coast, negative at sea; null beyond 50 km.'),
  capacity: Nullable(Type.Number(), 'Summed over units, in capacity_unit.'),
  capacity_unit: Nullable(Type.String(), 'MTPA, bcm/y, Mt/yr, MW or million boe/y.'),
  location_accuracy: Nullable(Type.String()),
  start_year: Nullable(Type.Integer()),
  fsru: Nullable(Type.Boolean(), 'LNG: a floating unit (FSRU/FLNG) by name.'),
  units: Type.Integer({ description: 'Source rows (units/phases) behind the object.' }),
  nearest_port: NearestPort,
  geometry_type: Type.String(),
  url: Nullable(Type.String()),
  derived_from: Nullable(Type.String(), 'Landfalls: the pipeline they were derived from.'),
  source: Type.String(),
  source_key: Type.String(),
  attribution: Type.String({ description: 'The required attribution line of the object’s source.' }),
  quality_flags: Type.Array(Type.String(), { description: 'Kinds of the quality findings on the object.' }),
  distance_km: Type.Optional(Type.Number({ description: 'With near: km to the nearest vertex.' })),
};

export const ObjectSummary = Type.Object({ ...summaryFields, point: Point, bbox: BBox });

const Geometry = Type.Object(
  { type: Type.String(), coordinates: Type.Array(Type.Any()) },
  { description: 'GeoJSON geometry as in the source (Point, LineString, MultiLineString, Polygon, MultiPolygon).' },
);

export const FeatureCollection = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(Type.Object({ type: Type.Literal('Feature'), id: Type.String(), geometry: Geometry, properties: Type.Object(summaryFields) })),
  total: Type.Integer({ description: 'Objects matching the filters (all pages).' }),
  next_cursor: Nullable(Type.String()),
  data_version: Type.Integer({ description: 'Id of the newest finished ingest run.' }),
  attribution: Type.Array(Type.String(), { description: 'Attribution lines of the sources on this page.' }),
});

export const ObjectsData = Type.Object({
  items: Type.Array(ObjectSummary),
  total: Type.Integer(),
  next_cursor: Nullable(Type.String()),
  data_version: Type.Integer(),
  attribution: Type.Array(Type.String()),
});

const Finding = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  source: Type.String(),
  run_id: Type.Integer(),
  object_id: Nullable(Type.String()),
  row_ref: Nullable(Type.String(), 'Line or record of the source file (rejected rows have no object).'),
  lon: Nullable(Type.Number()),
  lat: Nullable(Type.Number()),
  detail: Type.Record(Type.String(), Type.Unknown()),
});

export const ObjectData = Type.Object({
  ...summaryFields,
  point: Point,
  bbox: BBox,
  geometry: Geometry,
  status_raw: Type.Array(Type.String()),
  unit_list: Type.Array(Type.Object({ id: Type.String(), name: Nullable(Type.String()), status: Type.String(), capacity: Nullable(Type.Number()), row_ref: Type.String() })),
  properties: Type.Record(Type.String(), Type.Unknown()),
  derived: Type.Array(Type.String()),
  findings: Type.Array(Finding),
  provenance: Type.Object({
    source: Type.String(),
    source_key: Type.String(),
    first_run_id: Type.Integer(),
    last_changed_run_id: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
});

const Counts = Type.Record(Type.String(), Type.Integer());

export const OverviewData = Type.Object({
  objects: Type.Integer(),
  by_category: Counts,
  by_status: Counts,
  by_setting: Counts,
  by_geometry: Counts,
  by_source: Counts,
  top_countries: Type.Array(Type.Object({ country: Type.String(), objects: Type.Integer() })),
  capacity_by_category: Type.Record(Type.String(), Type.Record(Type.String(), Type.Number())),
  /** Objects whose capacity is left out of capacity_by_category, with the quality flag that says why. */
  capacity_excluded: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), category: Type.String(), capacity: Type.Number(), unit: Type.String(), flag: Type.String() })),
  attribution: Type.Array(Type.String()),
  data_version: Type.Integer(),
});

const Run = Type.Object({
  run_id: Type.Integer(),
  source: Type.String(),
  state: Type.String(),
  started_at: Type.String(),
  finished_at: Nullable(Type.String()),
  rows_read: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  removed: Type.Integer(),
  failed: Type.Integer(),
  skipped: Counts,
  objects_after: Type.Integer(),
  shipped_file: Type.Boolean(),
  error: Nullable(Type.String()),
});

export const RunsData = Type.Object({ items: Type.Array(Run), next_cursor: Nullable(Type.String()) });
export const FailuresData = Type.Object({
  items: Type.Array(Type.Object({ id: Type.Integer(), run_id: Type.Integer(), source: Type.String(), row_ref: Type.String(), reason: Type.String(), detail: Type.String() })),
  next_cursor: Nullable(Type.String()),
});
export const FindingsPage = Type.Object({ total: Type.Integer(), items: Type.Array(Finding), next_cursor: Nullable(Type.String()) });

export const CategoriesData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      label: Type.String(),
      geometry: Type.String(),
      offshore_kind: Type.Boolean(),
      objects: Type.Integer(),
      subcategories: Counts,
      statuses: Counts,
      settings: Counts,
      sources: Type.Array(Type.String()),
      style: Type.Object({ color: Type.String(), icon: Type.String() }),
    }),
  ),
});

export const AttributionData = Type.Object({
  required: Type.Boolean(),
  sources: Type.Array(
    Type.Object({ source: Type.String(), title: Type.String(), publisher: Type.String(), licence: Type.String(), licence_url: Type.String(), attribution: Type.String(), objects: Type.Integer() }),
  ),
  lines: Type.Array(Type.String(), { description: 'The lines to show for the data currently stored.' }),
  context: Type.Array(Type.String()),
  how_to_attribute: Type.String(),
});

export const SourcesData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      publisher: Type.String(),
      file: Type.String(),
      format: Type.String(),
      file_present: Type.Boolean(),
      licence: Type.String(),
      attribution: Type.String(),
      release: Type.String(),
      cadence_days: Type.Integer(),
      categories: Type.Array(Type.String()),
      coverage_area: Type.String(),
      rules: Type.Array(Type.String()),
      objects: Type.Integer(),
      runs: Type.Integer(),
      last_run: Nullable(Run),
    }),
  ),
});

/** Documents whose every field is listed in docs/resource-infra.md; the main ones are typed here. */
export const doc = (fields: Record<string, TSchema>, description: string) => Type.Object(fields, { description });
export { Counts, Run, Finding };
