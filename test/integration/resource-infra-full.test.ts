import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getIssues } from '@placemarkio/check-geojson';
import { readInfraLayerFile } from '../../src/features/resource-infra/layer-file.js';
import type { IngestReport } from '../../src/features/resource-infra/pipeline.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const infraDir = sharedDataPath('infra/PROVENANCE.md');

// The full ingest of every shipped source (about 40 s on SQLite, half of it the coal plant workbook), its counts against ../shared/data/infra/PROVENANCE.md.
describe('resource_infra full ingest', { skip: infraDir.skip }, () => {
  let app: TestApp;
  let reports: Map<string, IngestReport>;

  before(async () => {
    app = await startTestApp();
    const { reports: list, missing } = await app.bosun.ctx.services.resourceInfra.ingest({});
    assert.deepEqual(missing, []);
    reports = new Map(list.map((r) => [r.source, r]));
  });
  after(async () => app?.close());

  it('reads every row PROVENANCE.md counts', () => {
    const rows = Object.fromEntries([...reports].map(([id, r]) => [id, r.rows_read]));
    assert.deepEqual(rows, { gem_ggit_lng: 4358, gem_gctt: 521, gem_goget: 7396, gem_gogpt: 12436, gem_gnpt: 1541, gem_gcpt: 14004, emodnet_wind_polygons: 600, emodnet_wind_points: 438 });
  });

  it('stores the entities PROVENANCE.md counts, and accounts for every other row', async () => {
    const status = (await app.api('GET', '/v1/layers/resource_infra/status')).body.data;
    assert.equal(status.state, 'ready');
    assert.equal(status.by_category.lng_import_terminal + status.by_category.lng_export_terminal, 805); // 784 urls, 21 both import and export
    assert.equal(status.by_category.gas_pipeline, 3067);
    assert.equal(status.by_category.offshore_wind_farm, 600 + 438);
    assert.equal(status.by_category.bulk_terminal, 466); // 468 terminals, 2 whose only row has lat/lng "-"
    const goget = reports.get('gem_goget')!;
    assert.equal(goget.failed, 70);
    assert.equal(goget.findings.placeholder_coordinates, 69);
    assert.equal(goget.findings.swapped_coordinates, 1);
    assert.equal(goget.created + goget.skipped.onshore!, 7396 - 70);
    assert.equal(reports.get('gem_gogpt')!.created + reports.get('gem_gogpt')!.skipped.inland!, 5441);
    assert.equal(reports.get('gem_gnpt')!.created + reports.get('gem_gnpt')!.skipped.inland!, 521);
    assert.equal(reports.get('gem_gcpt')!.created + reports.get('gem_gcpt')!.skipped.inland!, 4721);
    assert.equal(reports.get('emodnet_wind_points')!.findings.offshore_on_land, 12);
    assert.equal(reports.get('gem_gctt')!.findings.missing_location, 2);
    const external = (await app.api('GET', '/v1/layers/resource_infra/external_coverage')).body.data;
    const gaps = external.items.filter((i: { gap: number }) => i.gap !== 0).map((i: { source: string; measure: string; gap: number }) => `${i.source} ${i.measure} ${i.gap}`);
    assert.deepEqual(gaps, ['gem_gctt terminals (gem-terminal-id) 2', 'gem_goget units (unit-id), offshore kept and onshore skipped 70']);
  });

  it('gives the layer the repository ships: resources/infra/resource-infra.json.gz matches this rebuild (npm run build:infra)', async () => {
    const rebuilt = await app.bosun.ctx.services.resourceInfra.layerFile();
    const shipped = readInfraLayerFile();
    assert.deepEqual(
      shipped.sources.map((s) => s.source_id),
      rebuilt.sources.map((s) => s.source_id),
    );
    assert.deepEqual(shipped.attribution, rebuilt.attribution);
    const findingKey = (f: { kind: string; object_id: string | null; row_ref: string | null; detail: string }) => `${f.kind}|${f.object_id}|${f.row_ref}|${f.detail}`;
    for (const built of rebuilt.sources) {
      const ship = shipped.sources.find((s) => s.source_id === built.source_id)!;
      const message = `${built.source_id}: the shipped layer file differs from a rebuild; run npm run build:infra`;
      assert.deepEqual([ship.file, ship.file_sha256, ship.run], [built.file, built.file_sha256, built.run], message);
      assert.deepEqual(
        ship.objects.map((o) => `${o.id} ${o.content_hash}`),
        built.objects.map((o) => `${o.id} ${o.content_hash}`),
        message,
      );
      assert.deepEqual(ship.findings.map(findingKey).sort(), built.findings.map(findingKey).sort(), message);
      assert.deepEqual(ship.failures, built.failures, message);
    }
  });

  it('re-ingesting the largest file changes nothing', async () => {
    const again = (await app.bosun.ctx.services.resourceInfra.ingest({ source: 'gem_ggit_lng' })).reports[0]!;
    const before = reports.get('gem_ggit_lng')!;
    assert.deepEqual([again.created, again.updated, again.removed, again.unchanged], [0, 0, 0, before.created]);
  });

  it('answers a bbox page of the whole layer as valid GeoJSON', async () => {
    const res = await app.api('GET', '/v1/layers/resource_infra?bbox=-10,35,30,60&limit=500');
    assert.equal(res.body.data.features.length, 500);
    assert.ok(res.body.data.total > 500);
    assert.deepEqual(getIssues(JSON.stringify(res.body.data)), []);
  });
});
