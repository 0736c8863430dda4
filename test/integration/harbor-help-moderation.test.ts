import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { HELP, createRequest, expectError, grant, post, register, registerAll, resolvedRequest, respond, withApp, type Agent } from './harbor-help-support.js';
import type { TestApp } from '../helpers/app.js';

const CLI_ACTOR = { kind: 'cli' } as const;

test('report: needs harbor:help:report; reason 3-500 characters; once per agent and request; the operator sees it', async () => {
  await withApp(async (app) => {
    const [author, helper, reporter, other] = await registerAll(app, 'author', 'helper', 'reporter', 'other');
    const request = await createRequest(app, author, { title: 'Suspicious request' });
    const answer = await respond(app, helper, request.request_id);
    const id = request.request_id;

    expectError(await post(app, reporter, id, 'report', { reason: 'spam' }), 403, 'scope_required', 'not a default scope');
    await grant(app, reporter, ['harbor:help:report']);
    for (const body of [{}, { reason: '' }, { reason: '  ab ' }, { reason: 'x'.repeat(501) }, { reason: 'line\u0000break' }]) {
      const res = await post(app, reporter, id, 'report', body);
      expectError(res, 400, 'help_report_invalid', JSON.stringify(body).slice(0, 40));
      assert.equal(res.body.errors[0].field, 'body.reason');
    }
    expectError(await post(app, reporter, id, 'report', { reason: 'Bad answer', response_id: 'hrs_00000000000000000000' }), 404, 'help_response_not_found');
    const privateRequest = await createRequest(app, other, { visibility: 'sandbox' });
    expectError(await post(app, reporter, privateRequest.request_id, 'report', { reason: 'Cannot see it' }), 404, 'help_request_not_found');

    const report = await post(app, reporter, id, 'report', { reason: '  Asks for API keys of other agents.  ', response_id: answer.response_id });
    assert.equal(report.status, 201);
    assert.match(report.body.data.report_id, /^hrp_[0-9a-f]{20}$/);
    assert.deepEqual(
      { state: report.body.data.state, reason: report.body.data.reason, response: report.body.data.response_id },
      { state: 'received', reason: 'Asks for API keys of other agents.', response: answer.response_id },
    );
    expectError(await post(app, reporter, id, 'report', { reason: 'Once more' }), 409, 'help_duplicate_report_forbidden');
    await grant(app, other, ['harbor:help:report']);
    assert.equal((await post(app, other, id, 'report', { reason: 'Also suspicious' })).status, 201);

    const reports = await app.bosun.ctx.services.help.reportsForOperator({ limit: 10 });
    assert.equal(reports.length, 2);
    assert.deepEqual(
      reports.map((r) => [r.reporter_id, r.request.reports, r.request.title]).sort(),
      [
        [other.agentId, 2, 'Suspicious request'],
        [reporter.agentId, 2, 'Suspicious request'],
      ].sort(),
    );
    const audit = await app.bosun.ctx.services.audit.list({ action: 'harbor.help.report', limit: 10 });
    assert.equal(audit.length, 2);
  });
});

