import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readInfraLayerFile } from '../../src/features/resource-infra/layer-file.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

const n = (value: number) => value.toLocaleString('en-US');

// The figures docs/resource-infra.md gives are those of the ingest: the shipped layer file is a full
// ingest, and resource-infra-full.test.ts checks that it matches a rebuild from the sources.
test('docs/resource-infra.md gives the counts of the ingest (the shipped layer file)', () => {
  const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'resource-infra.md'), 'utf8');
  const file = readInfraLayerFile();
  const source = (id: string) => file.sources.find((s) => s.source_id === id)!;
  const objects = (id: string, category?: string) => source(id).objects.filter((o) => !category || o.category === category).length;
  const skipped = (id: string, rule: string) => (JSON.parse(source(id).run.skipped) as Record<string, number>)[rule] ?? 0;
  const findings = (id: string, kind: string) => source(id).findings.filter((f) => f.kind === kind).length;
  const rowOf = (id: string) => doc.split('\n').find((l) => l.startsWith(`| ${id} `)) ?? '';
  const rows = file.sources.reduce((a, s) => a + s.run.rows_read, 0);
  const total = file.sources.reduce((a, s) => a + s.objects.length, 0);
  const expected: Array<[string, string]> = [
    ['gem_ggit_lng', `${n(objects('gem_ggit_lng', 'lng_import_terminal') + objects('gem_ggit_lng', 'lng_export_terminal'))} terminals`],
    ['gem_ggit_lng', `${n(objects('gem_ggit_lng', 'gas_pipeline'))} pipelines`],
    ['gem_ggit_lng', `${n(objects('gem_ggit_lng', 'pipeline_landfall'))} landfalls`],
    ['gem_gctt', `| ${n(objects('gem_gctt'))} (${source('gem_gctt').run.failed} rows without location fail)`],
    ['gem_goget', `${n(objects('gem_goget'))} at sea (${n(skipped('gem_goget', 'onshore'))} onshore skipped, ${source('gem_goget').run.failed} rows rejected`],
    ['gem_gogpt', `${n(objects('gem_gogpt'))} coastal (${n(skipped('gem_gogpt', 'inland'))} inland skipped)`],
    ['gem_gnpt', `${n(objects('gem_gnpt'))} coastal (${n(skipped('gem_gnpt', 'inland'))} inland skipped)`],
    ['gem_gcpt', `${n(objects('gem_gcpt'))} coastal plants per GEM location ID (${n(skipped('gem_gcpt', 'inland'))} inland skipped)`],
    [
      'emodnet_wind_polygons',
      `${objects('emodnet_wind_polygons')} + ${objects('emodnet_wind_points')} (${findings('emodnet_wind_points', 'offshore_on_land')} points and ${findings('emodnet_wind_polygons', 'offshore_on_land')} polygons on land flagged`,
    ],
  ];
  for (const [id, text] of expected) assert.ok(rowOf(id).includes(text), `the ${id} row of docs/resource-infra.md should say "${text}": ${rowOf(id)}`);
  assert.ok(doc.includes(`${n(rows)} rows, ${n(total)} objects`), `the full ingest is ${n(rows)} rows, ${n(total)} objects`);
  assert.ok(doc.includes(`GEM's Habshan–Maqta–Taweelah rows carry 101,358.74 bcm/y on each of four segments`));
  assert.equal(findings('gem_ggit_lng', 'capacity_implausible'), 5, 'the docs name the four Habshan–Maqta–Taweelah segments and Zohr–AlGamil');
});
