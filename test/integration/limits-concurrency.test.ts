import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { newId } from '../../src/access/credentials.js';
import { createGroupsRepo } from '../../src/features/harbor/groups/groups-repo.js';
import { WELCOME_POST_ID } from '../../src/features/harbor/groups/group-constants.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { createSandboxTasksRepo } from '../../src/features/harbor/tasks/sandbox-tasks-repo.js';
import { openTaskRow } from '../../src/features/harbor/tasks/sandbox-tasks-service.js';
import { ERROR_CODES, type ErrorCode } from '../../src/platform/errors.js';
import { startTestApp, usingPostgres, type ApiResponse, type TestApp } from '../helpers/app.js';

/** A post or reply of an agent in the onboarding group (4), as the repository stores it. */
const onboardingPost = (post_id: string, parent_post_id: string | null, author_agent_id: string, body: string, at: number) => ({
  post_id,
  group_id: G4,
  parent_post_id,
  author_agent_id,
  author_kind: 'agent' as const,
  body,
  pinned: 0,
  created_at: at,
  last_activity_at: at,
  hidden_at: null,
  hidden_reason: null,
  provenance: null,
});

/**
 * Every check-then-write limit, hit by N requests at once (Promise.all over the in-process app: on
 * PostgreSQL they run on separate pooled connections and really race). Exactly the allowed number may
 * pass; the rest are refused with the limit's code, and refusals use up no quota.
 */

// One instance for the file: every test registers its own agents, and every limit is per agent.
let shared: TestApp;
before(async () => {
  shared = await startTestApp();
});
after(() => shared.close());
const onSharedApp = (fn: (app: TestApp) => Promise<void>) => fn(shared);

const HELP = '/v1/harbor/help-requests';
const SANDBOX_TASKS = '/experimental/agent-harbor-sandbox-tasks.php';
const TASKS = '/experimental/agent-harbor-tasks.php';
const GROUPS = '/v1/harbor/public/groups';
const G4 = HARBOR_LIMITS.onboarding.groupId;

const race = <T>(n: number, fire: (i: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: n }, (_, i) => fire(i)));

/** Exactly `allowed` answers with `okStatus`; every other one refused with `code` (and that code's status). */
function expectExactly(responses: ApiResponse[], allowed: number, okStatus: number | number[], code: ErrorCode, label: string): void {
  const passed = (r: ApiResponse) => (Array.isArray(okStatus) ? okStatus.includes(r.status) : r.status === okStatus);
  const ok = responses.filter(passed);
  const refused = responses.filter((r) => !passed(r));
  const summary = JSON.stringify(responses.map((r) => (passed(r) ? r.status : `${r.status} ${r.body?.errors?.[0]?.code}`)));
  assert.equal(ok.length, allowed, `${label}: ${allowed} of ${responses.length} should pass, got ${summary}`);
  for (const r of refused) {
    assert.equal(r.body?.errors?.[0]?.code, code, `${label}: ${summary}`);
    assert.equal(r.status, ERROR_CODES[code].status, `${label}: ${summary}`);
  }
}

const usage = (app: TestApp, agentId: string) => app.bosun.ctx.services.harborQuota.usage(agentId);

/** Open agent-created sandbox tasks written straight to the store: active items of `agentId`. */
async function openSandboxTasks(app: TestApp, agentId: string, count: number): Promise<void> {
  const repo = createSandboxTasksRepo(app.bosun.ctx.store.db);
  for (let i = 0; i < count; i++) {
    const now = app.clock.now();
    await repo.insert(openTaskRow({ creator_id: agentId, assignee_id: null, onboarding_key: null, title: `filler ${i}`, description: 'filler' }, now));
  }
}

