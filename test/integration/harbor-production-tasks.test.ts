import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { withApp, type TestApp } from '../helpers/app.js';

const URL = '/experimental/agent-harbor-tasks.php';
const CLI = { kind: 'cli' } as const;
const ALL_TASK_SCOPES = ['harbor:task:read', 'harbor:task:create', 'harbor:task:message', 'harbor:task:complete'];

function errorOf(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  return res.body.errors[0] as { code: string; message: string; field?: string };
}

async function grant(app: TestApp, agentId: string, scopes: string[]) {
  for (const scope of scopes) await app.bosun.ctx.services.agents.grantScope(agentId, scope, CLI);
}

/** Agents alpha, beta and gamma, each holding every task scope. */
async function threeTaskAgents(app: TestApp) {
  const agents = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')] as const;
  for (const agent of agents) await grant(app, agent.agentId, ALL_TASK_SCOPES);
  return agents;
}

test('full flow: the operator creates and assigns; the agent, scoped step by step, accepts, messages and completes', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const tasks = app.bosun.ctx.services.harborTasks;
    const row = await tasks.createByOperator({ title: 'Check ETA plausibility', description: 'Compare ETA with positions.', vessel: 'imo:9321483', assignee: a.agentId }, CLI);
    assert.equal(row.state, 'assigned');
    assert.equal(row.vessel_ref, 'IMO:9321483');

    errorOf(await app.api('GET', URL, { token: a.apiKey }), 403, 'scope_required');
    await grant(app, a.agentId, ['harbor:task:read']);
    const list = await app.api('GET', URL, { token: a.apiKey });
    assert.equal(list.status, 200);
    const [item] = list.body.data.items;
    assert.equal(item.task_id, row.task_id);
    assert.equal(item.vessel, 'IMO:9321483');
    assert.equal(item.created_by, 'operator');
    assert.equal(item.your_role, 'assignee');
    assert.equal(item.state, 'assigned');

    const noScope = await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: row.task_id } });
    assert.match(errorOf(noScope, 403, 'scope_required').message, /harbor:task:message/);
    await grant(app, a.agentId, ['harbor:task:message']);
    app.clock.advance(1000);
    const accepted = await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: row.task_id } });
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.data.state, 'accepted');
    assert.equal(accepted.body.data.accepted_at, new Date(app.clock.now()).toISOString());
    errorOf(await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: row.task_id } }), 409, 'conflict');

    await tasks.messageByOperator(row.task_id, 'Use the last 24 hours.', CLI);
    const msg = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: row.task_id, body: 'On it.' } });
    assert.deepEqual(
      msg.body.data.messages.map((m: any) => [m.author, m.body]),
      [
        ['operator', 'Use the last 24 hours.'],
        [a.agentId, 'On it.'],
      ],
    );

    const cannot = await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: row.task_id, result: 'ETA is 2 h late' } });
    assert.match(errorOf(cannot, 403, 'scope_required').message, /harbor:task:complete/);
    await grant(app, a.agentId, ['harbor:task:complete']);
    const done = await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: row.task_id, result: 'ETA is 2 h late' } });
    assert.equal(done.body.data.state, 'completed');
    assert.equal(done.body.data.result, 'ETA is 2 h late');
    assert.equal(done.body.data.closed_at, new Date(app.clock.now()).toISOString());
    errorOf(await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: row.task_id, body: 'more' } }), 409, 'conflict');

    assert.equal(await app.bosun.ctx.services.sandboxTasks.completedTaskCount(a.agentId), 1, 'a completed production task counts for the gate');
    const shown = await tasks.showForOperator(row.task_id);
    assert.equal(shown.row.result, 'ETA is 2 h late');
    assert.equal(shown.messageCount, 2);
    const audit = (await app.bosun.ctx.services.audit.list({ limit: 100 })).map((e) => e.action);
    for (const action of ['harbor.task.create', 'harbor.task.accept', 'harbor.task.message', 'harbor.task.complete']) assert.ok(audit.includes(action), action);
  });
});

