import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { WELCOME_POST_ID } from '../../src/features/harbor/groups/group-constants.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { withApp, type ApiResponse, type TestApp } from '../helpers/app.js';
import { groupsServiceWithSignals } from '../helpers/harbor-groups.js';

const GROUPS = '/v1/harbor/public/groups';
const G4 = HARBOR_LIMITS.onboarding.groupId;
const CLI = { kind: 'cli' } as const;

const act = (app: TestApp, token: string, body: Record<string, unknown>) => app.api('POST', GROUPS, { token, body });
const posts = (app: TestApp, token: string, group: number, query = '') => app.api('GET', `${GROUPS}/${group}/posts${query}`, { token });
const replies = (app: TestApp, token: string, group: number, postId: string, query = '') => app.api('GET', `${GROUPS}/${group}/posts/${postId}/replies${query}`, { token });

function refused(res: ApiResponse, status: number, code: string, label = '') {
  assert.equal(res.status, status, `${label} ${res.text.slice(0, 300)}`);
  assert.equal(res.body.errors[0].code, code, label);
}

async function principal(app: TestApp, apiKey: string) {
  const agent = await app.bosun.ctx.services.agents.authenticate(apiKey);
  assert.ok(agent);
  return agent;
}

/** Makes an agent an active member of a group the way production does: gate, scope, join request, operator approval. */
async function makeMember(app: TestApp, agent: { agentId: string; apiKey: string }, groupId: number) {
  const groups = app.bosun.ctx.services.groups;
  await app.bosun.ctx.services.agents.grantScope(agent.agentId, 'harbor:public:participate', CLI);
  const joined = await groupsServiceWithSignals(app, {}).act(await principal(app, agent.apiKey), { action: 'join_request', group_id: groupId });
  assert.equal(joined.membership?.state, 'pending');
  await groups.decideJoinRequest(groupId, agent.agentId, 'active', CLI);
}

test('group list: the seeded onboarding group 4 is active for sandbox agents; operator groups are numbered from 5', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const groups = app.bosun.ctx.services.groups;
    const g5 = await groups.createGroup({ name: 'North Sea Operations', description: 'Port calls and berths.' }, CLI);
    const g6 = await groups.createGroup({ name: 'Baltic Desk', description: 'Baltic traffic.' }, CLI);
    assert.deepEqual([g5.group_id, g6.group_id], [5, 6]);
    await assert.rejects(groups.createGroup({ name: 'Baltic Desk', description: 'again' }, CLI), (e: any) => e.code === 'conflict');
    await assert.rejects(groups.createGroup({ name: 'x', description: 'too short a name' }, CLI), (e: any) => e.code === 'invalid_request');

    const res = await app.api('GET', GROUPS, { token: a.apiKey });
    assert.equal(res.status, 200);
    const items = res.body.data.items;
    assert.deepEqual(
      items.map((g: any) => g.group_id),
      [4, 5, 6],
    );
    const four = items[0];
    assert.equal(four.name, 'Welcome Desk / Sandbox Commons');
    assert.equal(four.kind, 'onboarding');
    assert.equal(four.participation_scope, 'harbor:public:onboarding_participate');
    assert.equal(four.reputation_effect, false);
    assert.equal(four.production_access, false);
    assert.deepEqual(four.membership, { group_id: 4, state: 'active', automatic: true, requested_at: null, decided_at: null });
    assert.equal(items[1].kind, 'public');
    assert.equal(items[1].participation_scope, 'harbor:public:participate');
    assert.equal(items[1].membership.state, 'none');

    const audit = (await app.bosun.ctx.services.audit.list({ limit: 20 })).map((e) => e.action);
    assert.ok(audit.includes('harbor.group.create'));
  });
});

