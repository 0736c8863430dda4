import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { withApp, type TestApp } from '../helpers/app.js';

const OPR = '/v1/harbor/operator-requests';
const CLI = { kind: 'cli' } as const;
const ask = (app: TestApp, token: string, subject = 'Need more access') =>
  app.api('POST', OPR, { token, body: { category: 'access_request', subject, body: 'Please.', requested_scopes: ['harbor:help:report'] } });

test('operator requests: every non-revoked agent, in every lifecycle state, creates and reads its own without default scopes', async () => {
  await withApp(
    async (app) => {
      const agents = app.bosun.ctx.services.agents;
      // auto-sandbox off: state registered, no grants at all
      const registered = await app.registerAgent('registered-only');
      const me = (await app.api('GET', '/v1/agents/me', { token: registered.apiKey })).body.data;
      assert.equal(me.state, 'registered');
      assert.deepEqual(me.scope_grants, []);
      const created = await ask(app, registered.apiKey);
      assert.equal(created.status, 201, created.text);
      const listed = await app.api('GET', OPR, { token: registered.apiKey });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.items.length, 1);

      // a help call without the scope advises an operator request, which now works
      const refused = await app.api('GET', '/v1/harbor/help-requests', { token: registered.apiKey });
      assert.equal(refused.status, 403);
      assert.match(refused.body.errors[0].message, /operator request/);

      for (const target of ['trial', 'trusted', 'operator_approved'] as const) {
        const agent = await app.registerAgent(`in-${target}`);
        await agents.setLifecycle(agent.agentId, target, CLI);
        assert.equal((await ask(app, agent.apiKey, `From ${target}`)).status, 201, target);
        assert.equal((await app.api('GET', OPR, { token: agent.apiKey })).body.data.items[0].subject, `From ${target}`);
      }
      const trialEnded = await app.registerAgent('trial-ended');
      await agents.setLifecycle(trialEnded.agentId, 'trial', CLI);
      app.clock.advance(7 * DAY);
      assert.equal((await app.api('GET', '/v1/agents/me', { token: trialEnded.apiKey })).body.data.state, 'trial_expired');
      assert.equal((await ask(app, trialEnded.apiKey)).status, 201);

      const revoked = await app.registerAgent('revoked');
      await agents.revoke(revoked.agentId, CLI, 'test');
      assert.equal((await ask(app, revoked.apiKey)).status, 401);
    },
    { BOSUN_AUTO_SANDBOX: 'false' },
  );
});

test('operator requests: an expired sandbox still asks; the sandbox refusal points at a request that works', async () => {
  await withApp(async (app) => {
    const agent = await app.registerAgent('expiring');
    app.clock.advance(14 * DAY);
    const refused = await app.api('GET', '/v1/harbor/help-requests', { token: agent.apiKey });
    assert.equal(refused.body.errors[0].code, 'sandbox_access_denied');
    assert.match(refused.body.errors[0].message, /operator request of category access_request/);
    const created = await ask(app, agent.apiKey);
    assert.equal(created.status, 201);
    assert.equal((await app.api('GET', `${OPR}?id=${created.body.data.id}`, { token: agent.apiKey })).status, 200);
  });
});

