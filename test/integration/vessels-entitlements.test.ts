import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { buildOpenApi } from '../../src/catalog/openapi.js';
import { PREVIEW } from '../../src/features/kit/preview-constants.js';
import { withApp, TEST_EPOCH, type ApiResponse, type TestApp } from '../helpers/app.js';
import { identity, imo, ingest, position } from '../helpers/fleet.js';
import { runCli } from '../helpers/cli.js';

const NOW = TEST_EPOCH;
const DELAY = PREVIEW.positionDelaySeconds;
const PRIDE = { mmsi: 563033300, imo: 9811000 };
const OTHER = { mmsi: 563044400, imo: imo(931222) };
const FRESH_ONLY = { mmsi: 563055500, imo: imo(941333) };
/** Distinctive coordinates of positions younger than the delay: they must never appear without the entitlement. */
const FRESH_LATS = ['1.25003', '1.32222', '1.33333', '1.34444', '1.35555', '1.36666', '1.33341'];

/**
 * PRIDE: positions 20 h old, exactly DELAY s old (the newest one a delayed key may see), DELAY - 1 s
 * old, 1 h old and 5 s old. OTHER: one position 15 h old and a fresh one. FRESH_ONLY: fresh positions only.
 */
async function seed(app: TestApp, extra: { simulated?: boolean } = {}) {
  const fleet = app.bosun.ctx.services.fleet;
  const simulated = extra.simulated ?? false;
  const src = simulated ? { source: 'sim:demo', simulated: true } : {};
  await ingest(
    fleet,
    identity(PRIDE.mmsi, NOW - 21 * HOUR, { imo: PRIDE.imo, name: 'OCEAN PRIDE', callsign: '9V1234', shipType: 80, ...src }),
    position(PRIDE.mmsi, NOW - 20 * HOUR, 1.2, 103.7, src),
    position(PRIDE.mmsi, NOW - DELAY * SECOND, 1.25, 103.75, src),
    position(PRIDE.mmsi, NOW - (DELAY - 1) * SECOND, Number(FRESH_LATS[0]), 103.75, src),
    position(PRIDE.mmsi, NOW - HOUR, Number(FRESH_LATS[1]), 103.8, src),
    position(PRIDE.mmsi, NOW - 5 * SECOND, Number(FRESH_LATS[2]), 103.8, src),
    identity(OTHER.mmsi, NOW - 16 * HOUR, { imo: OTHER.imo, name: 'OCEAN OTHER', shipType: 70, ...src }),
    position(OTHER.mmsi, NOW - 15 * HOUR, 1.1, 103.6, src),
    position(OTHER.mmsi, NOW - 10 * SECOND, Number(FRESH_LATS[3]), 103.6, src),
    identity(FRESH_ONLY.mmsi, NOW - 2 * HOUR, { imo: FRESH_ONLY.imo, name: 'OCEAN FRESH', shipType: 70, ...src }),
    position(FRESH_ONLY.mmsi, NOW - 2 * HOUR, Number(FRESH_LATS[4]), 103.9, src),
    position(FRESH_ONLY.mmsi, NOW - 3 * SECOND, Number(FRESH_LATS[5]), 103.9, src),
  );
  return { pride: fleet.byMmsiNumber(PRIDE.mmsi)!.vslId, other: fleet.byMmsiNumber(OTHER.mmsi)!.vslId, fresh: fleet.byMmsiNumber(FRESH_ONLY.mmsi)!.vslId };
}

function assertNoFreshPosition(res: ApiResponse, what: string) {
  assert.equal(res.status, 200, `${what}: ${res.text}`);
  for (const lat of FRESH_LATS) assert.ok(!res.text.includes(lat), `${what} leaked a position younger than ${DELAY} s (lat ${lat})`);
}

/** Every position in an answer: observed at least DELAY s before `at`, age_seconds >= DELAY, flagged delayed_position. */
function assertDelayed(position: any, at: number, what: string) {
  assert.ok(Date.parse(position.observed_at) <= at - DELAY * SECOND, `${what}: observed_at ${position.observed_at} is fresher than the delay`);
  assert.ok(position.age_seconds >= DELAY, `${what}: age_seconds ${position.age_seconds}`);
  assert.ok(position.quality_flags.includes('delayed_position'), `${what}: quality flag delayed_position`);
}

