import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { HELP, HELP_SCOPES, createRequest, expectError, grant, post, register, registerAll, resolvedRequest, respond, setState, withApp } from './harbor-help-support.js';

test('lifecycle: open → selected → in_progress → resolved → closed, with feedback from both participants', async () => {
  await withApp(async (app) => {
    const author = await register(app, 'author');
    const helper = await register(app, 'helper');
    const other = await register(app, 'other');

    const created = await createRequest(app, author, { title: '  Decoding AIS type 5  ' });
    assert.match(created.request_id, /^hlp_[0-9a-f]{20}$/);
    assert.equal(created.title, 'Decoding AIS type 5', 'title is trimmed');
    assert.deepEqual(
      { state: created.state, visibility: created.visibility, outcome: created.outcome, yours: created.yours, response_count: created.response_count, author: created.author_id },
      { state: 'open', visibility: 'public', outcome: null, yours: true, response_count: 0, author: author.agentId },
    );
    const id = created.request_id;

    const listed = await app.api('GET', HELP, { token: helper.apiKey });
    assert.deepEqual(
      listed.body.data.items.map((r: any) => r.request_id),
      [id],
    );
    assert.equal(listed.body.data.items[0].yours, false);

    const answer = await respond(app, helper, id, 'Use the 6-bit ASCII table and strip @.');
    assert.match(answer.response_id, /^hrs_[0-9a-f]{20}$/);
    assert.deepEqual({ kind: answer.kind, selected: answer.selected, helper: answer.helper_id }, { kind: 'answer', selected: false, helper: helper.agentId });
    app.clock.advance(1000);
    const second = await respond(app, other, id, 'Check the bit offsets.');
    app.clock.advance(1000);

    const meBefore = (await app.api('GET', '/v1/agents/me', { token: helper.apiKey })).body.data;
    const selected = await post(app, author, id, 'select', { response_id: answer.response_id });
    assert.equal(selected.status, 200);
    assert.deepEqual(
      { state: selected.body.data.state, response: selected.body.data.selected_response_id, helper: selected.body.data.selected_helper_id, count: selected.body.data.response_count },
      { state: 'selected', response: answer.response_id, helper: helper.agentId, count: 2 },
    );
    assert.equal(selected.body.data.selected_at, new Date(app.clock.now()).toISOString());
    const late = await post(app, await register(app, 'late'), id, 'responses', { body: 'Too late?' });
    expectError(late, 409, 'help_state_invalid', 'responses close with the selection');
    expectError(await post(app, other, id, 'responses', { body: 'again' }), 409, 'help_state_invalid', 'a non-selected helper cannot post updates');

    const update = await post(app, helper, id, 'responses', { body: 'Sent you a corrected table in my answer above.' });
    assert.equal(update.status, 201);
    assert.equal(update.body.data.kind, 'update');
    assert.equal((await app.api('GET', `${HELP}/${id}`, { token: author.apiKey })).body.data.state, 'in_progress', "the selected helper's update starts the work");
    const thread = (await app.api('GET', `${HELP}/${id}/responses`, { token: other.apiKey })).body.data;
    assert.deepEqual(
      thread.items.map((r: any) => [r.response_id, r.kind, r.selected]),
      [
        [answer.response_id, 'answer', true],
        [second.response_id, 'answer', false],
        [update.body.data.response_id, 'update', false],
      ],
    );

    expectError(await post(app, author, id, 'feedback', { rating: 5 }), 409, 'help_state_invalid', 'no feedback before resolution');
    const resolved = await post(app, author, id, 'close', { outcome: 'resolved' });
    assert.equal(resolved.status, 200);
    assert.deepEqual([resolved.body.data.state, resolved.body.data.outcome], ['resolved', 'resolved']);

    const given = await post(app, author, id, 'feedback', { rating: 5, comment: 'Exactly right.' });
    assert.equal(given.status, 201);
    assert.deepEqual({ role: given.body.data.your_role, rating: given.body.data.rating, comment: given.body.data.comment }, { role: 'requester', rating: 5, comment: 'Exactly right.' });
    expectError(await post(app, author, id, 'feedback', { rating: 4 }), 409, 'help_state_invalid', 'one feedback per participant');

    const closed = await post(app, author, id, 'close', {});
    assert.deepEqual([closed.body.data.state, closed.body.data.outcome], ['closed', 'resolved']);
    expectError(await post(app, author, id, 'close', {}), 403, 'help_close_forbidden', 'closed is final');
    expectError(await post(app, author, id, 'select', { response_id: second.response_id }), 409, 'help_selection_closed');

    const helperGives = await post(app, helper, id, 'feedback', { rating: 4 });
    assert.equal(helperGives.status, 201, 'feedback stays possible once closed');
    assert.equal(helperGives.body.data.comment, null);

    const meAfter = (await app.api('GET', '/v1/agents/me', { token: helper.apiKey })).body.data;
    assert.deepEqual(meAfter.scopes, meBefore.scopes, 'selection, closure and feedback grant no scopes');
    assert.deepEqual(meAfter.scope_grants, meBefore.scope_grants);
    assert.equal(meAfter.state, 'sandbox');
    const authorMe = (await app.api('GET', '/v1/agents/me', { token: author.apiKey })).body.data;
    assert.equal(authorMe.scopes.length, 9);
    assert.equal((await app.api('GET', HELP, { token: other.apiKey })).body.data.items.length, 0, 'only open requests are listed');
  });
});

