import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR } from '../../src/platform/clock.js';
import { DependencyUnavailableError } from '../../src/platform/dependency.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { withApp } from '../helpers/app.js';

test('pages whose store is unavailable answer 503 with Retry-After like the API: the map data as the error envelope, HTML pages as a 503 page', async () => {
  await withApp(async (app) => {
    const now = app.clock.now();
    const { fleet, vessels, consoleSessions } = app.bosun.ctx.services;
    await ingest(fleet, identity(244020001, now - 30 * HOUR, { name: 'STORE WATCH' }), position(244020001, now - 20 * HOUR, 52, 4));
    const before = await app.api('GET', '/map/data/vessels.geojson');
    assert.equal(before.status, 200);

    // the store goes away under the vessels service (as a PostgreSQL outage surfaces)
    const away = async (): Promise<never> => {
      throw new DependencyUnavailableError('store', { cause: new Error('connection refused') });
    };
    vessels.visible = away;
    app.clock.advance(HOUR); // past the layer cache
    const data = await app.api('GET', '/map/data/vessels.geojson');
    assert.equal(data.status, 503, data.text.slice(0, 200));
    assert.equal(data.headers['retry-after'], '5');
    assert.equal(data.body.status, 'error');
    assert.equal(data.body.errors[0].code, 'dependency_unavailable');
    assert.match(data.body.errors[0].message, /the database is unavailable right now; retry in 5 s/);

    consoleSessions.resume = away;
    const page = await app.api('GET', '/console/map', { headers: { cookie: 'bosun_console=some-session' } });
    assert.equal(page.status, 503, page.text.slice(0, 200));
    assert.equal(page.headers['retry-after'], '5');
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.text, /The database is unavailable right now; try again in 5 seconds/);
  });
});
