import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GRANTABLE_SCOPES, DEFAULT_SCOPES, SCOPE_BY_NAME } from '../../src/access/scopes.js';
import { ERROR_CODES } from '../../src/http/errors.js';
import { delayCutoff, entitlementRequired, liveFor, vesselAccess, type TrialRecord } from '../../src/features/vessels/entitlements.js';

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