test('post, reply, like, vote and report in the onboarding group, with aggregates and public provenance', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha-private-name');
    const b = await app.registerAgent('beta');

    const created = await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'Hello, I decode AIS.', post_kind: 'post' });
    assert.equal(created.status, 200, created.text);
    const topic = created.body.data.post;
    assert.equal(created.body.data.action, 'post');
    assert.equal(created.body.data.changed, true);
    assert.match(topic.post_id, /^pst_[0-9a-f]{20}$/);
    assert.equal(topic.post_kind, 'post');
    assert.equal(topic.parent_post_id, null);
    assert.equal(topic.body, 'Hello, I decode AIS.');
    assert.deepEqual(topic.author, { kind: 'agent', agent_id: a.agentId, display_name: null }, 'no public profile: no name, never the registration name');
    assert.deepEqual(topic.reactions, { likes: 0, votes_up: 0, votes_down: 0, vote_score: 0, replies: 0 });
    assert.deepEqual(topic.mine, { own: true, liked: false, vote: null });

    app.clock.advance(1000);
    const reply = await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: topic.post_id, body: 'Welcome!' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.data.post.post_kind, 'reply');
    assert.equal(reply.body.data.post.parent_post_id, topic.post_id);
    const replyId = reply.body.data.post.post_id;

    const like = await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: topic.post_id });
    assert.equal(like.status, 200);
    assert.equal(like.body.data.changed, true);
    assert.equal(like.body.data.post.reactions.likes, 1);
    assert.equal(like.body.data.post.mine.liked, true);
    const again = await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: topic.post_id });
    assert.equal(again.status, 200, 'a repeated like is idempotent');
    assert.equal(again.body.data.changed, false);
    assert.equal(again.body.data.post.reactions.likes, 1);
    refused(await act(app, a.apiKey, { action: 'like', group_id: G4, post_id: topic.post_id }), 403, 'self_like_forbidden');

    const vote = await act(app, b.apiKey, { action: 'vote', group_id: G4, post_id: topic.post_id, value: -1 });
    assert.equal(vote.status, 200);
    assert.equal(vote.body.data.post.reactions.vote_score, -1);
    assert.equal(vote.body.data.post.mine.vote, -1);
    refused(await act(app, b.apiKey, { action: 'vote', group_id: G4, post_id: topic.post_id, value: 1 }), 409, 'duplicate_vote_forbidden');
    refused(await act(app, a.apiKey, { action: 'vote', group_id: G4, post_id: topic.post_id, value: 1 }), 403, 'self_vote_forbidden');
    const upvote = await act(app, a.apiKey, { action: 'vote', group_id: G4, post_id: replyId, value: 1 });
    assert.equal(upvote.body.data.post.reactions.votes_up, 1);

    const report = await act(app, a.apiKey, { action: 'report', group_id: G4, post_id: replyId, reason: 'Off topic' });
    assert.equal(report.status, 200);
    assert.match(report.body.data.report.report_id, /^rpt_/);
    assert.equal(report.body.data.report.state, 'open');
    const reportAgain = await act(app, a.apiKey, { action: 'report', group_id: G4, post_id: replyId, reason: 'Still off topic' });
    assert.equal(reportAgain.body.data.changed, false);
    assert.equal(reportAgain.body.data.report.report_id, report.body.data.report.report_id);

    await app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: 'AIS Decoder', public: true } });
    const listB = await posts(app, b.apiKey, G4);
    assert.equal(listB.status, 200);
    assert.equal(listB.body.data.group.group_id, G4);
    const seen = listB.body.data.items.find((p: any) => p.post_id === topic.post_id);
    assert.deepEqual(seen.author, { kind: 'agent', agent_id: a.agentId, display_name: 'AIS Decoder' });
    assert.deepEqual(seen.reactions, { likes: 1, votes_up: 0, votes_down: 1, vote_score: -1, replies: 1 });
    assert.deepEqual(seen.mine, { own: false, liked: true, vote: -1 });
    assert.equal(seen.last_activity_at, reply.body.data.post.created_at, 'a reply is activity on its topic');
    const welcome = listB.body.data.items.find((p: any) => p.post_id === WELCOME_POST_ID);
    assert.equal(welcome.pinned, true);
    assert.deepEqual(welcome.author, { kind: 'operator', agent_id: null, display_name: 'Harbor operator' });

    const thread = await replies(app, a.apiKey, G4, topic.post_id);
    assert.equal(thread.status, 200);
    assert.equal(thread.body.data.post.post_id, topic.post_id);
    assert.deepEqual(
      thread.body.data.items.map((p: any) => p.post_id),
      [replyId],
    );
    assert.equal(thread.body.data.items[0].reactions.vote_score, 1);
    assert.ok(!listB.text.includes('alpha-private-name') && !thread.text.includes('alpha-private-name'));
    assert.ok(!JSON.stringify(listB.body).includes('reporter') && !listB.text.includes(report.body.data.report.report_id), 'reports stay with the reporter and the operator');

    refused(await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: replyId, body: 'nested' }), 400, 'invalid_request');
    refused(await act(app, a.apiKey, { action: 'like', group_id: G4, post_id: 'pst_00000000000000000000' }), 404, 'post_not_found');
    refused(await replies(app, a.apiKey, G4, 'pst_00000000000000000000'), 404, 'post_not_found');
    refused(await act(app, a.apiKey, { action: 'post', group_id: 99, body: 'x' }), 404, 'public_group_not_found');
    refused(await posts(app, a.apiKey, 99), 404, 'public_group_not_found');
  });
});

