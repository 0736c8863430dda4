import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { AppError } from '../../platform/errors.js';
import type { StreamResult } from '../../http/route.js';
import { defineRoute, type CallContext } from '../kit/route.js';
import type { LayerFacts } from './facts.js';
import * as views from './views.js';
import { parseFilter } from './filters.js';
import { sourceById } from './sources.js';
import {
  AttributionData,
  CategoriesData,
  CoverageQuery,
  Counts,
  doc,
  DuplicatesQuery,
  FailuresData,
  FailuresQuery,
  FeatureCollection,
  FindingsPage,
  LAYER_LIMIT_DEFAULT,
  LayerGeojsonQuery,
  LayerQuery,
  LIST_LIMIT_DEFAULT,
  ObjectData,
  ObjectQuery,
  ObjectsData,
  OverviewData,
  OverviewQuery,
  QualityQuery,
  RunsData,
  RunsQuery,
  SourceDetailQuery,
  SourcesData,
} from './schemas.js';

const BASE = '/v1/layers/resource_infra';
const ATTRIBUTION_NOTE = 'Attribution: data.attribution lists the lines of the sources shown (CC BY 4.0: GEM trackers, EMODnet); /attribution has them all.';
const FILTER_NOTE =
  'Filters: bbox, near (lat,lon) + radius_km, category, status, country, source, setting; combined with AND. Objects come from the newest ingest run of each source (bosun layers ingest resource_infra); before any run the layer is empty and /readiness says so.';

const GEOJSON = 'application/geo+json';
const STREAM_NOTE = `format=stream answers every matching feature instead, as one RFC 7946 FeatureCollection streamed bare (${GEOJSON}, no envelope) from the layer's index in chunks, never built whole in memory; same filters, limit does not apply, a cursor is refused (invalid_request); total and attribution come first, next_cursor is null.`;
const ALSO_STREAMS = { mediaType: GEOJSON, when: 'format=stream' } as const;
/** Bytes the client may leave unread before a streamed FeatureCollection waits for it (the per-stream memory bound). */
const STREAM_HIGH_WATER_BYTES = 1 << 20;

/** A FeatureCollection's text chunks written as a bare stream, waiting for the client whenever it lags by the high-water mark. */
function geojsonStream(chunks: Iterable<string>): StreamResult {
  return {
    stream: {
      contentType: `${GEOJSON}; charset=utf-8`,
      start(channel) {
        let stopped = false;
        const write = async () => {
          for (const chunk of chunks) {
            if (stopped || channel.ended) return;
            channel.write(chunk);
            if (channel.bufferedBytes() > STREAM_HIGH_WATER_BYTES) await channel.drained();
          }
          channel.end();
        };
        write().catch(() => channel.end());
        return {
          shutdown() {
            stopped = true;
          },
        };
      },
    },
  };
}

/** The GeoJSON operations: a page in the envelope, or with format=stream the whole match streamed. */
async function geojsonAnswer(query: typeof LayerGeojsonQuery.static, call: CallContext, pointOnly: boolean) {
  const infra = call.services.resourceInfra;
  if (query.format === 'stream') {
    if (query.cursor !== undefined) throw new AppError('invalid_request', 'format=stream answers the whole match: no cursor', { field: 'cursor' });
    return geojsonStream((await infra.layerGeojsonStream(parseFilter(query), pointOnly)).chunks);
  }
  return { data: await infra.layerGeojson({ ...parseFilter(query), limit: query.limit ?? LAYER_LIMIT_DEFAULT, cursor: query.cursor }, pointOnly) };
}

const A = Type.Array;
const S = Type.String;
const I = Type.Integer;
const N = Type.Number;
const B = Type.Boolean;
const U = Type.Unknown;
const Nul = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Check = Type.Object({ id: S(), passed: B(), detail: S() });
/** A map check names the objects that fail it (at most 20) and the operator's action (null when it passes). */
const MapCheck = Type.Object({ id: S(), passed: B(), detail: S(), objects: A(S()), action: Nul(S()) });

