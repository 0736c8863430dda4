import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { withApp, TEST_EPOCH, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position, PRIDE, prideIdentity } from '../helpers/fleet.js';

const NOW = TEST_EPOCH;

/** Runs `fn` on a fresh app with the key of an agent holding vessels:live. */
function withLiveKey(fn: (app: TestApp, key: string) => Promise<void>): Promise<void> {
  return withApp(async (app) => {
    const { apiKey } = await app.registerAgent('vessel-tests', ['vessels:live']);
    await fn(app, apiKey);
  });
}

async function seedPride(app: TestApp): Promise<string> {
  const fleet = app.bosun.ctx.services.fleet;
  await ingest(
    fleet,
    prideIdentity(NOW - HOUR, 'SGSIN'),
    position(PRIDE.mmsi, NOW - 30 * MINUTE, 1.2, 103.7, { sog: 11.5, cog: 45, heading: 44, navStatus: 0 }),
    position(PRIDE.mmsi, NOW - 5 * MINUTE, 1.25, 103.76, { sog: 11.4, cog: 46, heading: 45, navStatus: 0, source: 'tcp:10.0.0.5:10110' }),
  );
  return fleet.byMmsiNumber(PRIDE.mmsi)!.vslId;
}

test('lookup: the same merged vessel by IMO:, MMSI:, vsl_id, imo= and mmsi=; identity, latest position, sources and data age', async () => {
  await withLiveKey(async (app, key) => {
    const vslId = await seedPride(app);
    const urls = [`id=IMO:${PRIDE.imo}`, `id=MMSI:${PRIDE.mmsi}`, `id=${vslId}`, `imo=${PRIDE.imo}`, `mmsi=${PRIDE.mmsi}`, `id=${PRIDE.imo}`, `id=imo%20${PRIDE.imo}`];
    for (const q of urls) {
      const res = await app.api('GET', `/v1/vessels/lookup?${q}`, { token: key });
      assert.equal(res.status, 200, `${q}: ${res.text}`);
      assert.equal(res.body.data.vessel.vsl_id, vslId, q);
    }
    const res = await app.api('GET', `/v1/vessels/lookup?id=IMO:${PRIDE.imo}`, { token: key });
    const { vessel, latest_position, data_age_seconds } = res.body.data;
    assert.deepEqual(vessel, {
      vsl_id: vslId,
      mmsi: PRIDE.mmsi,
      imo: PRIDE.imo,
      name: 'OCEAN PRIDE',
      callsign: '9V1234',
      flag: 'SG',
      ship_type: 80,
      ship_type_text: vessel.ship_type_text,
      category: 'tanker',
      length_m: 183,
      beam_m: 32,
      draught_m: 11.2,
      destination: 'SGSIN',
      eta: '2026-11-22T06:00:00Z',
      simulated: false,
      sources: ['file:test.nmea', 'tcp:10.0.0.5:10110'],
      first_seen_at: new Date(NOW - HOUR).toISOString(),
      last_seen_at: new Date(NOW - 5 * MINUTE).toISOString(),
      confidence: 1,
    });
    assert.match(vessel.ship_type_text, /^Tanker/);
    assert.deepEqual(latest_position, {
      lat: 1.25,
      lon: 103.76,
      sog_kn: 11.4,
      cog_deg: 46,
      heading_deg: 45,
      nav_status: 0,
      nav_status_text: 'Under way using engine',
      observed_at: new Date(NOW - 5 * MINUTE).toISOString(),
      age_seconds: 300,
      source: 'tcp:10.0.0.5:10110',
      simulated: false,
      quality_flags: [],
      confidence: 0.95,
    });
    assert.equal(data_age_seconds, 300);
    assert.equal(res.body.freshness_seconds, 300);
    assert.deepEqual(res.body.quality_flags, []);
  });
});

