import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { withApp, type TestApp, startTestAppWithCli } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { identity, ingest, position, PRIDE, prideIdentity } from '../helpers/fleet.js';
import { encounterRow, portCallRow, transitRow } from '../helpers/event-rows.js';

const SNAPSHOT = '/v1/services/vessel-snapshot/read';
const HISTORY = '/v1/services/vessel-history/read';
const OTHER = { mmsi: 244123000, imo: 9321483 };
const CLI = { kind: 'cli' } as const;

async function seed(app: TestApp): Promise<{ pride: string; other: string }> {
  const now = app.clock.now();
  const fleet = app.bosun.ctx.services.fleet;
  await ingest(
    fleet,
    prideIdentity(now - 3 * HOUR, 'NLRTM'),
    position(PRIDE.mmsi, now - 3 * HOUR, 51.9, 3.9),
    position(PRIDE.mmsi, now - 2 * HOUR, 51.92, 3.95),
    position(PRIDE.mmsi, now - HOUR, 51.94, 4.0),
    position(PRIDE.mmsi, now - 5 * MINUTE, 51.95, 4.05, { navStatus: 1 }),
    identity(OTHER.mmsi, now - HOUR, { imo: OTHER.imo, name: 'OTHER ONE' }),
    position(OTHER.mmsi, now - 10 * MINUTE, 52, 4),
  );
  const pride = fleet.byImoNumber(PRIDE.imo)!.vslId;
  const other = fleet.byImoNumber(OTHER.imo)!.vslId;
  const db = app.bosun.ctx.store.db;
  await db
    .insertInto('port_calls')
    .values(portCallRow({ vsl_id: pride, port_id: 31140, ship_type: 80, arrival: now - 10 * DAY, departure: now - 9 * DAY, berth_ms: DAY, fixes: 2, updated_at: now }))
    .execute();
  await db
    .insertInto('transits')
    .values(transitRow({ vsl_id: pride, zone: 'dover', direction: 'northbound', entered_at: now - 90 * MINUTE, exited_at: now - 70 * MINUTE, fixes: 2, updated_at: now }))
    .execute();
  const [a, b] = [pride, other].sort();
  await db
    .insertInto('encounters')
    .values(encounterRow({ vsl_a: a!, vsl_b: b!, start_at: now - 40 * DAY, end_at: now - 39 * DAY, median_distance_m: 100, lat: 51, lon: 3, observations: 5, confidence: 0.8, updated_at: now }))
    .execute();
  return { pride, other };
}