/** A view over stored objects, runs and findings: no input, one document. */
function view<R extends TObject>(operationId: string, suffix: string, description: string, response: R, compute: (f: LayerFacts) => unknown) {
  return defineRoute({
    operationId,
    description: `${description} Path ${BASE}${suffix}. Every value is computed from the stored objects, ingest runs and findings (docs/resource-infra.md).`,
    response,
    errors: [],
    examples: [{ summary: 'Current state', query: {} }],
    async handler(_input, call: CallContext) {
      const f = await call.services.resourceInfra.facts();
      return { data: compute(f) as never, freshnessSeconds: 0 };
    },
  });
}

const layer = defineRoute({
  operationId: 'getLayersResourceInfra',
  description: `The layer as a GeoJSON FeatureCollection (RFC 7946) with each object's source geometry (Point, LineString, MultiLineString, Polygon, MultiPolygon): LNG terminals, gas pipelines and their landfalls, coal terminals, offshore oil and gas fields, coastal power plants, offshore wind farms. ${FILTER_NOTE} Ordered by id (by distance with near); limit 1-500 (default ${LAYER_LIMIT_DEFAULT}), page with next_cursor. ${STREAM_NOTE} Each feature's properties carry its attribution line. ${ATTRIBUTION_NOTE}`,
  query: LayerGeojsonQuery,
  response: FeatureCollection,
  alsoStreams: ALSO_STREAMS,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [
    { summary: 'Offshore wind farms in the North Sea', query: { bbox: '-4,51,9,58', category: 'offshore_wind_farm' } },
    { summary: 'Operating LNG terminals within 200 km of Rotterdam', query: { near: '51.95,4.14', radius_km: 200, category: 'lng_import_terminal,lng_export_terminal', status: 'operating' } },
    { summary: 'The whole layer as one streamed FeatureCollection (application/geo+json)', query: { format: 'stream' } },
  ],
  async handler({ query }, call) {
    return geojsonAnswer(query, call, false);
  },
});

const objectsGeojson = defineRoute({
  operationId: 'getLayersResourceInfraObjectsGeojson',
  description: `The objects as a GeoJSON FeatureCollection of markers: every object as its representative Point (a line's middle vertex, a polygon's ring mean), same properties as the layer. ${FILTER_NOTE} limit 1-500 (default ${LAYER_LIMIT_DEFAULT}); next_cursor. ${STREAM_NOTE} ${ATTRIBUTION_NOTE}`,
  query: LayerGeojsonQuery,
  response: FeatureCollection,
  alsoStreams: ALSO_STREAMS,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [{ summary: 'Offshore oil and gas fields in Norway', query: { country: 'Norway', category: 'offshore_oil_gas_field' } }],
  async handler({ query }, call) {
    return geojsonAnswer(query, call, true);
  },
});

const objects = defineRoute({
  operationId: 'getLayersResourceInfraObjects',
  description: `Objects as a JSON list (no geometry: point and bbox): name, category, status, capacity with unit, country, offshore/coastal/onshore setting, nearest port with distance, source, attribution and quality flags. ${FILTER_NOTE} limit 1-500 (default ${LAYER_LIMIT_DEFAULT}); next_cursor. ${ATTRIBUTION_NOTE}`,
  query: LayerQuery,
  response: ObjectsData,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [
    { summary: 'Coal terminals in Indonesia', query: { category: 'bulk_terminal', country: 'Indonesia' } },
    { summary: 'Coastal power plants under construction', query: { category: 'coastal_power_plant', status: 'construction', limit: 20 } },
  ],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.objects({ ...parseFilter(query), limit: query.limit ?? LAYER_LIMIT_DEFAULT, cursor: query.cursor }) };
  },
});