test('leaving the sandbox ends the automatic grants; trusted agents hold only explicitly assigned scopes', async () => {
  await withApp(async (app) => {
    const agents = app.bosun.ctx.services.agents;
    for (const target of ['trial', 'trusted', 'operator_approved'] as const) {
      const agent = await app.registerAgent(`leaving-${target}`);
      await agents.grantScope(agent.agentId, 'harbor:help:report', CLI);
      const before = (await app.api('GET', '/v1/agents/me', { token: agent.apiKey })).body.data;
      assert.equal(before.state, 'sandbox');
      assert.ok(before.sandbox_expires_at);
      assert.ok(before.scope_grants.some((g: any) => g.granted_by === 'auto_sandbox'));

      await agents.setLifecycle(agent.agentId, target, CLI);
      const after = (await app.api('GET', '/v1/agents/me', { token: agent.apiKey })).body.data;
      assert.equal(after.state, target);
      assert.equal(after.sandbox_expires_at, null, target);
      assert.deepEqual(
        after.scope_grants.map((g: any) => [g.scope, g.granted_by]),
        [['harbor:help:report', 'operator']],
        target,
      );
      assert.deepEqual(after.scopes, ['harbor:help:report', 'harbor:operator_request:create', 'harbor:operator_request:read'], target);
      // the sandbox's onboarding group is gone with it
      const group = await app.api('GET', '/v1/harbor/public/groups/4/posts', { token: agent.apiKey });
      assert.equal(group.status, 403, target);
    }
  });
});

const SBX = '/experimental/agent-harbor-sandbox-tasks.php';

test('trial agents get limited synthetic tasks: create, message, complete; no onboarding checklist; an ended trial is refused', async () => {
  await withApp(async (app) => {
    const agents = app.bosun.ctx.services.agents;
    const trial = await app.registerAgent('trial-worker');
    const partner = await app.registerAgent('trial-partner');
    await agents.setLifecycle(trial.agentId, 'trial', CLI);
    const empty = await app.api('GET', SBX, { token: trial.apiKey });
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body.data.items, [], 'the onboarding checklist is a sandbox thing');
    const created = await app.api('POST', SBX, { token: trial.apiKey, body: { action: 'create', title: 'Trial practice', description: 'Synthetic only' } });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.data.synthetic, true);
    const id = created.body.data.task_id;
    assert.equal((await app.api('POST', SBX, { token: trial.apiKey, body: { action: 'message', task_id: id, body: 'progress' } })).body.data.message_count, 1);
    assert.equal((await app.api('POST', SBX, { token: trial.apiKey, body: { action: 'complete', task_id: id } })).body.data.state, 'completed');
    // a sandbox agent may hand a practice task to a trial agent
    const assigned = await app.api('POST', SBX, { token: partner.apiKey, body: { action: 'create', title: 'For the trial agent', description: 'x', assignee_agent_id: trial.agentId } });
    assert.equal(assigned.status, 200, assigned.text);
    assert.equal((await app.api('GET', `${SBX}?task_id=${assigned.body.data.task_id}`, { token: trial.apiKey })).status, 200);

    app.clock.advance(7 * DAY);
    const ended = await app.api('GET', SBX, { token: trial.apiKey });
    assert.equal(ended.status, 403);
    assert.equal(ended.body.errors[0].code, 'sandbox_access_denied');
    assert.match(ended.body.errors[0].message, /trial has ended/);
  });
});

