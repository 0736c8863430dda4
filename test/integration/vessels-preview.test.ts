import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { PREVIEW } from '../../src/features/kit/preview-constants.js';
import { POSITIONS_TOPIC } from '../../src/fleet/types.js';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, usingPostgres, usingRedis, withApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';

const NOW = TEST_EPOCH;
const DELAY = PREVIEW.positionDelaySeconds * SECOND;

/** Each call from its own address: the preview allows 6 a minute per identity and IP. */
let ipCounter = 0;
const preview = (app: TestApp, url: string, headers: Record<string, string> = {}) => app.api('GET', url, { ip: `10.77.${Math.floor(ipCounter / 250)}.${ipCounter++ % 250}`, headers });

/** The whole response minus what differs between any two calls. */
function comparable(res: ApiResponse): unknown {
  const { request_id: _id, as_of: _asOf, ...body } = res.body;
  return { status: res.status, body };
}

/** Every number anywhere in a JSON value. */
function numbersIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => numbersIn(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => numbersIn(v, out));
  return out;
}

const FRESH = [
  { lat: 1.31234, lon: 103.91234, age: HOUR },
  { lat: 1.32345, lon: 103.92345, age: DELAY - SECOND },
];
const OLD = { lat: 1.21111, lon: 103.71111, age: DELAY + 2 * HOUR };

test('preview last_position: the newest position at least 50,400 s old, with observed_at and age_seconds; the edge is exact', async () => {
  await withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 563033300;
    await ingest(
      fleet,
      identity(mmsi, NOW - 2 * DELAY, { imo: 9811000, name: 'OCEAN PRIDE', callsign: '9V1234', shipType: 80, destination: 'SGSIN' }),
      position(mmsi, NOW - OLD.age, OLD.lat, OLD.lon, { sog: 10, cog: 90, heading: 91, navStatus: 0 }),
      ...FRESH.map((f) => position(mmsi, NOW - f.age, f.lat, f.lon)),
    );
    const res = await preview(app, '/v1/bootstrap/vessels/last_position?imo=9811000');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, {
      vessel: { vsl_id: fleet.byMmsiNumber(mmsi)!.vslId, mmsi, imo: 9811000, name: 'OCEAN PRIDE', callsign: '9V1234', flag: 'SG', category: 'tanker', simulated: false },
      position: { lat: OLD.lat, lon: OLD.lon, sog_kn: 10, cog_deg: 90, heading_deg: 91, nav_status: 0, observed_at: new Date(NOW - OLD.age).toISOString(), age_seconds: OLD.age / SECOND },
      position_delay_seconds: 50_400,
      declared_identity: { agent_name: null, agent_vendor: null, identity_verified: false },
    });
    assert.equal(res.body.freshness_seconds, OLD.age / SECOND);
    assert.equal(res.body.policy.usage_tier, 'anonymous');

    // One second later the fix observed 50,399 s ago is exactly 50,400 s old and becomes the answer.
    app.clock.advance(SECOND);
    const edge = await preview(app, '/v1/bootstrap/vessels/last_position?imo=9811000');
    assert.equal(edge.body.data.position.lat, FRESH[1]!.lat);
    assert.equal(edge.body.data.position.age_seconds, 50_400);
  });
});