const overview = defineRoute({
  operationId: 'getLayersResourceInfraObjectsOverview',
  description: `Counts of the objects matching the filters by category, status, setting, geometry and source, the top 20 countries and capacity summed per category and unit; objects flagged capacity_implausible are left out of the sums and listed in capacity_excluded. ${FILTER_NOTE}`,
  query: OverviewQuery,
  response: OverviewData,
  errors: ['invalid_request'],
  examples: [
    { summary: 'The whole layer', query: {} },
    { summary: 'Europe’s seas', query: { bbox: '-18,27,30,66' } },
  ],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.overview(parseFilter(query)) };
  },
});

const object = defineRoute({
  operationId: 'getLayersResourceInfraObject',
  description: `One object by id (as listed by /objects): its geometry, units (source rows) with their status and capacity, properties, derived objects (a pipeline's landfalls), quality findings and provenance (source, key, the run that created and last changed it). not_found for an unknown id. ${ATTRIBUTION_NOTE}`,
  query: ObjectQuery,
  response: ObjectData,
  errors: ['invalid_request', 'not_found'],
  examples: [
    { summary: 'A coal terminal', query: { id: 'gem_gctt:T1314' }, requires: 'the layer ingested (bosun layers ingest resource_infra); ids as /objects lists them' },
    { summary: 'An id the layer does not hold', query: { id: 'gem_gctt:T0000' }, expectError: 'not_found' },
  ],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.object(query.id) };
  },
});

