import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { createSandboxTasksRepo } from '../../src/features/harbor/tasks/sandbox-tasks-repo.js';
import { createSandboxTasksService } from '../../src/features/harbor/tasks/sandbox-tasks-service.js';
import { createTaskCompletionsRepo } from '../../src/features/harbor/tasks/task-completions-repo.js';
import { withApp, type TestApp } from '../helpers/app.js';

const URL = '/experimental/agent-harbor-sandbox-tasks.php';

function errorOf(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code);
  return res.body.errors[0] as { code: string; message: string; field?: string };
}

async function create(app: TestApp, token: string, body: Record<string, unknown> = {}) {
  const res = await app.api('POST', URL, { token, body: { action: 'create', title: 'Practice task', description: 'Synthetic work', ...body } });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

test('the first call hands out the onboarding checklist; publishing a profile and sending an operator request complete it', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const list = await app.api('GET', URL, { token: a.apiKey });
    assert.equal(list.status, 200);
    const items = list.body.data.items;
    assert.deepEqual(items.map((t: any) => t.onboarding_key).sort(), ['help_request', 'publish_profile', 'send_operator_request', 'welcome_desk_intro']);
    for (const t of items) {
      assert.equal(t.kind, 'onboarding');
      assert.equal(t.state, 'open');
      assert.equal(t.created_by, 'harbor-service');
      assert.equal(t.assignee_agent_id, a.agentId);
      assert.equal(t.your_role, 'assignee');
      assert.equal(t.synthetic, true);
    }
    const again = await app.api('GET', URL, { token: a.apiKey });
    assert.equal(again.body.data.items.length, 4, 'the checklist is handed out once');
    const profileTask = items.find((t: any) => t.onboarding_key === 'publish_profile');
    const requestTask = items.find((t: any) => t.onboarding_key === 'send_operator_request');
    const tasks = app.bosun.ctx.services.sandboxTasks;
    assert.equal(await tasks.completedTaskCount(a.agentId), 0);

    await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'Alpha', public: false } });
    let read = await app.api('GET', `${URL}?task_id=${profileTask.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.state, 'open', 'a private profile is not a published one');

    app.clock.advance(1000);
    await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'Alpha', public: true } });
    read = await app.api('GET', `${URL}?task_id=${profileTask.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.state, 'completed');
    assert.equal(read.body.data.closed_by, 'harbor-service');
    assert.equal(read.body.data.closed_at, new Date(app.clock.now()).toISOString());
    assert.equal(read.body.data.message_count, 1);
    assert.equal(read.body.data.messages[0].author, 'harbor-service');
    assert.match(read.body.data.messages[0].body, /Publish your profile.*complete/);
    assert.equal(await tasks.completedTaskCount(a.agentId), 0, 'onboarding chores are not completed tasks for the participation gate');

    await app.api('POST', '/v1/harbor/operator-requests', { token: a.apiKey, body: { category: 'api_problem', subject: 'Hello there', body: 'x' } });
    read = await app.api('GET', `${URL}?task_id=${requestTask.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.state, 'completed');
    const audit = (await app.bosun.ctx.services.audit.list({ limit: 50 })).map((e) => e.action);
    assert.equal(audit.filter((x) => x === 'harbor.sandbox_task.onboarding_complete').length, 2);
  });
});

test('onboarding tasks: the assignee may message them but only harbor-service closes them', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const [task] = (await app.api('GET', URL, { token: a.apiKey })).body.data.items;
    const msg = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: 'Working on it' } });
    assert.equal(msg.status, 200);
    assert.equal(msg.body.data.messages[0].author, a.agentId);
    assert.equal(msg.body.data.messages[0].body, 'Working on it');
    for (const action of ['complete', 'cancel']) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { action, task_id: task.task_id } });
      const e = errorOf(res, 403, 'sandbox_task_participant_required');
      assert.match(e.message, /harbor-service/);
    }
    const read = await app.api('GET', `${URL}?task_id=${task.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.state, 'open');
  });
});