test('close transitions: open → cancelled, selected → closed unresolved or resolved, and refusals', async () => {
  await withApp(async (app) => {
    const [a, b, c, d] = await registerAll(app, 'a', 'b', 'c', 'd');

    const open = await createRequest(app, a);
    expectError(await post(app, a, open.request_id, 'close', { outcome: 'resolved' }), 403, 'help_close_forbidden', 'resolved needs a selection');
    expectError(await post(app, b, open.request_id, 'close', {}), 403, 'help_close_forbidden', 'only the author closes');
    const cancelled = await post(app, a, open.request_id, 'close', {});
    assert.deepEqual([cancelled.body.data.state, cancelled.body.data.outcome], ['cancelled', null]);
    assert.ok(cancelled.body.data.closed_at);
    expectError(await post(app, a, open.request_id, 'close', {}), 403, 'help_close_forbidden', 'cancelled is final');
    expectError(await post(app, a, open.request_id, 'feedback', { rating: 3 }), 409, 'help_state_invalid', 'no feedback without a selection');
    expectError(await post(app, b, open.request_id, 'responses', { body: 'hi' }), 409, 'help_state_invalid', 'no responses once cancelled');

    const unhelped = await createRequest(app, b);
    const answer = await respond(app, c, unhelped.request_id);
    await post(app, b, unhelped.request_id, 'select', { response_id: answer.response_id });
    const unresolved = await post(app, b, unhelped.request_id, 'close', { outcome: 'unresolved' });
    assert.deepEqual([unresolved.body.data.state, unresolved.body.data.outcome], ['closed', 'unresolved']);
    assert.equal((await post(app, b, unhelped.request_id, 'feedback', { rating: 1, comment: 'Did not work.' })).status, 201, 'closed with a selection takes feedback');
    expectError(await post(app, c, unhelped.request_id, 'responses', { body: 'update' }), 409, 'help_state_invalid', 'no updates once closed');

    const working = await createRequest(app, d);
    const dAnswer = await respond(app, a, working.request_id);
    await post(app, d, working.request_id, 'select', { response_id: dAnswer.response_id });
    for (const update of ['first update', 'second update']) assert.equal((await post(app, a, working.request_id, 'responses', { body: update })).status, 201);
    assert.equal((await app.api('GET', `${HELP}/${working.request_id}`, { token: d.apiKey })).body.data.response_count, 3);
    const gaveUp = await post(app, d, working.request_id, 'close', { outcome: 'unresolved' });
    assert.deepEqual([gaveUp.body.data.state, gaveUp.body.data.outcome], ['closed', 'unresolved'], 'in_progress → closed unresolved');

    const { request } = await resolvedRequest(app, c, d);
    expectError(await post(app, c, request.request_id, 'close', { outcome: 'unresolved' }), 403, 'help_close_forbidden', 'resolved cannot become unresolved');
    expectError(await post(app, c, request.request_id, 'select', { response_id: 'hrs_x' }), 409, 'help_selection_closed');
    assert.equal((await post(app, c, request.request_id, 'close', { outcome: 'resolved' })).body.data.state, 'closed');
    expectError(await post(app, c, request.request_id, 'close', { outcome: 'maybe' }), 400, 'invalid_request');
  });
});

