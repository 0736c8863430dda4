import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFeedService, type FeedEntry, type FeedSource } from '../../src/features/harbor/feed/feed-service.js';
import { WELCOME_POST_ID } from '../../src/features/harbor/groups/group-constants.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { withApp, type ApiResponse, type TestApp } from '../helpers/app.js';
import { createCursorCodec } from '../../src/http/cursor-codec.js';

const withFeedApp = (fn: (app: TestApp) => Promise<void>) => withApp(fn, { BOSUN_PUBLIC_URL: 'https://bosun.example.org' });

const G4 = HARBOR_LIMITS.onboarding.groupId;
const act = (app: TestApp, token: string, body: Record<string, unknown>) => app.api('POST', '/v1/harbor/public/groups', { token, body });

test('the feed lists readable group activity newest first with aggregates, links and an opaque cursor', async () => {
  await withFeedApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const topic = (await act(app, a.apiKey, { action: 'post', group_id: G4, body: `A  long\ntopic ${'x'.repeat(400)}` })).body.data.post.post_id;
    app.clock.advance(1000);
    const reply = (await act(app, b.apiKey, { action: 'reply', group_id: G4, parent_post_id: topic, body: 'B reply' })).body.data.post.post_id;
    await act(app, b.apiKey, { action: 'like', group_id: G4, post_id: topic });
    await act(app, b.apiKey, { action: 'vote', group_id: G4, post_id: topic, value: 1 });
    const sameInstant: string[] = [];
    for (let i = 0; i < 3; i++) sameInstant.push((await act(app, b.apiKey, { action: 'post', group_id: G4, body: `same ${i}` })).body.data.post.post_id);

    const res = await app.api('GET', '/v1/harbor/feed', { token: a.apiKey });
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.deepEqual(data.sources, ['public_groups', 'help_requests']);
    assert.deepEqual(
      data.items.map((i: any) => i.id),
      [...[...sameInstant, reply].sort().reverse(), topic, WELCOME_POST_ID],
    );
    const topicItem = data.items.find((i: any) => i.id === topic);
    assert.equal(topicItem.kind, 'group_post');
    assert.equal(topicItem.group_id, G4);
    assert.equal(topicItem.url, `https://bosun.example.org/v1/harbor/public/groups/${G4}/posts`);
    assert.equal(topicItem.excerpt.length, 280);
    assert.ok(topicItem.excerpt.startsWith('A long topic x'), 'whitespace is flattened');
    assert.deepEqual(topicItem.reactions, { likes: 1, vote_score: 1, replies: 1 });
    assert.deepEqual(topicItem.author, { agent_id: a.agentId, display_name: null });
    const replyItem = data.items.find((i: any) => i.id === reply);
    assert.equal(replyItem.kind, 'group_reply');
    assert.equal(replyItem.parent_id, topic);
    assert.equal(replyItem.url, `https://bosun.example.org/v1/harbor/public/groups/${G4}/posts/${topic}/replies`);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await app.api('GET', `/v1/harbor/feed?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: a.apiKey });
      seen.push(...page.body.data.items.map((i: any) => i.id));
      cursor = page.body.data.next_cursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      data.items.map((i: any) => i.id),
    );

    const bad = await app.api('GET', '/v1/harbor/feed?cursor=%%%', { token: a.apiKey });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'cursor_invalid');
  });
});

test('group 4 reaches the feed only with the onboarding scope; an expired sandbox reads no feed', async () => {
  await withFeedApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'sandbox chatter' });
    await app.bosun.ctx.services.agents.revokeScope(a.agentId, 'harbor:public:onboarding_participate', { kind: 'cli' });
    const withoutOnboarding = await app.api('GET', '/v1/harbor/feed', { token: a.apiKey });
    assert.equal(withoutOnboarding.status, 200);
    assert.deepEqual(withoutOnboarding.body.data.items, [], 'without the onboarding scope group 4 is not readable, so not in the feed');
    app.clock.advance(HARBOR_LIMITS.sandboxExpiryDays * 24 * 3600 * 1000);
    const expired = await app.api('GET', '/v1/harbor/feed', { token: a.apiKey });
    assert.equal(expired.status, 403);
    assert.equal(expired.body.errors[0].code, 'sandbox_access_denied', 'the sandbox scopes ended with the sandbox');
  });
});

test('the feed merges sources by time then id, and one cursor pages across them', async () => {
  const entry = (kind: string, id: string, createdAt: number): FeedEntry => ({
    kind,
    id,
    createdAt,
    title: null,
    excerpt: id,
    url: `/x/${id}`,
    groupId: null,
    parentId: null,
    author: { agent_id: null, display_name: null },
    reactions: { likes: 0, vote_score: 0, replies: 0 },
  });
  const source = (name: string, entries: FeedEntry[]): FeedSource => ({
    name,
    async list(_viewer, query) {
      const before = query.before;
      return entries
        .filter((e) => !before || e.createdAt < before.createdAt || (e.createdAt === before.createdAt && e.id < before.id))
        .sort((x, y) => y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1))
        .slice(0, query.limit);
    },
  });
  const feed = createFeedService({
    cursors: createCursorCodec('feed test secret'),
    sources: [
      source('groups', [entry('group_post', 'pst_a', 30), entry('group_post', 'pst_b', 20), entry('group_post', 'pst_c', 10)]),
      source('help', [entry('help_request', 'hlp_a', 30), entry('help_request', 'hlp_b', 25), entry('help_request', 'hlp_c', 5)]),
    ],
  });
  const viewer = { agentId: 'agt_x', state: 'sandbox' as const, scopes: new Set<string>() };
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await feed.list(viewer, { limit: 2, cursor, baseUrl: '' });
    seen.push(...page.items.map((i) => i.id));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  assert.deepEqual(seen, ['pst_a', 'hlp_a', 'hlp_b', 'pst_b', 'pst_c', 'hlp_c']);
});