test('help ratings move no reputation for the participation gate; onboarding chores are no completed tasks', async () => {
  await withApp(async (app) => {
    const helper = await app.registerAgent('rated-helper');
    for (let i = 0; i < 3; i++) {
      const author = await app.registerAgent(`author-${i}`);
      const req = await app.api('POST', '/v1/harbor/help-requests', { token: author.apiKey, body: { title: `Question ${i}`, body: 'How?', visibility: 'public' } });
      const id = req.body.data.id;
      const answer = await app.api('POST', `/v1/harbor/help-requests/${id}/responses`, { token: helper.apiKey, body: { body: 'Like this.' } });
      assert.equal(answer.status, 201, answer.text);
      await app.api('POST', `/v1/harbor/help-requests/${id}/select`, { token: author.apiKey, body: { response_id: answer.body.data.response_id } });
      await app.api('POST', `/v1/harbor/help-requests/${id}/close`, { token: author.apiKey, body: {} });
      assert.equal((await app.api('POST', `/v1/harbor/help-requests/${id}/feedback`, { token: author.apiKey, body: { rating: 5 } })).status, 201);
    }
    // onboarding chores done: profile published, operator request sent
    await app.api('POST', '/v1/harbor/profiles', { token: helper.apiKey, body: { display_name: 'Rated Helper', public: true } });
    await app.api('POST', OPR, { token: helper.apiKey, body: { category: 'api_problem', subject: 'Hello there', body: 'x' } });
    const checklist = (await app.api('GET', SBX, { token: helper.apiKey })).body.data.items;
    assert.ok(checklist.filter((t: any) => t.state === 'completed').length >= 2);
    assert.equal(await app.bosun.ctx.services.sandboxTasks.completedTaskCount(helper.agentId), 0);

    const profile = (await app.api('GET', `/v1/harbor/profiles/${helper.agentId}`, { token: helper.apiKey })).body.data;
    assert.deepEqual(profile.reputation, { shown: true, count: 3, mean_rating: 5, interactions: 3 }, 'the profile shows the aggregate');

    const group = await app.bosun.ctx.services.groups.createGroup({ name: 'Ops talk', description: 'Operators and agents' }, CLI);
    app.clock.advance(7 * DAY);
    const join = await app.api('POST', '/v1/harbor/public/groups', { token: helper.apiKey, body: { action: 'join_request', group_id: group.group_id } });
    assert.equal(join.status, 403);
    assert.equal(join.body.errors[0].code, 'public_access_gate_failed');
    assert.match(join.body.errors[0].message, /reputation: none yet/, 'three 5-star ratings give no gate reputation');
    assert.match(join.body.errors[0].message, /completed tasks 0/, 'onboarding chores are not completed tasks');
  });
});

test('help records carry id (request_id only as a deprecated alias); nested records name help_request_id', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('asker');
    const b = await app.registerAgent('answerer');
    const created = await app.api('POST', '/v1/harbor/help-requests', { token: a.apiKey, body: { title: 'Ids please', body: 'Which id?', visibility: 'public' } });
    assert.match(created.body.data.id, /^hlp_/);
    assert.equal(created.body.data.request_id, created.body.data.id);
    assert.notEqual(created.body.request_id, created.body.data.id, 'the envelope request_id names the call');
    const answer = await app.api('POST', `/v1/harbor/help-requests/${created.body.data.id}/responses`, { token: b.apiKey, body: { body: 'This one.' } });
    assert.equal(answer.body.data.help_request_id, created.body.data.id);
    const openapi = (await app.api('GET', '/.well-known/openapi.json')).text;
    assert.match(openapi, /"deprecated":true/);
  });
});

const GROUPS = '/v1/harbor/public/groups';

test('group posts and replies with raw vessel coordinates are refused with raw_vessel_data_forbidden; quoting agent ids is fine', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('poster');
    const refused = await app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'post', group_id: 4, body: 'Spotted her at 51.9225, 4.4792 this morning' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'raw_vessel_data_forbidden');
    assert.equal(refused.body.errors[0].field, 'body.body');
    assert.equal(refused.body.errors[0].retryable, false);

    const topic = await app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'post', group_id: 4, body: 'Hello\r\nfrom agt_12345678901234567890 and hlp_00001234567890123456' } });
    assert.equal(topic.status, 200, topic.text);
    assert.equal(topic.body.data.post.body, 'Hello\nfrom agt_12345678901234567890 and hlp_00001234567890123456', 'CRLF stored as LF; ids are no phone numbers');

    const reply = await app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'reply', group_id: 4, parent_post_id: topic.body.data.post.post_id, body: "Now 51°55.35'N 004°28.75'E" } });
    assert.equal(reply.body.errors[0].code, 'raw_vessel_data_forbidden');

    const tooBig = await app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'post', group_id: 4, body: 'é'.repeat(2001) } });
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.body.errors[0].message, /4002 bytes \(UTF-8\); at most 4000 bytes/);

    const helpRefused = await app.api('POST', '/v1/harbor/help-requests', { token: a.apiKey, body: { title: 'Where is she', body: 'Last seen lat 51.92 lon 4.48', visibility: 'public' } });
    assert.equal(helpRefused.body.errors[0].code, 'raw_vessel_data_forbidden');
  });
});

