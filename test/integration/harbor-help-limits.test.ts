import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { HELP, createRequest, expectError, grant, post, register, resolvedRequest, respond, setState, withApp } from './harbor-help-support.js';

const NEW = { title: 'Another question', body: 'details', visibility: 'public' };

test('auto-sandbox: 1 active request; a second is refused until the first is closed', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const first = await createRequest(app, a);
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: NEW }), 409, 'help_auto_sandbox_active_limit', 'open counts');

    const b = await register(app, 'b');
    const answer = await respond(app, b, first.request_id);
    await post(app, a, first.request_id, 'select', { response_id: answer.response_id });
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: NEW }), 409, 'help_auto_sandbox_active_limit', 'selected counts');
    await post(app, b, first.request_id, 'responses', { body: 'on it' });
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: NEW }), 409, 'help_auto_sandbox_active_limit', 'in_progress counts');
    assert.equal((await app.bosun.ctx.services.harborQuota.usage(a.agentId)).active_items, 1, 'the contract-wide active count includes help requests');

    await post(app, a, first.request_id, 'close', {});
    assert.equal((await app.bosun.ctx.services.harborQuota.usage(a.agentId)).active_items, 0);
    assert.equal((await app.api('POST', HELP, { token: a.apiKey, body: NEW })).status, 201, 'resolved does not count');
  });
});

test('auto-sandbox: 2 new requests per 24 hours, the third refused until the first is 24 hours old', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const first = await createRequest(app, a);
    await post(app, a, first.request_id, 'close', {});
    app.clock.advance(HOUR);
    const second = await createRequest(app, a);
    await post(app, a, second.request_id, 'close', {});

    app.clock.advance(DAY - HOUR - 1);
    const refused = await app.api('POST', HELP, { token: a.apiKey, body: NEW });
    expectError(refused, 429, 'help_auto_sandbox_daily_limit', '1 ms before the first leaves the window');
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal((await app.api('GET', `${HELP}?mine=true`, { token: a.apiKey })).body.data.items.length, 2);

    app.clock.advance(1);
    assert.equal((await app.api('POST', HELP, { token: a.apiKey, body: NEW })).status, 201, 'exactly 24 hours after the first');
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: NEW }), 429, 'help_auto_sandbox_daily_limit', 'the second is still inside the window');
  });
});

test('agents outside the sandbox have no help-specific limits but the contract-wide quota: 10 creates per 24 hours', async () => {
  await withApp(async (app) => {
    const trusted = await register(app, 'trusted');
    await setState(app, trusted, 'trusted');
    for (let i = 0; i < HARBOR_LIMITS.createsPerDay; i++) {
      await createRequest(app, trusted, { title: `Question ${i}` });
      app.clock.advance(MINUTE);
    }
    const refused = await app.api('POST', HELP, { token: trusted.apiKey, body: NEW });
    expectError(refused, 429, 'task_rate_limited');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const usage = await app.bosun.ctx.services.harborQuota.usage(trusted.agentId);
    assert.deepEqual([usage.creates_last_24_hours, usage.active_items], [10, 10], 'the refused create was not counted');
  });
});

test('contract-wide quota: refused help calls are not charged; responses are creates, select and close are actions', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const b = await register(app, 'b');
    const quota = app.bosun.ctx.services.harborQuota;
    const request = await createRequest(app, a);
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: NEW }), 409, 'help_auto_sandbox_active_limit');
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: { ...NEW, title: 'x' } }), 400, 'help_request_input_invalid');
    const answer = await respond(app, b, request.request_id);
    expectError(await post(app, b, request.request_id, 'responses', { body: 'again' }), 409, 'help_duplicate_response_forbidden');
    await post(app, a, request.request_id, 'select', { response_id: answer.response_id });
    await post(app, a, request.request_id, 'close', {});
    await post(app, a, request.request_id, 'feedback', { rating: 4 });

    const ua = await quota.usage(a.agentId);
    assert.deepEqual([ua.actions_last_5_minutes, ua.creates_last_24_hours], [4, 1], 'create, select, close, feedback; one create');
    const ub = await quota.usage(b.agentId);
    assert.deepEqual([ub.actions_last_5_minutes, ub.creates_last_24_hours], [1, 1], 'the answer is a create; the refused duplicate is not counted');
  });
});

