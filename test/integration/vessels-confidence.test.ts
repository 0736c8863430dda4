import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { identityConfidence, lowestConfidence, positionConfidence } from '../../src/features/vessels/confidence.js';
import { startTestApp, TEST_EPOCH } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';

/**
 * Issue 8 item 4: confidence is a number in [0, 1] wherever vessel data has a measurable confidence
 * (identity merged from sources, positions with quality flags), and freshness_seconds is the age of the
 * oldest data returned. Data is older than the preview delay so the answers do not depend on entitlements.
 */
const NOW = TEST_EPOCH;
const FULL = { mmsi: 563033300, imo: 9811000 };
const BARE_MMSI = 219000001;

test('confidence rules: flags cap a position, evidence builds an identity', () => {
  assert.equal(positionConfidence([]), 0.95);
  assert.equal(positionConfidence(['simulated_source']), 0.95, 'provenance label, not a defect');
  assert.equal(positionConfidence(['coarse_position']), 0.6);
  assert.equal(positionConfidence(['coarse_position', 'impossible_jump']), 0.2, 'the lowest ceiling wins');
  assert.equal(positionConfidence(['invalid_coordinates']), 0);
  assert.equal(identityConfidence({ imo: null, name: null, callsign: null, sources: ['a'] }), 0.4);
  assert.equal(identityConfidence({ imo: 9811000, name: 'X', callsign: null, sources: ['a', 'a'] }), 0.8, 'one feed twice does not corroborate');
  assert.equal(identityConfidence({ imo: 9811000, name: 'X', callsign: 'C', sources: ['a', 'b'] }), 1);
  assert.equal(lowestConfidence([null, 0.7, undefined, 0.4]), 0.4);
  assert.equal(lowestConfidence([]), null);
});

test('vessel reads carry confidence in [0, 1] per record and in the envelope; freshness_seconds is the oldest data returned', async () => {
  const app = await startTestApp({ now: NOW });
  try {
    const fleet = app.bosun.ctx.services.fleet;
    const t0 = NOW - 20 * HOUR;
    await ingest(
      fleet,
      identity(FULL.mmsi, t0, { imo: FULL.imo, name: 'OCEAN PRIDE', callsign: '9V1234', shipType: 80 }),
      position(FULL.mmsi, t0 + MINUTE, 1.2, 103.7),
      position(FULL.mmsi, t0 + 2 * MINUTE, 1.21, 103.71, { source: 'tcp:10.0.0.5:10110' }),
      position(BARE_MMSI, t0, 55.6, 12.6),
      position(BARE_MMSI, t0 + 10 * MINUTE, 55.61, 12.61, { msgType: 27 }),
      position(BARE_MMSI, t0 + 11 * MINUTE, -40, 170),
    );
    app.clock.advance(MINUTE);
    const { apiKey: key } = await app.registerAgent('confidence', ['vessels:live']);
    const ageOf = (at: number) => Math.floor((app.clock.now() - at) / 1000);

    const full = await app.api('GET', `/v1/vessels/lookup?imo=${FULL.imo}`, { token: key });
    assert.equal(full.status, 200, full.text);
    assert.equal(full.body.data.vessel.confidence, 1, 'name, IMO, callsign and two feeds');
    assert.equal(full.body.data.latest_position.confidence, 0.95);
    assert.equal(full.body.confidence, 0.95, 'the lower of identity and position');

    const bare = await app.api('GET', `/v1/vessels/lookup?mmsi=${BARE_MMSI}`, { token: key });
    assert.equal(bare.body.data.vessel.confidence, 0.4, 'an MMSI seen in position reports only');
    assert.deepEqual(bare.body.data.latest_position.quality_flags, ['coarse_position']);
    assert.equal(bare.body.data.latest_position.confidence, 0.6);
    assert.equal(bare.body.confidence, 0.4);
    assert.equal(bare.body.freshness_seconds, ageOf(t0 + 10 * MINUTE), 'the latest usable position is older than the newest (flagged) report');

    const last = await app.api('GET', `/v1/vessels/last_position?mmsi=${BARE_MMSI}`, { token: key });
    assert.equal(last.body.confidence, 0.6);
    assert.equal(last.body.data.position.confidence, 0.6);

    const search = await app.api('GET', '/v1/vessels/search?q=OCEAN', { token: key });
    assert.equal(search.body.data.items[0].confidence, 1);
    assert.equal(search.body.confidence, 1);
    assert.equal(search.body.freshness_seconds, ageOf(t0 + 2 * MINUTE));

    const watch = await app.api('GET', `/v1/vessels/watchlist?ids=IMO:${FULL.imo},MMSI:${BARE_MMSI},MMSI:999999999`, { token: key });
    assert.equal(watch.status, 200, watch.text);
    assert.equal(watch.body.confidence, 0.6, 'the lowest position returned');
    assert.equal(watch.body.freshness_seconds, ageOf(t0 + 2 * MINUTE), "the oldest position returned (OCEAN PRIDE's), not 0");

    const track = await app.api('GET', `/v1/vessels/MMSI:${BARE_MMSI}/positions?from=${t0 - HOUR}&include_flagged=true`, { token: key });
    assert.equal(track.status, 200, track.text);
    assert.deepEqual(
      track.body.data.items.map((i: { confidence: number }) => i.confidence),
      [0.95, 0.6, 0.2],
    );
    assert.equal(track.body.confidence, 0.2);
    assert.equal(track.body.freshness_seconds, ageOf(t0), 'a track is as old as its first point');

    const ping = await app.api('GET', '/v1/ping');
    assert.equal(ping.body.confidence, null, 'meta stays null');
  } finally {
    await app.close();
  }
});