test('help requests: three concurrent creates by an auto-sandbox agent leave one active request (limit 1)', async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('help-racer');
    const responses = await race(3, (i) => app.api('POST', HELP, { token: a.apiKey, body: { title: `Question ${i}`, body: 'details', visibility: 'public' } }));
    expectExactly(responses, HARBOR_LIMITS.help.activeRequests, 201, 'help_auto_sandbox_active_limit', 'active help requests');
    const mine = await app.api('GET', `${HELP}?mine=true`, { token: a.apiKey });
    assert.equal(mine.body.data.items.length, 1);
    const u = await usage(app, a.agentId);
    assert.deepEqual([u.active_items, u.creates_last_24_hours, u.actions_last_5_minutes], [1, 1, 1], 'refused creates are not charged');
  });
});

test('help requests: concurrent creates at the edge of 2 new requests per 24 hours let one through', async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('help-daily');
    const first = await app.api('POST', HELP, { token: a.apiKey, body: { title: 'First question', body: 'details', visibility: 'public' } });
    assert.equal(first.status, 201, first.text);
    assert.equal((await app.api('POST', `${HELP}/${first.body.data.request_id}/close`, { token: a.apiKey, body: {} })).status, 200);
    app.clock.advance(HOUR);
    const responses = await race(5, (i) => app.api('POST', HELP, { token: a.apiKey, body: { title: `Question ${i}`, body: 'details', visibility: 'public' } }));
    expectExactly(responses, 1, 201, 'help_auto_sandbox_daily_limit', 'help requests per 24 hours');
    assert.equal((await app.api('GET', `${HELP}?mine=true`, { token: a.apiKey })).body.data.items.length, HARBOR_LIMITS.help.newRequestsPer24h);
  });
});

test(`profile writes: 40 concurrent writes pass exactly ${HARBOR_LIMITS.actionsPer5Minutes} (actions per 5 minutes)`, async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('profile-racer');
    const responses = await race(40, (i) => app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: `Racer ${i}`, public: false } }));
    expectExactly(responses, HARBOR_LIMITS.actionsPer5Minutes, 201, 'task_rate_limited', 'profile writes');
    assert.equal((await usage(app, a.agentId)).actions_last_5_minutes, HARBOR_LIMITS.actionsPer5Minutes);
  });
});

test(`sandbox tasks: 15 concurrent creates pass exactly ${HARBOR_LIMITS.createsPerDay} (creates per 24 hours)`, async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('task-racer');
    assert.equal((await app.api('GET', SANDBOX_TASKS, { token: a.apiKey })).status, 200, 'onboarding checklist handed out first');
    const responses = await race(15, (i) => app.api('POST', SANDBOX_TASKS, { token: a.apiKey, body: { action: 'create', title: `Task ${i}`, description: 'synthetic' } }));
    expectExactly(responses, HARBOR_LIMITS.createsPerDay, 200, 'task_rate_limited', 'creates per 24 hours');
    const u = await usage(app, a.agentId);
    assert.deepEqual([u.creates_last_24_hours, u.active_items], [HARBOR_LIMITS.createsPerDay, HARBOR_LIMITS.createsPerDay]);
  });
});

test(`active capacity: with ${HARBOR_LIMITS.activeTasks - 2} active items, 6 concurrent sandbox task creates pass exactly 2`, async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('capacity-racer');
    assert.equal((await app.api('GET', SANDBOX_TASKS, { token: a.apiKey })).status, 200);
    await openSandboxTasks(app, a.agentId, HARBOR_LIMITS.activeTasks - 2);
    const responses = await race(6, (i) => app.api('POST', SANDBOX_TASKS, { token: a.apiKey, body: { action: 'create', title: `Task ${i}`, description: 'synthetic' } }));
    const edge = await app.api('POST', SANDBOX_TASKS, { token: a.apiKey, body: { action: 'create', title: 'One more', description: 'synthetic' } });
    const code = edge.body.errors[0].code as ErrorCode;
    expectExactly([...responses, edge], 2, 200, code, 'active items');
    const u = await usage(app, a.agentId);
    assert.deepEqual([u.active_items, u.creates_last_24_hours], [HARBOR_LIMITS.activeTasks, 2], 'refused creates are not charged');
  });
});