async function refused(app: TestApp, url: string, token: string) {
  const res = await app.api('GET', url, { token });
  assert.equal(res.status, 403, `${url}: ${res.text}`);
  assert.equal(res.body.errors[0].code, 'entitlement_required');
  assert.match(res.body.errors[0].message, /vessels:live/);
  assert.match(res.body.errors[0].message, /POST \/v1\/harbor\/operator-requests \(category access_request/);
  return res;
}

test('a fresh sandbox key reads identity and delayed positions only: no fix younger than 50,400 s on any keyed read', async () => {
  await withApp(async (app) => {
    const ids = await seed(app);
    const { apiKey } = await app.registerAgent('sandbox');
    const token = apiKey;

    const lookup = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token });
    assertNoFreshPosition(lookup, 'lookup');
    assert.equal(lookup.body.data.vessel.name, 'OCEAN PRIDE', 'identity is served');
    assert.deepEqual(
      lookup.body.data.latest_position,
      {
        lat: 1.25,
        lon: 103.75,
        sog_kn: 12,
        cog_deg: 90,
        heading_deg: 91,
        nav_status: 0,
        nav_status_text: 'Under way using engine',
        observed_at: new Date(NOW - DELAY * SECOND).toISOString(),
        age_seconds: DELAY,
        source: 'file:test.nmea',
        simulated: false,
        quality_flags: ['delayed_position'],
        confidence: 0.95,
      },
      'the newest position exactly 50,400 s old is served; the one 50,399 s old is not',
    );
    assert.equal(lookup.body.freshness_seconds, DELAY, 'freshness_seconds is the age of the oldest data served');
    assert.deepEqual(lookup.body.quality_flags, ['delayed_position']);

    const last = await app.api('GET', `/v1/vessels/last_position?id=MMSI:${PRIDE.mmsi}`, { token });
    assertNoFreshPosition(last, 'last_position');
    assertDelayed(last.body.data.position, NOW, 'last_position');
    assert.equal(last.body.data.position.lat, 1.25);
    assert.equal(last.body.freshness_seconds, DELAY);
    assert.ok(last.body.quality_flags.includes('delayed_position'));

    // A vessel with fresh positions only has no position to show yet.
    const fresh = await app.api('GET', `/v1/vessels/last_position?id=${ids.fresh}`, { token });
    assertNoFreshPosition(fresh, 'last_position of a fresh-only vessel');
    assert.equal(fresh.body.data.position, null);
    assert.equal(fresh.body.data.name, 'OCEAN FRESH');

    const search = await app.api('GET', '/v1/vessels/search?q=ocean', { token });
    assertNoFreshPosition(search, 'search');
    const byName = Object.fromEntries(search.body.data.items.map((i: any) => [i.name, i]));
    assert.deepEqual(Object.keys(byName).sort(), ['OCEAN FRESH', 'OCEAN OTHER', 'OCEAN PRIDE']);
    assert.deepEqual(byName['OCEAN PRIDE'].latest_position, {
      lat: 1.25,
      lon: 103.75,
      observed_at: new Date(NOW - DELAY * SECOND).toISOString(),
      age_seconds: DELAY,
      quality_flags: ['delayed_position'],
    });
    assertDelayed(byName['OCEAN OTHER'].latest_position, NOW, 'search OTHER');
    assert.equal(byName['OCEAN FRESH'].latest_position, null);
    assert.equal(search.body.freshness_seconds, 15 * 3600, 'the oldest position served (OTHER, 15 h)');
    assert.ok(search.body.quality_flags.includes('delayed_position'));

    // bbox applies to the delayed position: a box around the live fixes finds nothing.
    const liveBox = await app.api('GET', '/v1/vessels/search?bbox=103.79,1.30,103.95,1.40', { token });
    assertNoFreshPosition(liveBox, 'search by bbox around live positions');
    assert.deepEqual(liveBox.body.data.items, []);
    const delayedBox = await app.api('GET', '/v1/vessels/search?bbox=103.5,1.0,103.76,1.26&limit=1', { token });
    assertNoFreshPosition(delayedBox, 'search by bbox around delayed positions');
    assert.deepEqual(
      delayedBox.body.data.items.map((i: any) => i.name),
      ['OCEAN OTHER'],
    );
    assert.notEqual(delayedBox.body.data.next_cursor, null, 'a second vessel in the box: next page');
    const page2 = await app.api('GET', `/v1/vessels/search?bbox=103.5,1.0,103.76,1.26&limit=1&cursor=${delayedBox.body.data.next_cursor}`, { token });
    assert.deepEqual(
      page2.body.data.items.map((i: any) => i.name),
      ['OCEAN PRIDE'],
    );
    assert.equal(page2.body.data.next_cursor, null);

    const watch = await app.api('GET', `/v1/vessels/watchlist?ids=IMO:${PRIDE.imo},MMSI:${OTHER.mmsi},${ids.fresh},MMSI:563099900`, { token });
    assertNoFreshPosition(watch, 'watchlist');
    const [p, o, f, missing] = watch.body.data.items;
    assertDelayed(p.result.position, NOW, 'watchlist PRIDE');
    assertDelayed(o.result.position, NOW, 'watchlist OTHER');
    assert.equal(f.result.position, null);
    assert.equal(missing.error.code, 'vessel_not_found');
    assert.equal(watch.body.freshness_seconds, 15 * 3600);
    assert.ok(watch.body.quality_flags.includes('delayed_position'));

    // History and the updates stream are refused, naming the entitlement and how to get it.
    await refused(app, `/v1/vessels/${ids.pride}/positions`, token);
    await refused(app, `/v1/vessels/MMSI:${PRIDE.mmsi}/positions?from=${NOW - 30 * HOUR}&to=${NOW - 20 * HOUR}`, token);
    await refused(app, '/v1/vessels/updates?timeout=0', token);
    await refused(app, `/v1/vessels/updates?timeout=5&ids=IMO:${PRIDE.imo}`, token);
  });
});