test('hide: a hidden request leaves lists, discovery and strangers; participants still see it; unhide restores it', async () => {
  await withApp(async (app) => {
    const [author, helper, stranger] = await registerAll(app, 'author', 'helper', 'stranger');
    const request = await createRequest(app, author, { title: 'Will be hidden' });
    const answer = await respond(app, helper, request.request_id);
    await post(app, author, request.request_id, 'select', { response_id: answer.response_id });
    const open = await createRequest(app, stranger, { title: 'Open and then hidden' });

    await app.bosun.ctx.services.help.setHidden(open.request_id, true, CLI_ACTOR);
    await app.bosun.ctx.services.help.setHidden(request.request_id, true, CLI_ACTOR);
    assert.deepEqual((await app.api('GET', HELP, { token: author.apiKey })).body.data.items, []);
    const discovery = (await app.api('GET', '/v1/harbor/discovery')).body.data;
    assert.deepEqual(discovery.listings.find((l: any) => l.source === 'open_help_requests').items, []);
    expectError(await app.api('GET', `${HELP}/${request.request_id}`, { token: stranger.apiKey }), 404, 'help_request_not_found');
    expectError(await post(app, author, open.request_id, 'responses', { body: 'hi' }), 404, 'help_request_not_found', 'no answers to hidden requests');

    const own = await app.api('GET', `${HELP}/${request.request_id}`, { token: author.apiKey });
    assert.equal(own.body.data.hidden, true);
    assert.equal((await app.api('GET', `${HELP}/${request.request_id}/responses`, { token: helper.apiKey })).status, 200, 'the selected helper still sees it');
    assert.equal((await app.api('GET', `${HELP}/${open.request_id}`, { token: stranger.apiKey })).body.data.hidden, true, 'its author still sees it');

    await app.bosun.ctx.services.help.setHidden(open.request_id, false, CLI_ACTOR);
    assert.deepEqual(
      (await app.api('GET', HELP, { token: author.apiKey })).body.data.items.map((r: any) => r.request_id),
      [open.request_id],
    );
    const actions = (await app.bosun.ctx.services.audit.list({ limit: 50 })).map((e) => e.action);
    assert.ok(actions.includes('harbor.help.hide') && actions.includes('harbor.help.unhide'));
  });
});

async function rate(app: TestApp, author: Agent, helper: Agent, rating: number) {
  const { request } = await resolvedRequest(app, author, helper);
  assert.equal((await post(app, author, request.request_id, 'feedback', { rating })).status, 201);
  return request.request_id as string;
}

test('feedback: participants only, rating 1-5, the other side revealed once you gave yours', async () => {
  await withApp(async (app) => {
    const [author, helper, stranger] = await registerAll(app, 'author', 'helper', 'stranger');
    const { request } = await resolvedRequest(app, author, helper);
    const id = request.request_id;

    for (const body of [{ rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: '5' }, {}, { rating: 4, comment: 'x'.repeat(1001) }, { rating: 4, extra: 1 }]) {
      expectError(await post(app, author, id, 'feedback', body), 400, 'invalid_request', JSON.stringify(body).slice(0, 40));
    }
    const missing = await post(app, stranger, 'hlp_00000000000000000000', 'feedback', { rating: 5 });
    const notParticipant = await post(app, stranger, id, 'feedback', { rating: 5 });
    expectError(notParticipant, 404, 'help_request_not_found', 'a stranger');
    expectError(await app.api('GET', `${HELP}/${id}/feedback`, { token: stranger.apiKey }), 404, 'help_request_not_found');
    assert.equal(notParticipant.body.errors[0].message.replace(id, 'ID'), missing.body.errors[0].message.replace('hlp_00000000000000000000', 'ID'), 'same answer as a missing id');

    assert.equal((await post(app, author, id, 'feedback', { rating: 4, comment: 'Helpful, a bit terse.' })).status, 201);
    const helperView = (await app.api('GET', `${HELP}/${id}/feedback`, { token: helper.apiKey })).body.data;
    assert.deepEqual(
      { role: helperView.your_role, open: helperView.feedback_open, given: helperView.given, count: helperView.count, mine: helperView.mine, other: helperView.other, avg: helperView.average_rating },
      { role: 'helper', open: true, given: { requester: true, helper: false }, count: 1, mine: null, other: null, avg: null },
      'the helper does not see the rating before giving theirs',
    );
    const authorView = (await app.api('GET', `${HELP}/${id}/feedback`, { token: author.apiKey })).body.data;
    assert.equal(authorView.mine.rating, 4);
    assert.equal(authorView.feedback_open, false);

    assert.equal((await post(app, helper, id, 'feedback', { rating: 2, comment: 'Unclear question.' })).status, 201);
    const both = (await app.api('GET', `${HELP}/${id}/feedback`, { token: helper.apiKey })).body.data;
    assert.deepEqual([both.mine.rating, both.other.rating, both.other.comment, both.other.from_role, both.average_rating], [2, 4, 'Helpful, a bit terse.', 'requester', 3]);
    const authorAfter = (await app.api('GET', `${HELP}/${id}/feedback`, { token: author.apiKey })).body.data;
    assert.equal(authorAfter.other.comment, 'Unclear question.');
    const me = (await app.api('GET', '/v1/agents/me', { token: helper.apiKey })).body.data;
    assert.equal(me.scopes.length, 9, 'feedback grants nothing');
  });
});

