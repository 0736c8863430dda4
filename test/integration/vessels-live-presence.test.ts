import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, SECOND } from '../../src/platform/clock.js';
import { PREVIEW } from '../../src/features/kit/preview-constants.js';
import { withApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';

/**
 * Live presence (issue 24, item 6; docs/decisions/109): without vessels:live, "heard 5 s ago, bound for
 * MXVER, draught 12.1 m" must not show through lookup on any path (REST, MCP, dispatch), the map or the
 * vessel ETA, while the position itself is delayed.
 */
const NOW = TEST_EPOCH;
const DELAY = PREVIEW.positionDelaySeconds;
const BOUND = { mmsi: 563066600, imo: imo(951444) };
const SETTLED = { mmsi: 563077700, imo: imo(961555) };
const NEW = { mmsi: 563088800, imo: imo(971666) };
const LIVE_DESTINATION = 'USHOU>MXVER';
const LIVE_ETA_TEXT = 'MXVER';

async function seed(app: TestApp) {
  await ingest(
    app.bosun.ctx.services.fleet,
    // BOUND: an old voyage report, positions up to 5 s ago, and a static report 1 h ago naming MXVER
    identity(BOUND.mmsi, NOW - 30 * HOUR, { imo: BOUND.imo, name: 'BOUND TRADER', shipType: 70, destination: 'SGSIN', draughtM: 9.5 }),
    position(BOUND.mmsi, NOW - 20 * HOUR, 29.3, -94.7),
    position(BOUND.mmsi, NOW - DELAY * SECOND - 60 * SECOND, 29.31, -94.71),
    position(BOUND.mmsi, NOW - HOUR, 29.4, -94.8),
    identity(BOUND.mmsi, NOW - HOUR, { imo: BOUND.imo, name: 'BOUND TRADER', shipType: 70, destination: LIVE_DESTINATION, draughtM: 12.1 }),
    position(BOUND.mmsi, NOW - 5 * SECOND, 29.5, -94.9),
    // SETTLED: silent for a day; everything it reported is older than the delay
    identity(SETTLED.mmsi, NOW - 26 * HOUR, { imo: SETTLED.imo, name: 'SETTLED', shipType: 80, destination: 'USHOU', draughtM: 8.2 }),
    position(SETTLED.mmsi, NOW - 25 * HOUR, 29.7, -95.0),
    // NEW: first heard 2 h ago
    identity(NEW.mmsi, NOW - 2 * HOUR, { imo: NEW.imo, name: 'NEWCOMER', shipType: 70, destination: 'USGLS', draughtM: 7 }),
    position(NEW.mmsi, NOW - 2 * HOUR, 29.2, -94.6),
  );
}

const iso = (t: number) => new Date(t).toISOString();

test('without vessels:live, lookup serves last_seen_at, data_age_seconds and the voyage as they were at the cutoff; with it, everything live', async () => {
  await withApp(async (app) => {
    await seed(app);
    const { apiKey: delayed } = await app.registerAgent('delayed-reader');
    const { agentId, apiKey: live } = await app.registerAgent('live-reader');
    await app.bosun.ctx.services.agents.grantScope(agentId, 'vessels:live', { kind: 'cli' });

    const bound = await app.api('GET', `/v1/vessels/lookup?imo=${BOUND.imo}`, { token: delayed });
    assert.equal(bound.status, 200, bound.text);
    const v = bound.body.data.vessel;
    const newestDelayed = NOW - DELAY * SECOND - 60 * SECOND;
    assert.equal(v.last_seen_at, iso(newestDelayed), 'the newest observation at least the delay old (the delayed position)');
    assert.equal(bound.body.data.data_age_seconds, DELAY + 60);
    assert.equal(bound.body.data.latest_position.observed_at, iso(newestDelayed));
    assert.deepEqual([v.destination, v.draught_m], ['SGSIN', 9.5], 'the voyage as it was at the cutoff, not the report of 1 h ago');
    assert.equal(v.first_seen_at, iso(NOW - 30 * HOUR));
    assert.deepEqual(bound.body.quality_flags, ['delayed_position']);
    assert.ok(!bound.text.includes(LIVE_ETA_TEXT), 'the live destination appears nowhere');
    assert.ok(bound.body.freshness_seconds >= DELAY);

    const settled = await app.api('GET', `/v1/vessels/lookup?imo=${SETTLED.imo}`, { token: delayed });
    assert.equal(settled.body.data.vessel.last_seen_at, iso(NOW - 25 * HOUR));
    assert.deepEqual([settled.body.data.vessel.destination, settled.body.data.vessel.draught_m], ['USHOU', 8.2], 'a report older than the delay is served');
    assert.equal(settled.body.data.data_age_seconds, 25 * 3600);
    assert.deepEqual(settled.body.quality_flags, ['delayed_position']);

    const newcomer = await app.api('GET', `/v1/vessels/lookup?imo=${NEW.imo}`, { token: delayed });
    assert.equal(newcomer.status, 200, newcomer.text);
    const n = newcomer.body.data;
    assert.deepEqual([n.vessel.first_seen_at, n.vessel.last_seen_at, n.data_age_seconds, n.latest_position], [null, null, null, null], 'first heard within the delay: no time to show');
    assert.deepEqual([n.vessel.destination, n.vessel.draught_m], [null, null], 'no voyage was known at the cutoff');
    assert.ok(newcomer.body.quality_flags.includes('voyage_withheld'));
    assert.equal(n.vessel.name, 'NEWCOMER', 'identity is still served');

    const liveBound = await app.api('GET', `/v1/vessels/lookup?imo=${BOUND.imo}`, { token: live });
    const lv = liveBound.body.data.vessel;
    assert.deepEqual([lv.last_seen_at, liveBound.body.data.data_age_seconds, lv.destination, lv.draught_m], [iso(NOW - 5 * SECOND), 5, LIVE_DESTINATION, 12.1]);
    assert.deepEqual(liveBound.body.quality_flags, []);
  });
});

test('the same rule on every path to lookup: MCP tools/call and webmcp dispatch', async () => {
  await withApp(async (app) => {
    await seed(app);
    const { apiKey } = await app.registerAgent('tool-user');
    const mcp = await app.api('POST', '/mcp', {
      token: apiKey,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'getVesselsLookup', arguments: { imo: String(BOUND.imo) } } },
    });
    assert.equal(mcp.status, 200, mcp.text);
    assert.ok(!mcp.text.includes(LIVE_ETA_TEXT), `MCP leaked the live destination: ${mcp.text.slice(0, 400)}`);
    const viaMcp = mcp.body.result.structuredContent;
    assert.equal(viaMcp.data.vessel.last_seen_at, iso(NOW - DELAY * SECOND - 60 * SECOND));
    assert.equal(viaMcp.data.vessel.destination, 'SGSIN');

    const dispatched = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getVesselsLookup', arguments: { imo: String(BOUND.imo) } } });
    assert.equal(dispatched.status, 200, dispatched.text);
    assert.ok(!dispatched.text.includes(LIVE_ETA_TEXT), 'dispatch leaked the live destination');
    const inner = dispatched.body.data.result;
    assert.equal(inner.data.vessel.last_seen_at, iso(NOW - DELAY * SECOND - 60 * SECOND));
    assert.deepEqual([inner.data.vessel.destination, inner.data.data_age_seconds], ['SGSIN', DELAY + 60]);
  });
});