test('the delay edge moves with the clock: a fix 50,399 s old is served one second later, never before', async () => {
  await withApp(async (app) => {
    await seed(app);
    const { apiKey } = await app.registerAgent('edge');
    let res = await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(res.body.data.position.lat, 1.25);
    app.clock.advance(SECOND);
    res = await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(res.body.data.position.lat, Number(FRESH_LATS[0]), 'now exactly 50,400 s old');
    assert.equal(res.body.data.position.age_seconds, DELAY);
    // A new live position ingested now changes nothing for the delayed key.
    await ingest(app.bosun.ctx.services.fleet, position(PRIDE.mmsi, app.clock.now(), Number(FRESH_LATS[6]), 103.8));
    res = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(res.body.data.latest_position.lat, Number(FRESH_LATS[0]));
    assert.ok(!res.text.includes(FRESH_LATS[6]!));
    // Once the newest fix is itself older than the delay, it is what a delayed key gets.
    app.clock.advance(DAY);
    res = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(res.body.data.latest_position.lat, Number(FRESH_LATS[6]));
    assert.deepEqual(res.body.data.latest_position.quality_flags, ['delayed_position']);
  });
});

test('simulated (demo fleet) data is gated like real data', async () => {
  await withApp(async (app) => {
    const ids = await seed(app, { simulated: true });
    const { apiKey } = await app.registerAgent('sim');
    const res = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assertNoFreshPosition(res, 'simulated lookup');
    assertDelayed(res.body.data.latest_position, NOW, 'simulated lookup');
    assert.deepEqual(res.body.data.latest_position.quality_flags.sort(), ['delayed_position', 'simulated_source']);
    assert.deepEqual([...res.body.quality_flags].sort(), ['delayed_position', 'simulated_source']);
    await refused(app, `/v1/vessels/${ids.pride}/positions`, apiKey);
    await refused(app, '/v1/vessels/updates?timeout=0', apiKey);
  });
});