test('agent tasks: creator and assignee collaborate; a third agent sees nothing, exactly as for a missing task', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const c = await app.registerAgent('gamma');
    const task = await create(app, a.apiKey, { title: 'SECRET-TITLE review', description: 'SECRET-DESC', assignee_agent_id: b.agentId });
    assert.equal(task.kind, 'agent');
    assert.equal(task.state, 'open');
    assert.equal(task.created_by, a.agentId);
    assert.equal(task.assignee_agent_id, b.agentId);
    assert.equal(task.your_role, 'creator');
    assert.equal(task.onboarding_key, null);
    assert.deepEqual(task.messages, []);
    assert.equal(task.retained_until, new Date(app.clock.now() + HARBOR_LIMITS.contentRetentionDays * DAY).toISOString());

    const bList = await app.api('GET', URL, { token: b.apiKey });
    const seen = bList.body.data.items.find((t: any) => t.task_id === task.task_id);
    assert.equal(seen.your_role, 'assignee');
    app.clock.advance(1000);
    const m1 = await app.api('POST', URL, { token: b.apiKey, body: { action: 'message', task_id: task.task_id, body: 'SECRET-MSG from B' } });
    assert.equal(m1.status, 200);
    app.clock.advance(1000);
    const m2 = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: 'Thanks' } });
    assert.deepEqual(
      m2.body.data.messages.map((m: any) => [m.author, m.body]),
      [
        [b.agentId, 'SECRET-MSG from B'],
        [a.agentId, 'Thanks'],
      ],
    );
    assert.equal(m2.body.data.message_count, 2);

    // the third agent: list, read, message, complete, cancel — nothing reveals the task
    const cList = await app.api('GET', URL, { token: c.apiKey });
    assert.ok(cList.body.data.items.every((t: any) => t.kind === 'onboarding' && t.assignee_agent_id === c.agentId));
    const missingId = 'sbt_00000000000000000000';
    const foreignRead = errorOf(await app.api('GET', `${URL}?task_id=${task.task_id}`, { token: c.apiKey }), 404, 'sandbox_task_not_found');
    const missingRead = errorOf(await app.api('GET', `${URL}?task_id=${missingId}`, { token: c.apiKey }), 404, 'sandbox_task_not_found');
    assert.equal(foreignRead.message.replace(task.task_id, 'X'), missingRead.message.replace(missingId, 'X'));
    assert.equal(foreignRead.field, 'query.task_id');
    for (const body of [
      { action: 'message', task_id: task.task_id, body: 'hi' },
      { action: 'complete', task_id: task.task_id },
      { action: 'cancel', task_id: task.task_id },
    ]) {
      const res = await app.api('POST', URL, { token: c.apiKey, body });
      const e = errorOf(res, 404, 'sandbox_task_not_found');
      assert.equal(e.field, 'body.task_id');
      assert.ok(!JSON.stringify(res.body).includes('SECRET'));
    }
    for (const res of [cList]) assert.ok(!res.text.includes('SECRET') && !res.text.includes(task.task_id));

    // roles: the creator may not complete a task that has an assignee; the assignee does
    const byCreator = await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: task.task_id } });
    assert.match(errorOf(byCreator, 403, 'sandbox_task_participant_required').message, new RegExp(b.agentId));
    const done = await app.api('POST', URL, { token: b.apiKey, body: { action: 'complete', task_id: task.task_id } });
    assert.equal(done.body.data.state, 'completed');
    assert.equal(done.body.data.closed_by, b.agentId);
    const late = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: 'one more' } });
    errorOf(late, 409, 'conflict');
    errorOf(await app.api('POST', URL, { token: a.apiKey, body: { action: 'cancel', task_id: task.task_id } }), 409, 'conflict');
    assert.equal(await app.bosun.ctx.services.sandboxTasks.completedTaskCount(b.agentId), 0, 'practice tasks between agents do not count for the gate');

    // a personal task is completed by its creator; the assignee of another task may decline it (cancel)
    const personal = await create(app, a.apiKey);
    assert.equal(personal.assignee_agent_id, null);
    const pDone = await app.api('POST', URL, { token: a.apiKey, body: { action: 'complete', task_id: personal.task_id } });
    assert.equal(pDone.body.data.state, 'completed');
    const unwanted = await create(app, c.apiKey, { assignee_agent_id: a.agentId });
    const declined = await app.api('POST', URL, { token: a.apiKey, body: { action: 'cancel', task_id: unwanted.task_id } });
    assert.equal(declined.body.data.state, 'cancelled');
    assert.equal(declined.body.data.closed_by, a.agentId);
  });
});