test('lookup and last_position: malformed ids are invalid_vessel_id, unknown vessels vessel_not_found, two selectors invalid_request', async () => {
  await withLiveKey(async (app, key) => {
    await seedPride(app);
    for (const q of ['id=IMO:9811001', 'imo=9811001', 'id=IMO:981100', 'mmsi=56303330', 'mmsi=5630333001', 'id=MMSI:abc', 'id=vsl_zz', 'id=hello', 'imo=IMO:12']) {
      for (const op of ['lookup', 'last_position']) {
        const res = await app.api('GET', `/v1/vessels/${op}?${q}`, { token: key });
        assert.equal(res.status, 400, `${op} ${q}`);
        assert.equal(res.body.errors[0].code, 'invalid_vessel_id', `${op} ${q}`);
      }
    }
    for (const q of [`id=IMO:${imo(907472)}`, 'mmsi=244123456', 'id=vsl_0123456789abcdef']) {
      const res = await app.api('GET', `/v1/vessels/lookup?${q}`, { token: key });
      assert.equal(res.status, 404, q);
      assert.equal(res.body.errors[0].code, 'vessel_not_found');
    }
    const both = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}&mmsi=${PRIDE.mmsi}`, { token: key });
    assert.equal(both.status, 400);
    assert.equal(both.body.errors[0].code, 'invalid_request');
    const none = await app.api('GET', '/v1/vessels/lookup', { token: key });
    assert.equal(none.body.errors[0].code, 'invalid_request');
  });
});

test('last_position: the latest usable fix; null for a vessel known only from static reports; an impossible jump is not served', async () => {
  await withLiveKey(async (app, key) => {
    await seedPride(app);
    const fleet = app.bosun.ctx.services.fleet;
    await ingest(fleet, position(PRIDE.mmsi, NOW - 4 * MINUTE, 10, 110));
    const res = await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: key });
    assert.equal(res.body.data.position.lat, 1.25);
    assert.equal(res.body.data.position.observed_at, new Date(NOW - 5 * MINUTE).toISOString());
    assert.equal(res.body.freshness_seconds, 300);

    await ingest(fleet, identity(244123456, NOW - MINUTE, { name: 'NORDIC STAR' }));
    const staticOnly = await app.api('GET', '/v1/vessels/last_position?mmsi=244123456', { token: key });
    assert.equal(staticOnly.status, 200);
    assert.equal(staticOnly.body.data.position, null);
    assert.equal(staticOnly.body.data.name, 'NORDIC STAR');
  });
});

test('search: q over name, callsign, IMO and MMSI prefixes; type, flag and bbox filters; stable cursor pages; limit edges', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    await seedPride(app);
    await ingest(
      fleet,
      identity(244123456, NOW, { name: 'OCEAN GLORY', shipType: 70, imo: imo(912345) }),
      position(244123456, NOW, 51.9, 4.1),
      identity(244123457, NOW, { name: 'BLUE OCEAN', shipType: 70 }),
      position(244123457, NOW, 51.95, 4.05),
      identity(366999001, NOW, { name: 'OCEANA', shipType: 52, callsign: 'WDC1234' }),
      position(366999001, NOW, 29.7, -95.0),
      identity(366999002, NOW, { name: 'GULF TRADER', shipType: 70, callsign: 'WDC9999' }),
      identity(232000001, NOW, { name: 'OCEAN', shipType: 37 }),
    );
    const names = async (query: string) => {
      const res = await app.api('GET', `/v1/vessels/search?${query}`, { token: key });
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      return res.body.data.items.map((i: { name: string }) => i.name);
    };
    assert.deepEqual(await names('q=ocean'), ['OCEAN', 'OCEAN GLORY', 'OCEAN PRIDE', 'OCEANA', 'BLUE OCEAN'], 'exact, then prefix, then contains; by name within a rank');
    assert.deepEqual(await names('q=wdc'), ['GULF TRADER', 'OCEANA']);
    assert.deepEqual(await names('q=981100'), ['OCEAN PRIDE']);
    assert.deepEqual(await names(`q=IMO:${PRIDE.imo}`), ['OCEAN PRIDE']);
    assert.deepEqual(await names('q=2441234'), ['BLUE OCEAN', 'OCEAN GLORY']);
    assert.deepEqual(await names('q=ocean&type=cargo'), ['OCEAN GLORY', 'BLUE OCEAN']);
    assert.deepEqual(await names('type=tug'), ['OCEANA']);
    assert.deepEqual(await names('q=ocean&flag=nl'), ['OCEAN GLORY', 'BLUE OCEAN']);
    assert.deepEqual(await names('flag=GB'), ['OCEAN']);
    assert.deepEqual(await names('bbox=4.0,51.9,4.2,52.0'), ['BLUE OCEAN', 'OCEAN GLORY']);
    assert.deepEqual(await names('bbox=170,-90,-60,90'), ['OCEANA'], 'a box across the antimeridian');
    const one = await app.api('GET', '/v1/vessels/search?q=ocean%20pride', { token: key });
    assert.deepEqual(one.body.data.items[0].latest_position, { lat: 1.25, lon: 103.76, observed_at: new Date(NOW - 5 * MINUTE).toISOString(), age_seconds: 300, quality_flags: [] });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: { data: { items: Array<{ name: string }>; next_cursor: string | null } } } = await app.api('GET', `/v1/vessels/search?q=ocean&limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        token: key,
      });
      seen.push(...res.body.data.items.map((i) => i.name));
      cursor = res.body.data.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['OCEAN', 'OCEAN GLORY', 'OCEAN PRIDE', 'OCEANA', 'BLUE OCEAN']);
    const exact = await app.api('GET', '/v1/vessels/search?q=ocean&limit=5', { token: key });
    assert.equal(exact.body.data.next_cursor, null, 'a page that holds the last match has no next cursor');

    assert.equal((await app.api('GET', '/v1/vessels/search?limit=100', { token: key })).status, 200);
    const over = await app.api('GET', '/v1/vessels/search?limit=101', { token: key });
    assert.equal(over.status, 400);
    assert.equal(over.body.errors[0].code, 'invalid_request');
    const badCursor = await app.api('GET', '/v1/vessels/search?q=ocean&cursor=bm9wZQ', { token: key });
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.errors[0].code, 'cursor_invalid');
    const badBox = await app.api('GET', '/v1/vessels/search?bbox=1,2,3', { token: key });
    assert.equal(badBox.body.errors[0].code, 'invalid_request');
  });
});