test('names with bidi overrides or zero-width characters are refused at registration, in profiles, help titles and operator subjects', async () => {
  await withApp(async (app) => {
    const reg = await app.api('POST', '/v1/agents/register', { body: { name: 'admin\u202etxt.exe' } });
    assert.equal(reg.status, 400);
    assert.equal(reg.body.errors[0].field, 'body.name');
    assert.match(reg.body.errors[0].message, /invisible formatting/);
    const a = await app.registerAgent('plain');
    const profile = await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'Har\u200bbor Operator', public: true } });
    assert.equal(profile.body.errors[0].code, 'profile_input_invalid');
    assert.equal(profile.body.errors[0].field, 'body.display_name');
    const help = await app.api('POST', '/v1/harbor/help-requests', { token: a.apiKey, body: { title: 'Ask \u2066me\u2069', body: 'x', visibility: 'public' } });
    assert.equal(help.body.errors[0].code, 'help_request_input_invalid');
    assert.equal(help.body.errors[0].field, 'body.title');
    const opr = await app.api('POST', OPR, { token: a.apiKey, body: { category: 'api_problem', subject: 'Sub\u200dject', body: 'x' } });
    assert.equal(opr.body.errors[0].field, 'body.subject');
    const task = await app.api('POST', SBX, { token: a.apiKey, body: { action: 'create', title: 'Ta\u202esk', description: 'x' } });
    assert.equal(task.body.errors[0].field, 'body.title');
  });
});

test('help responses appear in the feed: public, non-hidden requests only, public fields only', async () => {
  await withApp(async (app) => {
    const asker = await app.registerAgent('feed-asker');
    const helper = await app.registerAgent('feed-helper');
    const reader = await app.registerAgent('feed-reader');
    const req = await app.api('POST', '/v1/harbor/help-requests', { token: asker.apiKey, body: { title: 'Feed question', body: 'Anyone?', visibility: 'public' } });
    const id = req.body.data.id;
    app.clock.advance(1000);
    const answer = await app.api('POST', `/v1/harbor/help-requests/${id}/responses`, { token: helper.apiKey, body: { body: 'FEED-ANSWER-TEXT here' } });
    assert.equal(answer.status, 201);
    await app.api('POST', `/v1/harbor/help-requests/${id}/select`, { token: asker.apiKey, body: { response_id: answer.body.data.response_id } });
    await app.api('POST', `/v1/harbor/help-requests/${id}/close`, { token: asker.apiKey, body: {} });
    await app.api('POST', `/v1/harbor/help-requests/${id}/feedback`, { token: asker.apiKey, body: { rating: 4, comment: 'FEED-PRIVATE-COMMENT' } });

    const feed = await app.api('GET', '/v1/harbor/feed', { token: reader.apiKey });
    assert.equal(feed.status, 200);
    const item = feed.body.data.items.find((i: any) => i.kind === 'help_response');
    assert.ok(item, 'the response is in the feed although its request is resolved');
    assert.equal(item.id, answer.body.data.response_id);
    assert.equal(item.parent_id, id);
    assert.equal(item.title, 'Feed question');
    assert.equal(item.excerpt, 'FEED-ANSWER-TEXT here');
    assert.equal(item.author.agent_id, helper.agentId);
    assert.ok(!feed.text.includes('FEED-PRIVATE-COMMENT'));

    await app.bosun.ctx.services.help.setHidden(id, true, CLI);
    const after = await app.api('GET', '/v1/harbor/feed', { token: reader.apiKey });
    assert.ok(!after.body.data.items.some((i: any) => i.kind === 'help_response'), 'responses on hidden requests leave the feed');

    const privateReq = await app.api('POST', '/v1/harbor/help-requests', { token: reader.apiKey, body: { title: 'Only mine', body: 'sandbox', visibility: 'sandbox' } });
    assert.equal(privateReq.status, 201);
    const mineFeed = await app.api('GET', '/v1/harbor/feed', { token: reader.apiKey });
    assert.ok(!mineFeed.text.includes('Only mine'));
  });
});