const categories = view(
  'getLayersResourceInfraCategories',
  '/categories',
  'The categories of the layer: label, geometry, whether it is an offshore kind, objects stored with their subcategories, statuses and settings, the sources that fill it and its map style.',
  CategoriesData,
  (f) => ({ items: views.categoriesView(f) }),
);
const attribution = view(
  'getLayersResourceInfraAttribution',
  '/attribution',
  'Licence and required attribution line of every source, the lines to show for the data stored now, and the context data (Natural Earth land, the port table).',
  AttributionData,
  (f) => views.attributionView(f),
);
const sources = view(
  'getLayersResourceInfraSources',
  '/sources',
  'The declared sources: file, format, licence, attribution, release, update cadence, categories, the rules the pipeline applies, objects stored and the newest run.',
  SourcesData,
  (f) => ({ items: views.sourcesView(f) }),
);
const status = view(
  'getLayersResourceInfraStatus',
  '/status',
  'Layer state (empty, partial, ready), objects per category, findings per kind, sources ingested and each source’s newest run.',
  doc({ state: S(), objects: I(), by_category: Counts, sources_ingested: I(), sources_declared: I(), findings: Counts, data_version: I(), data_as_of: Nul(S()), sources: A(U()) }, 'Layer status'),
  (f) => views.statusView(f),
);
const coverage = defineRoute({
  operationId: 'getLayersResourceInfraCoverage',
  description: `Objects per category, country, region or source (group_by), with share and offshore count, and for each source its first reference total (from its provenance) against what is stored. Path ${BASE}/coverage.`,
  query: CoverageQuery,
  response: doc({ group_by: S(), total: I(), groups: A(Type.Object({ key: S(), objects: I(), share: N(), by_category: Counts, offshore: I() })), sources: A(U()) }, 'Coverage'),
  errors: ['invalid_request'],
  examples: [{ summary: 'By country', query: { group_by: 'country' } }],
  async handler({ query }, call) {
    const f = await call.services.resourceInfra.facts();
    return { data: call.services.resourceInfra.views.coverageView(f, query.group_by ?? 'category') };
  },
});
const geometryQuality = defineRoute({
  operationId: 'getLayersResourceInfraGeometryQuality',
  description: `Geometry quality: findings per kind and source (low_precision: 0-1 decimals; offshore_on_land; unit_coordinates_differ; swapped_coordinates, placeholder_coordinates, out_of_range and missing_location for rejected rows), location accuracy and geometry types, and one page of findings (kind, source; limit 1-200, default ${LIST_LIMIT_DEFAULT}). Path ${BASE}/geometry_quality.`,
  query: QualityQuery,
  response: doc(
    {
      summary: doc(
        { objects: I(), findings: Counts, findings_by_source: Type.Record(S(), Counts), location_accuracy: Counts, geometry_types: Counts, settings: Counts, rejected_rows: I() },
        'Summary',
      ),
      findings: FindingsPage,
    },
    'Geometry quality',
  ),
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [
    { summary: 'Swapped coordinates', query: { kind: 'swapped_coordinates' } },
    { summary: 'Wind farms drawn on land', query: { kind: 'offshore_on_land' } },
  ],
  async handler({ query }, call) {
    const infra = call.services.resourceInfra;
    const f = await infra.facts();
    return { data: { summary: infra.views.qualityView(f), findings: await infra.findings({ ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT }) } };
  },
});
const geometryQualityGeojson = defineRoute({
  operationId: 'getLayersResourceInfraGeometryQualityGeojson',
  description: `Findings that have a place, as a GeoJSON FeatureCollection of Points (properties: finding id, kind, source, object id, row reference, detail, the source's attribution line; the collection's attribution lists the lines). Same kind/source filters and paging as /geometry_quality. Path ${BASE}/geometry_quality.geojson.`,
  query: QualityQuery,
  response: Type.Object({
    type: Type.Literal('FeatureCollection'),
    features: A(
      Type.Object({ type: Type.Literal('Feature'), geometry: Type.Object({ type: Type.Literal('Point'), coordinates: A(N(), { minItems: 2, maxItems: 2 }) }), properties: Type.Record(S(), U()) }),
    ),
    total: I(),
    next_cursor: Nul(S()),
    attribution: A(S()),
  }),
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [{ summary: 'Low-precision points', query: { kind: 'low_precision' } }],
  async handler({ query }, call) {
    const page = await call.services.resourceInfra.findings({ ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT });
    const placed = page.items.filter((x) => x.lon !== null && x.lat !== null);
    // a finding shows a source's data (its place, its row): it carries that source's attribution line
    const attribution = (source: string) => sourceById(source)?.attribution ?? '';
    return {
      data: {
        type: 'FeatureCollection' as const,
        features: placed.map(({ lon, lat, ...properties }) => ({
          type: 'Feature' as const,
          geometry: { type: 'Point' as const, coordinates: [lon!, lat!] },
          properties: { ...properties, attribution: attribution(properties.source) },
        })),
        total: page.total,
        next_cursor: page.next_cursor,
        attribution: [...new Set(placed.map((x) => attribution(x.source)))],
      },
    };
  },
});
const readiness = view(
  'getLayersResourceInfraReadiness',
  '/readiness',
  'Whether the layer is ready (every declared source has a successful run), and per source: not_ingested, ingested or last_run_failed, objects, whether its file is present; how to fill it when not ready.',
  doc({ ready: B(), state: S(), objects: I(), sources: A(U()), how_to_fill: Nul(S()) }, 'Readiness'),
  (f) => views.readinessView(f),
);
const backlog = view(
  'getLayersResourceInfraCoverageBacklog',
  '/coverage_backlog',
  'Coverage gaps, by priority: sources never ingested or whose run failed (1), empty categories and stale releases (2), failed rows, reference gaps and categories no shipped source covers (3), each with the action that closes it.',
  doc({ items: A(Type.Object({ id: S(), kind: S(), subject: S(), detail: S(), priority: I(), action: S() })) }, 'Backlog'),
  (f) => ({ items: views.backlogItems(f) }),
);
const candidates = view(
  'getLayersResourceInfraCoverageCandidates',
  '/coverage_candidates',
  'Candidate sources checked but not shipped (provenance): licence, categories, blocker, how to obtain, and the backlog items each would close.',
  doc({ items: A(U()) }, 'Candidates'),
  (f) => ({ items: views.candidatesView(f) }),
);
const candidatesDigest = view(
  'getLayersResourceInfraCoverageCandidatesDigest',
  '/coverage_candidates_digest',
  'The candidates in short: how many, by blocker, how many are openly licensed, which categories they would add, which open backlog items they would close, and the one to obtain next (an open licence first, then the most backlog items closed) with how to obtain it.',
  doc(
    {
      candidates: I(),
      by_blocker: Counts,
      open_licence: I(),
      categories_they_would_add: A(S()),
      backlog_items_they_close: A(S()),
      next: Nul(Type.Object({ id: S(), closes: I(), blocker: S(), obtain: S() })),
    },
    'Digest',
  ),
  (f) => views.candidatesDigestView(f),
);
const plan = view(
  'getLayersResourceInfraCoveragePlan',
  '/coverage_plan',
  'The backlog as ordered steps: what to do and why.',
  doc({ steps: A(Type.Object({ step: I(), backlog_id: S(), priority: I(), do: S(), because: S() })) }, 'Plan'),
  (f) => ({ steps: views.coveragePlanView(f) }),
);
const freshness = view(
  'getLayersResourceInfraFreshness',
  '/freshness',
  'Per source: release date and its age in days against the expected cadence (stale when older), and the last successful run.',
  doc({ items: A(Type.Object({ source: S(), release: S(), release_age_days: I(), cadence_days: I(), stale: B(), last_success_at: Nul(S()), last_success_age_seconds: Nul(I()) })) }, 'Freshness'),
  (f) => ({ items: views.freshnessView(f) }),
);
const progress = view(
  'getLayersResourceInfraProgress',
  '/progress',
  'Ingest progress: sources ingested of declared, runs under way, and per source rows read by its newest successful run against the rows its provenance states.',
  doc({ sources_ingested: I(), sources_declared: I(), percent: N(), running: A(U()), sources: A(U()) }, 'Progress'),
  (f) => views.progressView(f),
);
const externalCoverage = view(
  'getLayersResourceInfraExternalCoverage',
  '/external_coverage',
  'Each source’s stated totals (rows, terminals, plants, countries: PROVENANCE.md) against the stored layer: value, ratio and gap.',
  doc(
    { reference: S(), items: A(Type.Object({ source: S(), measure: S(), compare: S(), reference: I(), layer: Nul(I()), ratio: Nul(N()), gap: I() })), matched: I(), total: I() },
    'External coverage',
  ),
  (f) => views.externalCoverageView(f),
);
const sourceHealth = view(
  'getLayersResourceInfraSourceHealth',
  '/source_health',
  'Health per source: ok, degraded (newest run failed after an earlier success, or over 5% of rows failed), failing (no success and the newest run failed) or not_ingested, with reasons, failure and finding rates and staleness.',
  doc(
    {
      sources: A(Type.Object({ source: S(), health: S(), reasons: A(S()), last_run_id: Nul(I()), last_run_state: Nul(S()), failure_rate: Nul(N()), finding_rate: Nul(N()), stale: Nul(B()) })),
      summary: Counts,
    },
    'Source health',
  ),
  (f) => views.sourceHealthView(f),
);
const sourceHealthDetail = defineRoute({
  operationId: 'getLayersResourceInfraSourceHealthDetail',
  description: `One source's health with its objects, countries, findings per kind, failure reasons of its newest run and its newest runs (runs, default 10). not_found for an undeclared source. Path ${BASE}/source_health_detail.`,
  query: SourceDetailQuery,
  response: doc({ source: S(), health: S(), reasons: A(S()), objects: I(), countries: I(), findings: Counts, failure_reasons: Counts, runs: A(U()) }, 'Source health detail'),
  errors: ['invalid_request', 'not_found'],
  examples: [{ summary: 'The oil and gas extraction tracker', query: { source: 'gem_goget' } }],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.sourceHealthDetail(query.source, query.runs ?? 10) };
  },
});
const growth = view(
  'getLayersResourceInfraGrowthTimeline',
  '/growth_timeline',
  'Per day of successful runs: runs, objects created, updated and removed, and the layer size after the day’s last run.',
  doc({ bucket: S(), points: A(Type.Object({ day: S(), runs: I(), created: I(), updated: I(), removed: I(), objects_after: I() })), objects_now: I() }, 'Growth'),
  (f) => views.growthTimelineView(f),
);
const publicStatus = view(
  'getLayersResourceInfraPublicStatus',
  '/public_status',
  'The short public status: state, objects, sources ok of total, data as of.',
  doc({ state: S(), objects: I(), sources_ok: I(), sources_total: I(), data_as_of: Nul(S()) }, 'Public status'),
  (f) => views.publicStatusView(f),
);
const importDiagnostics = view(
  'getLayersResourceInfraImportDiagnostics',
  '/import_diagnostics',
  'Per source, its newest run: state, rows read, failed rows by reason, rows or plants skipped by rule (onshore, inland), error. Row-level detail: /ingest_failures (operator).',
  doc({ items: A(Type.Object({ source: S(), last_run_id: Nul(I()), state: S(), rows_read: I(), failed: I(), failure_reasons: Counts, skipped: Counts, error: Nul(S()) })) }, 'Diagnostics'),
  (f) => ({ items: views.importDiagnosticsView(f) }),
);
const externalImportSummary = view(
  'getLayersResourceInfraExternalImportSummary',
  '/external_import_summary',
  'Runs on the shipped files against runs on operator-supplied files (--file): runs, succeeded, failed, rows read, sources, last run.',
  doc({ shipped_files: U(), operator_files: U() }, 'Import summary'),
  (f) => views.externalImportSummaryView(f),
);
const gate = view(
  'getLayersResourceInfraStabilityGate',
  '/stability_gate',
  'Checks the layer must pass to be called stable: all sources ingested, newest runs succeeded, failure rate at most 5%, a rerun of the same file changed nothing, no invalid geometry, attribution complete.',
  doc({ passed: B(), checks: A(Check) }, 'Gate'),
  (f) => views.stabilityGateView(f),
);
const meta = (operationId: string, suffix: string, which: Parameters<typeof views.metaView>[1], description: string, fields: Record<string, TSchema> = {}) =>
  view(operationId, suffix, description, doc({ document: S(), generated_at: S(), data_version: I(), data_as_of: Nul(S()), ...fields }, 'Meta document'), (f) => views.metaView(f, which));