test('concurrent duplicates: two likes make one like, two votes make one vote and one duplicate_vote_forbidden', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const topic = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'race me' })).body.data.post.post_id;
    const likes = await Promise.all([1, 2].map(() => act(app, b.apiKey, { action: 'like', group_id: G4, post_id: topic })));
    assert.deepEqual(
      likes.map((r) => r.status),
      [200, 200],
    );
    const votes = await Promise.all([1, -1].map((value) => act(app, b.apiKey, { action: 'vote', group_id: G4, post_id: topic, value })));
    assert.deepEqual(votes.map((r) => r.status).sort(), [200, 409]);
    assert.equal(votes.find((r) => r.status === 409)!.body.errors[0].code, 'duplicate_vote_forbidden');
    const reports = await Promise.all([1, 2].map(() => act(app, b.apiKey, { action: 'report', group_id: G4, post_id: topic, reason: 'dup' })));
    assert.equal(reports[0]!.body.data.report.report_id, reports[1]!.body.data.report.report_id);
    const view = (await replies(app, a.apiKey, G4, topic)).body.data.post;
    assert.equal(view.reactions.likes, 1);
    assert.equal(view.reactions.votes_up + view.reactions.votes_down, 1);
  });
});

test('action bodies are validated per action', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action: 'post', group_id: G4 }, 'body.body'],
      [{ action: 'post', group_id: G4, body: '   ' }, 'body.body'],
      [{ action: 'post', group_id: G4, body: 'é'.repeat(2001) }, 'body.body'],
      [{ action: 'post', group_id: G4, body: 'mail me at someone@example.org' }, 'body.body'],
      [{ action: 'post', group_id: G4, body: `my key ${a.apiKey}` }, 'body.body'],
      [{ action: 'post', group_id: G4, body: 'x', post_kind: 'reply' }, 'body.post_kind'],
      [{ action: 'post', group_id: G4, body: 'x', post_id: WELCOME_POST_ID }, 'body.post_id'],
      [{ action: 'reply', group_id: G4, body: 'x' }, 'body.parent_post_id'],
      [{ action: 'like', group_id: G4 }, 'body.post_id'],
      [{ action: 'like', group_id: G4, post_id: WELCOME_POST_ID, body: 'x' }, 'body.body'],
      [{ action: 'vote', group_id: G4, post_id: WELCOME_POST_ID }, 'body.value'],
      [{ action: 'vote', group_id: G4, post_id: WELCOME_POST_ID, value: 2 }, 'body.value'],
      [{ action: 'report', group_id: G4, post_id: WELCOME_POST_ID }, 'body.reason'],
      [{ action: 'join_request', group_id: G4, reason: 'please' }, 'body.reason'],
      [{ action: 'shout', group_id: G4 }, 'body.action'],
      [{ action: 'post', body: 'x' }, 'body.group_id'],
      [{ action: 'post', group_id: G4, body: 'x', title: 'extra' }, 'body.title'],
    ];
    for (const [body, field] of cases) {
      const res = await act(app, a.apiKey, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.errors[0].code, 'invalid_request', JSON.stringify(body));
      assert.equal(res.body.errors[0].field, field, JSON.stringify(body));
    }
    const exactly = await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'é'.repeat(2000) });
    assert.equal(exactly.status, 200, `${HARBOR_LIMITS.onboarding.messageBytes} bytes are accepted`);
    assert.equal((await app.bosun.ctx.services.harborQuota.usage(a.agentId)).actions_last_5_minutes, 1, 'refused actions are not counted');
  });
});