test('the profile reputation: count and mean rating, shown from 3 non-hidden ratings, hidden feedback excluded', async () => {
  await withApp(async (app) => {
    const helper = await register(app, 'helper');
    const authors = await registerAll(app, 'a1', 'a2', 'a3');
    await app.api('POST', '/v1/harbor/profiles', { token: helper.apiKey, body: { display_name: 'Helpful Helper', public: true } });
    const help = app.bosun.ctx.services.help;

    const first = await rate(app, authors[0], helper, 5);
    await rate(app, authors[1], helper, 4);
    assert.deepEqual(await help.feedbackReceived(helper.agentId), { count: 2, ratingSum: 9 });
    assert.equal((await app.api('GET', `/v1/harbor/profiles/${helper.agentId}`, { token: helper.apiKey })).body.data.reputation.shown, false);
    await rate(app, authors[2], helper, 3);
    assert.deepEqual(
      (await app.api('GET', `/v1/harbor/profiles/${helper.agentId}`, { token: authors[0].apiKey })).body.data.reputation,
      { shown: true, count: 3, mean_rating: 4, interactions: 3 },
      'the aggregate: 3 ratings, mean of 5, 4, 3',
    );
    assert.deepEqual(await help.feedbackReceived(authors[0].agentId), { count: 0, ratingSum: 0 }, 'only feedback received counts');

    await help.setHidden(first, true, CLI_ACTOR);
    assert.deepEqual(await help.feedbackReceived(helper.agentId), { count: 2, ratingSum: 7 }, 'hidden feedback is excluded');
    assert.equal((await app.api('GET', `/v1/harbor/profiles/${helper.agentId}`, { token: helper.apiKey })).body.data.reputation.shown, false);
    await help.setHidden(first, false, CLI_ACTOR);
    assert.equal((await help.feedbackReceived(helper.agentId)).count, 3);
  });
});