test('no position fresher than 50,400 s leaks through the preview: not in answers, not in errors, not by the shape of a refusal', async () => {
  await withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const onlyRecent = { mmsi: 244123456, imo: imo(912345) };
    const noPositions = { mmsi: 244123457, imo: imo(912346) };
    const withOld = { mmsi: 563033300, imo: 9811000 };
    await ingest(
      fleet,
      identity(onlyRecent.mmsi, NOW - 2 * HOUR, { imo: onlyRecent.imo, name: 'RECENT ONLY' }),
      ...FRESH.map((f) => position(onlyRecent.mmsi, NOW - f.age, f.lat + 50, f.lon - 100)),
      identity(noPositions.mmsi, NOW - 2 * HOUR, { imo: noPositions.imo, name: 'NEVER POSITIONED' }),
      identity(withOld.mmsi, NOW - 2 * DELAY, { imo: withOld.imo, name: 'OCEAN PRIDE' }),
      position(withOld.mmsi, NOW - OLD.age, OLD.lat, OLD.lon),
      ...FRESH.map((f) => position(withOld.mmsi, NOW - f.age, f.lat, f.lon)),
    );
    const freshNumbers = FRESH.flatMap((f) => [f.lat, f.lon, f.lat + 50, f.lon - 100]);
    const freshTimes = FRESH.map((f) => new Date(NOW - f.age).toISOString());
    const freshAges = FRESH.map((f) => Math.floor(f.age / SECOND));

    const recent = await preview(app, `/v1/bootstrap/vessels/last_position?imo=${onlyRecent.imo}`);
    const never = await preview(app, `/v1/bootstrap/vessels/last_position?imo=${noPositions.imo}`);
    const unknown = await preview(app, `/v1/bootstrap/vessels/last_position?imo=${imo(555555)}`);
    assert.equal(recent.status, 404);
    assert.equal(recent.body.errors[0].code, 'vessel_not_found');
    assert.deepEqual(comparable(recent), comparable(never), 'a vessel with only recent positions answers exactly like one with none');
    assert.deepEqual(comparable(recent), comparable(unknown), '… and like an unknown IMO');
    assert.deepEqual(Object.keys(recent.headers).sort(), Object.keys(never.headers).sort());

    const served = await preview(app, `/v1/bootstrap/vessels/last_position?imo=${withOld.imo}`);
    assert.equal(served.body.data.position.lat, OLD.lat);
    const bad = await preview(app, '/v1/bootstrap/vessels/last_position?imo=1234568');
    assert.equal(bad.body.errors[0].code, 'invalid_vessel_id');
    const searches = await Promise.all(['recent', 'never', 'ocean', '2441234', String(withOld.mmsi)].map((q) => preview(app, `/v1/bootstrap/vessels/search?q=${q}`)));
    for (const res of [recent, never, unknown, served, bad, ...searches]) {
      const text = JSON.stringify(res.body);
      for (const n of freshNumbers) assert.ok(!numbersIn(res.body).includes(n), `fresh coordinate ${n} in ${text}`);
      for (const t of freshTimes) assert.ok(!text.includes(t), `fresh time ${t} in ${text}`);
      for (const age of freshAges) assert.ok(!numbersIn(res.body.data ?? {}).includes(age), `fresh age ${age} in ${text}`);
      assert.ok(!/observed_at|age_seconds|"lat"|"lon"|last_seen|sog|cog|destination/.test(JSON.stringify(res.body.data?.items ?? [])), 'search items carry no position-derived field');
    }
    assert.deepEqual(
      searches[0]!.body.data.items.map((i: { name: string }) => i.name),
      ['RECENT ONLY'],
    );
    assert.deepEqual(Object.keys(searches[0]!.body.data.items[0]).sort(), ['callsign', 'category', 'flag', 'imo', 'mmsi', 'name', 'simulated', 'vsl_id']);
    assert.equal(searches[0]!.body.freshness_seconds, 0);
  });
});

test('preview search: identity matches, at most 5 results, q of at least 2 characters', async () => {
  await withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    await ingest(fleet, ...Array.from({ length: 7 }, (_, i) => identity(244100000 + i, NOW, { name: `OCEAN ${String.fromCharCode(65 + i)}` })));
    const res = await preview(app, '/v1/bootstrap/vessels/search?q=ocean');
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.items.map((i: { name: string }) => i.name),
      ['OCEAN A', 'OCEAN B', 'OCEAN C', 'OCEAN D', 'OCEAN E'],
    );
    assert.equal((await preview(app, '/v1/bootstrap/vessels/search?q=ocean&limit=5')).status, 200);
    const six = await preview(app, '/v1/bootstrap/vessels/search?q=ocean&limit=6');
    assert.equal(six.status, 400);
    assert.equal(six.body.errors[0].code, 'invalid_request');
    assert.equal((await preview(app, '/v1/bootstrap/vessels/search?q=o')).status, 400);
  });
});

test('preview: X-Agent-Name / X-Agent-Vendor are recorded as unverified labels with a redacted address, never used for access', async () => {
  await withApp(async (app) => {
    const res = await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { ip: '203.0.113.77', headers: { 'x-agent-name': 'route-planner', 'x-agent-vendor': 'Acme' } });
    assert.equal(res.status, 200);
    await app.api('GET', '/v1/bootstrap/vessels/last_position?imo=9811000', { ip: '203.0.113.77', headers: { 'x-agent-name': 'route-planner' } });
    await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { ip: '203.0.113.78' });
    await app.bosun.ctx.services.vessels.flushRecords();
    const rows = await app.bosun.ctx.store.db.selectFrom('preview_agent_labels').selectAll().orderBy('id').execute();
    assert.deepEqual(
      rows.map((r) => [r.operation_id, r.agent_name, r.agent_vendor, r.ip, Number(r.at)]),
      [
        ['getBootstrapVesselsSearch', 'route-planner', 'Acme', '203.0.113.0/24', NOW],
        ['getBootstrapVesselsLastPosition', 'route-planner', null, '203.0.113.0/24', NOW],
      ],
    );
    const keyed = await app.api('GET', '/v1/vessels/lookup?imo=9811000', { headers: { 'x-agent-name': 'route-planner' } });
    assert.equal(keyed.status, 401);
  });
});

