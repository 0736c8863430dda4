import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { getIssues } from '@placemarkio/check-geojson';
import { buildOpenApi } from '../../src/catalog/openapi.js';
import { INFRA_SOURCES } from '../../src/features/resource-infra/sources.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createSchemaChecker } from '../helpers/schema-check.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const BASE = '/v1/layers/resource_infra';
const coal = sharedDataPath('infra/gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv');
const attributionOf = (id: string) => INFRA_SOURCES.find((s) => s.id === id)!.attribution;

interface Feature {
  id: string;
  geometry: { type: string };
  properties: { source: string; attribution: string; category: string };
}

describe('resource_infra: the whole layer streamed as one FeatureCollection', { skip: coal.skip }, () => {
  let app: TestApp;
  const get = (path: string) => app.api('GET', `${BASE}${path}`);

  /** Every feature of a paged query, following next_cursor (500 a page). */
  async function allPages(query: string): Promise<Feature[]> {
    const features: Feature[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`${query}${query.includes('?') ? '&' : '?'}limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.status, 200);
      features.push(...page.body.data.features);
      cursor = page.body.data.next_cursor;
    } while (cursor);
    return features;
  }

  before(async () => {
    app = await startTestApp();
  });
  after(async () => {
    await app?.close();
  });

  it('streams the empty layer as a valid empty FeatureCollection', async () => {
    const res = await get('?format=stream');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/geo\+json/);
    assert.deepEqual(JSON.parse(res.text), { type: 'FeatureCollection', total: 0, next_cursor: null, data_version: 0, attribution: [], features: [] });
  });

  it('streams every object of a layer larger than one page: valid RFC 7946, the exact count, the attribution', async () => {
    const infra = app.bosun.ctx.services.resourceInfra;
    await infra.ingest({ source: 'gem_gctt' });
    await infra.ingest({ source: 'emodnet_wind_polygons' });
    const stored = (await get('?limit=1')).body.data.total as number;
    assert.ok(stored > 500, `the layer holds more than one page (${stored})`);

    // over a real connection (several MB: the stream waits for the socket to drain)
    await app.bosun.http.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.bosun.http.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${BASE}?format=stream`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^application\/geo\+json/);
    const text = await res.text();
    assert.ok(text.length > 1 << 20, `more than the 1 MiB the stream lets a client lag (${text.length} bytes)`);
    assert.deepEqual(getIssues(text), []);
    createSchemaChecker(buildOpenApi(app.bosun.ctx.catalog, 'http://localhost', { audience: 'operator' })).check('GET', BASE, 200, 'application/geo+json', JSON.parse(text));
    const doc = JSON.parse(text) as { type: string; total: number; next_cursor: null; attribution: string[]; features: Feature[] };
    assert.equal(doc.type, 'FeatureCollection');
    assert.equal(doc.features.length, stored);
    assert.equal(doc.total, stored);
    assert.equal(doc.next_cursor, null);
    assert.deepEqual(doc.attribution, [attributionOf('gem_gctt'), attributionOf('emodnet_wind_polygons')]);
    for (const f of doc.features) assert.equal(f.properties.attribution, attributionOf(f.properties.source));
    assert.ok(doc.features.some((f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon'));
    // the same features, in the same order, as paging through the layer
    assert.deepEqual(
      doc.features.map((f) => f.id),
      (await allPages('')).map((f) => f.id),
    );
  });

  it('applies the filters; the markers operation streams points', async () => {
    const paged = await get('?category=bulk_terminal&country=Indonesia&limit=1');
    const streamed = JSON.parse((await get('?format=stream&category=bulk_terminal&country=Indonesia')).text) as { total: number; features: Feature[]; attribution: string[] };
    assert.ok(paged.body.data.total > 10);
    assert.equal(streamed.features.length, paged.body.data.total);
    assert.ok(streamed.features.every((f) => f.properties.category === 'bulk_terminal'));
    assert.deepEqual(streamed.attribution, [attributionOf('gem_gctt')]);

    const markers = await app.api('GET', `${BASE}/objects_geojson?format=stream&source=emodnet_wind_polygons`);
    assert.equal(markers.status, 200);
    assert.deepEqual(getIssues(markers.text), []);
    const points = JSON.parse(markers.text) as { total: number; features: Feature[] };
    assert.equal(points.features.length, points.total);
    assert.ok(points.total > 0 && points.features.every((f) => f.geometry.type === 'Point'));
  });

  it('refuses a cursor with format=stream and an unknown format', async () => {
    const page = await get('?limit=1');
    const withCursor = await get(`?format=stream&cursor=${encodeURIComponent(page.body.data.next_cursor)}`);
    assert.equal(withCursor.status, 400);
    assert.equal(withCursor.body.errors[0].code, 'invalid_request');
    assert.equal(withCursor.body.errors[0].field, 'query.cursor');
    const unknown = await get('?format=zip');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.errors[0].code, 'invalid_request');
  });
});