test('privacy: strangers see nothing of sandbox requests, feedback, keys or scopes through any help call', async () => {
  await withApp(async (app) => {
    const [alice, bob, carol, dave] = await registerAll(app, 'alice', 'bob', 'carol', 'dave');
    const secret = await createRequest(app, dave, { title: 'DAVE-SANDBOX-TITLE', body: 'DAVE-SANDBOX-BODY', visibility: 'sandbox' });
    await post(app, dave, secret.request_id, 'close', {});
    app.clock.advance(1000);
    await createRequest(app, dave, { title: 'DAVE-SECOND-TITLE', visibility: 'sandbox' });
    const { request } = await resolvedRequest(app, alice, bob, { title: 'Public question', body: 'Public body' });
    await post(app, alice, request.request_id, 'feedback', { rating: 5, comment: 'ALICE-PRIVATE-COMMENT' });
    await post(app, bob, request.request_id, 'feedback', { rating: 4, comment: 'BOB-PRIVATE-COMMENT' });
    await app.api('POST', '/v1/harbor/operator-requests', { token: alice.apiKey, body: { category: 'api_problem', subject: 'ALICE-OPERATOR-SUBJECT', body: 'x' } });
    const open = await createRequest(app, carol, { title: 'Carol asks', body: 'Carol body' });
    await respond(app, alice, open.request_id, 'ALICE-ANSWER-BODY');
    const mineCursor = (await app.api('GET', `${HELP}?mine=true&limit=1`, { token: dave.apiKey })).body.data.next_cursor;

    const forbidden = [
      'DAVE-SANDBOX-TITLE',
      'DAVE-SANDBOX-BODY',
      'DAVE-SECOND-TITLE',
      'ALICE-PRIVATE-COMMENT',
      'BOB-PRIVATE-COMMENT',
      'ALICE-OPERATOR-SUBJECT',
      alice.apiKey,
      bob.apiKey,
      dave.apiKey,
      '"scopes"',
      'scope_grants',
      '/24',
    ];
    const strangerCalls: Array<[string, string, unknown?]> = [
      ['GET', HELP],
      ['GET', `${HELP}?mine=true`],
      ['GET', `${HELP}?mine=true&cursor=${mineCursor}`],
      ['GET', `${HELP}/${secret.request_id}`],
      ['GET', `${HELP}/${secret.request_id}/responses`],
      ['GET', `${HELP}/${secret.request_id}/feedback`],
      ['GET', `${HELP}/${request.request_id}`],
      ['GET', `${HELP}/${request.request_id}/responses`],
      ['GET', `${HELP}/${request.request_id}/feedback`],
      ['POST', `${HELP}/${secret.request_id}/responses`, { body: 'hi' }],
      ['POST', `${HELP}/${secret.request_id}/select`, { response_id: 'hrs_x' }],
      ['POST', `${HELP}/${secret.request_id}/close`, {}],
      ['POST', `${HELP}/${request.request_id}/feedback`, { rating: 1 }],
      ['GET', '/v1/harbor/discovery'],
    ];
    const carolsDiscovery = await app.api('GET', '/v1/harbor/discovery');
    assert.ok(carolsDiscovery.text.includes('Carol asks'), 'open public requests are discoverable');
    assert.ok(!carolsDiscovery.text.includes('Carol body') && !carolsDiscovery.text.includes('ALICE-ANSWER-BODY'), 'discovery shows no bodies and no responses');
    for (const [method, url, body] of strangerCalls) {
      for (const token of [carol.apiKey, undefined]) {
        const res = await app.api(method, url, { token, ...(body !== undefined ? { body } : {}) });
        for (const text of forbidden) assert.ok(!res.text.includes(text), `${method} ${url} (${token ? 'carol' : 'anonymous'}) leaked ${text}`);
      }
    }
    const invisible = await app.api('GET', `${HELP}/${secret.request_id}`, { token: carol.apiKey });
    const missing = await app.api('GET', `${HELP}/hlp_ffffffffffffffffffff`, { token: carol.apiKey });
    expectError(invisible, 404, 'help_request_not_found');
    assert.equal(invisible.body.errors[0].message.replace(secret.request_id, 'ID'), missing.body.errors[0].message.replace('hlp_ffffffffffffffffffff', 'ID'));
    assert.equal(typeof mineCursor, 'string');
    const carolMine = (await app.api('GET', `${HELP}?mine=true&cursor=${mineCursor}`, { token: carol.apiKey })).body.data.items;
    assert.ok(
      carolMine.every((r: any) => r.author_id === carol.agentId),
      'a cursor from another agent only pages your own list',
    );
    const daveOwn = await app.api('GET', `${HELP}/${secret.request_id}`, { token: dave.apiKey });
    assert.equal(daveOwn.body.data.title, 'DAVE-SANDBOX-TITLE', 'the author sees their sandbox request');
  });
});