test('preview: the anonymous_preview limit applies to both endpoints (6 a minute per IP, per endpoint)', async () => {
  await withApp(async (app) => {
    for (let i = 1; i <= 6; i++) assert.equal((await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { ip: '198.51.100.9' })).status, 200, `call ${i}`);
    const seventh = await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { ip: '198.51.100.9' });
    assert.equal(seventh.status, 429);
    assert.equal((await app.api('GET', '/v1/bootstrap/vessels/last_position?imo=9811000', { ip: '198.51.100.9' })).status, 404, 'the other endpoint counts separately');
    app.clock.advance(MINUTE);
    assert.equal((await app.api('GET', '/v1/bootstrap/vessels/search?q=ocean', { ip: '198.51.100.9' })).status, 200);
  });
});

test('preview last_position follows positions stored after an answer: an older one stored later, and a newer one reaching the delay', async () => {
  await withApp(async (app) => {
    const fleet = app.bosun.ctx.services.fleet;
    const mmsi = 563033301;
    const url = `/v1/bootstrap/vessels/last_position?imo=${imo(555001)}`;
    await ingest(fleet, identity(mmsi, NOW - 2 * DELAY, { imo: imo(555001), name: 'LATE REPORTER' }), position(mmsi, NOW - HOUR, 1.5, 103.5));
    assert.equal((await preview(app, url)).body.errors[0]?.code, 'vessel_not_found');
    assert.equal((await preview(app, url)).body.errors[0]?.code, 'vessel_not_found', 'asked again, still nothing old enough');

    // a receiver's backlog arrives: positions older than the delay, stored after the answer above
    await ingest(fleet, position(mmsi, NOW - DELAY - 3 * HOUR, 1.1, 103.1), position(mmsi, NOW - DELAY - HOUR, 1.2, 103.2));
    const backlog = await preview(app, url);
    assert.equal(backlog.status, 200);
    assert.deepEqual([backlog.body.data.position.lat, backlog.body.data.position.age_seconds], [1.2, (DELAY + HOUR) / SECOND]);

    // the position observed an hour before NOW becomes the answer the moment it is DELAY old, not a moment before
    app.clock.advance(DELAY - HOUR - SECOND);
    assert.equal((await preview(app, url)).body.data.position.lat, 1.2);
    app.clock.advance(SECOND);
    const reached = await preview(app, url);
    assert.deepEqual([reached.body.data.position.lat, reached.body.data.position.age_seconds], [1.5, DELAY / SECOND]);
  });
});

test(
  'preview last_position in one process follows positions another process stores (Redis bus)',
  { skip: usingRedis() ? false : 'needs Redis: without a shared bus another process is seen when the entry is read again (docs/decisions/027)' },
  async () => {
    const suffix = randomBytes(6).toString('hex');
    const sqliteFile = join(tmpdir(), `bosun-delayed-fix-${suffix}.sqlite`);
    const env: Record<string, string> = usingPostgres() ? { BOSUN_PG_SCHEMA: `t_${suffix}` } : { DATABASE_URL: `sqlite:${sqliteFile}` };
    env.BOSUN_REDIS_PREFIX = `bosun-test-${suffix}:`;
    const writer = await startTestApp({ env });
    const reader = await startTestApp({ env });
    try {
      const mmsi = 563033302;
      const url = `/v1/bootstrap/vessels/last_position?imo=${imo(555002)}`;
      // resolves once the reader has received the writer's next stored positions (after its own subscribers)
      const positionsReachReader = () =>
        new Promise<void>((resolve) => {
          const stop = reader.bosun.ctx.bus.subscribe(POSITIONS_TOPIC, () => (stop(), resolve()));
        });
      let delivered = positionsReachReader();
      await ingest(writer.bosun.ctx.services.fleet, identity(mmsi, NOW - 2 * DELAY, { imo: imo(555002), name: 'ELSEWHERE' }), position(mmsi, NOW - DELAY - 2 * HOUR, 1.1, 103.1));
      await delivered;
      assert.equal((await preview(reader, url)).body.data.position.lat, 1.1);
      assert.equal((await preview(reader, url)).body.data.position.lat, 1.1);
      delivered = positionsReachReader();
      await ingest(writer.bosun.ctx.services.fleet, position(mmsi, NOW - DELAY - HOUR, 1.2, 103.2));
      await delivered;
      assert.equal((await preview(reader, url)).body.data.position.lat, 1.2, 'the position stored by the other process is served without the clock moving');
    } finally {
      await reader.bosun.close();
      await writer.close();
      for (const ext of ['', '-wal', '-shm']) rmSync(sqliteFile + ext, { force: true });
    }
  },
);