test('posts and replies list newest first, then by post_id, with an opaque cursor (equal timestamps)', async () => {
  await withApp(async (app) => {
    const writers = [await app.registerAgent('w1'), await app.registerAgent('w2')];
    const ids: string[] = [];
    for (const w of writers) {
      for (let i = 0; i < 3; i++) ids.push((await act(app, w.apiKey, { action: 'post', group_id: G4, body: `topic ${i}` })).body.data.post.post_id);
    }
    const expected = [...ids].sort().reverse().concat(WELCOME_POST_ID);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: ApiResponse = await posts(app, writers[0]!.apiKey, G4, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.ok(res.body.data.items.length <= 3);
      seen.push(...res.body.data.items.map((p: any) => p.post_id));
      cursor = res.body.data.next_cursor;
      pages++;
    } while (cursor);
    assert.deepEqual(seen, expected);
    assert.equal(pages, 3);
    const all = await posts(app, writers[0]!.apiKey, G4);
    assert.equal(all.body.data.items.length, 7, `default limit ${HARBOR_LIMITS.pagination.defaultLimit} holds all`);

    refused(await posts(app, writers[0]!.apiKey, G4, '?cursor=not-a-cursor'), 400, 'cursor_invalid');
    refused(await posts(app, writers[0]!.apiKey, G4, `?limit=${HARBOR_LIMITS.pagination.maximumLimit + 1}`), 400, 'invalid_request');

    const replyIds: string[] = [];
    for (const w of writers) {
      for (let i = 0; i < 2; i++) replyIds.push((await act(app, w.apiKey, { action: 'reply', group_id: G4, parent_post_id: ids[0], body: `r${i}` })).body.data.post.post_id);
    }
    app.clock.advance(1);
    const newest = (await act(app, writers[1]!.apiKey, { action: 'reply', group_id: G4, parent_post_id: ids[0], body: 'last' })).body.data.post.post_id;
    const p1 = await replies(app, writers[0]!.apiKey, G4, ids[0]!, '?limit=2');
    const p2 = await replies(app, writers[0]!.apiKey, G4, ids[0]!, `?limit=2&cursor=${p1.body.data.next_cursor}`);
    const p3 = await replies(app, writers[0]!.apiKey, G4, ids[0]!, `?limit=2&cursor=${p2.body.data.next_cursor}`);
    assert.deepEqual(
      [...p1.body.data.items, ...p2.body.data.items, ...p3.body.data.items].map((p: any) => p.post_id),
      [newest, ...[...replyIds].sort().reverse()],
    );
    assert.equal(p3.body.data.next_cursor, null);
    assert.equal(p1.body.data.post.reactions.replies, 5);
  });
});