test('select: author only, one answer of this request, final', async () => {
  await withApp(async (app) => {
    const [a, b, c] = await registerAll(app, 'a', 'b', 'c');
    const first = await createRequest(app, a);
    const elsewhere = await createRequest(app, b);
    const answer = await respond(app, b, first.request_id);
    const foreign = await respond(app, c, elsewhere.request_id);

    expectError(await post(app, b, first.request_id, 'select', { response_id: answer.response_id }), 403, 'help_author_required');
    expectError(await post(app, a, first.request_id, 'select', { response_id: foreign.response_id }), 404, 'help_response_not_found', 'a response of another request');
    expectError(await post(app, a, first.request_id, 'select', { response_id: 'hrs_00000000000000000000' }), 404, 'help_response_not_found');
    expectError(await post(app, a, first.request_id, 'select', {}), 400, 'invalid_request');
    assert.equal((await post(app, a, first.request_id, 'select', { response_id: answer.response_id })).status, 200);
    expectError(await post(app, a, first.request_id, 'select', { response_id: answer.response_id }), 409, 'help_already_selected');

    const update = await post(app, b, first.request_id, 'responses', { body: 'working on it' });
    expectError(await post(app, a, first.request_id, 'select', { response_id: update.body.data.response_id }), 409, 'help_already_selected', 'in_progress keeps its selection');
  });
});

test('responses: only active sandbox agents, on public requests of other active sandbox agents, once, within the size limit', async () => {
  await withApp(async (app) => {
    const [a, b] = await registerAll(app, 'a', 'b');
    const request = await createRequest(app, a);
    const id = request.request_id;

    expectError(await post(app, a, id, 'responses', { body: 'me' }), 403, 'help_self_response_forbidden');
    expectError(await post(app, b, id, 'responses', { body: '' }), 400, 'help_response_invalid', 'empty');
    expectError(await post(app, b, id, 'responses', { body: '   \n ' }), 400, 'help_response_invalid', 'blank');
    expectError(await post(app, b, id, 'responses', { body: 'é'.repeat(HARBOR_LIMITS.messageBytesMax / 2) + 'x' }), 400, 'help_response_invalid', '4001 bytes');
    expectError(await post(app, b, id, 'responses', {}), 400, 'invalid_request', 'missing body field');
    const atLimit = await post(app, b, id, 'responses', { body: 'é'.repeat(HARBOR_LIMITS.messageBytesMax / 2) });
    assert.equal(atLimit.status, 201, 'exactly 4000 bytes is accepted');
    expectError(await post(app, b, id, 'responses', { body: 'second answer' }), 409, 'help_duplicate_response_forbidden');

    const privateOne = await createRequest(app, await register(app, 'private'), { visibility: 'sandbox' });
    expectError(await post(app, b, privateOne.request_id, 'responses', { body: 'hi' }), 404, 'help_request_not_found', 'sandbox requests are invisible to others');
    expectError(await post(app, b, 'hlp_nonexistent', 'responses', { body: 'hi' }), 404, 'help_request_not_found');

    // A trusted agent (not in the sandbox) may read and create public requests but not answer or be answered.
    const trusted = await register(app, 'trusted');
    await setState(app, trusted, 'trusted');
    expectError(await post(app, trusted, id, 'responses', { body: 'from production' }), 403, 'help_public_sandbox_response_required', 'responder outside the sandbox');
    app.clock.advance(DAY);
    const trustedRequest = await createRequest(app, trusted);
    expectError(await post(app, b, trustedRequest.request_id, 'responses', { body: 'hi' }), 403, 'help_public_sandbox_response_required', 'author outside the sandbox');
  });
});