test('idempotency: the same key and request replays the result without running it again', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const b = await register(app, 'b');
    const key = { 'idempotency-key': 'create-7f3a9c2e' };
    const body = { title: 'Idempotent question', body: 'details', visibility: 'public' };
    const first = await app.api('POST', HELP, { token: a.apiKey, body, headers: key });
    assert.equal(first.status, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const usage = await app.bosun.ctx.services.harborQuota.usage(a.agentId);

    app.clock.advance(MINUTE);
    const replay = await app.api('POST', HELP, { token: a.apiKey, body: { visibility: 'public', body: 'details', title: 'Idempotent question' }, headers: key });
    assert.equal(replay.status, 201, 'same status');
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.body.data, first.body.data, 'same data; key order in the body does not matter');
    assert.equal((await app.api('GET', `${HELP}?mine=true`, { token: a.apiKey })).body.data.items.length, 1, 'nothing new was created');
    assert.deepEqual(await app.bosun.ctx.services.harborQuota.usage(a.agentId), usage, 'a replay is not charged');

    const reused = await app.api('POST', HELP, { token: a.apiKey, body: { ...body, title: 'A different question' }, headers: key });
    expectError(reused, 409, 'idempotency_key_reused');
    const sameKeyOtherAgent = await app.api('POST', HELP, { token: b.apiKey, body, headers: key });
    assert.equal(sameKeyOtherAgent.status, 201, 'keys are per agent');
    assert.notEqual(sameKeyOtherAgent.body.data.request_id, first.body.data.request_id);

    for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'ünïcode-key']) {
      expectError(await app.api('POST', HELP, { token: a.apiKey, body, headers: { 'idempotency-key': bad } }), 400, 'idempotency_key_invalid', bad);
    }
  });
});

test('idempotency on respond, select and close: replays return the first result even after the state moved on', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const b = await register(app, 'b');
    const request = await createRequest(app, a);
    const id = request.request_id;
    const respondOnce = () => app.api('POST', `${HELP}/${id}/responses`, { token: b.apiKey, body: { body: 'answer' }, headers: { 'idempotency-key': 'respond-0001' } });
    const answer = await respondOnce();
    const again = await respondOnce();
    assert.equal(again.status, 201, 'not help_duplicate_response_forbidden: a replay');
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.body.data, answer.body.data);

    const selectOnce = () => app.api('POST', `${HELP}/${id}/select`, { token: a.apiKey, body: { response_id: answer.body.data.response_id }, headers: { 'idempotency-key': 'select-0001' } });
    assert.equal((await selectOnce()).body.data.state, 'selected');
    const selectReplay = await selectOnce();
    assert.equal(selectReplay.status, 200, 'not help_already_selected');
    assert.equal(selectReplay.headers['idempotent-replayed'], 'true');

    const closeOnce = () => app.api('POST', `${HELP}/${id}/close`, { token: a.apiKey, body: {}, headers: { 'idempotency-key': 'close-0001' } });
    assert.equal((await closeOnce()).body.data.state, 'resolved');
    const closeReplay = await closeOnce();
    assert.equal(closeReplay.body.data.state, 'resolved', 'the replay does not close a second time');
    assert.equal((await app.api('GET', `${HELP}/${id}`, { token: a.apiKey })).body.data.state, 'resolved');
    expectError(await app.api('POST', `${HELP}/${id}/close`, { token: a.apiKey, body: { outcome: 'unresolved' }, headers: { 'idempotency-key': 'close-0001' } }), 409, 'idempotency_key_reused');
    expectError(
      await app.api('POST', `${HELP}/${id}/select`, { token: a.apiKey, body: { response_id: answer.body.data.response_id }, headers: { 'idempotency-key': 'close-0001' } }),
      409,
      'idempotency_key_reused',
      'same key on another path',
    );
  });
});