test('privacy: a third agent with every task scope sees no foreign task, vessel or result anywhere', async () => {
  await withApp(async (app) => {
    const [a, b, c] = await threeTaskAgents(app);
    const tasks = app.bosun.ctx.services.harborTasks;
    const opTask = await tasks.createByOperator({ title: 'SECRET operator task', description: 'SECRET', vessel: 'MMSI:211234567', assignee: a.agentId }, CLI);
    const created = await app.api('POST', URL, { token: b.apiKey, body: { action: 'create', title: 'SECRET agent task', description: 'SECRET', assignee_agent_id: a.agentId, vessel: 'IMO:9321483' } });
    assert.equal(created.status, 200);
    assert.equal(created.body.data.state, 'assigned');
    assert.equal(created.body.data.your_role, 'creator');
    const agentTask = created.body.data.task_id;

    const cList = await app.api('GET', URL, { token: c.apiKey });
    assert.deepEqual(cList.body.data.items, []);
    assert.equal(cList.body.data.next_cursor, null);
    const missingId = 'tsk_00000000000000000000';
    const missing = errorOf(await app.api('GET', `${URL}?task_id=${missingId}`, { token: c.apiKey }), 404, 'not_found');
    for (const id of [opTask.task_id, agentTask]) {
      const read = await app.api('GET', `${URL}?task_id=${id}`, { token: c.apiKey });
      assert.equal(errorOf(read, 404, 'not_found').message.replace(id, 'X'), missing.message.replace(missingId, 'X'));
      for (const body of [
        { action: 'accept', task_id: id },
        { action: 'message', task_id: id, body: 'hi' },
        { action: 'complete', task_id: id, result: 'r' },
      ]) {
        const res = await app.api('POST', URL, { token: c.apiKey, body });
        errorOf(res, 404, 'not_found');
        assert.ok(!res.text.includes('SECRET') && !res.text.includes('211234567') && !res.text.includes('9321483'));
      }
    }
    const bList = await app.api('GET', URL, { token: b.apiKey });
    assert.deepEqual(
      bList.body.data.items.map((t: any) => t.task_id),
      [agentTask],
      "the creator sees its own task, not the operator's task for a",
    );
    const aList = await app.api('GET', URL, { token: a.apiKey });
    assert.deepEqual(aList.body.data.items.map((t: any) => t.task_id).sort(), [opTask.task_id, agentTask].sort());
    const sandboxList = await app.api('GET', '/experimental/agent-harbor-sandbox-tasks.php', { token: c.apiKey });
    assert.ok(!sandboxList.text.includes('SECRET'));
    const discovery = await app.api('GET', '/v1/harbor/discovery');
    assert.ok(!discovery.text.includes('SECRET') && !discovery.text.includes(agentTask), 'not part of public discovery');
  });
});

test('roles: the creator may message but not accept or complete; reassignment removes the previous assignee', async () => {
  await withApp(async (app) => {
    const [a, b, c] = await threeTaskAgents(app);
    const tasks = app.bosun.ctx.services.harborTasks;

    const created = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Dispatch me', description: 'x' } });
    assert.equal(created.body.data.state, 'created');
    assert.equal(created.body.data.assignee_agent_id, null);
    const id = created.body.data.task_id;
    const note = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: id, body: 'Any agent with AIS skills' } });
    assert.equal(note.status, 200);
    errorOf(await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: id } }), 409, 'conflict');
    assert.deepEqual(
      (await tasks.listForOperator({ state: 'created', limit: 10 })).map((r) => r.task_id),
      [id],
      'the operator sees it to dispatch',
    );

    await tasks.assign(id, b.agentId, CLI);
    errorOf(await app.api('POST', URL, { token: b.apiKey, body: { action: 'complete', task_id: id, result: 'r' } }), 409, 'conflict');
    await app.api('POST', URL, { token: b.apiKey, body: { action: 'accept', task_id: id } });
    const byCreator = await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: id, result: 'r' } });
    assert.match(errorOf(byCreator, 409, 'conflict').message, /only the assignee/);

    await tasks.assign(id, c.agentId, CLI);
    errorOf(await app.api('GET', `${URL}?task_id=${id}`, { token: b.apiKey }), 404, 'not_found');
    assert.deepEqual((await app.api('GET', URL, { token: b.apiKey })).body.data.items, []);
    const forC = await app.api('GET', `${URL}?task_id=${id}`, { token: c.apiKey });
    assert.equal(forC.body.data.state, 'assigned');
    assert.equal(forC.body.data.accepted_at, null);
    assert.deepEqual(
      forC.body.data.messages.map((m: any) => m.body),
      ['Any agent with AIS skills'],
    );

    await tasks.cancel(id, CLI);
    const cancelled = await app.api('GET', `${URL}?task_id=${id}`, { token: a.apiKey });
    assert.equal(cancelled.body.data.state, 'cancelled');
    errorOf(await app.api('POST', URL, { token: c.apiKey, body: { action: 'accept', task_id: id } }), 409, 'conflict');
    await assert.rejects(tasks.assign(id, b.agentId, CLI), (e: any) => e.code === 'conflict');
    await assert.rejects(tasks.cancel('tsk_missing', CLI), (e: any) => e.code === 'not_found');
  });
});