test('an author sees its own hidden post marked hidden with the reason; others still see nothing', async () => {
  await withApp(async (app) => {
    const author = await app.registerAgent('hidden-author');
    const other = await app.registerAgent('other-reader');
    const topic = (await app.api('POST', GROUPS, { token: author.apiKey, body: { action: 'post', group_id: 4, body: 'HIDDEN-TOPIC-TEXT' } })).body.data.post;
    const visible = (await app.api('POST', GROUPS, { token: other.apiKey, body: { action: 'post', group_id: 4, body: 'Visible topic' } })).body.data.post;
    const reply = (await app.api('POST', GROUPS, { token: author.apiKey, body: { action: 'reply', group_id: 4, parent_post_id: visible.post_id, body: 'HIDDEN-REPLY-TEXT' } })).body.data.post;
    assert.equal(topic.hidden, false);
    await app.bosun.ctx.services.groups.hidePost(topic.post_id, 'spam', CLI);
    await app.bosun.ctx.services.groups.hidePost(reply.post_id, 'off_topic', CLI);

    const own = (await app.api('GET', `${GROUPS}/4/posts`, { token: author.apiKey })).body.data.items;
    const mine = own.find((p: any) => p.post_id === topic.post_id);
    assert.ok(mine, 'the author still lists its hidden topic');
    assert.equal(mine.hidden, true);
    assert.equal(mine.hidden_reason, 'spam');
    assert.equal(own.find((p: any) => p.post_id === visible.post_id).hidden, false);
    const ownReplies = (await app.api('GET', `${GROUPS}/4/posts/${visible.post_id}/replies`, { token: author.apiKey })).body.data.items;
    assert.deepEqual(
      ownReplies.map((p: any) => [p.post_id, p.hidden, p.hidden_reason]),
      [[reply.post_id, true, 'off_topic']],
    );
    assert.equal((await app.api('GET', `${GROUPS}/4/posts/${topic.post_id}/replies`, { token: author.apiKey })).status, 200);

    const theirs = await app.api('GET', `${GROUPS}/4/posts`, { token: other.apiKey });
    assert.ok(!theirs.text.includes('HIDDEN-TOPIC-TEXT'));
    assert.ok(!(await app.api('GET', `${GROUPS}/4/posts/${visible.post_id}/replies`, { token: other.apiKey })).text.includes('HIDDEN-REPLY-TEXT'));
    assert.equal((await app.api('GET', `${GROUPS}/4/posts/${topic.post_id}/replies`, { token: other.apiKey })).status, 404);
    const like = await app.api('POST', GROUPS, { token: author.apiKey, body: { action: 'reply', group_id: 4, parent_post_id: topic.post_id, body: 'x' } });
    assert.equal(like.body.errors[0].code, 'post_not_found', 'a hidden post takes no more actions, even from its author');
  });
});

test('automatic sandbox grants are never in force outside the sandbox state, even on rows moved before the cleanup', async () => {
  await withApp(async (app) => {
    const agent = await app.registerAgent('legacy-row');
    await app.bosun.ctx.store.db.updateTable('agents').set({ state: 'trusted' }).where('agent_id', '=', agent.agentId).execute();
    const me = (await app.api('GET', '/v1/agents/me', { token: agent.apiKey })).body.data;
    assert.equal(me.sandbox_expires_at, null);
    assert.deepEqual(me.scope_grants, []);
    assert.deepEqual(me.scopes, ['harbor:operator_request:create', 'harbor:operator_request:read']);
    assert.equal((await app.api('GET', '/v1/harbor/help-requests', { token: agent.apiKey })).body.errors[0].code, 'scope_required');
  });
});
