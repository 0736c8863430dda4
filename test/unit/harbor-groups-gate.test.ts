import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, ManualClock } from '../../src/platform/clock.js';
import type { AgentPrincipal } from '../../src/access/principals.js';
import type { AuditService } from '../../src/features/audit/audit-service.js';
import type { GroupsRepo } from '../../src/features/harbor/groups/groups-repo.js';
import { unmetParticipationConditions, type ParticipationSignals } from '../../src/features/harbor/groups/group-rules.js';
import { createGroupsService } from '../../src/features/harbor/groups/groups-service.js';
import { PARTICIPATION_GATES } from '../../src/features/kit/harbor-contract.js';
import type { TransactionRunner, Trx } from '../../src/store/transaction.js';
import type { QuotaService } from '../../src/features/harbor/quota/quota-service.js';
import { createCursorCodec } from '../../src/http/cursor-codec.js';

const GATE = PARTICIPATION_GATES['harbor:public:participate'];
const met = { reputation: GATE.reputation, completedTasks: GATE.completedTasks, accountAgeMs: GATE.accountAgeDays * DAY, incidents: 0 };

test('the participation gate is met exactly at its thresholds', () => {
  assert.deepEqual(unmetParticipationConditions(met), []);
  assert.deepEqual(unmetParticipationConditions({ ...met, reputation: 100, completedTasks: 40, accountAgeMs: 400 * DAY }), []);
});

test('each unmet condition is named with the value and the threshold', () => {
  assert.deepEqual(unmetParticipationConditions({ ...met, reputation: GATE.reputation - 1 }), [`reputation ${GATE.reputation - 1} (needs at least ${GATE.reputation})`]);
  const none = unmetParticipationConditions({ ...met, reputation: null });
  assert.equal(none.length, 1);
  assert.match(none[0]!, new RegExp(`^reputation: none yet \\(needs at least ${GATE.reputation}\\); feedback moves no reputation`));
  assert.deepEqual(unmetParticipationConditions({ ...met, reputation: null, reputationAssessedByOperator: true }), [], 'the operator grant assesses reputation');
  assert.deepEqual(unmetParticipationConditions({ ...met, completedTasks: GATE.completedTasks - 1 }), [`completed tasks ${GATE.completedTasks - 1} (needs at least ${GATE.completedTasks})`]);
  assert.deepEqual(unmetParticipationConditions({ ...met, accountAgeMs: GATE.accountAgeDays * DAY - 1 }), [`account age 6.9 days (needs at least ${GATE.accountAgeDays})`]);
  assert.deepEqual(unmetParticipationConditions({ ...met, incidents: 1 }), ['incidents 1 (needs none)']);
  assert.equal(unmetParticipationConditions({ reputation: null, completedTasks: 0, accountAgeMs: 0, incidents: 3 }).length, 4);
});

/** The service's join_request against in-memory fakes, with explicit signal providers. */
function joinWith(signals: ParticipationSignals, agent: { createdAt: number; scopes: string[] }, ownIncidents = 0) {
  const clock = new ManualClock(100 * DAY);
  const memberships: unknown[] = [];
  const repo = {
    findGroup: async (id: number) => (id === 5 ? { group_id: 5, name: 'Ops', description: 'd', kind: 'public', created_at: 0 } : undefined),
    findMembership: async () => undefined,
    countIncidents: async () => ownIncidents,
    upsertMembership: async (row: unknown) => void memberships.push(row),
  } as unknown as GroupsRepo;
  const charged: string[] = [];
  const service = createGroupsService({
    repo,
    clock,
    cursors: createCursorCodec('gate test secret'),
    audit: { record: async () => undefined } as unknown as AuditService,
    quota: { charge: async (_id: string, op: string) => void charged.push(op) } as unknown as QuotaService,
    transaction: (async (_keys: unknown, fn: (trx: Trx) => Promise<unknown>) => fn({} as Trx)) as TransactionRunner,
    signals,
    publicName: async () => null,
  });
  const principal = { agentId: 'agt_1', name: 'n', state: 'sandbox', scopes: new Set(agent.scopes), row: { created_at: agent.createdAt } } as unknown as AgentPrincipal;
  return { run: () => service.act(principal, { action: 'join_request', group_id: 5 }), memberships, charged, now: clock.now() };
}

const signals = (reputation: number | null, completedTasks: number, incidents = 0): ParticipationSignals => ({
  reputationScore: async () => reputation,
  completedTasks: async () => completedTasks,
  incidents: async () => incidents,
});

test('join_request passes the gate with providers at the thresholds and records a pending membership', async () => {
  const j = joinWith(signals(GATE.reputation, GATE.completedTasks), { createdAt: 100 * DAY - GATE.accountAgeDays * DAY, scopes: ['harbor:public:participate'] });
  const result = await j.run();
  assert.equal(result.changed, true);
  assert.equal(result.membership?.state, 'pending');
  assert.equal(j.memberships.length, 1);
  assert.deepEqual(j.charged, ['postHarborPublicGroups.join_request']);
});

test('join_request refuses with public_access_gate_failed naming every unmet condition, and charges nothing', async () => {
  const j = joinWith(signals(59, 2, 1), { createdAt: 100 * DAY - DAY, scopes: ['harbor:public:participate'] }, 1);
  await assert.rejects(j.run(), (e: any) => {
    assert.equal(e.code, 'public_access_gate_failed');
    assert.equal(e.status, 403);
    for (const part of ['reputation 59', 'completed tasks 2', 'account age 1 days', 'incidents 2']) assert.ok(e.message.includes(part), `${part} in ${e.message}`);
    return true;
  });
  assert.deepEqual(j.charged, []);
  assert.equal(j.memberships.length, 0);
});

test('a met gate without the scope answers scope_required; the empty providers never pass', async () => {
  const noScope = joinWith(signals(90, 9), { createdAt: 0, scopes: [] });
  await assert.rejects(noScope.run(), (e: any) => e.code === 'scope_required' && /access_request/.test(e.message));
  const unwired = joinWith({ reputationScore: async () => null, completedTasks: async () => 0, incidents: async () => 0 }, { createdAt: 0, scopes: ['harbor:public:participate'] });
  await assert.rejects(unwired.run(), (e: any) => e.code === 'public_access_gate_failed' && /completed tasks 0/.test(e.message) && !/reputation/.test(e.message));
});

test('with no automatic reputation, the operator-granted scope stands for the reputation condition; the measurable conditions still apply', async () => {
  const granted = joinWith(signals(null, GATE.completedTasks), { createdAt: 100 * DAY - GATE.accountAgeDays * DAY, scopes: ['harbor:public:participate'] });
  assert.equal((await granted.run()).membership?.state, 'pending');
  const ungranted = joinWith(signals(null, GATE.completedTasks), { createdAt: 100 * DAY - GATE.accountAgeDays * DAY, scopes: [] });
  await assert.rejects(ungranted.run(), (e: any) => e.code === 'public_access_gate_failed' && /reputation: none yet/.test(e.message));
});