test('responses: an author whose sandbox expired is no longer answerable; an expired responder is refused', async () => {
  await withApp(async (app) => {
    const author = await register(app, 'early');
    const request = await createRequest(app, author);
    app.clock.advance(13 * DAY);
    const responder = await register(app, 'later');
    app.clock.advance(DAY);

    expectError(await post(app, responder, request.request_id, 'responses', { body: 'hi' }), 403, 'help_public_sandbox_response_required', 'author sandbox expired');

    const own = await createRequest(app, responder);
    app.clock.advance(14 * DAY);
    expectError(await post(app, author, own.request_id, 'responses', { body: 'hi' }), 403, 'sandbox_access_denied', 'default scopes end with the sandbox, and the access check says so');
    await grant(app, author, ['harbor:help:respond', 'harbor:help:read']);
    expectError(await post(app, author, own.request_id, 'responses', { body: 'hi' }), 403, 'sandbox_access_denied', 'granted scopes do not revive the sandbox');
    expectError(await app.api('GET', HELP, { token: author.apiKey }), 403, 'sandbox_access_denied');
  });
});

test('linked agents (same /24 within 24 hours) cannot answer or rate each other; later or other networks can', async () => {
  await withApp(async (app) => {
    const author = await register(app, 'author', '198.51.100.10');
    const twin = await register(app, 'twin', '198.51.100.77');
    const request = await createRequest(app, author);
    expectError(await post(app, twin, request.request_id, 'responses', { body: 'hi' }), 403, 'help_linked_agent_forbidden');

    app.clock.advance(DAY);
    const nextDay = await register(app, 'next-day', '198.51.100.99');
    assert.equal((await post(app, nextDay, request.request_id, 'responses', { body: 'hi' })).status, 201, '24 hours later the network no longer links');

    const local1 = await register(app, 'local-1', '127.0.0.1');
    const local2 = await register(app, 'local-2', '127.0.0.1');
    const localRequest = await createRequest(app, local1);
    const answer = await respond(app, local2, localRequest.request_id);
    await post(app, local1, localRequest.request_id, 'select', { response_id: answer.response_id });
    await post(app, local1, localRequest.request_id, 'close', {});

    // Linking data corrected after the fact (same network recorded for both) also stops feedback.
    await app.bosun.ctx.store.db.updateTable('agents').set({ registration_ip: '203.0.113.0/24' }).where('agent_id', 'in', [local1.agentId, local2.agentId]).execute();
    expectError(await post(app, local1, localRequest.request_id, 'feedback', { rating: 5 }), 403, 'help_linked_agent_forbidden');
    const stored = await app.bosun.ctx.store.db.selectFrom('agents').select('registration_ip').where('agent_id', '=', author.agentId).executeTakeFirstOrThrow();
    assert.equal(stored.registration_ip, '198.51.100.0/24', 'registration keeps only the redacted network');
  });
});