test('CLI: bosun harbor help reports lists reports and bosun harbor help hide hides a request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-help-cli-'));
  const file = join(dir, 'bosun.sqlite');
  const usePg = /^postgres/.test(process.env.DATABASE_URL ?? '');
  try {
    await withApp(
      async (app) => {
        const [author, reporter] = await registerAll(app, 'author', 'reporter');
        const request = await createRequest(app, author, { title: 'Reported via CLI' });
        await grant(app, reporter, ['harbor:help:report']);
        await post(app, reporter, request.request_id, 'report', { reason: 'Looks like spam to me' });

        const db = app.config.database;
        const env: Record<string, string> = { ...(process.env as Record<string, string>), LOG_LEVEL: 'silent' };
        if (db.kind === 'postgres') Object.assign(env, { DATABASE_URL: db.url, BOSUN_PG_SCHEMA: db.schema });
        else env.DATABASE_URL = `sqlite:${db.file}`;
        delete env.REDIS_URL;
        const cli = (...args: string[]) => runCli(args, { env });

        const reports = await cli('harbor', 'help', 'reports', '--limit', '5');
        assert.equal(reports.status, 0, reports.stderr);
        assert.match(reports.stdout, new RegExp(`request ${request.request_id} \\(open, 1 report\\(s\\)\\)`));
        assert.match(reports.stdout, /reason: Looks like spam to me/);
        assert.match(reports.stdout, new RegExp(`reporter: ${reporter.agentId}`));

        const hide = await cli('harbor', 'help', 'hide', request.request_id);
        assert.equal(hide.status, 0, hide.stderr);
        assert.match(hide.stdout, /hidden/);
        assert.deepEqual((await app.api('GET', HELP, { token: reporter.apiKey })).body.data.items, [], 'gone from the list');
        assert.match((await cli('harbor', 'help', 'reports')).stdout, /\[hidden\]/);
        assert.notEqual((await cli('harbor', 'help', 'hide', 'hlp_missing')).status, 0);
      },
      usePg ? {} : { DATABASE_URL: `sqlite:${file}` },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every help example that names a prerequisite works as published once the prerequisite exists', async () => {
  await withApp(async (app) => {
    const [author, helper, reporter, canceller] = await registerAll(app, 'author', 'helper', 'reporter', 'canceller');
    await grant(app, reporter, ['harbor:help:report']);
    const examples = (await app.api('GET', '/v1/capabilities/examples', { token: author.apiKey })).body.data.examples.filter((e: any) => e.requires && e.operation_id.includes('HarborHelpRequests'));
    assert.equal(examples.length, 9);
    const request = await createRequest(app, author);
    const toCancel = await createRequest(app, canceller);
    let responseId = '';
    const callerFor: Record<string, Agent> = { postHarborHelpRequestsByIdResponses: helper, postHarborHelpRequestsByIdReport: reporter };
    const order = [
      'getHarborHelpRequestsById',
      'getHarborHelpRequestsByIdResponses',
      'postHarborHelpRequestsByIdResponses',
      'postHarborHelpRequestsByIdReport',
      'postHarborHelpRequestsByIdSelect',
      'postHarborHelpRequestsByIdClose',
      'postHarborHelpRequestsByIdFeedback',
      'getHarborHelpRequestsByIdFeedback',
    ];
    examples.sort((x: any, y: any) => order.indexOf(x.operation_id) - order.indexOf(y.operation_id));
    for (const ex of examples) {
      const cancel = ex.summary === 'Cancel an open request';
      const caller = cancel ? canceller : (callerFor[ex.operation_id] ?? author);
      const url = new URL(ex.url).pathname.replace('hlp_0123456789abcdef0123', cancel ? toCancel.request_id : request.request_id);
      const body = ex.body?.response_id ? { ...ex.body, response_id: responseId } : ex.body;
      const res = await app.api(ex.method, url, { token: caller.apiKey, ...(body !== undefined ? { body } : {}) });
      assert.ok(res.status >= 200 && res.status < 300, `${ex.operation_id} (${ex.summary}): ${res.status} ${res.text.slice(0, 300)}`);
      if (ex.operation_id === 'postHarborHelpRequestsByIdResponses') responseId = res.body.data.response_id;
    }
  });
});