test('vessel services without an entitlement answer operator_configuration_required, never data', async () => {
  await withApp(async (app) => {
    await seed(app);
    const a = await app.registerAgent('alpha', ['vessels:live']);
    for (const url of [`${SNAPSHOT}?imo=${PRIDE.imo}`, `${HISTORY}?imo=${PRIDE.imo}`]) {
      const res = await app.api('GET', url, { token: a.apiKey });
      assert.equal(res.status, 403);
      assert.equal(res.body.errors[0].code, 'operator_configuration_required');
      assert.deepEqual(res.body.data, {});
      assert.ok(!res.text.includes('OCEAN PRIDE') && !res.text.includes('51.95'), 'no vessel data in the refusal');
    }
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=9321482`, { token: a.apiKey })).body.errors[0].code, 'invalid_vessel_id');
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=1234567`, { token: a.apiKey })).body.errors[0].code, 'vessel_not_found');
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}&mmsi=${PRIDE.mmsi}`, { token: a.apiKey })).body.errors[0].code, 'invalid_request');
  });
});

test('an operator grant entitles snapshot and history of its vessel only, until it expires or is revoked', async () => {
  await withApp(async (app) => {
    const { pride, other } = await seed(app);
    const a = await app.registerAgent('alpha');
    const services = app.bosun.ctx.services.vesselServices;
    const grant = await services.grant(a.agentId, `IMO:${PRIDE.imo}`, 2, CLI);
    assert.deepEqual([grant.vsl_id, grant.imo, grant.mmsi, grant.vessel_ref], [pride, PRIDE.imo, PRIDE.mmsi, `IMO:${PRIDE.imo}`]);

    const snap = await app.api('GET', `${SNAPSHOT}?mmsi=${PRIDE.mmsi}`, { token: a.apiKey });
    assert.equal(snap.status, 200, snap.text);
    const d = snap.body.data;
    assert.deepEqual(d.vessel, { vsl_id: pride, imo: PRIDE.imo, mmsi: PRIDE.mmsi, name: 'OCEAN PRIDE', callsign: '9V1234', flag: 'SG', ship_type: 80, length_m: 183, beam_m: 32, corrections: [] });
    assert.deepEqual([d.position.lat, d.position.lon, d.position.age_seconds, d.position.nav_status], [51.95, 4.05, 300, 1], 'the live position');
    assert.deepEqual(d.voyage, { destination: 'NLRTM', eta: '2026-11-22T06:00:00Z', draught_m: 11.2, nav_status: 1 });
    assert.deepEqual(d.recent_events.port_calls, [{ port_id: 31140, port_name: 'Rotterdam', arrival: '2026-11-11T00:00:00.000Z', departure: '2026-11-12T00:00:00.000Z' }]);
    assert.deepEqual(d.recent_events.transits, [{ zone: 'dover', direction: 'northbound', entered_at: '2026-11-20T22:30:00.000Z', exited_at: '2026-11-20T22:50:00.000Z' }]);
    assert.deepEqual(d.recent_events.encounters, [], 'the encounter 39 days ago is older than the 30-day window');
    assert.deepEqual(d.entitlement, { source: 'operator_grant', expires_at: '2026-11-23T00:00:00.000Z' });
    assert.equal(snap.body.freshness_seconds, 300);

    const hist = await app.api('GET', `${HISTORY}?id=${pride}&limit=2`, { token: a.apiKey });
    assert.equal(hist.status, 200, hist.text);
    assert.deepEqual([hist.body.data.from, hist.body.data.to], ['2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z']);
    assert.deepEqual(
      hist.body.data.positions.map((p: any) => p.observed_at),
      ['2026-11-20T21:00:00.000Z', '2026-11-20T22:00:00.000Z'],
    );
    const next = await app.api('GET', `${HISTORY}?id=${pride}&limit=2&cursor=${hist.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual(
      next.body.data.positions.map((p: any) => p.observed_at),
      ['2026-11-20T23:00:00.000Z', '2026-11-20T23:55:00.000Z'],
    );
    assert.equal(next.body.data.next_cursor, null);
    assert.equal(hist.body.data.events.transits.length, 1);
    const wide = await app.api('GET', `${HISTORY}?imo=${PRIDE.imo}&from=2026-11-13T00:00:00Z&to=2026-11-20T00:00:00Z`, { token: a.apiKey });
    assert.deepEqual([wide.body.data.positions, wide.body.data.events.transits, wide.body.data.events.encounters], [[], [], []]);
    const tooWide = await app.api('GET', `${HISTORY}?imo=${PRIDE.imo}&from=2026-11-12T00:00:00Z&to=2026-11-20T00:00:01Z`, { token: a.apiKey });
    assert.deepEqual([tooWide.status, tooWide.body.errors[0].code], [400, 'invalid_range']);
    const backwards = await app.api('GET', `${HISTORY}?imo=${PRIDE.imo}&from=2026-11-20T00:00:00Z&to=2026-11-19T00:00:00Z`, { token: a.apiKey });
    assert.equal(backwards.body.errors[0].code, 'invalid_range');
    assert.equal((await app.api('GET', `${HISTORY}?imo=${PRIDE.imo}&cursor=forged`, { token: a.apiKey })).body.errors[0].code, 'cursor_invalid');

    const otherVessel = await app.api('GET', `${SNAPSHOT}?id=${other}`, { token: a.apiKey });
    assert.equal(otherVessel.body.errors[0].code, 'operator_configuration_required', 'the grant is per vessel');

    // the grant lapses at its expiry (2 days)
    app.clock.advance(2 * DAY - 1);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).status, 200);
    app.clock.advance(1);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).body.errors[0].code, 'operator_configuration_required');

    await services.grant(a.agentId, pride, 1, CLI);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).status, 200);
    assert.equal(await services.revoke(a.agentId, `MMSI:${PRIDE.mmsi}`, CLI), 1);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).body.errors[0].code, 'operator_configuration_required');
  });
});