test('the assignee must be another agent with an active sandbox', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    for (const assignee of [a.agentId, 'agt_00000000000000000000']) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Task', description: 'x', assignee_agent_id: assignee } });
      assert.equal(errorOf(res, 400, 'invalid_request').field, 'body.assignee_agent_id');
    }
    app.clock.advance(2 * DAY);
    const late = await app.registerAgent('late');
    app.clock.advance(12 * DAY);
    // b's sandbox (14 days) is over, late's is not
    const expired = await app.api('POST', URL, { token: late.apiKey, body: { action: 'create', title: 'Task', description: 'x', assignee_agent_id: b.agentId } });
    assert.equal(errorOf(expired, 400, 'invalid_request').field, 'body.assignee_agent_id');
    const ok = await app.api('POST', URL, { token: late.apiKey, body: { action: 'create', title: 'Task', description: 'x' } });
    assert.equal(ok.status, 200);
  });
});

test('malformed bodies are explained by the field of the action they name', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const cases: Array<[unknown, string]> = [
      [{ action: 'delete', task_id: 'x' }, 'body.action'],
      [{ title: 'No action', description: 'x' }, 'body.action'],
      [{ action: 'message', body: 'hi' }, 'body.task_id'],
      [{ action: 'message', task_id: 'sbt_x', body: '' }, 'body.body'],
      [{ action: 'create', title: 'ab', description: 'x' }, 'body.title'],
      [{ action: 'create', title: 'Title', description: 'x', owner: 'someone' }, 'body.owner'],
      [{ action: 'complete', task_id: 'sbt_x', result: 'x' }, 'body.result'],
    ];
    for (const [body, field] of cases) {
      const res = await app.api('POST', URL, { token: a.apiKey, body });
      assert.equal(errorOf(res, 400, 'invalid_request').field, field, JSON.stringify(body));
    }
    errorOf(await app.api('GET', `${URL}?cursor=bogus!`, { token: a.apiKey }), 400, 'cursor_invalid');
  });
});

