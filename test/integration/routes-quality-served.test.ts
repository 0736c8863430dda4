import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';

/** Real requests through the pipeline: what telemetry records of the answer cache and of fallbacks, and the views over it. */
let app: TestApp;
let key: string;

const get = (url: string) => app.api('GET', url, { token: key });

async function recorded() {
  await app.bosun.ctx.services.telemetry.flush();
  return app.bosun.ctx.store.db
    .selectFrom('request_telemetry')
    .select(['operation_id', 'status', 'cache', 'fallback', 'cache_age_seconds'])
    .where('operation_id', 'in', ['getRoutesDirect', 'getRoutesAdvisory'])
    .orderBy('id')
    .execute();
}

before(async () => {
  app = await startTestApp();
  ({ apiKey: key } = await app.registerAgent('served'));
});
after(async () => app.close());

test('a fresh route answer is recorded as a miss, the same request from the cache as a hit with its age; fallbacks by reason', async () => {
  assert.equal((await get('/v1/routes/direct?from=NLRTM&to=SGSIN')).status, 200);
  app.clock.advance(90_000);
  assert.equal((await get('/v1/routes/direct?from=NLRTM&to=SGSIN')).status, 200);
  assert.equal((await get('/v1/routes/direct?from=NLRTM&to=SGSIN&format=geojson')).status, 200, 'another shape: another answer');
  // Nain (Labrador, a small port) is 67 nm from the network: answered over a long straight connector (Paris, 150 km inland, is refused since issue 28)
  const nain = await get('/v1/routes/direct?from=CANAI&to=NLRTM');
  assert.ok(nain.body.data.from.network.connector_nm > 27, String(nain.body.data.from.network.connector_nm));
  app.clock.advance(30_000);
  assert.equal((await get('/v1/routes/direct?from=CANAI&to=NLRTM')).status, 200);
  // nothing analysed by the event layer: conditions without it
  const advisory = await get('/v1/routes/advisory?from=PTLIS&to=GIGIB&range=24H');
  assert.ok(advisory.body.quality_flags.includes('no_event_data'));
  assert.equal((await get('/v1/routes/direct?from=NLRTM&to=NLRTM')).status, 400);

  assert.deepEqual(
    (await recorded()).map((r) => [r.operation_id, r.status, r.cache, r.fallback, r.cache_age_seconds === null ? null : Number(r.cache_age_seconds)]),
    [
      ['getRoutesDirect', 200, 'miss', null, 0],
      ['getRoutesDirect', 200, 'hit', null, 90],
      ['getRoutesDirect', 200, 'miss', null, 0],
      ['getRoutesDirect', 200, 'miss', 'long_connector', 0],
      ['getRoutesDirect', 200, 'hit', 'long_connector', 30],
      ['getRoutesAdvisory', 200, null, 'no_event_data', null],
      ['getRoutesDirect', 400, null, null, null],
    ],
  );

  const eff = (await get('/v1/routes/cache-efficiency?hours=1')).body.data;
  assert.deepEqual([eff.overall.cacheable_requests, eff.overall.hits, eff.overall.misses, eff.overall.evictions, eff.overall.hit_ratio], [5, 2, 3, 0, 0.4]);
  // the process cache also holds the advisory's route (computed through it, not an answer of the cache)
  assert.deepEqual([eff.process_cache.entries, eff.process_cache.hits, eff.process_cache.misses], [4, 2, 4]);
  const stale = (await get('/v1/routes/cache-staleness?hours=1')).body.data;
  assert.deepEqual(stale.served_from_cache, { hits: 2, age_seconds: { p50: 30, p95: 90, max: 90, mean: 60 } });
  // the answers held were computed 120 s, 30 s, 30 s and 0 s (the advisory's route) before now
  assert.deepEqual(stale.entries_now, { entries: 4, oldest_age_seconds: 120, newest_age_seconds: 0, median_age_seconds: 30 });
  const fb = (await get('/v1/routes/fallback-trend?hours=1&bucket_minutes=60')).body.data;
  assert.deepEqual(fb.totals, { requests: 7, fallbacks: 3, fallback_share: 0.4286, by_reason: { long_connector: 2, no_event_data: 1 } });
  // bucket edges on whole hours: the window reaches back to the hour edge before now − 1 h (stable incident ids, issue 28)
  assert.equal(fb.window.from, new Date(TEST_EPOCH - 3_600_000).toISOString());
});
