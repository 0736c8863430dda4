import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GRANTABLE_SCOPES, DEFAULT_SCOPES, SCOPE_BY_NAME } from '../../src/access/scopes.js';
import { ERROR_CODES } from '../../src/platform/errors.js';
import { delayCutoff, entitlementRequired, liveFor, needsVoyageChanges, presenceFor, vesselAccess, type TrialRecord } from '../../src/features/vessels/entitlements.js';

const NOW = Date.UTC(2026, 10, 21);
const agent = (...scopes: string[]) => ({ agentId: 'agt_1', scopes: new Set(scopes) });
const vessel = (vslId: string, imo: number | null, mmsi: number) => ({ vslId, imo, mmsi });
const trial = (extra: Partial<TrialRecord> = {}): TrialRecord => ({ vessel_ref: 'IMO:9811000', vsl_id: 'vsl_a', imo: 9811000, mmsi: 563033300, expires_at: NOW + 1, revoked_at: null, ...extra });

test('vessels:live is an operator-grantable scope, never issued by default', () => {
  assert.ok(GRANTABLE_SCOPES.has('vessels:live'));
  assert.ok(!DEFAULT_SCOPES.includes('vessels:live'));
  assert.equal(SCOPE_BY_NAME.get('vessels:live')?.grantDays, undefined, 'no fixed duration: the operator chooses (--days)');
  assert.equal(ERROR_CODES.entitlement_required.status, 403);
  assert.equal(ERROR_CODES.entitlement_required.retryable, false);
});

test('access comes from the principal; the trial record is read only for callers holding snapshot:read', async () => {
  let reads = 0;
  const find = async () => ((reads += 1), trial());
  assert.deepEqual(await vesselAccess(agent('vessels:live', 'snapshot:read'), find, NOW), { live: true });
  assert.deepEqual(await vesselAccess(agent('harbor:public:read'), find, NOW), { live: false, trial: null });
  assert.equal(reads, 0, 'no store round trip for a live or a plain key');
  const t = await vesselAccess(agent('snapshot:read'), find, NOW);
  assert.equal(reads, 1);
  assert.equal(t.live, false);
  assert.equal(!t.live && t.trial?.vsl_id, 'vsl_a');
});

test('an expired, revoked or missing trial entitles nothing; the edge instant is already expired', async () => {
  const at = (rec: TrialRecord | undefined) => vesselAccess(agent('snapshot:read'), async () => rec, NOW);
  assert.deepEqual(await at(undefined), { live: false, trial: null });
  assert.deepEqual(await at(trial({ revoked_at: NOW - 1 })), { live: false, trial: null });
  assert.deepEqual(await at(trial({ expires_at: NOW })), { live: false, trial: null });
  assert.notDeepEqual(await at(trial({ expires_at: NOW + 1 })), { live: false, trial: null });
});

test('a trial entitles its one vessel: the resolved vsl_id, or the granted identifier when it was not observed yet', () => {
  const resolved = { live: false as const, trial: trial() };
  assert.equal(liveFor(resolved, vessel('vsl_a', 9811000, 563033300)), true);
  assert.equal(liveFor(resolved, vessel('vsl_b', 9811000, 563099900)), false, 'another vessel claiming the same IMO is not the trial vessel');
  const byImo = { live: false as const, trial: trial({ vsl_id: null, mmsi: null }) };
  assert.equal(liveFor(byImo, vessel('vsl_c', 9811000, 563011100)), true);
  assert.equal(liveFor(byImo, vessel('vsl_d', null, 563011100)), false);
  assert.equal(liveFor({ live: false, trial: null }, vessel('vsl_a', 9811000, 563033300)), false);
  assert.equal(liveFor({ live: true }, vessel('vsl_z', null, 1)), true);
});

test('the cutoff is exactly the preview delay; the refusal names the scope and the way to ask', () => {
  assert.equal(NOW - delayCutoff(NOW), 50_400_000);
  const plain = entitlementRequired({ live: false, trial: null }, 'Position history');
  assert.equal(plain.code, 'entitlement_required');
  assert.match(plain.message, /vessels:live.*POST \/v1\/harbor\/operator-requests.*access_request/);
  const trialKey = entitlementRequired({ live: false, trial: trial() }, 'The updates stream');
  assert.match(trialKey.message, /snapshot trial covers .* IMO:9811000 only/);
});

test('presenceFor: times and voyage as they were at the cutoff, to the millisecond', () => {
  const now = 1_800_000_000_000;
  const cutoff = delayCutoff(now);
  const vessel = { firstSeenAt: cutoff - 10 * 3_600_000, lastSeenAt: now - 5_000, identityObservedAt: now - 60_000, draughtM: 12.1, destination: 'MXVER', eta: '2026-12-01T10:00:00.000Z' };
  assert.deepEqual(presenceFor(vessel, true, now - 5_000, now), {
    firstSeenAt: vessel.firstSeenAt,
    lastSeenAt: now - 5_000,
    draughtM: 12.1,
    destination: 'MXVER',
    eta: vessel.eta,
    voyageWithheld: false,
  });

  const changes = [
    { field: 'destination' as const, oldValue: null, changedAt: cutoff + 1 },
    { field: 'destination' as const, oldValue: 'USHOU', changedAt: now - 60_000 },
    { field: 'draught_m' as const, oldValue: '9.5', changedAt: now - 60_000 },
  ];
  const delayed = presenceFor(vessel, false, cutoff - 1_000, now, changes);
  assert.equal(delayed.destination, null, 'set from nothing 1 ms after the cutoff: nothing was known at it');
  assert.equal(delayed.draughtM, 9.5);
  assert.equal(delayed.eta, vessel.eta, 'unchanged since before the cutoff');
  assert.equal(delayed.lastSeenAt, cutoff - 1_000);
  assert.equal(delayed.firstSeenAt, vessel.firstSeenAt);

  const atTheEdge = presenceFor({ ...vessel, lastSeenAt: cutoff, identityObservedAt: cutoff }, false, null, now, [{ field: 'destination', oldValue: 'USHOU', changedAt: cutoff }]);
  assert.deepEqual([atTheEdge.lastSeenAt, atTheEdge.destination], [cutoff, 'MXVER'], 'observed exactly at the cutoff is old enough');

  const newcomer = presenceFor({ ...vessel, firstSeenAt: cutoff + 1 }, false, null, now);
  assert.deepEqual(newcomer, { firstSeenAt: null, lastSeenAt: null, draughtM: null, destination: null, eta: null, voyageWithheld: true });
  assert.equal(needsVoyageChanges(vessel, false, now), true);
  assert.equal(needsVoyageChanges({ ...vessel, identityObservedAt: cutoff }, false, now), false);
  assert.equal(needsVoyageChanges(vessel, true, now), false);
});