test('create: input rules answer help_request_input_invalid with the field', async () => {
  await withApp(async (app) => {
    const a = await register(app, 'a');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'Hi' }, 'body.title'],
      [{ title: 'x'.repeat(201) }, 'body.title'],
      [{ title: 'Two\nlines' }, 'body.title'],
      [{ body: '' }, 'body.body'],
      [{ body: '  ' }, 'body.body'],
      [{ body: 'é'.repeat(2000) + 'x' }, 'body.body'],
      [{ body: 'bell\u0007' }, 'body.body'],
      [{ visibility: 'secret' }, 'body.visibility'],
      [{ visibility: '' }, 'body.visibility'],
    ];
    for (const [over, field] of cases) {
      const res = await app.api('POST', HELP, { token: a.apiKey, body: { title: 'A fine title', body: 'A body', visibility: 'public', ...over } });
      expectError(res, 400, 'help_request_input_invalid', JSON.stringify(over).slice(0, 80));
      assert.equal(res.body.errors[0].field, field);
    }
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: { title: 'A fine title', body: 'x', visibility: 'public', urgent: true } }), 400, 'invalid_request');
    expectError(await app.api('POST', HELP, { token: a.apiKey, body: { title: 'A fine title', visibility: 'public' } }), 400, 'invalid_request');
    assert.equal((await createRequest(app, a, { body: 'é'.repeat(2000), title: 'x'.repeat(200) })).body.length, 2000, '4000 bytes and 200 characters are accepted');
    assert.deepEqual((await app.api('GET', `${HELP}?mine=true`, { token: a.apiKey })).body.data.items.length, 1, 'refused calls created nothing');
  });
});

test('visibility: auto-sandbox agents use sandbox and public; trial needs a trial; group needs harbor:public:participate to read', async () => {
  await withApp(async (app) => {
    const sandboxAgent = await register(app, 'sandboxed');
    for (const visibility of ['trial', 'group']) {
      expectError(await app.api('POST', HELP, { token: sandboxAgent.apiKey, body: { title: 'Title here', body: 'x', visibility } }), 403, 'help_sandbox_visibility_forbidden', visibility);
    }
    const own = await createRequest(app, sandboxAgent, { visibility: 'sandbox' });
    assert.equal(own.visibility, 'sandbox');

    const trialAgent = await register(app, 'trial');
    await setState(app, trialAgent, 'trial');
    const trialRequest = await createRequest(app, trialAgent, { visibility: 'trial' });
    const groupRequest = await createRequest(app, trialAgent, { visibility: 'group' });
    expectError(await app.api('POST', HELP, { token: trialAgent.apiKey, body: { title: 'Title here', body: 'x', visibility: 'sandbox' } }), 403, 'help_sandbox_isolation');

    const trusted = await register(app, 'trusted');
    await setState(app, trusted, 'trusted');
    expectError(await app.api('POST', HELP, { token: trusted.apiKey, body: { title: 'Title here', body: 'x', visibility: 'trial' } }), 403, 'help_trial_access_denied');
    expectError(await app.api('POST', HELP, { token: trusted.apiKey, body: { title: 'Title here', body: 'x', visibility: 'sandbox' } }), 403, 'help_sandbox_isolation');

    const otherTrial = await register(app, 'other-trial');
    await setState(app, otherTrial, 'trial');
    assert.equal((await app.api('GET', `${HELP}/${trialRequest.request_id}`, { token: otherTrial.apiKey })).status, 200, 'trial agents read trial requests');
    expectError(await app.api('GET', `${HELP}/${trialRequest.request_id}`, { token: trusted.apiKey }), 404, 'help_request_not_found', 'others do not');
    expectError(await app.api('GET', `${HELP}/${trialRequest.request_id}`, { token: sandboxAgent.apiKey }), 404, 'help_request_not_found');

    expectError(await app.api('GET', `${HELP}/${groupRequest.request_id}`, { token: trusted.apiKey }), 404, 'help_request_not_found');
    await grant(app, trusted, ['harbor:public:participate']);
    assert.equal((await app.api('GET', `${HELP}/${groupRequest.request_id}`, { token: trusted.apiKey })).status, 200, 'group requests are for public-group participants');
    expectError(await post(app, trusted, groupRequest.request_id, 'responses', { body: 'hi' }), 403, 'help_public_sandbox_response_required', 'readable is not answerable');

    const listed = (await app.api('GET', HELP, { token: trusted.apiKey })).body.data.items;
    assert.deepEqual(listed, [], 'the list holds public requests only');
    expectError(await app.api('GET', `${HELP}/${own.request_id}`, { token: trialAgent.apiKey }), 404, 'help_request_not_found');
    assert.equal((await app.api('GET', `${HELP}/${own.request_id}`, { token: sandboxAgent.apiKey })).body.data.yours, true);
  });
});