test('idempotency: a refused request leaves its key unused; records expire after 24 hours', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const headers = { 'idempotency-key': 'retry-after-fix-1' };
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: { ...NEW, title: 'x' }, headers }), 400, 'help_request_input_invalid');
    const fixed = await app.api('POST', HELP, { token: a.apiKey, body: NEW, headers });
    assert.equal(fixed.status, 201, 'the key was not consumed by the refusal');
    await post(app, a, fixed.body.data.request_id, 'close', {});

    app.clock.advance(DAY - 1);
    assert.equal((await app.api('POST', HELP, { token: a.apiKey, body: NEW, headers })).headers['idempotent-replayed'], 'true', 'still replayed just before 24 hours');
    assert.equal(await app.bosun.ctx.services.idempotency.enforceRetention(), 0);
    app.clock.advance(1);
    assert.equal(await app.bosun.ctx.services.idempotency.enforceRetention(), 1, 'the retention job removes records after 24 hours');
    const fresh = await app.api('POST', HELP, { token: a.apiKey, body: NEW, headers });
    assert.equal(fresh.status, 201);
    assert.equal(fresh.headers['idempotent-replayed'], undefined, 'after 24 hours the key starts over');
    assert.notEqual(fresh.body.data.request_id, fixed.body.data.request_id);
  });
});

test('retention: requests without activity for 30 days are deleted with their responses and reports; ratings stay', async () => {
  await withApp(async (app) => {
    const [author, helper, reader, other] = [await register(app, 'author'), await register(app, 'helper'), await register(app, 'reader'), await register(app, 'other')];
    const { request } = await resolvedRequest(app, author, helper);
    await post(app, author, request.request_id, 'feedback', { rating: 5, comment: 'CONTENT-COMMENT' });
    await createRequest(app, reader);
    await grant(app, reader, ['harbor:help:report']);
    assert.equal((await post(app, reader, request.request_id, 'report', { reason: 'Checking retention of reports' })).status, 201);
    app.clock.advance(5 * DAY);
    const active = await createRequest(app, other);
    app.clock.advance(5 * DAY);
    await respond(app, author, active.request_id);

    const retentionMs = HARBOR_LIMITS.contentRetentionDays * DAY;
    app.clock.set(app.clock.now() - 10 * DAY + retentionMs);
    assert.equal(await app.bosun.ctx.services.help.enforceRetention(), 0, 'exactly 30 days after the last activity nothing goes');
    app.clock.advance(1);
    assert.equal(await app.bosun.ctx.services.help.enforceRetention(), 2, 'the resolved and the quiet request');
    const db = app.bosun.ctx.store.db;
    const left = await db.selectFrom('harbor_help_requests').select('request_id').execute();
    assert.deepEqual(
      left.map((r) => r.request_id),
      [active.request_id],
      'the request answered 10 days later lives on',
    );
    const responses = await db.selectFrom('harbor_help_responses').select('request_id').execute();
    assert.deepEqual(
      responses.map((r) => r.request_id),
      [active.request_id],
      'responses go with their request',
    );
    assert.deepEqual(await db.selectFrom('harbor_help_reports').selectAll().execute(), [], 'reports go with their request');

    const ratings = await app.bosun.ctx.store.db.selectFrom('harbor_help_feedback').selectAll().execute();
    assert.deepEqual(
      ratings.map((r) => [r.rating, r.comment]),
      [[5, null]],
      'the rating stays, its comment is erased',
    );
    assert.equal((await app.bosun.ctx.services.help.feedbackReceived(helper.agentId)).count, 1);
    const job = app.bosun.scheduler.statuses().find((j) => j.name === 'harbor_help_retention');
    assert.ok(job, 'the retention job is scheduled');
    assert.ok(app.bosun.scheduler.statuses().some((j) => j.name === 'idempotency_retention'));
  });
});