test('active capacity: an agent one slot short of the limit accepts exactly one of three assigned tasks at once', async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('accept-racer');
    for (const scope of ['harbor:task:read', 'harbor:task:message']) await app.bosun.ctx.services.agents.grantScope(a.agentId, scope, { kind: 'cli' });
    await openSandboxTasks(app, a.agentId, HARBOR_LIMITS.activeTasks - 1);
    const tasks: Array<{ task_id: string }> = [];
    for (let i = 0; i < 3; i++) tasks.push(await app.bosun.ctx.services.harborTasks.createByOperator({ title: `Task ${i}`, description: 'check it', assignee: a.agentId }, { kind: 'cli' }));
    const responses = await race(3, (i) => app.api('POST', TASKS, { token: a.apiKey, body: { action: 'accept', task_id: tasks[i]!.task_id } }));
    const edge = responses.find((r) => r.status !== 200);
    assert.ok(edge, JSON.stringify(responses.map((r) => r.status)));
    expectExactly(responses, 1, 200, edge.body.errors[0].code, 'accepted tasks');
    assert.equal((await usage(app, a.agentId)).active_items, HARBOR_LIMITS.activeTasks);
  });
});

test(`onboarding group: concurrent topics pass exactly ${HARBOR_LIMITS.onboarding.topicsPerDay} per 24 hours`, async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('topic-racer');
    const responses = await race(8, (i) => app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'post', group_id: G4, body: `topic ${i}` } }));
    expectExactly(responses, HARBOR_LIMITS.onboarding.topicsPerDay, 200, 'onboarding_topic_daily_limit', 'topics');
    assert.equal((await usage(app, a.agentId)).actions_last_5_minutes, HARBOR_LIMITS.onboarding.topicsPerDay);
  });
});

test(`onboarding group: concurrent replies at the edge of ${HARBOR_LIMITS.onboarding.repliesPerDay} per 24 hours`, async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('reply-racer');
    const repo = createGroupsRepo(app.bosun.ctx.store.db);
    const earlier = app.clock.now();
    for (let i = 0; i < HARBOR_LIMITS.onboarding.repliesPerDay - 2; i++) {
      await repo.insertPost(onboardingPost(newId('pst_'), WELCOME_POST_ID, a.agentId, `reply ${i}`, earlier));
    }
    app.clock.advance(10 * MINUTE);
    const responses = await race(6, (i) => app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'reply', group_id: G4, parent_post_id: WELCOME_POST_ID, body: `reply ${i}` } }));
    expectExactly(responses, 2, 200, 'onboarding_reply_daily_limit', 'replies');
  });
});

for (const kind of ['like', 'vote'] as const) {
  const limit = kind === 'like' ? HARBOR_LIMITS.onboarding.likesPerDay : HARBOR_LIMITS.onboarding.votesPerDay;
  test(`onboarding group: concurrent ${kind}s at the edge of ${limit} per 24 hours`, async () => {
    await onSharedApp(async (app) => {
      const a = await app.registerAgent(`${kind}-racer`);
      const author = await app.registerAgent('author');
      const repo = createGroupsRepo(app.bosun.ctx.store.db);
      const posts: string[] = [];
      const earlier = app.clock.now();
      for (let i = 0; i < limit + 4; i++) {
        const post_id = newId('pst_');
        await repo.insertPost(onboardingPost(post_id, null, author.agentId, `target ${i}`, earlier));
        posts.push(post_id);
      }
      for (const post_id of posts.slice(0, limit - 2)) await repo.insertReaction({ post_id, agent_id: a.agentId, kind, value: 1, group_id: G4, created_at: earlier });
      app.clock.advance(10 * MINUTE);
      const targets = posts.slice(limit - 2);
      const responses = await race(targets.length, (i) =>
        app.api('POST', GROUPS, { token: a.apiKey, body: { action: kind, group_id: G4, post_id: targets[i], ...(kind === 'vote' ? { value: 1 } : {}) } }),
      );
      expectExactly(responses, 2, 200, kind === 'like' ? 'onboarding_like_daily_limit' : 'onboarding_vote_daily_limit', `${kind}s`);
    });
  });
}