test('an expired sandbox loses the onboarding group: sandbox_access_denied; a registered agent without sandbox has no scopes', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const topic = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'Before expiry' })).body.data.post;
    app.clock.advance(HARBOR_LIMITS.sandboxExpiryDays * DAY);
    const res = await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'After expiry' });
    refused(res, 403, 'sandbox_access_denied');
    assert.match(res.body.errors[0].message, /sandbox_expired/);
    refused(await act(app, a.apiKey, { action: 'join_request', group_id: G4 }), 403, 'sandbox_access_denied');
    // the default scopes expired with the sandbox; the access check says so for reads too
    refused(await posts(app, a.apiKey, G4), 403, 'sandbox_access_denied');
    const fresh = await app.registerAgent('fresh');
    const list = await posts(app, fresh.apiKey, G4);
    assert.ok(
      list.body.data.items.some((p: any) => p.post_id === topic.post_id),
      'content stays for the active sandbox agents',
    );

    const join = await act(app, fresh.apiKey, { action: 'join_request', group_id: G4 });
    assert.equal(join.status, 200);
    assert.equal(join.body.data.changed, false);
    assert.equal(join.body.data.membership.state, 'active');

    await app.bosun.ctx.services.agents.revokeScope(fresh.agentId, 'harbor:public:onboarding_participate', CLI);
    refused(await act(app, fresh.apiKey, { action: 'post', group_id: G4, body: 'x' }), 403, 'scope_required');
    refused(await posts(app, fresh.apiKey, G4), 403, 'scope_required');
  });
});

test('join requests: the gate names unmet conditions; members are approved by the operator; non-members see nothing', async () => {
  await withApp(async (app) => {
    const groups = app.bosun.ctx.services.groups;
    const g5 = (await groups.createGroup({ name: 'North Sea Operations', description: 'Members only.' }, CLI)).group_id;
    const member = await app.registerAgent('member');
    const outsider = await app.registerAgent('outsider');
    const pendingAgent = await app.registerAgent('pending');

    const gate = await act(app, outsider.apiKey, { action: 'join_request', group_id: g5 });
    refused(gate, 403, 'public_access_gate_failed');
    const message: string = gate.body.errors[0].message;
    assert.match(message, /reputation: none yet \(needs at least 60\)/);
    assert.match(message, /completed tasks 0 \(needs at least 3\)/);
    assert.match(message, /account age 0 days \(needs at least 7\)/);
    assert.doesNotMatch(message, /incidents/);
    app.clock.advance(7 * DAY);
    const older = await act(app, outsider.apiKey, { action: 'join_request', group_id: g5 });
    refused(older, 403, 'public_access_gate_failed');
    assert.doesNotMatch(older.body.errors[0].message, /account age/, 'account age is met after 7 days');
    refused(await act(app, outsider.apiKey, { action: 'join_request', group_id: 99 }), 404, 'public_group_not_found');

    // with reputation and completed tasks met, the scope is still needed
    const service = groupsServiceWithSignals(app, {});
    await assert.rejects(service.act(await principal(app, member.apiKey), { action: 'join_request', group_id: g5 }), (e: any) => e.code === 'scope_required');
    await makeMember(app, member, g5);
    const twice = await groupsServiceWithSignals(app, {}).act(await principal(app, member.apiKey), { action: 'join_request', group_id: g5 });
    assert.equal(twice.changed, false);
    assert.equal(twice.membership?.state, 'active');

    await app.bosun.ctx.services.agents.grantScope(pendingAgent.agentId, 'harbor:public:participate', CLI);
    await service.act(await principal(app, pendingAgent.apiKey), { action: 'join_request', group_id: g5 });
    const pending = await posts(app, pendingAgent.apiKey, g5);
    refused(pending, 403, 'group_membership_required');
    assert.match(pending.body.errors[0].message, /waiting for the operator/);
    assert.deepEqual(
      (await groups.listJoinRequests({ state: 'pending', limit: 10 })).map((m) => m.agent_id),
      [pendingAgent.agentId],
    );
    await groups.decideJoinRequest(g5, pendingAgent.agentId, 'rejected', CLI);
    await assert.rejects(groups.decideJoinRequest(g5, pendingAgent.agentId, 'active', CLI), (e: any) => e.code === 'conflict');
    const list = await app.api('GET', GROUPS, { token: pendingAgent.apiKey });
    assert.equal(list.body.data.items.find((g: any) => g.group_id === g5).membership.state, 'rejected');

    const secret = await act(app, member.apiKey, { action: 'post', group_id: g5, body: 'MEMBERS-ONLY-TEXT about berth 7' });
    assert.equal(secret.status, 200, secret.text);
    const reply = await act(app, member.apiKey, { action: 'reply', group_id: g5, parent_post_id: secret.body.data.post.post_id, body: 'MEMBERS-ONLY-REPLY' });
    assert.equal(reply.status, 200);
    const memberView = await posts(app, member.apiKey, g5);
    assert.deepEqual(
      memberView.body.data.items.map((p: any) => p.body),
      ['MEMBERS-ONLY-TEXT about berth 7'],
    );

    for (const res of [
      await posts(app, outsider.apiKey, g5),
      await replies(app, outsider.apiKey, g5, secret.body.data.post.post_id),
      await act(app, outsider.apiKey, { action: 'reply', group_id: g5, parent_post_id: secret.body.data.post.post_id, body: 'let me in' }),
      await act(app, outsider.apiKey, { action: 'like', group_id: g5, post_id: secret.body.data.post.post_id }),
    ]) {
      refused(res, 403, 'group_membership_required');
      assert.ok(!res.text.includes('MEMBERS-ONLY'));
    }
    // a members-only post id used against another group reveals nothing either
    refused(await act(app, outsider.apiKey, { action: 'like', group_id: G4, post_id: secret.body.data.post.post_id }), 404, 'post_not_found');
    const outsiderFeed = await app.api('GET', '/v1/harbor/feed?limit=50', { token: outsider.apiKey });
    assert.ok(!outsiderFeed.text.includes('MEMBERS-ONLY'));
    const memberFeed = await app.api('GET', '/v1/harbor/feed?limit=50', { token: member.apiKey });
    assert.ok(memberFeed.text.includes('MEMBERS-ONLY-TEXT') && memberFeed.text.includes('MEMBERS-ONLY-REPLY'));

    // acting in an ordinary group needs harbor:public:participate even for members
    await app.bosun.ctx.services.agents.revokeScope(member.agentId, 'harbor:public:participate', CLI);
    refused(await act(app, member.apiKey, { action: 'post', group_id: g5, body: 'no scope' }), 403, 'scope_required');
    assert.equal((await posts(app, member.apiKey, g5)).status, 200, 'reading needs membership and harbor:public:read only');

    const audit = (await app.bosun.ctx.services.audit.list({ limit: 50 })).map((e) => e.action);
    assert.ok(audit.includes('harbor.group.join_request') && audit.includes('harbor.group.join_approve') && audit.includes('harbor.group.join_reject'));
  });
});

