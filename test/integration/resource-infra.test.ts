import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as shapefile from 'shapefile';
import { getIssues } from '@placemarkio/check-geojson';
import { rewindGeometry, windingIssues } from '../../src/geo/winding.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const BASE = '/v1/layers/resource_infra';
const infraDir = sharedDataPath('infra/PROVENANCE.md');
const file = (relative: string) => join(infraDir.path, '..', relative);

/** Header plus the lines for which `keep` is true (CSV records here are single lines). */
function slice(text: string, keep: (line: string, index: number) => boolean): string {
  const lines = text.split('\n');
  return [lines[0], ...lines.slice(1).filter((l, i) => l !== '' && keep(l, i))].join('\n') + '\n';
}

const validGeojson = (data: unknown) => assert.deepEqual(getIssues(JSON.stringify(data)), []);

describe('resource_infra on real slices', { skip: infraDir.skip }, () => {
  let app: TestApp;
  let dir: string;
  let operator: string;
  const get = (path: string, token?: string) => app.api('GET', `${BASE}${path}`, token ? { token } : {});

  before(async () => {
    app = await startTestApp();
    operator = await app.operatorToken();
    dir = mkdtempSync(join(tmpdir(), 'bosun-infra-'));
    const lng = gunzipSync(readFileSync(file('gem-lng-gas/LNG_Terminals-map-file-2024-10-08.csv.gz'))).toString('utf8');
    writeFileSync(
      join(dir, 'lng.csv'),
      slice(lng, (l) => /^(T02170[01]|P0146|P0152),/.test(l)),
    );
    const goget = gunzipSync(readFileSync(file('gem-oil-gas-extraction/Oil_Gas_Extraction-map-file-2025-02-26.csv.gz'))).toString('utf8');
    let placeholders = 0;
    writeFileSync(
      join(dir, 'goget.csv'),
      slice(goget, (l, i) => i < 30 || l.includes(',114.6430958,4.54320589,') || (l.includes(',98.67049907,59.03943421,') && placeholders++ < 3)),
    );
  });
  after(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers an honest empty state before any ingest', async () => {
    const readiness = await get('/readiness');
    assert.equal(readiness.status, 200);
    assert.equal(readiness.body.data.ready, false);
    assert.equal(readiness.body.data.state, 'empty');
    assert.equal(readiness.body.data.sources.length, 8);
    assert.ok(readiness.body.data.sources.every((s: { state: string }) => s.state === 'not_ingested'));
    const layer = await get('');
    assert.equal(layer.body.data.total, 0);
    assert.deepEqual(layer.body.data.features, []);
    validGeojson(layer.body.data);
    assert.equal((await get('/public_status')).body.data.state, 'empty');
    assert.equal((await get('/ops_health_rollup', operator)).body.data.status, 'empty');
  });

  it('ingests the coal terminals: 521 rows, 466 terminals, the 2 rows without a location failed; a rerun changes nothing', async () => {
    const infra = app.bosun.ctx.services.resourceInfra;
    const path = file('gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv');
    const first = await infra.ingest({ source: 'gem_gctt', file: path });
    const r = first.reports[0]!;
    assert.deepEqual([r.rows_read, r.created, r.updated, r.unchanged, r.removed, r.failed], [521, 466, 0, 0, 0, 2]);
    assert.equal(r.findings.missing_location, 2);
    const again = (await infra.ingest({ source: 'gem_gctt', file: path })).reports[0]!;
    assert.deepEqual([again.created, again.updated, again.unchanged, again.removed], [0, 0, 466, 0]);
    const failures = await get('/ingest_failures?source=gem_gctt', operator);
    assert.equal(failures.body.data.items.length, 2);
    assert.ok(failures.body.data.items.every((f: { reason: string; row_ref: string }) => f.reason === 'missing_location' && /^line \d+/.test(f.row_ref)));
    const annaba = await get('/object?id=gem_gctt:T1314');
    assert.equal(annaba.body.data.name, 'Annaba Coal Terminal');
    assert.equal(annaba.body.data.category, 'bulk_terminal');
    assert.equal(annaba.body.data.subcategory, 'coal');
    assert.equal(annaba.body.data.capacity, 1);
    assert.equal(annaba.body.data.capacity_unit, 'Mt/yr');
    assert.deepEqual(annaba.body.data.geometry, { type: 'Point', coordinates: [7.775234, 36.90051] });
    assert.equal(annaba.body.data.attribution, 'Global Energy Monitor, Global Coal Terminals Tracker, January 2025 release. CC BY 4.0');
    assert.equal(annaba.body.data.provenance.first_run_id, r.run_id);
  });

  it('rejects the swapped and placeholder rows of the extraction tracker and keeps only fields at sea', async () => {
    const report = (await app.bosun.ctx.services.resourceInfra.ingest({ source: 'gem_goget', file: join(dir, 'goget.csv') })).reports[0]!;
    assert.equal(report.rows_read, 34);
    assert.equal(report.failed, 4);
    assert.equal(report.created, 18);
    assert.deepEqual(report.skipped, { onshore: 12 });
    assert.equal(report.findings.swapped_coordinates, 1);
    assert.equal(report.findings.placeholder_coordinates, 3);
    const swapped = await get('/geometry_quality?kind=swapped_coordinates');
    assert.equal(swapped.body.data.findings.total, 1);
    assert.equal(swapped.body.data.findings.items[0].detail.written_lat, 114.6430958);
    assert.equal(swapped.body.data.findings.items[0].object_id, null);
    const fields = await get('/objects?category=offshore_oil_gas_field&limit=500');
    assert.equal(fields.body.data.total, 18);
    assert.ok(fields.body.data.items.every((o: { setting: string }) => o.setting === 'offshore'));
  });

  it('aggregates LNG units, derives pipeline landfalls and finds the bidirectional terminal pair', async () => {
    const report = (await app.bosun.ctx.services.resourceInfra.ingest({ source: 'gem_ggit_lng', file: join(dir, 'lng.csv') })).reports[0]!;
    assert.equal(report.rows_read, 4);
    assert.equal(report.created, 12);
    const landfalls = await get('/objects?category=pipeline_landfall&source=gem_ggit_lng');
    assert.equal(landfalls.body.data.total, 8);
    const pipeline = await get('/object?id=gem_ggit_lng:P0152');
    assert.equal(pipeline.body.data.category, 'gas_pipeline');
    assert.equal(pipeline.body.data.derived.length, 8);
    assert.equal(pipeline.body.data.setting, 'coastal');
    const duplicates = await get('/qa_duplicates', operator);
    const pair = duplicates.body.data.items.find((d: { object_id: string }) => d.object_id === 'gem_ggit_lng:T021700');
    assert.equal(pair.detail.other_id, 'gem_ggit_lng:T021701');
    assert.equal(pair.detail.rule, 'same_name_nearby');
    assert.equal(pair.detail.distance_m, 0);
  });

  it('keeps the EMODnet wind farm polygons (rings turned counter-clockwise) and flags the 12 points on land (lakes and dykes Natural Earth draws as land)', async () => {
    const infra = app.bosun.ctx.services.resourceInfra;
    const polygons = (await infra.ingest({ source: 'emodnet_wind_polygons' })).reports[0]!;
    const points = (await infra.ingest({ source: 'emodnet_wind_points' })).reports[0]!;
    assert.deepEqual([polygons.rows_read, polygons.created, points.rows_read, points.created], [600, 600, 438, 438]);
    assert.equal(points.findings.offshore_on_land, 12);
    const shp = file('emodnet-windfarms/EMODnet_HA_Energy_WindFarms_pg_20260127.shp');
    const collection = await shapefile.read(readFileSync(shp), readFileSync(shp.replace(/\.shp$/, '.dbf')), { encoding: 'utf-8' });
    const galson = collection.features.find((f) => f.properties?.NAME === 'Galson (Lewis 10MW)')!;
    const object = await get('/object?id=' + encodeURIComponent('emodnet_wind_polygons:United_Kingdom:Galson_(Lewis_10MW)'));
    assert.equal(object.status, 200);
    // the file's rings, turned as RFC 7946 §3.1.6 asks (the shapefile turns exterior rings clockwise)
    assert.ok(windingIssues(galson.geometry!).length > 0);
    assert.deepEqual(object.body.data.geometry, rewindGeometry(galson.geometry!));
    assert.deepEqual(windingIssues(object.body.data.geometry), []);
    assert.equal(object.body.data.status, 'proposed');
    assert.deepEqual(object.body.data.status_raw, ['Planned']);
    const north = await get('?bbox=-4,51,9,58&category=offshore_wind_farm&limit=500');
    validGeojson(north.body.data);
    assert.ok(north.body.data.features.some((f: { geometry: { type: string } }) => f.geometry.type === 'Polygon'));
    assert.ok(north.body.data.features.every((f: { properties: { attribution: string } }) => f.properties.attribution.startsWith('EMODnet Human Activities, Wind Farms')));
    assert.deepEqual(north.body.data.attribution, ['EMODnet Human Activities, Wind Farms (data originator CETMAR), version 2026-01-27, https://emodnet.ec.europa.eu/en/human-activities, CC BY 4.0']);
  });

  it('pages the layer with a signed cursor and filters by near, status and country', async () => {
    const first = await get('/objects_geojson?category=offshore_wind_farm&limit=400');
    validGeojson(first.body.data);
    assert.equal(first.body.data.total, 1038);
    assert.equal(first.body.data.features.length, 400);
    assert.ok(first.body.data.features.every((f: { geometry: { type: string } }) => f.geometry.type === 'Point'));
    const seen = new Set(first.body.data.features.map((f: { id: string }) => f.id));
    let cursor = first.body.data.next_cursor;
    while (cursor) {
      const next = await get(`/objects_geojson?category=offshore_wind_farm&limit=400&cursor=${encodeURIComponent(cursor)}`);
      for (const f of next.body.data.features) seen.add(f.id);
      cursor = next.body.data.next_cursor;
    }
    assert.equal(seen.size, 1038);
    const other = await get(`/objects_geojson?category=bulk_terminal&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    assert.equal(other.status, 400);
    assert.equal(other.body.errors[0].code, 'cursor_invalid');
    const otherBox = await get(`/objects_geojson?category=offshore_wind_farm&limit=400&bbox=-4,51,9,58&cursor=${encodeURIComponent(first.body.data.next_cursor)}`);
    assert.equal(otherBox.body.errors[0].code, 'cursor_invalid');
    const near = await get('/objects?near=36.9,7.77&radius_km=5');
    assert.equal(near.body.data.items[0].id, 'gem_gctt:T1314');
    assert.ok(near.body.data.items[0].distance_km < 1);
    const indonesia = await get('/objects?country=indonesia&category=bulk_terminal&status=operating&limit=500');
    assert.ok(indonesia.body.data.total > 0);
    assert.ok(indonesia.body.data.items.every((o: { country: string; status: string }) => o.country === 'Indonesia' && o.status === 'operating'));
    const overview = await get('/objects_overview?category=offshore_wind_farm');
    assert.equal(overview.body.data.objects, 1038);
    assert.equal(overview.body.data.by_source.emodnet_wind_polygons, 600);
  });

  it('refuses malformed input naming the field, and unknown ids', async () => {
    for (const [query, field] of [
      ['?bbox=1,2,3', 'bbox'],
      ['?bbox=10,50,20,40', 'bbox'],
      ['?near=95,10', 'near'],
      ['?radius_km=10', 'radius_km'],
      ['?category=refinery', 'category'],
      ['?status=open', 'status'],
    ] as const) {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.errors[0].code, 'invalid_request');
      assert.match(res.body.errors[0].field, new RegExp(`(^|\.)${field}$`));
    }
    const missing = await get('/object?id=gem_gctt:T0000');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errors[0].code, 'not_found');
    const unknownSource = await get('/source_health_detail?source=nope');
    assert.equal(unknownSource.status, 404);
    assert.equal(unknownSource.body.errors[0].code, 'not_found');
  });

  it('computes status, coverage, quality and the meta documents from what is stored', async () => {
    const status = (await get('/status')).body.data;
    assert.equal(status.state, 'partial');
    assert.equal(status.objects, 466 + 18 + 12 + 1038);
    assert.equal(status.by_category.bulk_terminal, 466);
    assert.equal(status.sources_ingested, 5);
    const categories = (await get('/categories')).body.data.items;
    assert.equal(categories.find((c: { id: string }) => c.id === 'pipeline_landfall').objects, 8);
    const coverage = (await get('/coverage?group_by=source')).body.data;
    assert.equal(coverage.groups.find((g: { key: string }) => g.key === 'gem_gctt').objects, 466);
    const external = (await get('/external_coverage')).body.data;
    const terminals = external.items.find((i: { measure: string }) => i.measure === 'terminals (gem-terminal-id)');
    assert.deepEqual([terminals.reference, terminals.layer, terminals.gap], [468, 466, 2]);
    const backlog = (await get('/coverage_backlog')).body.data.items;
    assert.ok(backlog.some((b: { id: string; priority: number }) => b.id === 'ingest:gem_gogpt' && b.priority === 1));
    assert.ok(backlog.some((b: { id: string }) => b.id === 'uncovered:offshore_platform'));
    const plan = (await get('/coverage_plan')).body.data.steps;
    assert.equal(plan[0].step, 1);
    assert.equal(plan.length, backlog.length);
    const candidates = (await get('/coverage_candidates')).body.data.items;
    assert.ok(candidates.find((c: { id: string }) => c.id === 'ogim').fills.includes('uncovered:refinery'));
    const digest = (await get('/coverage_candidates_digest')).body.data;
    assert.equal(digest.candidates, candidates.length);
    // what the operator does next: the open-licence candidate closing the most backlog items, and how to get it
    assert.deepEqual(digest.next, { id: 'ogim', closes: 3, blocker: 'too_large', obtain: 'Zenodo OGIM release' });
    assert.deepEqual(digest.backlog_items_they_close, [
      'empty:coastal_power_plant',
      'uncovered:cable_landing',
      'uncovered:offshore_platform',
      'uncovered:oil_pipeline',
      'uncovered:oil_terminal',
      'uncovered:refinery',
    ]);
    const sourcesMeta = (await get('/external_sources_completion_meta')).body.data;
    assert.deepEqual(
      sourcesMeta.not_ingested.map((n: { source: string; file_present: boolean; last_error: string | null; action: string }) => [n.source, n.file_present, n.last_error, n.action]),
      ['gem_gogpt', 'gem_gnpt', 'gem_gcpt'].map((id) => [id, true, null, `bosun layers ingest resource_infra --source ${id}`]),
    );
    const completion = (await get('/completion_status_meta')).body.data;
    assert.deepEqual(completion.empty_categories, [
      { category: 'coastal_power_plant', actions: ['gem_gogpt', 'gem_gnpt', 'gem_gcpt'].map((id) => `bosun layers ingest resource_infra --source ${id}`) },
    ]);
    assert.deepEqual(
      completion.uncovered_candidates.find((u: { category: string }) => u.category === 'refinery'),
      { category: 'refinery', candidates: ['ogim', 'eia_us_refineries'] },
    );
    const health = (await get('/source_health')).body.data;
    assert.equal(health.summary.not_ingested, 3);
    const detail = (await get('/source_health_detail?source=gem_goget')).body.data;
    assert.deepEqual(detail.failure_reasons, { swapped_coordinates: 4 });
    assert.equal(detail.findings.placeholder_coordinates, 3);
    const gate = (await get('/stability_gate')).body.data;
    assert.equal(gate.passed, false);
    assert.equal(gate.checks.find((c: { id: string }) => c.id === 'all_sources_ingested').passed, false);
    assert.equal(gate.checks.find((c: { id: string }) => c.id === 'rerun_idempotent').passed, true);
    const diagnostics = (await get('/import_diagnostics')).body.data.items;
    assert.deepEqual(diagnostics.find((d: { source: string }) => d.source === 'gem_goget').skipped, { onshore: 12 });
    const imports = (await get('/external_import_summary')).body.data;
    assert.equal(imports.operator_files.runs, 4);
    assert.equal(imports.shipped_files.runs, 2);
    const progress = (await get('/progress')).body.data;
    assert.equal(progress.sources_ingested, 5);
    const freshness = (await get('/freshness')).body.data.items;
    assert.equal(freshness.find((x: { source: string }) => x.source === 'gem_gctt').release, '2025-01-15');
    const growth = (await get('/growth_timeline')).body.data;
    assert.equal(
      growth.points.reduce((a: number, p: { created: number }) => a + p.created, 0),
      466 + 18 + 12 + 1038,
    );
    const snapshot = (await get('/layer_status_snapshot_meta')).body.data;
    assert.match(snapshot.content_digest, /^[0-9a-f]{64}$/);
    assert.equal((await get('/completion_status_meta')).body.data.categories_filled, 7);
    assert.equal((await get('/project_closeout_status_meta')).body.data.closable, false);
    assert.equal((await get('/backlog_machine_meta')).body.data.items, backlog.length);
    assert.equal((await get('/external_sources_completion_meta')).body.data.ingested_sources, 5);
    assert.ok((await get('/reports_freshness_meta')).body.data.stale_sources.includes('gem_ggit_lng'));
    const attribution = (await get('/attribution')).body.data;
    assert.equal(attribution.lines.length, 4);
    const sources = (await get('/sources')).body.data.items;
    assert.equal(sources.find((s: { id: string }) => s.id === 'gem_gctt').runs, 2);
    const ui = (await get('/map_ui_contract_status')).body.data;
    assert.equal(ui.passed, true);
    const quality = await get('/geometry_quality.geojson?kind=offshore_on_land&limit=200');
    validGeojson(quality.body.data);
    assert.equal(quality.body.data.total, 12 + 3);
  });

  it('serves the operator documents to the operator only', async () => {
    const agent = await app.registerAgent('infra-reader');
    for (const path of [
      '/ingest_failures',
      '/ingest_runs',
      '/qa_duplicates',
      '/ops_snapshot',
      '/internal_only_roadmap',
      '/source_blockers',
      '/map_profile',
      '/map_profile_alerts',
      '/ops_health_rollup',
    ]) {
      const anonymous = await get(path);
      assert.ok(anonymous.status === 401 || anonymous.status === 403, path);
      const keyed = await get(path, agent.apiKey);
      assert.ok(keyed.status === 401 || keyed.status === 403, path);
      assert.equal((await get(path, operator)).status, 200, path);
    }
    const runs = (await get('/ingest_runs?limit=2', operator)).body.data;
    assert.equal(runs.items.length, 2);
    assert.equal(runs.items[0].source, 'emodnet_wind_points');
    const more = (await get(`/ingest_runs?limit=10&cursor=${encodeURIComponent(runs.next_cursor)}`, operator)).body.data;
    assert.equal(more.items.length, 4);
    const blockers = (await get('/source_blockers', operator)).body.data.items;
    assert.equal(blockers.find((b: { source: string }) => b.source === 'telegeography_landings').blockers[0].startsWith('non_commercial_licence'), true);
    // an ingested source is not blocked and needs nothing; a candidate says how to obtain it
    assert.deepEqual(
      blockers.filter((b: { source: string }) => ['gem_gctt', 'ogim'].includes(b.source)).map((b: { source: string; blocked: boolean; action: string | null }) => [b.source, b.blocked, b.action]),
      [
        ['gem_gctt', false, null],
        ['ogim', true, 'Zenodo OGIM release'],
      ],
    );
    const profile = (await get('/map_profile', operator)).body.data.items;
    assert.equal(profile.find((p: { category: string }) => p.category === 'offshore_wind_farm').objects, 1038);
    const alerts = (await get('/map_profile_alerts', operator)).body.data.items;
    assert.ok(alerts.some((a: { alert: string; category: string }) => a.alert === 'needs_paging' && a.category === 'offshore_wind_farm'));
    const rollup = (await get('/ops_health_rollup', operator)).body.data;
    assert.equal(rollup.readiness, 'partial');
    const roadmap = (await get('/internal_only_roadmap', operator)).body.data.items;
    assert.ok(roadmap.some((i: { id: string }) => i.id === 'gate:all_sources_ingested'));
    const ops = (await get('/ops_snapshot', operator)).body.data;
    assert.equal(ops.objects, 466 + 18 + 12 + 1038);
  });
});
