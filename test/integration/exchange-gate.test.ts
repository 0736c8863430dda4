import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Caller } from '../../src/access/principals.js';
import { AppError } from '../../src/platform/errors.js';
import { startTestAppWithCli, type TestApp, withApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';

/** An app whose store the CLI can open too (a file on SQLite, the test schema on PostgreSQL). */
async function appWithCli(): Promise<{ app: TestApp; bosun: (...args: string[]) => ReturnType<typeof runCli>; cleanup(): Promise<void> }> {
  const { app, env, cleanup } = await startTestAppWithCli('exchange-gate');
  return { app, bosun: (...args: string[]) => runCli(['exchange', ...args], { env }), cleanup };
}

async function callerOf(app: TestApp, apiKey: string): Promise<Caller> {
  const principal = await app.bosun.ctx.services.agents.authenticate(apiKey);
  assert.ok(principal);
  return { kind: 'agent', agent: principal };
}

test('exchange gate: members are agents the operator has not banned; bans are listed, lifted and audited through the CLI', async () => {
  const { app, bosun, cleanup } = await appWithCli();
  try {
    const gate = app.bosun.ctx.services.exchangeGate;
    const a = await app.registerAgent('exchange-a');
    const callerA = await callerOf(app, a.apiKey);
    assert.equal((await gate.member(callerA)).agentId, a.agentId);
    await assert.rejects(gate.member({ kind: 'anonymous' }), (e: AppError) => e.code === 'auth_required');
    await assert.rejects(gate.member({ kind: 'operator', operator: { tokenPrefix: 'bop_x' } }), (e: AppError) => e.code === 'agent_key_required');

    assert.equal((await bosun('bans')).stdout.trim(), 'no agent is banned from the exchange');
    const missingReason = await bosun('ban', a.agentId);
    assert.equal(missingReason.status, 1);
    assert.match(missingReason.stderr, /--reason is required/);
    const unknown = await bosun('ban', 'agt_nobody', '--reason', 'spam');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no agent agt_nobody/);

    const ban = await bosun('ban', a.agentId, '--reason', 'vote farming');
    assert.equal(ban.status, 0, ban.stderr);
    assert.equal(ban.stdout.trim(), `${a.agentId} banned from the exchange`);
    assert.equal((await bosun('ban', a.agentId, '--reason', 'again')).stdout.trim(), `${a.agentId} was already banned`);
    await assert.rejects(gate.member(callerA), (e: AppError) => e.code === 'exchange_banned' && /vote farming/.test(e.message));
    assert.equal(await gate.isBanned(a.agentId), true);
    assert.match((await bosun('bans')).stdout, new RegExp(`^${a.agentId}  \\d{4}-\\d\\d-\\d\\dT.*  vote farming$`, 'm'));

    assert.equal((await bosun('unban', a.agentId)).stdout.trim(), `${a.agentId} may use the exchange again`);
    assert.equal((await bosun('unban', a.agentId)).stdout.trim(), `${a.agentId} was not banned`);
    assert.equal((await gate.member(callerA)).agentId, a.agentId);

    const audit = await app.bosun.ctx.services.audit.list({ limit: 50 });
    const actions = audit.filter((e) => e.target === a.agentId).map((e) => e.action);
    assert.deepEqual(actions.filter((x) => x.startsWith('exchange.')).sort(), ['exchange.ban', 'exchange.unban']);
  } finally {
    await cleanup();
  }
});

test('exchange gate: agents registered from one network within 24 hours are linked; later or elsewhere they are not', () =>
  withApp(async (app) => {
    const gate = app.bosun.ctx.services.exchangeGate;
    const register = async (name: string, ip: string) => (await app.api('POST', '/v1/agents/register', { body: { name }, ip })).body.data.agent_id as string;
    const first = await register('linked-1', '10.201.7.10');
    const sameNetwork = await register('linked-2', '10.201.7.99');
    const otherNetwork = await register('unlinked', '10.202.7.10');
    app.clock.advance(24 * 3_600_000);
    const dayLater = await register('linked-later', '10.201.7.11');
    assert.equal(await gate.linked(first, sameNetwork), true);
    assert.equal(await gate.linked(first, otherNetwork), false);
    assert.equal(await gate.linked(first, dayLater), false, 'the window is exclusive at 24 h');
    await assert.rejects(gate.assertNotLinked(first, sameNetwork, 'vote on each other'), (e: AppError) => e.code === 'exchange_linked_agent_forbidden');
    await gate.assertNotLinked(first, otherNetwork, 'vote on each other');
  }));

test('exchange moderation: hide and restore dispatch to the registered kind; an unknown kind or id is a clear error', async () => {
  const { app, bosun, cleanup } = await appWithCli();
  try {
    const noKind = await bosun('hide', 'planet', 'p_1', '--reason', 'spam');
    assert.equal(noKind.status, 1);
    assert.match(noKind.stderr, /unknown exchange record kind "planet"/);
    // The CLI opens its own services; a kind registered on the app is seen through the app's gate.
    const gate = app.bosun.ctx.services.exchangeGate;
    const hidden = new Map<string, string>();
    gate.registerKind('note', {
      hide: async (id, reason) => (id === 'n1' ? (hidden.set(id, reason), true) : false),
      restore: async (id) => hidden.delete(id),
    });
    assert.throws(() => gate.registerKind('note', { hide: async () => true, restore: async () => true }), /registered twice/);
    // the exchange features register their own kinds (skill, charter, message, channel, …) beside it
    assert.ok(gate.kinds().includes('note'));
    assert.equal(await gate.hide('note', 'n1', 'off topic'), true);
    assert.equal(hidden.get('n1'), 'off topic');
    assert.equal(await gate.hide('note', 'n2', 'x'), false);
    assert.equal(await gate.restore('note', 'n1'), true);
    assert.equal(await gate.restore('note', 'n1'), false);
    await assert.rejects(gate.hide('nope', 'x', 'y'), (e: AppError) => e.code === 'invalid_request' && /known: .*\bnote\b/.test(e.message));
  } finally {
    await cleanup();
  }
});
