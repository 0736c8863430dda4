import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import type { PositionReport, StaticReport } from '../../src/fleet/types.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const IMO = 9811000;
const MMSI = 563033300;
let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

const meta = (at: number) => ({ observedAt: at, receivedAt: at, source: 'tcp:test-receiver', simulated: false });
function staticReport(mmsi: number, imo: number | null, name: string): StaticReport {
  return { ...meta(app.clock.now()), mmsi, imo, name, callsign: '9V1234', shipType: 70, lengthM: 300, beamM: 48, draughtM: 14.5, destination: 'SGSIN', eta: null };
}
function position(mmsi: number, at: number, lat: number, lon: number): PositionReport {
  return { ...meta(at), mmsi, lat, lon, sog: 12.3, cog: 45, heading: 44, navStatus: 0, msgType: 1 };
}

async function trialCall(token: string, query: string) {
  return app.api('GET', `/v1/services/vessel-snapshot/trial?${query}`, { token });
}

test('the trial serves one granted vessel from the fleet state, with every trial code reachable', async () => {
  const { apiKey, agentId } = await app.registerAgent('trialist');
  const noTrial = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(noTrial.body.errors[0].code, 'scope_required', 'without snapshot:read the catalog refuses');

  const grant = await app.bosun.ctx.services.trials.grant(agentId, `IMO:${IMO}`, { kind: 'cli' });
  assert.equal(grant.scopeExpiresAt, new Date(app.clock.now() + 7 * DAY).toISOString());

  const empty = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(empty.status, 503);
  assert.equal(empty.body.errors[0].code, 'trial_snapshot_unavailable', 'no vessel data at all yet');

  const fleet = app.bosun.ctx.services.fleet;
  fleet.acceptStatic(staticReport(219000001, 9074729, 'OTHER SHIP'));
  fleet.acceptPosition(position(219000001, app.clock.now() - MINUTE, 55.6, 12.6));
  await fleet.flush();
  const unknown = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.errors[0].code, 'vessel_not_found');

  fleet.acceptStatic(staticReport(MMSI, IMO, 'EVER EXAMPLE'));
  await fleet.flush();
  const noFix = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(noFix.body.errors[0].code, 'trial_snapshot_unavailable', 'known vessel, no position yet');

  fleet.acceptPosition(position(MMSI, app.clock.now() - 20 * MINUTE, 1.25, 103.8));
  await fleet.flush();
  app.clock.advance(MINUTE);
  const ok = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(ok.status, 200);
  const snap = ok.body.data;
  assert.equal(snap.vessel.mmsi, MMSI);
  assert.equal(snap.vessel.name, 'EVER EXAMPLE');
  assert.deepEqual([snap.position.lat, snap.position.lon], [1.25, 103.8]);
  assert.equal(snap.age_seconds, 21 * 60);
  assert.equal(snap.data_state, 'recent');
  assert.equal(snap.observed_at, new Date(app.clock.now() - 21 * MINUTE).toISOString());
  assert.equal(snap.generated_at, new Date(app.clock.now()).toISOString());
  assert.equal(snap.source.feed, 'tcp:test-receiver');
  assert.equal(ok.body.cost_units, 0, 'no credit debit');
  assert.equal(ok.body.freshness_seconds, 21 * 60);

  const byMmsi = await trialCall(apiKey, `mmsi=${MMSI}`);
  assert.equal(byMmsi.status, 200, 'the same canonical vessel by its MMSI');

  app.clock.advance(MINUTE);
  const other = await trialCall(apiKey, 'imo=9074729');
  assert.equal(other.status, 403);
  assert.equal(other.body.errors[0].code, 'trial_vessel_not_allowed');
  assert.equal((await trialCall(apiKey, 'imo=9811001')).body.errors[0].code, 'invalid_vessel_id', 'bad check digit');
  assert.equal((await trialCall(apiKey, `imo=${IMO}&mmsi=${MMSI}`)).body.errors[0].code, 'invalid_vessel_id', 'exactly one id');
  assert.equal((await trialCall(apiKey, `imo=${IMO}&owner=acme`)).body.errors[0].code, 'owner_override_forbidden');
  assert.equal((await trialCall(apiKey, `imo=${IMO}&include=track`)).body.errors[0].code, 'raw_vessel_data_forbidden');
});

test('trial_rate_limited at 6 calls per minute; trial_error_rate_limited after 10 failures in an hour', async () => {
  const { apiKey, agentId } = await app.registerAgent('busy-trialist');
  await app.bosun.ctx.services.trials.grant(agentId, `MMSI:${MMSI}`, { kind: 'cli' });
  for (let i = 0; i < 6; i++) assert.equal((await trialCall(apiKey, `mmsi=${MMSI}`)).status, 200);
  const limited = await trialCall(apiKey, `mmsi=${MMSI}`);
  assert.equal(limited.status, 429);
  assert.equal(limited.body.errors[0].code, 'trial_rate_limited');

  app.clock.advance(MINUTE);
  for (let i = 0; i < 10; i++) {
    if (i % 5 === 0) app.clock.advance(MINUTE);
    assert.equal((await trialCall(apiKey, 'imo=9074729')).body.errors[0].code, 'trial_vessel_not_allowed');
  }
  app.clock.advance(MINUTE);
  const blocked = await trialCall(apiKey, `mmsi=${MMSI}`);
  assert.equal(blocked.status, 429);
  assert.equal(blocked.body.errors[0].code, 'trial_error_rate_limited', 'even a valid call waits once the failure budget is spent');
  app.clock.advance(HOUR);
  assert.equal((await trialCall(apiKey, `mmsi=${MMSI}`)).status, 200);
});

test('a trial ends after 7 days or when revoked; grants are per agent', async () => {
  const { apiKey, agentId } = await app.registerAgent('short-trial');
  const { apiKey: otherKey } = await app.registerAgent('no-trial');
  await app.bosun.ctx.services.trials.grant(agentId, `IMO:${IMO}`, { kind: 'cli' });
  assert.equal((await trialCall(otherKey, `imo=${IMO}`)).body.errors[0].code, 'scope_required');
  await app.bosun.ctx.store.db
    .insertInto('agent_scopes')
    .values({ agent_id: (await app.registerAgent('scope-only')).agentId, scope: 'snapshot:read', granted_by: 'operator', granted_at: app.clock.now(), expires_at: null })
    .execute();
  app.clock.advance(7 * DAY);
  const ended = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(ended.body.errors[0].code, 'scope_required', 'snapshot:read lapses with the trial');

  const again = await app.registerAgent('revoked-trial');
  await app.bosun.ctx.services.trials.grant(again.agentId, `IMO:${IMO}`, { kind: 'cli' });
  assert.equal((await trialCall(again.apiKey, `imo=${IMO}`)).status, 200);
  assert.equal(await app.bosun.ctx.services.trials.revoke(again.agentId, { kind: 'cli' }), true);
  assert.equal((await trialCall(again.apiKey, `imo=${IMO}`)).body.errors[0].code, 'scope_required');
});

test('snapshot:read without a vessel grant answers trial_not_enabled', async () => {
  const { apiKey, agentId } = await app.registerAgent('scope-without-vessel');
  await app.bosun.ctx.services.agents.grantScope(agentId, 'snapshot:read', { kind: 'cli' });
  const res = await trialCall(apiKey, `imo=${IMO}`);
  assert.equal(res.status, 403);
  assert.equal(res.body.errors[0].code, 'trial_not_enabled');
});