test('a snapshot-trial key reads its one vessel live and every other vessel delayed; no history or stream; revoked trial is delayed again', async () => {
  await withApp(async (app) => {
    const ids = await seed(app);
    const { apiKey, agentId } = await app.registerAgent('trial');
    await app.bosun.ctx.services.trials.grant(agentId, `IMO:${PRIDE.imo}`, { kind: 'cli' });

    const own = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(own.body.data.latest_position.lat, Number(FRESH_LATS[2]), 'its trial vessel is live');
    assert.equal(own.body.data.latest_position.age_seconds, 5);
    assert.deepEqual(own.body.data.latest_position.quality_flags, []);
    assert.deepEqual(own.body.quality_flags, []);
    const ownLast = await app.api('GET', `/v1/vessels/last_position?id=${ids.pride}`, { token: apiKey });
    assert.equal(ownLast.body.data.position.age_seconds, 5);

    const other = await app.api('GET', `/v1/vessels/lookup?imo=${OTHER.imo}`, { token: apiKey });
    assertNoFreshPosition(other, 'trial key, other vessel');
    assertDelayed(other.body.data.latest_position, NOW, 'trial key, other vessel');

    const watch = await app.api('GET', `/v1/vessels/watchlist?ids=IMO:${PRIDE.imo},IMO:${OTHER.imo}`, { token: apiKey });
    assert.equal(watch.body.data.items[0].result.position.age_seconds, 5);
    assertDelayed(watch.body.data.items[1].result.position, NOW, 'trial watchlist, other vessel');
    assert.ok(watch.body.quality_flags.includes('delayed_position'), 'part of the answer is delayed');
    assert.ok(!watch.text.includes(FRESH_LATS[3]!));

    const search = await app.api('GET', '/v1/vessels/search?q=ocean', { token: apiKey });
    const byName = Object.fromEntries(search.body.data.items.map((i: any) => [i.name, i]));
    assert.equal(byName['OCEAN PRIDE'].latest_position.age_seconds, 5);
    assertDelayed(byName['OCEAN OTHER'].latest_position, NOW, 'trial search, other vessel');
    assert.equal(byName['OCEAN FRESH'].latest_position, null);

    // The trial is a snapshot: no history, no stream, not even of its own vessel.
    const history = await refused(app, `/v1/vessels/${ids.pride}/positions`, apiKey);
    assert.match(history.body.errors[0].message, new RegExp(`snapshot trial covers .*IMO:${PRIDE.imo} only`));
    await refused(app, `/v1/vessels/updates?timeout=0&ids=IMO:${PRIDE.imo}`, apiKey);

    await app.bosun.ctx.services.trials.revoke(agentId, { kind: 'cli' });
    const after = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assertNoFreshPosition(after, 'revoked trial');
    assertDelayed(after.body.data.latest_position, NOW, 'revoked trial');
  });
});

test('an expired snapshot trial no longer entitles its vessel', async () => {
  await withApp(async (app) => {
    const { apiKey, agentId } = await app.registerAgent('trial-ends');
    await seed(app);
    await app.bosun.ctx.services.trials.grant(agentId, `MMSI:${PRIDE.mmsi}`, { kind: 'cli' });
    app.clock.advance(7 * DAY - MINUTE);
    const fix = position(PRIDE.mmsi, app.clock.now() - SECOND, 1.39999, 103.8);
    await ingest(app.bosun.ctx.services.fleet, fix);
    assert.equal((await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: apiKey })).body.data.position.lat, 1.39999);
    app.clock.advance(MINUTE);
    const res = await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: apiKey });
    assert.ok(!res.text.includes('1.39999'), 'the trial ended: live data stops');
    assertDelayed(res.body.data.position, app.clock.now(), 'expired trial');
  });
});

