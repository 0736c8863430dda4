import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, SECOND } from '../../src/platform/clock.js';
import { newId } from '../../src/access/credentials.js';
import { createGroupsRepo } from '../../src/features/harbor/groups/groups-repo.js';
import { WELCOME_POST_ID } from '../../src/features/harbor/groups/group-constants.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { withApp, type ApiResponse, type TestApp } from '../helpers/app.js';

const G4 = HARBOR_LIMITS.onboarding.groupId;
const { topicsPerDay, repliesPerDay, likesPerDay, votesPerDay } = HARBOR_LIMITS.onboarding;
/** Spacing that keeps every agent under the contract-wide 30 actions per 5 minutes. */
const SPACING = 10 * SECOND;

const act = (app: TestApp, token: string, body: Record<string, unknown>) => app.api('POST', '/v1/harbor/public/groups', { token, body });

function assertDailyLimit(res: ApiResponse, code: string, retryAfterSeconds: number) {
  assert.equal(res.status, 429, res.text.slice(0, 300));
  assert.equal(res.body.errors[0].code, code);
  assert.equal(res.body.errors[0].retryable, true);
  assert.equal(res.headers['retry-after'], String(retryAfterSeconds));
}

/** Topics by another agent, written straight to the store: targets for likes and votes. */
async function targetPosts(app: TestApp, authorId: string, count: number): Promise<string[]> {
  const repo = createGroupsRepo(app.bosun.ctx.store.db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const now = app.clock.now();
    const row = {
      post_id: newId('pst_'),
      group_id: G4,
      parent_post_id: null,
      author_agent_id: authorId,
      author_kind: 'agent',
      body: `target ${i}`,
      pinned: 0,
      created_at: now,
      last_activity_at: now,
      hidden_at: null,
      hidden_reason: null,
      provenance: null,
    };
    await repo.insertPost(row);
    ids.push(row.post_id);
  }
  return ids;
}

test(`onboarding topics: ${topicsPerDay} per rolling 24 hours, then onboarding_topic_daily_limit until the oldest leaves the window`, async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('poster');
    const first = app.clock.now();
    for (let i = 0; i < topicsPerDay; i++) {
      const res = await act(app, a.apiKey, { action: 'post', group_id: G4, body: `topic ${i}` });
      assert.equal(res.status, 200, res.text);
      app.clock.advance(SPACING);
    }
    const elapsed = app.clock.now() - first;
    assertDailyLimit(await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'one too many' }), 'onboarding_topic_daily_limit', (DAY - elapsed) / 1000);
    const usage = await app.bosun.ctx.services.harborQuota.usage(a.agentId);
    assert.equal(usage.creates_last_24_hours, topicsPerDay, 'topics are creates; the refused one is not counted');
    assert.equal((await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: 'replies have their own budget' })).status, 200);

    app.clock.set(first + DAY - 1);
    assert.equal((await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'still too early' })).body.errors[0].code, 'onboarding_topic_daily_limit');
    app.clock.set(first + DAY);
    assert.equal((await act(app, a.apiKey, { action: 'post', group_id: G4, body: 'a new day' })).status, 200);
  });
});

test(`onboarding replies: ${repliesPerDay} per rolling 24 hours (not capped by the contract-wide creates), then onboarding_reply_daily_limit`, async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('replier');
    const first = app.clock.now();
    for (let i = 0; i < repliesPerDay; i++) {
      const res = await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: `reply ${i}` });
      assert.equal(res.status, 200, `reply ${i}: ${res.text.slice(0, 200)}`);
      app.clock.advance(SPACING);
    }
    const elapsed = app.clock.now() - first;
    assertDailyLimit(await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: 'too many' }), 'onboarding_reply_daily_limit', (DAY - elapsed) / 1000);
    assert.equal((await app.bosun.ctx.services.harborQuota.usage(a.agentId)).creates_last_24_hours, 0);
    app.clock.set(first + DAY - 1);
    assert.equal((await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: 'early' })).body.errors[0].code, 'onboarding_reply_daily_limit');
    app.clock.set(first + DAY);
    assert.equal((await act(app, a.apiKey, { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: 'again' })).status, 200);
  });
});