test('watchlist: partial results with a per-id error code; 50 ids allowed, 51 refused', async () => {
  await withLiveKey(async (app, key) => {
    const vslId = await seedPride(app);
    const res = await app.api('GET', `/v1/vessels/watchlist?ids=IMO:${PRIDE.imo},MMSI:244999999,IMO:1234568,${vslId}`, { token: key });
    assert.equal(res.status, 200);
    const items = res.body.data.items;
    assert.deepEqual(
      items.map((i: { id: string; status: string }) => [i.id, i.status]),
      [
        [`IMO:${PRIDE.imo}`, 'ok'],
        ['MMSI:244999999', 'error'],
        ['IMO:1234568', 'error'],
        [vslId, 'ok'],
      ],
    );
    assert.equal(items[0].result.position.lat, 1.25);
    assert.equal(items[1].error.code, 'vessel_not_found');
    assert.equal(items[2].error.code, 'invalid_vessel_id');
    assert.equal(res.body.data.found, 2);
    assert.equal(res.body.data.errors, 2);

    const fifty = Array.from({ length: 50 }, (_, i) => `MMSI:${244100000 + i}`).join(',');
    const ok = await app.api('GET', `/v1/vessels/watchlist?ids=${fifty}`, { token: key });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.items.length, 50);
    const over = await app.api('GET', `/v1/vessels/watchlist?ids=${fifty},MMSI:244100050`, { token: key });
    assert.equal(over.status, 400);
    assert.equal(over.body.errors[0].code, 'invalid_request');
  });
});

