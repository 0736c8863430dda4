import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { MAP_LAYER_TTL_MS } from '../../src/features/map/map-service.js';
import { withApp } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { rfc7946Issues } from '../helpers/geojson.js';

const DELAY_MS = 50_400 * SECOND;
type Fc = { features: Array<{ properties: Record<string, any> }>; horizon: string; changes_since?: string; total?: number; generated_at: string };

test('map polls after the first send only the vessels whose visible position changed since the last horizon, with the total to check a merge against', async () => {
  await withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const now = app.clock.now();
    await ingest(
      fleet,
      identity(244020001, now - 20 * HOUR, { name: 'STEADY', shipType: 70 }),
      position(244020001, now - 20 * HOUR, 10, 10),
      identity(244020002, now - 20 * HOUR, { name: 'MOVER', shipType: 80 }),
      position(244020002, now - 20 * HOUR, 11, 11),
      position(244020002, now - DELAY_MS + 5 * MINUTE, 11.1, 11.1),
    );

    const first = (await app.api('GET', '/map/data/vessels.geojson')).body as Fc;
    assert.deepEqual(first.features.map((f) => f.properties.name).sort(), ['MOVER', 'STEADY']);
    assert.equal(first.horizon, new Date(now - DELAY_MS).toISOString(), 'the anonymous horizon is the preview delay ago');
    assert.equal(first.changes_since, undefined);

    const none = await app.api('GET', `/map/data/vessels.geojson?since=${encodeURIComponent(first.horizon)}`);
    assert.equal(none.status, 200);
    assert.deepEqual([(none.body as Fc).features.length, (none.body as Fc).total, (none.body as Fc).changes_since], [0, 2, first.horizon]);

    // 10 minutes later MOVER's position of 5 minutes past the old horizon is old enough to show; STEADY has not moved
    app.clock.advance(10 * MINUTE + MAP_LAYER_TTL_MS);
    const changed = (await app.api('GET', `/map/data/vessels.geojson?since=${encodeURIComponent(first.horizon)}`)).body as Fc;
    assert.deepEqual(
      changed.features.map((f) => [f.properties.name, f.properties.observed_at]),
      [['MOVER', new Date(now - DELAY_MS + 5 * MINUTE).toISOString()]],
    );
    assert.equal(changed.total, 2);
    assert.ok(Date.parse(changed.horizon) > Date.parse(first.horizon));

    for (const bad of ['yesterday', '2026-11-27', '1e12']) {
      const refused = await app.api('GET', `/map/data/vessels.geojson?since=${bad}`);
      assert.equal(refused.status, 400, bad);
      assert.match(refused.text, /since must be the horizon of an earlier answer/);
    }
  });
});

/** Even-odd point in a polygon's rings (the exterior and its holes). */
function inPolygon(rings: Array<Array<[number, number]>>, lon: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  return inside;
}

test('the detailed coast: Natural Earth 1:10m land clipped to the asked box, valid GeoJSON; bad boxes refused', async () => {
  await withApp(async (app) => {
    const res = await app.api('GET', '/map/data/coast.geojson?bbox=4,51,6,53');
    assert.equal(res.status, 200, res.text);
    const fc = JSON.parse(res.text) as { attribution: string; features: Array<{ geometry: { type: string; coordinates: Array<Array<Array<[number, number]>>> } }> };
    assert.match(fc.attribution, /Natural Earth 1:10m/);
    assert.deepEqual(rfc7946Issues(fc as never, { perFeature: false }), []);
    const polygons = fc.features[0]!.geometry.coordinates;
    assert.ok(polygons.length > 0);
    for (const rings of polygons) for (const ring of rings) for (const [lon, lat] of ring) assert.ok(lon >= 4 && lon <= 6 && lat >= 51 && lat <= 53, `${lon},${lat} outside the box`);
    const onLand = (lon: number, lat: number) => polygons.some((rings) => inPolygon(rings, lon, lat));
    assert.equal(onLand(5.12, 52.09), true, 'Utrecht is land');
    assert.equal(onLand(4.2, 52.6), false, 'the North Sea off IJmuiden is not');

    for (const [bbox, reason] of [
      ['4,51,6', /four decimal numbers/],
      ['6,51,4,53', /minLon < maxLon/],
      ['-170,10,170,20', /at most 24°/],
      ['4,51,6,95', /within -180..180 and -90..90/],
      ['0x4,51,6,53', /four decimal numbers/],
    ] as const) {
      const refused = await app.api('GET', `/map/data/coast.geojson?bbox=${bbox}`);
      assert.equal(refused.status, 400, bbox);
      assert.match(refused.text, reason);
    }
  });
});