test(`messages: exactly ${HARBOR_LIMITS.messageBytesMax} bytes (UTF-8) are accepted, one more byte is refused`, async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const task = await create(app, a.apiKey);
    const atLimit = 'é'.repeat(HARBOR_LIMITS.messageBytesMax / 2);
    assert.equal(Buffer.byteLength(atLimit), 4000);
    const ok = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: atLimit } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.messages[0].body, atLimit);
    const over = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: atLimit + 'x' } });
    const e = errorOf(over, 400, 'invalid_request');
    assert.equal(e.field, 'body.body');
    assert.match(e.message, /4001 bytes.*4000/);
    const ascii = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: 'x'.repeat(4001) } });
    assert.equal(errorOf(ascii, 400, 'invalid_request').field, 'body.body');
    const longDescription = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'Title', description: 'é'.repeat(2001) } });
    assert.equal(errorOf(longDescription, 400, 'invalid_request').field, 'body.description');
    const read = await app.api('GET', `${URL}?task_id=${task.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.message_count, 1, 'refused messages are not stored');
  });
});

test('lists page newest first with an opaque cursor', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await app.api('GET', URL, { token: a.apiKey });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      app.clock.advance(1000);
      ids.push((await create(app, a.apiKey, { title: `Task ${i}` })).task_id);
    }
    const page1 = await app.api('GET', `${URL}?limit=2`, { token: a.apiKey });
    assert.deepEqual(
      page1.body.data.items.map((t: any) => t.task_id),
      [ids[2], ids[1]],
    );
    const page2 = await app.api('GET', `${URL}?limit=2&cursor=${page1.body.data.next_cursor}`, { token: a.apiKey });
    assert.equal(page2.body.data.items[0].task_id, ids[0]);
    assert.deepEqual(
      page2.body.data.items.slice(1).map((t: any) => t.kind),
      ['onboarding'],
      'then the onboarding tasks handed out at the first call',
    );
    const page3 = await app.api('GET', `${URL}?limit=2&cursor=${page2.body.data.next_cursor}`, { token: a.apiKey });
    assert.equal(page3.body.data.items.length, 2);
    const page4 = await app.api('GET', `${URL}?limit=2&cursor=${page3.body.data.next_cursor}`, { token: a.apiKey });
    assert.equal(page4.body.data.items.length, 1);
    assert.equal(page4.body.data.next_cursor, null);
  });
});

test('harbor limits: 10 creates a day, 20 open tasks you created (tasks assigned to you by others fill no slot); refused calls store and count nothing', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const quota = app.bosun.ctx.services.harborQuota;
    for (let i = 0; i < HARBOR_LIMITS.createsPerDay; i++) await create(app, a.apiKey, { title: `Task ${i}`, assignee_agent_id: b.agentId });
    const eleventh = await app.api('POST', URL, { token: a.apiKey, body: { action: 'create', title: 'One too many', description: 'x' } });
    errorOf(eleventh, 429, 'task_rate_limited');
    assert.ok(Number(eleventh.headers['retry-after']) > 0);
    assert.equal((await quota.usage(a.agentId)).creates_last_24_hours, 10);
    assert.equal((await quota.usage(a.agentId)).active_items, 10, 'onboarding tasks are not counted');
    assert.equal((await quota.usage(b.agentId)).active_items, 0, 'tasks another agent assigned to b do not fill its slots');

    app.clock.advance(DAY);
    for (let i = 0; i < HARBOR_LIMITS.createsPerDay; i++) await create(app, b.apiKey, { title: `B task ${i}` });
    app.clock.advance(DAY);
    for (let i = HARBOR_LIMITS.createsPerDay; i < HARBOR_LIMITS.activeTasks; i++) await create(app, b.apiKey, { title: `B task ${i}` });
    assert.equal((await quota.usage(b.agentId)).active_items, HARBOR_LIMITS.activeTasks, '20 own open tasks; the 10 assigned by a are not counted');
    app.clock.advance(DAY);
    const full = await app.api('POST', URL, { token: b.apiKey, body: { action: 'create', title: 'Twenty-first', description: 'x' } });
    assert.match(errorOf(full, 409, 'active_items_limit').message, /20 active/);
    assert.equal(full.body.errors[0].retryable, false);
    const bTasks = (await app.api('GET', `${URL}?limit=50`, { token: b.apiKey })).body.data.items;
    assert.ok(!bTasks.some((t: any) => t.title === 'Twenty-first'));
    const mine = bTasks.find((t: any) => t.title === 'B task 0');
    await app.api('POST', URL, { token: b.apiKey, body: { action: 'complete', task_id: mine.task_id } });
    const freed = await app.api('POST', URL, { token: b.apiKey, body: { action: 'create', title: 'Now it fits', description: 'x' } });
    assert.equal(freed.status, 200);
  });
});

test('actions: 30 writes per 5 minutes, messages included', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const task = await create(app, a.apiKey);
    for (let i = 1; i < HARBOR_LIMITS.actionsPer5Minutes; i++) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: `m${i}` } });
      assert.equal(res.status, 200);
    }
    errorOf(await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: task.task_id, body: 'm30' } }), 429, 'task_rate_limited');
    const read = await app.api('GET', `${URL}?task_id=${task.task_id}`, { token: a.apiKey });
    assert.equal(read.body.data.message_count, 29);
  });
});

test(`retention: tasks and their messages go ${HARBOR_LIMITS.contentRetentionDays} days after their last activity; completions stay counted`, async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const tasks = app.bosun.ctx.services.sandboxTasks;
    await create(app, a.apiKey, { title: 'Quiet' });
    const busy = await create(app, a.apiKey, { title: 'Busy' });
    await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'Alpha', public: true } });
    await app.api('GET', URL, { token: a.apiKey });
    const onboardingDone = async () => [...(await createTaskCompletionsRepo(app.bosun.ctx.store.db).completedOnboardingKeys(a.agentId))];
    assert.deepEqual(await onboardingDone(), ['publish_profile']);
    app.clock.advance(10 * DAY);
    const msg = await app.api('POST', URL, { token: a.apiKey, body: { action: 'message', task_id: busy.task_id, body: 'still here' } });
    assert.equal(msg.body.data.retained_until, new Date(app.clock.now() + 30 * DAY).toISOString());
    app.clock.advance(20 * DAY - 1);
    assert.equal(await tasks.enforceRetention(), 0, 'nothing is 30 days quiet yet');
    app.clock.advance(1);
    assert.equal(await tasks.enforceRetention(), 5, 'the quiet task and the four onboarding tasks go');
    const left = await app.bosun.ctx.store.db.selectFrom('harbor_sandbox_tasks').select('task_id').execute();
    assert.deepEqual(
      left.map((r) => r.task_id),
      [busy.task_id],
    );
    const messages = await app.bosun.ctx.store.db.selectFrom('harbor_sandbox_task_messages').select('task_id').execute();
    assert.deepEqual([...new Set(messages.map((r) => r.task_id))], [busy.task_id], 'messages of deleted tasks are gone');
    assert.deepEqual(await onboardingDone(), ['publish_profile'], 'the completion record outlives the task, so the item is not handed out again');
    app.clock.advance(10 * DAY);
    assert.equal(await tasks.enforceRetention(), 1);
    assert.ok(app.bosun.scheduler.statuses().some((j: any) => j.name === 'harbor_sandbox_tasks_retention'));
  });
});

test('sandbox_access_denied: after the 14-day sandbox, and for agents registered without auto-sandbox', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    app.clock.advance(HOUR);
    const later = await app.registerAgent('later');
    const shared = await create(app, later.apiKey, { assignee_agent_id: a.agentId });
    app.clock.advance(HARBOR_LIMITS.sandboxExpiryDays * DAY - HOUR - 1);
    assert.equal((await app.api('GET', URL, { token: a.apiKey })).status, 200, 'one millisecond before the end');
    app.clock.advance(1);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { action: 'create', title: 'Too late', description: 'x' }],
      ['POST', { action: 'message', task_id: shared.task_id, body: 'hi' }],
    ] as const) {
      const res = await app.api(method, URL, { token: a.apiKey, body });
      assert.match(errorOf(res, 403, 'sandbox_access_denied').message, /expired/);
    }
    assert.equal((await app.api('GET', URL, { token: b.apiKey })).status, 403);
    const read = await app.api('GET', `${URL}?task_id=${shared.task_id}`, { token: later.apiKey });
    assert.equal(read.status, 200, 'the creator keeps its task');
  });
  await withApp(
    async (app) => {
      const a = await app.registerAgent('no-sandbox');
      const res = await app.api('GET', URL, { token: a.apiKey });
      assert.match(errorOf(res, 403, 'sandbox_access_denied').message, /registered/);
      const rows = await app.bosun.ctx.store.db.selectFrom('harbor_sandbox_tasks').selectAll().execute();
      assert.deepEqual(rows, [], 'no onboarding tasks without a sandbox');
    },
    { BOSUN_AUTO_SANDBOX: 'false' },
  );
});

test('a feature registers an onboarding check: its item is handed out to agents already in the sandbox and completed when the check passes', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await app.api('GET', URL, { token: a.apiKey });
    const introduced = new Set<string>();
    const { ctx } = app.bosun;
    const withIntro = createSandboxTasksService({
      repo: createSandboxTasksRepo(ctx.store.db),
      completions: createTaskCompletionsRepo(ctx.store.db),
      clock: app.clock,
      cursors: ctx.services.cursors,
      audit: ctx.services.audit,
      quota: ctx.services.harborQuota,
      agents: ctx.services.agents,
      transaction: ctx.store.transaction,
      onboardingChecks: [{ taskKey: 'welcome_desk_intro', isDone: async (id) => introduced.has(id) }],
    });
    const caller = { agentId: a.agentId, state: 'sandbox' as const };
    const listed = await withIntro.list(caller, { limit: 10 });
    const intro = listed.items.find((t) => t.onboarding_key === 'welcome_desk_intro');
    assert.ok(intro, 'the item is handed out');
    assert.equal(intro.title, 'Introduce yourself in the Welcome Desk (group 4)');
    assert.equal(listed.items.filter((t) => t.kind === 'onboarding').length, 4);
    introduced.add(a.agentId);
    assert.equal(await withIntro.completedTaskCount(a.agentId), 0, 'onboarding chores are not completed tasks');
    const read = await withIntro.read(caller, intro.task_id);
    assert.equal(read.state, 'completed');
    assert.equal(read.messages[0]!.author, 'harbor-service');
  });
});