test('positions: time range (ISO or epoch), paging at the limit edge, downsampling, flagged fixes only on request', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 244123456;
    const start = NOW - 2 * HOUR;
    // One fix a minute for two hours along a line, 0.001° (0.06 nm) apart.
    const reports = Array.from({ length: 120 }, (_, i) => position(mmsi, start + i * MINUTE, 51.9 + i * 0.001, 4.1));
    await ingest(fleet, ...reports, position(mmsi, start + 30 * SECOND, 0, 0));
    const vslId = fleet.byMmsiNumber(mmsi)!.vslId;

    const all = await app.api('GET', `/v1/vessels/${vslId}/positions?limit=1000`, { token: key });
    assert.equal(all.status, 200);
    assert.equal(all.body.data.items.length, 120, 'default range: the last 24 h; the 0,0 fix is left out');
    assert.equal(all.body.data.items[0].observed_at, new Date(start).toISOString());
    assert.equal(all.body.data.next_cursor, null);
    const flagged = await app.api('GET', `/v1/vessels/MMSI:${mmsi}/positions?include_flagged=true&limit=1000`, { token: key });
    assert.equal(flagged.body.data.items.length, 121);
    assert.deepEqual(flagged.body.data.items[1].quality_flags, ['invalid_coordinates']);

    const from = new Date(start + 10 * MINUTE).toISOString();
    const toSeconds = Math.floor((start + 19 * MINUTE) / 1000);
    const ranged = await app.api('GET', `/v1/vessels/${vslId}/positions?from=${from}&to=${toSeconds}`, { token: key });
    assert.equal(ranged.body.data.items.length, 10, 'both ends inclusive');
    assert.equal(ranged.body.data.to, new Date(toSeconds * 1000).toISOString());

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: { items: Array<{ observed_at: string }>; next_cursor: string | null } } } = await app.api(
        'GET',
        `/v1/vessels/${vslId}/positions?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
        { token: key },
      );
      seen.push(...res.body.data.items.map((i) => i.observed_at));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 120);
    assert.equal(new Set(seen).size, 120);

    const ds = await app.api('GET', `/v1/vessels/${vslId}/positions?downsample=600&limit=5`, { token: key });
    const times = ds.body.data.items.map((i: { observed_at: string }) => Date.parse(i.observed_at));
    assert.equal(times.length, 5);
    for (let i = 1; i < times.length; i++) assert.notEqual(Math.floor(times[i] / 600_000), Math.floor(times[i - 1] / 600_000));
    const rest = await app.api('GET', `/v1/vessels/${vslId}/positions?downsample=600&limit=1000&cursor=${ds.body.data.next_cursor}`, { token: key });
    const restTimes = rest.body.data.items.map((i: { observed_at: string }) => Date.parse(i.observed_at));
    const buckets = new Set([...times, ...restTimes].map((t) => Math.floor(t / 600_000)));
    assert.equal(buckets.size, times.length + restTimes.length, 'one point per bucket across pages');
    assert.equal(buckets.size, new Set(reports.map((r) => Math.floor(r.observedAt / 600_000))).size);

    assert.equal((await app.api('GET', `/v1/vessels/${vslId}/positions?limit=1000`, { token: key })).status, 200);
    const over = await app.api('GET', `/v1/vessels/${vslId}/positions?limit=1001`, { token: key });
    assert.equal(over.body.errors[0].code, 'invalid_request');
    const badTime = await app.api('GET', `/v1/vessels/${vslId}/positions?from=yesterday`, { token: key });
    assert.equal(badTime.body.errors[0].code, 'invalid_request');
    const reversed = await app.api('GET', `/v1/vessels/${vslId}/positions?from=${NOW}&to=${NOW - DAY}`, { token: key });
    assert.equal(reversed.body.errors[0].code, 'invalid_request');
    const unknown = await app.api('GET', '/v1/vessels/vsl_0000000000000000/positions', { token: key });
    assert.equal(unknown.status, 404);
    const malformed = await app.api('GET', '/v1/vessels/IMO:1234568/positions', { token: key });
    assert.equal(malformed.body.errors[0].code, 'invalid_vessel_id');
  });
});

test('popular: keyed reads counted per vessel in the window, ranked by distinct agents then reads', async () => {
  await withLiveKey(async (app, key) => {
    const fleet = app.bosun.ctx.services.fleet;
    await seedPride(app);
    await ingest(fleet, identity(244123456, NOW, { name: 'OCEAN GLORY' }), position(244123456, NOW, 51.9, 4.1));
    const other = (await app.registerAgent('second', ['vessels:live'])).apiKey;
    for (let i = 0; i < 3; i++) await app.api('GET', '/v1/vessels/lookup?mmsi=244123456', { token: key });
    await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: key });
    await app.api('GET', `/v1/vessels/MMSI:${PRIDE.mmsi}/positions`, { token: other });
    await app.api('GET', '/v1/vessels/search?q=ocean', { token: other });

    const day = await app.api('GET', '/v1/vessels/popular');
    assert.equal(day.status, 200);
    assert.deepEqual(
      day.body.data.items.map((i: { name: string; lookups: number; agents: number; rank: number }) => [i.rank, i.name, i.lookups, i.agents]),
      [
        [1, 'OCEAN PRIDE', 2, 2],
        [2, 'OCEAN GLORY', 3, 1],
      ],
    );
    assert.equal(day.body.data.window, '24h');

    app.clock.advance(2 * DAY);
    await app.api('GET', '/v1/vessels/lookup?mmsi=244123456', { token: other });
    const dayLater = await app.api('GET', '/v1/vessels/popular?window=24h');
    assert.deepEqual(
      dayLater.body.data.items.map((i: { name: string; lookups: number }) => [i.name, i.lookups]),
      [['OCEAN GLORY', 1]],
    );
    const week = await app.api('GET', '/v1/vessels/popular?window=7d');
    assert.deepEqual(
      week.body.data.items.map((i: { name: string; lookups: number; agents: number }) => [i.name, i.lookups, i.agents]),
      [
        ['OCEAN GLORY', 4, 2],
        ['OCEAN PRIDE', 2, 2],
      ],
    );
    assert.equal((await app.api('GET', '/v1/vessels/popular?window=30d')).status, 400);

    // Lookups are kept 8 days (a day beyond the longest window), then removed by the hourly job.
    app.clock.set(NOW + 8 * DAY + SECOND);
    assert.deepEqual(await app.bosun.ctx.services.vessels.enforceRetention(), { lookups_deleted: 5, preview_labels_deleted: 0 });
    assert.equal((await app.bosun.ctx.store.db.selectFrom('vessel_lookups').selectAll().execute()).length, 1);
  });
});

test('simulated data says so: simulated on the vessel and position, simulated_source in the envelope', async () => {
  await withLiveKey(async (app, key) => {
    const sim = { source: 'demo-simulator', simulated: true };
    await ingest(app.bosun.ctx.services.fleet, identity(538000001, NOW, { name: 'DEMO CARRIER', imo: imo(100000), ...sim }), position(538000001, NOW - MINUTE, 25.0, 55.0, sim));
    for (const url of [
      '/v1/vessels/lookup?mmsi=538000001',
      '/v1/vessels/last_position?mmsi=538000001',
      '/v1/vessels/search?q=demo',
      '/v1/vessels/watchlist?ids=MMSI:538000001',
      '/v1/vessels/MMSI:538000001/positions',
    ]) {
      const res = await app.api('GET', url, { token: key });
      assert.equal(res.status, 200, url);
      assert.ok(res.body.quality_flags.includes('simulated_source'), url);
    }
    const lookup = await app.api('GET', '/v1/vessels/lookup?mmsi=538000001', { token: key });
    assert.equal(lookup.body.data.vessel.simulated, true);
    assert.equal(lookup.body.data.latest_position.simulated, true);
    assert.deepEqual(lookup.body.data.latest_position.quality_flags, ['simulated_source']);
    assert.deepEqual(lookup.body.data.vessel.sources, ['demo-simulator']);
    const real = await app.api('GET', '/v1/vessels/search?q=ocean', { token: key });
    assert.deepEqual(real.body.quality_flags, []);
  });
});