const backlogMeta = meta('getLayersResourceInfraBacklogMachineMeta', '/backlog_machine_meta', 'backlog_machine', 'Machine metadata of the coverage backlog: items by kind and priority, data version.');
const externalSourcesMeta = meta(
  'getLayersResourceInfraExternalSourcesCompletionMeta',
  '/external_sources_completion_meta',
  'external_sources_completion',
  'Declared sources ingested against declared plus candidate sources, and each declared source not yet ingested with whether its file is present, its last error and the command that brings it in.',
  {
    declared_sources: I(),
    ingested_sources: I(),
    candidate_sources: I(),
    completion: N(),
    not_ingested: A(Type.Object({ source: S(), file_present: B(), last_error: Nul(S()), action: S() })),
  },
);
const snapshotMeta = meta(
  'getLayersResourceInfraLayerStatusSnapshotMeta',
  '/layer_status_snapshot_meta',
  'layer_status_snapshot',
  'A snapshot of the layer: state, counts and a SHA-256 digest over object ids and content hashes (equal digests, equal layers).',
);
const completionMeta = meta(
  'getLayersResourceInfraCompletionStatusMeta',
  '/completion_status_meta',
  'completion_status',
  'Categories with objects against the taxonomy (shipped categories plus those only candidates cover); each shipped category without objects with what fills it (ingest or re-ingest of its sources), and each uncovered category with the candidate sources that would cover it.',
  {
    categories_filled: I(),
    categories_total: I(),
    completion: N(),
    uncovered: A(S()),
    empty_categories: A(Type.Object({ category: S(), actions: A(S()) })),
    uncovered_candidates: A(Type.Object({ category: S(), candidates: A(S()) })),
  },
);
const closeoutMeta = meta(
  'getLayersResourceInfraProjectCloseoutStatusMeta',
  '/project_closeout_status_meta',
  'project_closeout_status',
  'Whether the layer work can be closed: stability gate passed and no priority-1 backlog item.',
);
const reportsFreshnessMeta = meta(
  'getLayersResourceInfraReportsFreshnessMeta',
  '/reports_freshness_meta',
  'reports_freshness',
  'How old the data behind the reports is (seconds since the newest finished run) and which sources are stale.',
);
const mapUiContract = view(
  'getLayersResourceInfraMapUiContractStatus',
  '/map_ui_contract_status',
  'What a map needs from the layer, checked on the stored objects: RFC 7946 coordinates and ring winding, required properties, an attribution line per feature, a style per category, paging. Each check names up to 20 failing objects and the action that fixes them (the ingest command of their sources).',
  doc({ passed: B(), checks: A(MapCheck), required_properties: A(S()), categories: A(U()) }, 'Map UI contract'),
  (f) => views.mapUiContractView(f),
);

