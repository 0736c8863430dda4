import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInfraLayerFile, SHIPPED_INFRA_LAYER, type InfraLayerFile } from '../../src/features/resource-infra/layer-file.js';
import { INFRA_SOURCES } from '../../src/features/resource-infra/sources.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { rfc7946Issues } from '../helpers/geojson.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const BASE = '/v1/layers/resource_infra';
const infraDir = sharedDataPath('infra/PROVENANCE.md');

// A fresh install: the store is empty and only the repository's built file is there (no ../shared needed).
describe('resource_infra: the built layer file a fresh install serves', () => {
  let app: TestApp;
  let shipped: InfraLayerFile;
  let operator: string;
  const get = (path: string, token?: string) => app.api('GET', `${BASE}${path}`, token ? { token } : {});
  const objectsOf = (source: string) => shipped.sources.find((s) => s.source_id === source)!.objects;

  before(async () => {
    shipped = readInfraLayerFile();
    app = await startTestApp({ bosun: { infraLayerFile: SHIPPED_INFRA_LAYER() } });
    operator = await app.operatorToken();
  });
  after(async () => app?.close());

  it('holds every declared source with its attribution line', () => {
    assert.deepEqual(
      shipped.sources.map((s) => s.source_id),
      INFRA_SOURCES.map((s) => s.id),
    );
    assert.deepEqual(
      shipped.attribution,
      INFRA_SOURCES.map((s) => s.attribution),
    );
    assert.equal(
      shipped.sources.reduce((a, s) => a + s.objects.length, 0),
      11230,
    );
  });

  it('serves the whole layer without any ingest: ready, every object, every source as the build ingested it', async () => {
    const status = (await get('/status')).body.data;
    assert.equal(status.state, 'ready');
    assert.equal(status.objects, 11230);
    assert.equal(status.by_category.gas_pipeline, 3067);
    assert.equal(status.by_category.offshore_wind_farm, 600 + 438);
    const readiness = (await get('/readiness')).body.data;
    assert.equal(readiness.ready, true);
    assert.equal(readiness.how_to_fill, null);
    const runs = (await get('/ingest_runs?limit=20', operator)).body.data.items;
    assert.equal(runs.length, 8);
    const stored = (await app.bosun.ctx.services.resourceInfra.facts()).runs;
    for (const run of runs) {
      const source = shipped.sources.find((s) => s.source_id === run.source)!;
      assert.deepEqual([run.state, run.shipped_file, run.rows_read, run.failed], ['succeeded', true, source.run.rows_read, source.run.failed]);
      assert.equal(stored.find((r) => r.id === run.run_id)!.file, `resources/infra/resource-infra.json.gz (built from ${source.file})`);
    }
    const coal = (await get('/object?id=gem_gctt:T1314')).body.data;
    assert.equal(coal.name, 'Annaba Coal Terminal');
    assert.equal(coal.attribution, 'Global Energy Monitor, Global Coal Terminals Tracker, January 2025 release. CC BY 4.0');
    assert.deepEqual(coal.geometry, { type: 'Point', coordinates: [7.775234, 36.90051] });
    // the failed rows and findings of the build are there too
    const failures = (await get('/ingest_failures?source=gem_goget&limit=200', operator)).body.data.items;
    assert.equal(failures.length, 70);
    assert.equal((await get('/geometry_quality?kind=placeholder_coordinates')).body.data.findings.total, 69);
  });

  it('serves RFC 7946 GeoJSON with attribution from every GeoJSON operation of the layer', async () => {
    const pages = [
      await get('?category=offshore_wind_farm&limit=500'),
      await get('?bbox=-10,35,30,60&limit=500'),
      await get('/objects_geojson?limit=500'),
      await get('/geometry_quality.geojson?limit=200'),
      await get('/geometry_quality.geojson?kind=landfall_inland&limit=200'),
      await get('/geometry_quality.geojson?kind=capacity_implausible'),
    ];
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.ok(page.body.data.features.length > 0);
      assert.deepEqual(rfc7946Issues(page.body.data, { perFeature: true }), []);
    }
    // every wind farm and every pipeline landfall marker streamed as one document each, over a real
    // connection (several MB); the winding of every stored polygon is checked by the map contract below
    await app.bosun.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.bosun.http.server.address() as AddressInfo;
    for (const [path, n] of [
      ['?format=stream&category=offshore_wind_farm', 1038],
      ['/objects_geojson?format=stream&category=pipeline_landfall', 677],
    ] as const) {
      const doc = (await (await fetch(`http://127.0.0.1:${port}${BASE}${path}`)).json()) as { features: unknown[] };
      assert.equal(doc.features.length, n);
      assert.deepEqual(rfc7946Issues(doc, { perFeature: true }), []);
    }
  });

  it('flags the repeated GEM capacity of Habshan–Maqta–Taweelah and leaves it out of the capacity totals', async () => {
    const implausible = (await get('/geometry_quality?kind=capacity_implausible')).body.data.findings.items;
    const habshan = implausible.filter((f: { object_id: string }) => ['P5687', 'P5688', 'P5689', 'P5690'].some((id) => f.object_id === `gem_ggit_lng:${id}`));
    assert.equal(habshan.length, 4);
    assert.ok(habshan.every((f: { detail: { capacity: number } }) => f.detail.capacity === 101358.74));
    const overview = (await get('/objects_overview?category=gas_pipeline')).body.data;
    const excluded = overview.capacity_excluded.filter((x: { flag: string }) => x.flag === 'capacity_implausible');
    assert.equal(excluded.length, implausible.length);
    const pipelines = objectsOf('gem_ggit_lng').filter((o) => o.category === 'gas_pipeline');
    const total = pipelines.reduce((a, o) => a + ((JSON.parse(o.body) as { capacity: number | null }).capacity ?? 0), 0);
    const kept = total - excluded.reduce((a: number, x: { capacity: number }) => a + x.capacity, 0);
    assert.ok(Math.abs(overview.capacity_by_category.gas_pipeline['bcm/y'] - kept) < 0.01);
    assert.ok(overview.capacity_by_category.gas_pipeline['bcm/y'] < total * 0.1, 'the four Habshan rows were over 90 % of the raw total');
    const object = (await get('/object?id=gem_ggit_lng:P5690')).body.data;
    assert.ok(object.quality_flags.includes('capacity_implausible'));
    assert.ok(object.quality_flags.includes('capacity_repeated'));
  });

  it('flags landfall points more than 5 km inland', async () => {
    const inland = (await get('/geometry_quality?kind=landfall_inland&limit=200')).body.data.findings;
    assert.ok(inland.total > 0);
    for (const f of inland.items) {
      assert.ok(f.detail.coast_km === null || f.detail.coast_km > 5, JSON.stringify(f.detail));
      assert.match(f.object_id, /:landfall:\d+$/);
    }
    const landfalls = objectsOf('gem_ggit_lng').filter((o) => o.category === 'pipeline_landfall');
    const farInland = landfalls.filter((o) => {
      const km = (JSON.parse(o.body) as { coast_km: number | null }).coast_km;
      return km === null || km > 5;
    });
    assert.equal(inland.total, farInland.length);
  });

  it('answers the map contract from the stored objects: every polygon wound as RFC 7946 asks', async () => {
    const contract = (await get('/map_ui_contract_status')).body.data;
    const winding = contract.checks.find((c: { id: string }) => c.id === 'ring_winding_rfc7946');
    assert.deepEqual([winding.passed, winding.objects, winding.action], [true, [], null]);
    assert.match(winding.detail, /^0 polygon objects/);
    const gate = (await get('/stability_gate')).body.data;
    assert.equal(gate.checks.find((c: { id: string }) => c.id === 'no_invalid_geometry').passed, true);
  });
});

