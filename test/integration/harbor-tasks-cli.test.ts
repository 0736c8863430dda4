import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { startTestAppWithCli } from '../helpers/app.js';

test('the operator CLI creates, lists, shows, reassigns and cancels production tasks on the shared store', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('tasks-cli');
  const run = (...args: string[]) => runCli(['harbor', 'tasks', ...args], { env });
  try {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    for (const scope of ['harbor:task:read', 'harbor:task:message']) await app.bosun.ctx.services.agents.grantScope(a.agentId, scope, { kind: 'cli' });

    const created = await run('create', '--title', 'Check AIS gaps', '--description', 'Find gaps over 6 h.', '--vessel', 'IMO:9321483', '--assign', a.agentId);
    assert.equal(created.status, 0, created.stderr);
    const taskId = /^(tsk_[0-9a-f]{20})  assigned  assignee /.exec(created.stdout)?.[1];
    assert.ok(taskId, created.stdout);
    assert.match(created.stdout, /vessel: IMO:9321483/);
    assert.match(created.stdout, /lacks harbor:task:create, harbor:task:complete/, 'the operator is told which scopes the assignee still needs');

    const seen = await app.api('GET', `/experimental/agent-harbor-tasks.php?task_id=${taskId}`, { token: a.apiKey });
    assert.equal(seen.status, 200);
    assert.equal(seen.body.data.vessel, 'IMO:9321483');
    await app.api('POST', '/experimental/agent-harbor-tasks.php', { token: a.apiKey, body: { action: 'message', task_id: taskId, body: 'Question from alpha' } });

    const list = await run('list', '--state', 'assigned');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`${taskId}  assigned  assignee ${a.agentId}`));
    const show = await run('show', taskId);
    assert.match(show.stdout, /description: Find gaps over 6 h\./);
    assert.match(show.stdout, new RegExp(`${a.agentId}: Question from alpha`));
    const message = await run('message', taskId, '--body', 'Use the last week.');
    assert.equal(message.status, 0, message.stderr);
    assert.match(message.stdout, /operator: Use the last week\./);

    const assigned = await run('assign', taskId, b.agentId);
    assert.equal(assigned.status, 0, assigned.stderr);
    assert.equal((await app.api('GET', `/experimental/agent-harbor-tasks.php?task_id=${taskId}`, { token: a.apiKey })).status, 404);

    const cancelled = await run('cancel', taskId);
    assert.match(cancelled.stdout, /cancelled/);
    const again = await run('cancel', taskId);
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /cancelled/);
    const badVessel = await run('create', '--title', 'Bad vessel', '--description', 'x', '--vessel', 'IMO:1234568');
    assert.notEqual(badVessel.status, 0);
    assert.match(badVessel.stderr, /IMO/);
  } finally {
    await cleanup();
  }
});