test('a vote cast five times at once counts once and charges one action', async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('double-voter');
    const author = await app.registerAgent('author');
    const topic = await app.api('POST', GROUPS, { token: author.apiKey, body: { action: 'post', group_id: G4, body: 'vote on me' } });
    assert.equal(topic.status, 200, topic.text);
    const responses = await race(5, () => app.api('POST', GROUPS, { token: a.apiKey, body: { action: 'vote', group_id: G4, post_id: topic.body.data.post.post_id, value: 1 } }));
    expectExactly(responses, 1, 200, 'duplicate_vote_forbidden', 'votes on one post');
    assert.equal((await usage(app, a.agentId)).actions_last_5_minutes, 1, 'refused duplicates use up no quota');
  });
});

test('operator requests: concurrent creates at the edge of 30 actions per 5 minutes pass exactly 3', async () => {
  await onSharedApp(async (app) => {
    const a = await app.registerAgent('request-racer');
    // Actions per 5 minutes (30) bind here whatever the create rules for operator requests are.
    const before = await Promise.all(
      Array.from({ length: HARBOR_LIMITS.actionsPer5Minutes - 3 }, (_, i) => app.api('POST', '/v1/harbor/profiles', { token: a.apiKey, body: { display_name: `Warmup ${i}` } }).then((r) => r.status)),
    );
    assert.ok(
      before.every((s) => s === 201),
      JSON.stringify(before),
    );
    const responses = await race(8, (i) => app.api('POST', '/v1/harbor/operator-requests', { token: a.apiKey, body: { category: 'missing_function', subject: `Request ${i}`, body: 'please' } }));
    expectExactly(responses, 3, 201, 'task_rate_limited', 'operator requests');
    assert.equal((await usage(app, a.agentId)).actions_last_5_minutes, HARBOR_LIMITS.actionsPer5Minutes);
  });
});

/** Makes every insert into `table` fail inside the database, as a constraint or I/O error would. */
async function failInserts(app: TestApp, table: string): Promise<() => Promise<void>> {
  const db = app.bosun.ctx.store.db;
  if (usingPostgres()) {
    await sql`create function bosun_test_fail_write() returns trigger language plpgsql as $$ begin raise exception 'write failed'; end $$`.execute(db);
    await sql`create trigger bosun_test_fail before insert on ${sql.table(table)} for each row execute function bosun_test_fail_write()`.execute(db);
    return async () => {
      await sql`drop trigger bosun_test_fail on ${sql.table(table)}`.execute(db);
      await sql`drop function bosun_test_fail_write()`.execute(db);
    };
  }
  await sql`create trigger bosun_test_fail before insert on ${sql.table(table)} begin select raise(abort, 'write failed'); end`.execute(db);
  return async () => void (await sql`drop trigger bosun_test_fail`.execute(db));
}

const WRITES = [
  { table: 'harbor_help_requests', path: HELP, body: { title: 'A question', body: 'details', visibility: 'public' }, ok: 201 },
  { table: 'harbor_profiles', path: '/v1/harbor/profiles', body: { display_name: 'Failing profile' }, ok: 201 },
  { table: 'harbor_group_posts', path: GROUPS, body: { action: 'post', group_id: G4, body: 'an introduction' }, ok: 200 },
  { table: 'harbor_operator_requests', path: '/v1/harbor/operator-requests', body: { category: 'missing_function', subject: 'A request', body: 'please' }, ok: 201 },
] as const;