test('the public map shows no live presence, and the vessel ETA routes to the destination in effect at the cutoff', async () => {
  await withApp(async (app) => {
    await seed(app);
    const map = await app.api('GET', '/map/data/vessels.geojson');
    assert.equal(map.status, 200, map.text);
    assert.ok(!map.text.includes(LIVE_ETA_TEXT));
    for (const f of map.body.features) {
      assert.ok(Date.parse(f.properties.observed_at) <= NOW - DELAY * SECOND, `${f.properties.name} observed_at ${f.properties.observed_at}`);
      for (const key of ['last_seen_at', 'destination', 'eta', 'draught_m']) assert.ok(!(key in f.properties), `map property ${key}`);
    }

    const { apiKey } = await app.registerAgent('eta-reader');
    const eta = await app.api('GET', `/v1/routes/forecast-lite?vessel=IMO:${SETTLED.imo}`, { token: apiKey });
    assert.equal(eta.status, 200, eta.text);
    assert.equal(eta.body.data.destination.text, 'USHOU');
    const bound = await app.api('GET', `/v1/routes/forecast-lite?vessel=IMO:${BOUND.imo}`, { token: apiKey });
    assert.ok(!bound.text.includes(LIVE_ETA_TEXT), 'the ETA does not name the destination reported 1 h ago');
    assert.equal(bound.status, 200, bound.text);
    assert.equal(bound.body.data.destination.text, 'SGSIN');
  });
});