// Operator (U) operations
const ingestFailures = defineRoute({
  operationId: 'getLayersResourceInfraIngestFailures',
  description: `Operator: rows an ingest run could not use, with their line or record reference and reason (missing_location, swapped_coordinates, out_of_range, invalid_geometry, missing_name). Default: the newest run of each source; run_id for one run. limit 1-200; next_cursor. Path ${BASE}/ingest_failures.`,
  query: FailuresQuery,
  response: FailuresData,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [{ summary: 'Failed rows of the extraction tracker', query: { source: 'gem_goget' } }],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.ingestFailures({ ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT }) };
  },
});
const ingestRuns = defineRoute({
  operationId: 'getLayersResourceInfraIngestRuns',
  description: `Operator: ingest runs, newest first: file kind, start and end, rows read, created/updated/unchanged/removed, failed and skipped rows, layer size after, error. limit 1-200; next_cursor. Path ${BASE}/ingest_runs.`,
  query: RunsQuery,
  response: RunsData,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [{ summary: 'Newest runs', query: { limit: 10 } }],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.ingestRuns({ ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT }) };
  },
});
const qaDuplicates = defineRoute({
  operationId: 'getLayersResourceInfraQaDuplicates',
  description: `Operator: pairs of objects that look like the same facility across units and sources: same_name_nearby (same normalised name within about 5 km: bidirectional LNG terminals, a wind farm in both EMODnet layers) or same_place (same category, under 50 m apart). limit 1-200; next_cursor. Path ${BASE}/qa_duplicates.`,
  query: DuplicatesQuery,
  response: FindingsPage,
  errors: ['invalid_request', 'cursor_invalid'],
  examples: [{ summary: 'All pairs', query: {} }],
  async handler({ query }, call) {
    return { data: await call.services.resourceInfra.findings({ kind: 'duplicate', source: query.source, limit: query.limit ?? LIST_LIMIT_DEFAULT, cursor: query.cursor }) };
  },
});
const operatorDoc = <R extends TObject>(operationId: string, suffix: string, description: string, response: R, compute: (call: CallContext) => Promise<unknown>) =>
  defineRoute({
    operationId,
    description: `Operator: ${description} Path ${BASE}${suffix}.`,
    response,
    errors: [],
    examples: [{ summary: 'Current state', query: {} }],
    async handler(_input, call: CallContext) {
      return { data: (await compute(call)) as never };
    },
  });