test('help_requests_not_enabled: registered agents without sandbox or trial, even with the scopes granted', async () => {
  await withApp(
    async (app) => {
      const plain = await register(app, 'plain');
      expectError(await app.api('POST', HELP, { token: plain.apiKey, body: { title: 'Title here', body: 'x', visibility: 'public' } }), 403, 'scope_required');
      await grant(app, plain, HELP_SCOPES);
      expectError(await app.api('POST', HELP, { token: plain.apiKey, body: { title: 'Title here', body: 'x', visibility: 'public' } }), 403, 'help_requests_not_enabled');
      expectError(await app.api('GET', HELP, { token: plain.apiKey }), 403, 'help_requests_not_enabled');
      expectError(await app.api('GET', `${HELP}/hlp_x`, { token: plain.apiKey }), 403, 'help_requests_not_enabled');

      await setState(app, plain, 'operator_approved');
      assert.equal((await createRequest(app, plain)).state, 'open', 'operator approval enables help');
    },
    { BOSUN_AUTO_SANDBOX: 'false' },
  );
});

test('list: open public requests newest first with cursor paging; mine lists own requests in every state', async () => {
  await withApp(async (app) => {
    const agents = await registerAll(app, 'a', 'b', 'c', 'd');
    const ids: string[] = [];
    for (const agent of agents.slice(0, 3)) {
      ids.push((await createRequest(app, agent, { title: `Request by ${agent.agentId}` })).request_id);
      app.clock.advance(1000);
    }
    await createRequest(app, agents[3], { visibility: 'sandbox' });
    const page1 = await app.api('GET', `${HELP}?limit=2`, { token: agents[3].apiKey });
    assert.deepEqual(
      page1.body.data.items.map((r: any) => r.request_id),
      [ids[2], ids[1]],
    );
    const page2 = await app.api('GET', `${HELP}?limit=2&cursor=${page1.body.data.next_cursor}`, { token: agents[3].apiKey });
    assert.deepEqual(
      page2.body.data.items.map((r: any) => r.request_id),
      [ids[0]],
    );
    assert.equal(page2.body.data.next_cursor, null);
    expectError(await app.api('GET', `${HELP}?cursor=bogus`, { token: agents[0].apiKey }), 400, 'cursor_invalid');
    expectError(await app.api('GET', `${HELP}?limit=51`, { token: agents[0].apiKey }), 400, 'invalid_request');

    await post(app, agents[0], ids[0]!, 'close', {});
    const mine = (await app.api('GET', `${HELP}?mine=true`, { token: agents[0].apiKey })).body.data.items;
    assert.deepEqual(
      mine.map((r: any) => [r.request_id, r.state]),
      [[ids[0], 'cancelled']],
    );
    const open = (await app.api('GET', HELP, { token: agents[0].apiKey })).body.data.items;
    assert.deepEqual(
      open.map((r: any) => r.request_id),
      [ids[2], ids[1]],
    );

    const discovery = (await app.api('GET', '/v1/harbor/discovery')).body.data;
    const listing = discovery.listings.find((l: any) => l.source === 'open_help_requests');
    assert.deepEqual(
      listing.items.map((i: any) => i.id),
      [ids[2], ids[1]],
    );
    assert.deepEqual(Object.keys(listing.items[0]).sort(), ['created_at', 'id', 'kind', 'title', 'url']);
    assert.match(listing.items[0].url, new RegExp(`/v1/harbor/help-requests/${ids[2]}$`));
    assert.ok(discovery.path.some((s: any) => s.step === 'help'));
    app.clock.advance(HOUR);
  });
});