test('vessels:live granted through an approved access_request serves live data, history and updates; revoking it delays the next call', async () => {
  await withApp(async (app) => {
    const ids = await seed(app);
    const { apiKey, agentId } = await app.registerAgent('entitled');
    const created = await app.api('POST', '/v1/harbor/operator-requests', {
      token: apiKey,
      body: { category: 'access_request', subject: 'Live positions', body: 'Live vessel data for route planning', requested_scopes: ['vessels:live'] },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.data.requested_scopes, ['vessels:live']);
    const { grants } = await app.bosun.ctx.services.operatorRequests.approve(created.body.data.request_id, {}, { kind: 'cli' });
    assert.deepEqual(grants, [{ scope: 'vessels:live', expires_at: null }]);
    const me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.ok(me.body.data.scopes.includes('vessels:live'));

    const lookup = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assert.equal(lookup.body.data.latest_position.lat, Number(FRESH_LATS[2]));
    assert.equal(lookup.body.data.latest_position.age_seconds, 5);
    assert.deepEqual(lookup.body.quality_flags, []);
    const search = await app.api('GET', '/v1/vessels/search?bbox=103.79,1.30,103.95,1.40', { token: apiKey });
    assert.deepEqual(
      search.body.data.items.map((i: any) => i.name),
      ['OCEAN FRESH', 'OCEAN PRIDE'],
      'bbox on live positions',
    );
    const watch = await app.api('GET', `/v1/vessels/watchlist?ids=IMO:${OTHER.imo}`, { token: apiKey });
    assert.equal(watch.body.data.items[0].result.position.age_seconds, 10);

    const history = await app.api('GET', `/v1/vessels/${ids.pride}/positions?from=${NOW - 2 * HOUR}`, { token: apiKey });
    assert.equal(history.status, 200, history.text);
    assert.deepEqual(
      history.body.data.items.map((i: any) => i.lat),
      [Number(FRESH_LATS[1]), Number(FRESH_LATS[2])],
    );
    const updates = await app.api('GET', '/v1/vessels/updates?timeout=0', { token: apiKey });
    assert.equal(updates.status, 200, updates.text);
    assert.equal(updates.body.data.timed_out, true);

    assert.equal(await app.bosun.ctx.services.agents.revokeScope(agentId, 'vessels:live', { kind: 'cli' }), true);
    const delayed = await app.api('GET', `/v1/vessels/lookup?imo=${PRIDE.imo}`, { token: apiKey });
    assertNoFreshPosition(delayed, 'after revoke-scope');
    assertDelayed(delayed.body.data.latest_position, NOW, 'after revoke-scope');
    await refused(app, `/v1/vessels/${ids.pride}/positions`, apiKey);
    await refused(app, '/v1/vessels/updates?timeout=0', apiKey);
  });
});

test('bosun agents grant <id> vessels:live and agents revoke-scope switch a key between live and delayed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-entitle-cli-'));
  const databaseUrl = `sqlite:${join(dir, 'bosun.db')}`;
  const { REDIS_URL: _redis, DATABASE_URL: _db, ...inherited } = process.env;
  const cli = (...args: string[]) => runCli(['agents', ...args], { env: { ...inherited, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
  try {
    await withApp(
      async (app) => {
        await seed(app);
        const { apiKey, agentId } = await app.registerAgent('cli-granted');
        const lat = async () => (await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: apiKey })).body.data.position.lat;
        assert.equal(await lat(), 1.25);
        const other = await app.registerAgent('cli-granted-too');
        const missingScope = await cli('grant', agentId);
        assert.notEqual(missingScope.status, 0);
        assert.match(missingScope.stderr, /give the agent id\(s\) and the scope/);
        const granted = await cli('grant', agentId, other.agentId, 'vessels:live');
        assert.equal(granted.status, 0, granted.stderr);
        assert.match(granted.stdout, new RegExp(`granted vessels:live to ${agentId}\ngranted vessels:live to ${other.agentId}`));
        assert.equal(await lat(), Number(FRESH_LATS[2]), 'live on the next call');
        assert.equal((await app.api('GET', `/v1/vessels/last_position?imo=${PRIDE.imo}`, { token: other.apiKey })).body.data.position.lat, Number(FRESH_LATS[2]), 'both agents granted');
        const revoked = await cli('revoke-scope', agentId, 'vessels:live');
        assert.equal(revoked.status, 0, revoked.stderr);
        assert.equal(await lat(), 1.25, 'delayed on the next call');
      },
      { DATABASE_URL: databaseUrl },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('discovery says so: the scope is grantable but not default, the errors lists and descriptions name it, policy and contract agree', async () => {
  await withApp(async (app) => {
    const contract = (await app.api('GET', '/v1/agent-harbor/contract')).body.data;
    const scope = contract.scopes.find((s: any) => s.scope === 'vessels:live');
    assert.ok(scope, 'vessels:live is in the scope table');
    assert.equal(scope.issued_by_default, false);
    assert.ok(!contract.default_scopes.includes('vessels:live'));
    assert.ok(
      contract.privacy_guarantees.some((g: string) => g.includes('vessels:live') && g.includes('50,400 s')),
      'the privacy statement matches the behaviour',
    );

    const doc = buildOpenApi(app.bosun.ctx.catalog, 'http://localhost') as any;
    for (const path of ['/v1/vessels/{vsl_id}/positions', '/v1/vessels/updates']) {
      const op = doc.paths[path].get;
      assert.match(op.description, /vessels:live/);
      assert.ok(JSON.stringify(op.responses['403']).includes('entitlement_required'), `${path} lists entitlement_required`);
    }
    for (const path of ['/v1/vessels/lookup', '/v1/vessels/last_position', '/v1/vessels/search', '/v1/vessels/watchlist']) {
      assert.match(doc.paths[path].get.description, /vessels:live.*delayed_position/s, path);
    }

    const policy = (await app.api('GET', '/v1/policy')).body.data;
    const keyed = policy.data_delays.find((d: any) => d.data.startsWith('keyed vessel positions'));
    assert.equal(keyed.delay_seconds, DELAY);
    assert.match(keyed.note, /vessels:live/);
    assert.ok(policy.privacy.some((p: string) => p.includes('vessels:live')));
  });
});