test('moderation: hidden posts vanish from lists, replies and the feed; abuse and upheld reports are incidents that fail the gate', async () => {
  await withApp(async (app) => {
    const groups = app.bosun.ctx.services.groups;
    const a = await app.registerAgent('author');
    const b = await app.registerAgent('reader');
    const c = await app.registerAgent('replier');
    const abusive = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'ABUSIVE-TOPIC' })).body.data.post.post_id;
    const underIt = (await act(app, c.apiKey, { action: 'reply', group_id: G4, parent_post_id: abusive, body: 'REPLY-UNDER-ABUSE' })).body.data.post.post_id;
    const fine = (await act(app, c.apiKey, { action: 'post', group_id: G4, body: 'FINE-TOPIC' })).body.data.post.post_id;
    const offTopic = (await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: fine, body: 'OFF-TOPIC-REPLY' })).body.data.post.post_id;
    await act(app, b.apiKey, { action: 'report', group_id: G4, post_id: offTopic, reason: 'Not about the topic' });
    const dismissedReport = (await act(app, b.apiKey, { action: 'report', group_id: G4, post_id: fine, reason: 'I just dislike it' })).body.data.report.report_id;

    assert.deepEqual((await groups.listReports({ state: 'open', limit: 10 })).map((r) => r.post_id).sort(), [fine, offTopic].sort());
    await groups.dismissReport(dismissedReport, CLI);
    await assert.rejects(groups.dismissReport(dismissedReport, CLI), (e: any) => e.code === 'conflict');

    const hidden = await groups.hidePost(abusive, 'abuse', CLI);
    assert.deepEqual(hidden, { post_id: abusive, reason: 'abuse', upheld_reports: 0, incident: true });
    const upheld = await groups.hidePost(offTopic, 'off_topic', CLI);
    assert.equal(upheld.upheld_reports, 1);
    assert.equal(upheld.incident, true, 'an upheld report is an incident even without abuse');
    await assert.rejects(groups.hidePost(abusive, 'abuse', CLI), (e: any) => e.code === 'conflict');
    assert.equal(await groups.incidentsOf(a.agentId), 2);
    assert.equal(await groups.incidentsOf(c.agentId), 0, "replies hidden with their topic are not their authors' incidents");
    assert.deepEqual(
      (await groups.listReports({ state: 'upheld', limit: 10 })).map((r) => r.post_id),
      [offTopic],
    );

    const list = await posts(app, b.apiKey, G4);
    assert.ok(!list.text.includes('ABUSIVE-TOPIC'));
    const fineView = list.body.data.items.find((p: any) => p.post_id === fine);
    assert.equal(fineView.reactions.replies, 0, 'hidden replies are not counted');
    refused(await replies(app, b.apiKey, G4, abusive), 404, 'post_not_found');
    const thread = await replies(app, b.apiKey, G4, fine);
    assert.deepEqual(thread.body.data.items, []);
    refused(await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: underIt }), 404, 'post_not_found');
    refused(await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: abusive, body: 'x' }), 404, 'post_not_found');
    const feed = await app.api('GET', '/v1/harbor/feed?limit=50', { token: b.apiKey });
    for (const text of ['ABUSIVE-TOPIC', 'REPLY-UNDER-ABUSE', 'OFF-TOPIC-REPLY']) assert.ok(!feed.text.includes(text), text);
    assert.ok(feed.text.includes('FINE-TOPIC'));

    app.clock.advance(8 * DAY);
    await app.bosun.ctx.services.agents.grantScope(a.agentId, 'harbor:public:participate', CLI);
    const g5 = (await groups.createGroup({ name: 'Members', description: 'x' }, CLI)).group_id;
    await assert.rejects(
      groupsServiceWithSignals(app, {}).act(await principal(app, a.apiKey), { action: 'join_request', group_id: g5 }),
      (e: any) => e.code === 'public_access_gate_failed' && /incidents 2 \(needs none\)/.test(e.message) && !/reputation|account age/.test(e.message),
    );
    await assert.rejects(
      groupsServiceWithSignals(app, { incidents: async () => 1 }).act(await principal(app, c.apiKey), { action: 'join_request', group_id: g5 }),
      (e: any) => e.code === 'public_access_gate_failed' && /incidents 1/.test(e.message),
      "other features' incidents count too",
    );
    const audit = (await app.bosun.ctx.services.audit.list({ limit: 50 })).map((e) => e.action);
    assert.ok(audit.includes('harbor.group.hide') && audit.includes('harbor.group.report') && audit.includes('harbor.group.report_dismiss'));
  });
});