describe('resource_infra: an ingest updates the built layer', { skip: infraDir.skip }, () => {
  let app: TestApp;
  let dir: string;

  before(async () => {
    app = await startTestApp({ bosun: { infraLayerFile: SHIPPED_INFRA_LAYER() } });
    dir = mkdtempSync(join(tmpdir(), 'bosun-infra-shipped-'));
  });
  after(async () => {
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an ingest of one source into an empty store keeps the other sources as built, and finds the same file unchanged', async () => {
    const infra = app.bosun.ctx.services.resourceInfra;
    const report = (await infra.ingest({ source: 'gem_gctt' })).reports[0]!;
    assert.deepEqual([report.created, report.updated, report.removed, report.unchanged], [0, 0, 0, 466]);
    assert.equal(report.objects_after, 11230);
    const gate = (await app.api('GET', `${BASE}/stability_gate`)).body.data;
    const rerun = gate.checks.find((c: { id: string }) => c.id === 'rerun_idempotent');
    assert.equal(rerun.passed, true, rerun.detail);
  });

  it('an ingest of another file of a source replaces its objects', async () => {
    const csv = readFileSync(join(infraDir.path, '..', 'gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv'), 'utf8').split('\n');
    // the header and the rows of the Annaba terminal only
    writeFileSync(join(dir, 'coal.csv'), [csv[0], ...csv.slice(1).filter((l) => l.includes('T1314'))].join('\n') + '\n');
    const report = (await app.bosun.ctx.services.resourceInfra.ingest({ source: 'gem_gctt', file: join(dir, 'coal.csv') })).reports[0]!;
    assert.deepEqual([report.created, report.removed, report.unchanged], [0, 465, 1]);
    const status = (await app.api('GET', `${BASE}/status`)).body.data;
    assert.equal(status.objects, 11230 - 465);
    assert.equal(status.by_category.bulk_terminal, 1);
  });
});
