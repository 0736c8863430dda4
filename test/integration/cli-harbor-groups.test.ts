import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { startTestAppWithCli } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { groupsServiceWithSignals } from '../helpers/harbor-groups.js';

test('operator CLI: create and list groups, approve join requests, review reports and hide posts', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('groups-cli');
  try {
    const bosun = (...args: string[]) => runCli(['harbor', 'groups', ...args], { env });

    const created = await bosun('create', '--name', 'North Sea Operations', '--description', 'Port calls and berths in the North Sea.');
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /created group 5 {2}North Sea Operations/);
    const list = await bosun('list');
    assert.match(list.stdout, /^4 {2}onboarding {2}Welcome Desk \/ Sandbox Commons/m);
    assert.match(list.stdout, /^5 {2}public {2}North Sea Operations/m);

    const agent = await app.registerAgent('joiner');
    app.clock.advance(8 * DAY);
    await app.bosun.ctx.services.agents.grantScope(agent.agentId, 'harbor:public:participate', { kind: 'cli' });
    const s = app.bosun.ctx.services;
    const gated = groupsServiceWithSignals(app);
    await gated.act((await s.agents.authenticate(agent.apiKey))!, { action: 'join_request', group_id: 5 });
    const pending = await bosun('join-requests');
    assert.match(pending.stdout, new RegExp(`group 5 {2}${agent.agentId} {2}pending`));
    const approved = await bosun('approve', '5', agent.agentId);
    assert.equal(approved.status, 0, approved.stderr);
    assert.match(approved.stdout, /is now an active member of group 5/);
    assert.equal((await s.groups.listJoinRequests({ state: 'active', limit: 5 }))[0]?.agent_id, agent.agentId);

    const topic = await app.api('POST', '/v1/harbor/public/groups', { token: agent.apiKey, body: { action: 'post', group_id: 5, body: 'REPORTED-TEXT' } });
    assert.equal(topic.status, 200, topic.text);
    const postId = topic.body.data.post.post_id;
    const other = await app.registerAgent('reporter');
    await app.api('POST', '/v1/harbor/public/groups', { token: other.apiKey, body: { action: 'report', group_id: 4, post_id: 'pst_welcome', reason: 'test report' } });
    const reports = await bosun('reports');
    assert.match(reports.stdout, /open {2}group 4 {2}post pst_welcome/);
    assert.match(reports.stdout, /reason: test report/);

    assert.equal((await bosun('hide', postId, '--reason', 'nonsense')).status, 1);
    const hidden = await bosun('hide', postId, '--reason', 'abuse');
    assert.equal(hidden.status, 0, hidden.stderr);
    assert.match(hidden.stdout, /incident for the author: yes/);
    const own = await app.api('GET', '/v1/harbor/public/groups/5/posts', { token: agent.apiKey });
    assert.deepEqual(
      own.body.data.items.map((p: any) => [p.hidden, p.hidden_reason]),
      [[true, 'abuse']],
      'the author sees its hidden post, marked',
    );
    assert.equal(await s.groups.incidentsOf(agent.agentId), 1);
  } finally {
    await cleanup();
  }
});