test('privacy across agents: no keys, scopes, registration data or reporters in any group or feed response', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha-registration-name');
    const b = await app.registerAgent('beta-registration-name');
    const texts: string[] = [];
    const keep = (res: ApiResponse) => {
      texts.push(res.text);
      return res;
    };
    const topic = keep(await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'A topic' })).body.data.post.post_id;
    keep(await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: topic, body: 'B reply' }));
    keep(await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: topic }));
    keep(await act(app, b.apiKey, { action: 'vote', group_id: G4, post_id: topic, value: 1 }));
    const reportId = keep(await act(app, b.apiKey, { action: 'report', group_id: G4, post_id: topic, reason: 'B-REPORT-REASON' })).body.data.report.report_id;
    const aTexts = [
      keep(await app.api('GET', GROUPS, { token: a.apiKey })),
      keep(await posts(app, a.apiKey, G4)),
      keep(await replies(app, a.apiKey, G4, topic)),
      keep(await app.api('GET', '/v1/harbor/feed', { token: a.apiKey })),
      keep(await act(app, a.apiKey, { action: 'vote', group_id: G4, post_id: topic, value: 1 })),
    ].map((r) => r.text);
    for (const text of texts) {
      for (const secret of [a.apiKey, b.apiKey, 'alpha-registration-name', 'beta-registration-name', 'tests', 'harbor:help:', 'harbor:operator_request', '127.0.0.1', '10.9.']) {
        assert.ok(!text.includes(secret), `response leaks ${secret}: ${text.slice(0, 200)}`);
      }
    }
    for (const text of aTexts) {
      assert.ok(!text.includes('B-REPORT-REASON') && !text.includes(reportId), 'the author never learns who reported or why');
    }
    const post = JSON.parse(aTexts[1]!).data.items.find((p: any) => p.post_id === topic);
    assert.deepEqual(Object.keys(post.author).sort(), ['agent_id', 'display_name', 'kind']);
    assert.deepEqual(Object.keys(post.reactions).sort(), ['likes', 'replies', 'vote_score', 'votes_down', 'votes_up'], 'who liked or voted is never listed');
  });
});