test('create input: scope per action, vessel identifiers, assignee rules', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await grant(app, a.agentId, ['harbor:task:read']);
    const noScope = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'x' } });
    assert.match(errorOf(noScope, 403, 'scope_required').message, /harbor:task:create/);
    await grant(app, a.agentId, ['harbor:task:create']);
    for (const vessel of ['IMO:9321484', 'IMO:932148', 'MMSI:12345678', '9321483', 'CALLSIGN:ABCD']) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'x', vessel } });
      assert.equal(errorOf(res, 400, 'invalid_vessel_id').field, 'body.vessel', vessel);
    }
    for (const assignee of [a.agentId, 'agt_00000000000000000000']) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'x', assignee_agent_id: assignee } });
      assert.equal(errorOf(res, 400, 'invalid_request').field, 'body.assignee_agent_id');
    }
    const over = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'é'.repeat(2000) + 'x' } });
    assert.equal(errorOf(over, 400, 'invalid_request').field, 'body.description');
    const unknown = await app.api('POST', URL, { token: a.apiKey, body: { action: 'publish', task_id: 'x' } });
    assert.equal(errorOf(unknown, 400, 'invalid_request').field, 'body.action');
    assert.deepEqual((await app.api('GET', URL, { token: a.apiKey })).body.data.items, [], 'nothing refused was stored');
    const ok = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'é'.repeat(2000), vessel: 'MMSI:211234567' } });
    assert.equal(ok.body.data.vessel, 'MMSI:211234567');
    await assert.rejects(app.bosun.ctx.services.harborTasks.createByOperator({ title: 'Title', description: 'x', vessel: 'IMO:1234568' }, CLI), (e: any) => e.code === 'invalid_vessel_id');
    await assert.rejects(app.bosun.ctx.services.harborTasks.createByOperator({ title: 'T', description: 'x' }, CLI), (e: any) => e.code === 'invalid_request' && e.options.field === 'title');
  });
});

test(`accepting counts as an active item: ${HARBOR_LIMITS.activeTasks} accepted tasks, the next accept is refused`, async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await grant(app, a.agentId, ALL_TASK_SCOPES);
    const tasks = app.bosun.ctx.services.harborTasks;
    const ids: string[] = [];
    for (let i = 0; i <= HARBOR_LIMITS.activeTasks; i++) ids.push((await tasks.createByOperator({ title: `Task ${i}`, description: 'x', assignee: a.agentId }, CLI)).task_id);
    for (const id of ids.slice(0, HARBOR_LIMITS.activeTasks)) {
      assert.equal((await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: id } })).status, 200);
    }
    assert.equal((await app.bosun.ctx.services.harborQuota.usage(a.agentId)).active_items, HARBOR_LIMITS.activeTasks);
    const full = await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: ids[HARBOR_LIMITS.activeTasks] } });
    errorOf(full, 409, 'active_items_limit');
    assert.equal(full.body.errors[0].retryable, false, 'only completing a task frees a slot');
    assert.equal(full.headers['retry-after'], undefined);
    await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: ids[0], result: 'done' } });
    assert.equal((await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: ids[HARBOR_LIMITS.activeTasks] } })).status, 200);
  });
});

test('retention: production tasks go 30 days after their last activity, completions stay counted', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await grant(app, a.agentId, ALL_TASK_SCOPES);
    const tasks = app.bosun.ctx.services.harborTasks;
    const row = await tasks.createByOperator({ title: 'Short task', description: 'x', assignee: a.agentId }, CLI);
    await app.api('POST', URL, { token: a.apiKey, body: { action: 'accept', task_id: row.task_id } });
    await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: row.task_id, result: 'done' } });
    app.clock.advance(HARBOR_LIMITS.contentRetentionDays * DAY - 1);
    assert.equal(await tasks.enforceRetention(), 0);
    app.clock.advance(1);
    assert.equal(await tasks.enforceRetention(), 1);
    errorOf(await app.api('GET', `${URL}?task_id=${row.task_id}`, { token: a.apiKey }), 404, 'not_found');
    assert.equal(await app.bosun.ctx.services.sandboxTasks.completedTaskCount(a.agentId), 1);
  });
});