for (const write of WRITES) {
  test(`a write that fails in the database (${write.table}) uses up no quota and leaves no audit entry`, async () => {
    await onSharedApp(async (app) => {
      const a = await app.registerAgent('unlucky');
      const restore = await failInserts(app, write.table);
      const failed = await app.api('POST', write.path, { token: a.apiKey, body: write.body });
      await restore();
      assert.equal(failed.status, 500, failed.text);
      const u = await usage(app, a.agentId);
      assert.deepEqual([u.actions_last_5_minutes, u.creates_last_24_hours], [0, 0], 'the charge was rolled back with the write');
      const audited = await app.bosun.ctx.store.db.selectFrom('audit_log').select('action').where('actor_id', '=', a.agentId).execute();
      assert.deepEqual(
        audited.map((r) => r.action).filter((action) => action.startsWith('harbor.')),
        [],
      );
      assert.equal((await app.api('POST', write.path, { token: a.apiKey, body: write.body })).status, write.ok, 'the same write succeeds once the store does');
    });
  });
}

test('payments: one idempotency_key sent five times at once creates one intent; one tx_hash proved twice at once is taken once', async () => {
  const app = await startTestApp({
    env: {
      BOSUN_PAYMENT_INTENTS: 'true',
      BOSUN_PAYMENT_RAILS: JSON.stringify([{ rail_id: 'usdc-base', label: 'USDC on Base', network: 'base', token: 'USDC', address: '0x' + 'ab'.repeat(20), decimals: 6 }]),
    },
  });
  try {
    const a = await app.registerAgent('payer');
    const intent = (key: string) => ({ purpose: 'contribution', rail_id: 'usdc-base', amount_or_pay_what_you_want: '5.00', expiry: 900, idempotency_key: key });
    const created = await race(5, () => app.api('POST', '/v1/payments/intents', { token: a.apiKey, body: intent('race-key-0001') }));
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201, 201, 201],
      JSON.stringify(created.map((r) => r.body?.errors?.[0]?.code)),
    );
    assert.equal(new Set(created.map((r) => r.body.data.payment_id)).size, 1, 'every answer names the one intent');
    assert.equal(created.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 4);

    const second = await app.api('POST', '/v1/payments/intents', { token: a.apiKey, body: intent('race-key-0002') });
    const proof = { network: 'base', token: 'USDC', tx_hash: '0x' + 'ef'.repeat(32), sender_address: '0x' + '12'.repeat(20), amount: '5.00' };
    const proved = await Promise.all(
      [created[0]!.body.data.payment_id, second.body.data.payment_id].map((id: string) => app.api('POST', `/v1/payments/intents/${id}/proof`, { token: a.apiKey, body: proof })),
    );
    expectExactly(proved, 1, 200, 'conflict', 'proofs with one tx_hash');
  } finally {
    await app.close();
  }
});

test('snapshot trial: concurrent failing calls at the edge of 10 failures per hour record exactly 10', async () => {
  await onSharedApp(async (app) => {
    const { apiKey, agentId } = await app.registerAgent('failing-trialist');
    await app.bosun.ctx.services.trials.grant(agentId, 'MMSI:563033300', { kind: 'cli' });
    const wrongVessel = () => app.api('GET', '/v1/services/vessel-snapshot/trial?imo=9074729', { token: apiKey });
    for (let i = 0; i < 8; i++) {
      if (i % 4 === 0) app.clock.advance(MINUTE); // stays under 6 trial calls per minute
      assert.equal((await wrongVessel()).body.errors[0].code, 'trial_vessel_not_allowed');
    }
    app.clock.advance(MINUTE);
    const responses = await race(6, wrongVessel);
    const codes = responses.map((r) => r.body.errors[0].code);
    assert.equal(codes.filter((c) => c === 'trial_vessel_not_allowed').length, 2, JSON.stringify(codes));
    assert.equal(codes.filter((c) => c === 'trial_error_rate_limited').length, 4, JSON.stringify(codes));
  });
});