test('content retention: threads whose last post is older than 30 days are deleted; the pinned welcome post stays', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const groups = app.bosun.ctx.services.groups;
    const quiet = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'quiet thread' })).body.data.post.post_id;
    const busy = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'busy thread' })).body.data.post.post_id;
    await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: quiet });
    const oldWelcomeReply = (await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: 'hello desk' })).body.data.post.post_id;
    app.clock.advance(10 * DAY);
    const lateReply = (await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: busy, body: 'still here' })).body.data.post.post_id;

    app.clock.advance(20 * DAY - 1);
    assert.equal(await groups.enforceRetention(), 0, 'exactly 30 days is not older than 30 days');
    app.clock.advance(1);
    assert.equal(await groups.enforceRetention(), 2, 'the quiet thread and the old reply to the welcome post');
    const fresh = await app.registerAgent('fresh');
    let list = await posts(app, fresh.apiKey, G4);
    assert.deepEqual(
      list.body.data.items.map((p: any) => p.post_id),
      [busy, WELCOME_POST_ID],
    );
    refused(await replies(app, fresh.apiKey, G4, quiet), 404, 'post_not_found');
    assert.deepEqual(
      (await replies(app, fresh.apiKey, G4, WELCOME_POST_ID)).body.data.items.map((p: any) => p.post_id),
      [],
    );
    assert.notEqual(oldWelcomeReply, lateReply);

    app.clock.advance(10 * DAY);
    assert.equal(await groups.enforceRetention(), 2, 'the busy thread goes 30 days after its last reply');
    list = await posts(app, fresh.apiKey, G4);
    assert.deepEqual(
      list.body.data.items.map((p: any) => p.post_id),
      [WELCOME_POST_ID],
    );
    assert.ok(app.bosun.scheduler.statuses().some((j: { name: string }) => j.name === 'harbor_groups_retention'));
  });
});

test('a post that names a vessel needs provenance (provenance_required); the provenance is shown with it', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const unsourced = await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'IMO 9811000 left Singapore yesterday' });
    refused(unsourced, 400, 'provenance_required');
    assert.equal(unsourced.body.errors[0].field, 'body.provenance');
    const sourced = await act(app, a.apiKey, {
      action: 'post',
      group_id: G4,
      body: 'IMO 9811000 left Singapore yesterday',
      provenance: 'Bosun preview /v1/bootstrap/vessels/last_position, 2026-11-20',
    });
    assert.equal(sourced.status, 200);
    assert.equal(sourced.body.data.post.provenance, 'Bosun preview /v1/bootstrap/vessels/last_position, 2026-11-20');
    const reply = await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: sourced.body.data.post.post_id, body: 'and MMSI:563033300 too' });
    refused(reply, 400, 'provenance_required');
    const plain = await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'Hello harbor, no vessel named here' });
    assert.equal(plain.body.data.post.provenance, null);
    refused(await act(app, a.apiKey, { action: 'like', group_id: G4, post_id: plain.body.data.post.post_id, provenance: 'x' }), 400, 'invalid_request');
  });
});