const opsSnapshot = operatorDoc(
  'getLayersResourceInfraOpsSnapshot',
  '/ops_snapshot',
  'runs under way, the newest run of each source, objects, findings, failed rows of the newest runs, the in-memory index, the stability gate and the data directory.',
  doc({ generated_at: S(), data_dir: S(), running: A(U()), last_runs: A(U()), objects: I(), findings: I(), failures_last_runs: I(), index: U(), gate: U() }, 'Ops snapshot'),
  (call) => call.services.resourceInfra.opsSnapshot(),
);
const roadmap = operatorDoc(
  'getLayersResourceInfraInternalOnlyRoadmap',
  '/internal_only_roadmap',
  'internal work items: failing gate checks, backlog items and candidate sources with the next step of each.',
  doc({ items: A(Type.Object({ track: S(), id: S(), detail: S(), next: S() })), data_dir: S() }, 'Roadmap'),
  (call) => call.services.resourceInfra.internalOnlyRoadmap(),
);
const blockers = operatorDoc(
  'getLayersResourceInfraSourceBlockers',
  '/source_blockers',
  'what blocks each declared source (file missing, newest run failed) and each candidate source (licence, size, availability), with the action that unblocks it (the ingest command, after obtaining a missing file; for a candidate, how to obtain it).',
  doc({ items: A(Type.Object({ source: S(), declared: B(), blocked: B(), blockers: A(S()), action: Nul(S()) })) }, 'Blockers'),
  async (call) => ({ items: await call.services.resourceInfra.sourceBlockers() }),
);
const mapProfile = operatorDoc(
  'getLayersResourceInfraMapProfile',
  '/map_profile',
  'per category, what drawing it costs: objects, geometry types, bounding box, vertices, heaviest geometry, stored bytes, pages at the maximum limit, style.',
  doc({ items: A(U()) }, 'Map profile'),
  async (call) => {
    const infra = call.services.resourceInfra;
    return { items: infra.views.mapProfileView(await infra.facts()) };
  },
);
const mapProfileAlerts = operatorDoc(
  'getLayersResourceInfraMapProfileAlerts',
  '/map_profile_alerts',
  'alerts from the map profile: empty categories, categories needing several pages, geometries over 2,000 vertices, offshore objects on land.',
  doc({ items: A(Type.Object({ level: S(), category: S(), alert: S(), detail: S() })) }, 'Alerts'),
  async (call) => {
    const infra = call.services.resourceInfra;
    return { items: infra.views.mapProfileAlertsView(await infra.facts()) };
  },
);
const opsHealthRollup = operatorDoc(
  'getLayersResourceInfraOpsHealthRollup',
  '/ops_health_rollup',
  'one status (empty, ok, degraded, failing) rolled up from source health, readiness, the stability gate and map alerts.',
  doc({ status: S(), readiness: S(), sources: Counts, gate_passed: B(), failing_checks: A(S()), alerts: I() }, 'Rollup'),
  async (call) => {
    const infra = call.services.resourceInfra;
    return infra.views.opsHealthRollupView(await infra.facts());
  },
);

export const resourceInfraRoutes = [
  layer,
  categories,
  objects,
  overview,
  objectsGeojson,
  object,
  status,
  coverage,
  attribution,
  ingestFailures,
  ingestRuns,
  qaDuplicates,
  geometryQuality,
  geometryQualityGeojson,
  readiness,
  backlog,
  candidates,
  candidatesDigest,
  plan,
  freshness,
  opsSnapshot,
  progress,
  externalCoverage,
  roadmap,
  sourceHealth,
  growth,
  blockers,
  sourceHealthDetail,
  sources,
  mapProfile,
  mapProfileAlerts,
  publicStatus,
  importDiagnostics,
  externalImportSummary,
  gate,
  backlogMeta,
  externalSourcesMeta,
  snapshotMeta,
  completionMeta,
  closeoutMeta,
  reportsFreshnessMeta,
  opsHealthRollup,
  mapUiContract,
];