test('the harbor snapshot trial entitles the snapshot of its vessel, not the history; three agents stay apart', async () => {
  await withApp(async (app) => {
    const { pride } = await seed(app);
    const [a, b, c] = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')];
    await app.bosun.ctx.services.trials.grant(a.agentId, `IMO:${PRIDE.imo}`, CLI);
    await app.bosun.ctx.services.vesselServices.grant(b.agentId, `MMSI:${OTHER.mmsi}`, 5, CLI);

    const snap = await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey });
    assert.equal(snap.status, 200, snap.text);
    assert.deepEqual(snap.body.data.entitlement, { source: 'snapshot_trial', expires_at: null });
    const hist = await app.api('GET', `${HISTORY}?id=${pride}`, { token: a.apiKey });
    assert.equal(hist.body.errors[0].code, 'operator_configuration_required');
    assert.match(hist.body.errors[0].message, /trial covers the snapshot of this vessel only/);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${OTHER.imo}`, { token: a.apiKey })).body.errors[0].code, 'operator_configuration_required');

    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${OTHER.imo}`, { token: b.apiKey })).status, 200);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: b.apiKey })).body.errors[0].code, 'operator_configuration_required');
    for (const imo of [PRIDE.imo, OTHER.imo]) assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${imo}`, { token: c.apiKey })).status, 403);

    // the trial lasts 7 days
    app.clock.advance(7 * DAY);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).body.errors[0].code, 'operator_configuration_required');
  });
});

test('a snapshot serves applied corrections with their provenance and the operator_corrected flag', async () => {
  await withApp(async (app) => {
    const { pride } = await seed(app);
    const a = await app.registerAgent('alpha');
    await app.bosun.ctx.services.vesselServices.grant(a.agentId, pride, 1, CLI);
    const ticket = await app.api('POST', '/v1/feedback/correction', {
      token: a.apiKey,
      body: { subject: { kind: 'vessel', id: pride }, changes: [{ field: 'callsign', value: '9V9999' }], body: 'New call sign.' },
    });
    const feedback = app.bosun.ctx.services.feedback;
    await feedback.step(ticket.body.data.ticket_id, 'accept', {}, CLI);
    await feedback.step(ticket.body.data.ticket_id, 'apply', {}, CLI);
    const snap = await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey });
    assert.equal(snap.body.data.vessel.callsign, '9V9999');
    assert.deepEqual(
      snap.body.data.vessel.corrections.map((c: any) => [c.field, c.value, c.ticket_id]),
      [['callsign', '9V9999', ticket.body.data.ticket_id]],
    );
    assert.deepEqual(snap.body.quality_flags, ['operator_corrected']);
  });
});

test('bosun services grant|list|revoke on the shared store', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('services-cli');
  const run = (...args: string[]) => runCli(['services', ...args], { env });
  try {
    await seed(app);
    const a = await app.registerAgent('alpha');
    const granted = await run('grant', a.agentId, '--vessel', `IMO:${PRIDE.imo}`, '--days', '3');
    assert.equal(granted.status, 0, granted.stderr);
    assert.match(granted.stdout, new RegExp(`^vsg_[0-9a-f]{20}  ${a.agentId}  IMO:${PRIDE.imo} \\(vsl_[0-9a-f]{16}\\)  granted .*  until `, 'm'));
    assert.notEqual((await run('grant', a.agentId, '--vessel', `IMO:${PRIDE.imo}`, '--days', '0')).status, 0);
    assert.notEqual((await run('grant', 'agt_nobody', '--vessel', `IMO:${PRIDE.imo}`, '--days', '3')).status, 0);
    assert.notEqual((await run('grant', a.agentId, '--days', '3')).status, 0);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).status, 200);
    assert.match((await run('list', '--agent', a.agentId)).stdout, new RegExp(`IMO:${PRIDE.imo}`));
    const revoked = await run('revoke', a.agentId);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked 1 grant/);
    assert.equal((await run('revoke', a.agentId)).status, 1);
    assert.match((await run('list')).stdout, /revoked /);
    assert.equal((await app.api('GET', `${SNAPSHOT}?imo=${PRIDE.imo}`, { token: a.apiKey })).status, 403);
  } finally {
    await cleanup();
  }
});