test(`onboarding likes: ${likesPerDay} per rolling 24 hours, then onboarding_like_daily_limit; repeated likes cost nothing`, async () => {
  await withApp(async (app) => {
    const liker = await app.registerAgent('liker');
    const author = await app.registerAgent('author');
    const targets = await targetPosts(app, author.agentId, likesPerDay + 2);
    const first = app.clock.now();
    for (let i = 0; i < likesPerDay; i++) {
      const res = await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[i] });
      assert.equal(res.status, 200, `like ${i}: ${res.text.slice(0, 200)}`);
      assert.equal(res.body.data.changed, true);
      app.clock.advance(SPACING);
    }
    const repeat = await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[0] });
    assert.equal(repeat.status, 200, 'a repeated like is not refused by the limit');
    assert.equal(repeat.body.data.changed, false);
    const elapsed = app.clock.now() - first;
    assertDailyLimit(await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[likesPerDay] }), 'onboarding_like_daily_limit', (DAY - elapsed) / 1000);
    app.clock.set(first + DAY);
    assert.equal((await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[likesPerDay] })).status, 200);
  });
});

test(`onboarding votes: ${votesPerDay} per rolling 24 hours, then onboarding_vote_daily_limit`, async () => {
  await withApp(async (app) => {
    const voter = await app.registerAgent('voter');
    const author = await app.registerAgent('author');
    const targets = await targetPosts(app, author.agentId, votesPerDay + 2);
    const first = app.clock.now();
    for (let i = 0; i < votesPerDay; i++) {
      const res = await act(app, voter.apiKey, { action: 'vote', group_id: G4, post_id: targets[i], value: i % 2 === 0 ? 1 : -1 });
      assert.equal(res.status, 200, res.text.slice(0, 200));
      app.clock.advance(SPACING);
    }
    const elapsed = app.clock.now() - first;
    assertDailyLimit(await act(app, voter.apiKey, { action: 'vote', group_id: G4, post_id: targets[votesPerDay], value: 1 }), 'onboarding_vote_daily_limit', (DAY - elapsed) / 1000);
    app.clock.set(first + DAY - 1);
    assert.equal((await act(app, voter.apiKey, { action: 'vote', group_id: G4, post_id: targets[votesPerDay], value: 1 })).body.errors[0].code, 'onboarding_vote_daily_limit');
    app.clock.set(first + DAY);
    assert.equal((await act(app, voter.apiKey, { action: 'vote', group_id: G4, post_id: targets[votesPerDay], value: 1 })).status, 200);
  });
});

test('the contract-wide quota applies on top: 30 actions per 5 minutes answer task_rate_limited', async () => {
  await withApp(async (app) => {
    const liker = await app.registerAgent('fast-liker');
    const author = await app.registerAgent('author');
    const targets = await targetPosts(app, author.agentId, HARBOR_LIMITS.actionsPer5Minutes + 1);
    for (let i = 0; i < HARBOR_LIMITS.actionsPer5Minutes; i++) {
      assert.equal((await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[i] })).status, 200);
    }
    const res = await act(app, liker.apiKey, { action: 'like', group_id: G4, post_id: targets[HARBOR_LIMITS.actionsPer5Minutes] });
    assert.equal(res.status, 429);
    assert.equal(res.body.errors[0].code, 'task_rate_limited');
    const target = await app.api('GET', `/v1/harbor/public/groups/${G4}/posts/${targets[HARBOR_LIMITS.actionsPer5Minutes]}/replies`, { token: liker.apiKey });
    assert.equal(target.body.data.post.reactions.likes, 0, 'the refused like was not written');
  });
});
