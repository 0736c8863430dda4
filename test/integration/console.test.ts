import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../src/platform/clock.js';
import { startTestApp, withApp } from '../helpers/app.js';
import { consoleClient as browser, CONSOLE_PASSWORD as PASSWORD } from '../helpers/console-client.js';

test('console sign-in: the operator password only, HttpOnly SameSite=Strict session cookie, sign-out ends the session', () =>
  withApp(async (app) => {
    const b = browser(app);
    const noPassword = await b.signIn();
    assert.equal(noPassword.status, 401);
    assert.match(noPassword.text, /No operator password is set/);
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);

    const { apiKey } = await app.registerAgent('not-an-operator');
    const withKey = await app.api('GET', '/console/agents', { token: apiKey });
    assert.equal(withKey.status, 401, 'an agent key does not open the console');
    assert.match(withKey.text, /type="password"/);

    const wrong = await b.signIn('wrong password!');
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Wrong password/);
    const ok = await b.signIn();
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.location, '/console');
    const session = [ok.headers['set-cookie']].flat().find((c) => String(c).startsWith('bosun_console='));
    assert.match(String(session), /; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/, 'no Secure flag over plain http');
    const home = await b.get('/console');
    assert.equal(home.status, 200);
    assert.match(home.text, /Service status: ok/);

    const out = await b.post('/console/logout', { csrf: b.csrf });
    assert.equal(out.status, 303);
    assert.equal((await b.get('/console/agents')).status, 401, 'the session is gone');
    const actions = (await app.bosun.ctx.services.audit.list({ limit: 20 })).map((e) => e.action);
    assert.ok(actions.includes('operator.login') && actions.includes('operator.login_failed') && actions.includes('console.logout'));
  }));

test('console cookies are Secure over TLS (a trusted proxy saying https)', async () => {
  const app = await startTestApp({ env: { BOSUN_TRUST_PROXY: '1' } });
  try {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const b = browser(app);
    const page = await b.get('/console', { 'x-forwarded-proto': 'https' });
    assert.match(String([page.headers['set-cookie']].flat()[0]), /; Secure$/);
    const ok = await b.post('/console/login', { csrf: b.csrf, password: PASSWORD }, { 'x-forwarded-proto': 'https' });
    assert.equal(ok.status, 303);
    assert.ok([ok.headers['set-cookie']].flat().every((c) => String(c).endsWith('; Secure')));
  } finally {
    await app.close();
  }
});

test('console CSRF: a form without the token, with a wrong one, or from another origin is refused; the sign-in form needs its own token', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const victim = await app.registerAgent('victim');
    const b = browser(app);
    const forged = await b.post('/console/login', { csrf: 'made-up', password: PASSWORD });
    assert.equal(forged.status, 403, 'login CSRF: the token must match the cookie');
    await b.signIn();
    for (const [form, headers] of [
      [{ agent_id: victim.agentId, reason: 'x' }, {}],
      [{ agent_id: victim.agentId, reason: 'x', csrf: 'wrong' }, {}],
      [{ agent_id: victim.agentId, reason: 'x', csrf: b.csrf }, { origin: 'https://evil.example' }],
    ] as Array<[Record<string, string>, Record<string, string>]>) {
      const res = await b.post('/console/agents/revoke', form, headers);
      assert.equal(res.status, 403, JSON.stringify(form));
      assert.match(res.text, /CSRF check failed/);
    }
    assert.notEqual((await app.bosun.ctx.services.agents.standing(victim.agentId))?.state, 'revoked');
    const done = await b.post('/console/agents/revoke', { agent_id: victim.agentId, reason: 'abuse', csrf: b.csrf }, { origin: 'http://localhost:3000' });
    assert.equal(done.status, 303);
    assert.equal((await app.bosun.ctx.services.agents.standing(victim.agentId))?.state, 'revoked');
    const entry = (await app.bosun.ctx.services.audit.list({ limit: 50 })).find((e) => e.target === victim.agentId && e.action.includes('revoke'));
    assert.equal(entry?.actor_kind ?? (entry as unknown as { actor: { kind: string } })?.actor?.kind, 'operator');
  }));

test('console: the operator approves an access request and the agent holds the scope; a bad decision is shown, not a crash; sessions end after an idle hour', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const agent = await app.registerAgent('asks');
    const created = await app.api('POST', '/v1/harbor/operator-requests', {
      token: agent.apiKey,
      body: { category: 'access_request', subject: 'Live positions please', body: 'For a berth planner.', requested_scopes: ['vessels:live'] },
    });
    assert.equal(created.status, 201, created.text);
    const b = browser(app);
    await b.signIn();
    const inbox = await b.get('/console/operator-requests');
    assert.match(inbox.text, /Live positions please/);
    assert.match(inbox.text, /<time datetime="2026-11-21T00:00:00\.000Z">21 Nov 2026, 00:00 UTC<\/time>/, 'a date people read, the instant in datetime');
    assert.match(inbox.text, /Requested scopes: <code>vessels:live<\/code><\/p>/, 'scopes listed, not a JSON array');
    const id = created.body.data.request_id as string;
    const bad = await b.post('/console/operator-requests/decide', { csrf: b.csrf, request_id: id, decision: 'explode' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /invalid_request<\/code>: decision must be/);
    const approve = await b.post('/console/operator-requests/decide', { csrf: b.csrf, request_id: id, decision: 'approve', public_response: 'Granted for 30 days.' });
    assert.equal(approve.status, 303);
    const me = await app.api('GET', '/v1/agents/me', { token: agent.apiKey });
    assert.ok(me.body.data.scopes.includes('vessels:live'), JSON.stringify(me.body.data.scopes));

    app.clock.advance(61 * MINUTE);
    assert.equal((await b.get('/console')).status, 200);
    assert.match((await b.get('/console')).text, /type="password"/, 'idle for over an hour: signed out');
  }));

test('console telemetry: charts and the per-operation table from recorded requests, per window', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    for (let i = 0; i < 3; i++) await app.api('GET', '/v1/ping');
    await app.api('GET', '/v1/nothing-here');
    app.clock.advance(2 * MINUTE);
    await app.api('GET', '/v1/ping');
    const b = browser(app);
    await b.signIn();
    const page = await b.get('/console/telemetry');
    assert.equal(page.status, 200);
    const bars = (id: string) => [...(new RegExp(`data-chart="${id}"[^>]*>(.*?)</svg>`, 's').exec(page.text)?.[1] ?? '').matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    const requests = bars('requests');
    assert.equal(requests.length, 60, 'one bar a minute over the hour');
    const counted = requests.map((t) => Number(/: (\d+) requests/.exec(t!)?.[1] ?? 0));
    // The sign-in pages are requests too; the pings and the unmatched call are at least these.
    assert.equal(counted[58], 4, 'three pings and a 404 two minutes ago');
    assert.ok(counted[59]! >= 2, 'the last ping and the sign-in pages, now');
    assert.equal(
      counted.slice(0, 58).reduce((a, b) => a + b, 0),
      0,
    );
    assert.ok(
      bars('errors').some((t) => /: [1-9]\d* errors/.test(t!)),
      'the 404 is an error',
    );
    assert.match(page.text, /<code>getPing<\/code><\/td>\s*<td data-label="Requests">4<\/td>/);
    const week = await b.get('/console/telemetry?window=7d');
    assert.equal([...week.text.matchAll(/<rect /g)].length, 4 * 28, 'four charts of 28 six-hour buckets');
    assert.match(week.text, /360-minute buckets/);
  }));

test('console moderation: an open report with its post; hiding the post upholds the report, dismissing closes it', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const { groups } = app.bosun.ctx.services;
    const author = await app.registerAgent('author');
    const reporter = await app.registerAgent('reporter');
    const post = await app.api('POST', '/v1/harbor/public/groups', { token: author.apiKey, body: { action: 'post', group_id: 4, body: 'Buy cheap bunkers at <this link>' } });
    const postId = post.body.data.post.post_id as string;
    const second = await app.api('POST', '/v1/harbor/public/groups', { token: author.apiKey, body: { action: 'post', group_id: 4, body: 'A fair question about berths' } });
    const secondId = second.body.data.post.post_id as string;
    for (const id of [postId, secondId]) {
      const report = await app.api('POST', '/v1/harbor/public/groups', { token: reporter.apiKey, body: { action: 'report', group_id: 4, post_id: id, reason: 'looks like spam' } });
      assert.equal(report.status, 200, report.text);
    }
    const b = browser(app);
    await b.signIn();
    const page = await b.get('/console/moderation');
    assert.match(page.text, /Buy cheap bunkers at &lt;this link&gt;/);
    assert.match(page.text, /looks like spam/);
    // the reason preselected is other (abuse would be an incident against the author), as in the CLI
    assert.deepEqual(
      [...page.text.matchAll(/<option selected>(\w+)<\/option>/g)].map((m) => m[1]),
      ['other', 'other'],
    );
    const hidden = await b.post('/console/moderation/hide', { csrf: b.csrf, post_id: postId, reason: 'spam' });
    assert.equal(hidden.status, 303);
    assert.match((await b.get(String(hidden.headers.location))).text, new RegExp(`role="status">Hid post ${postId} \\(reason spam\\)\\.`));
    assert.notEqual((await groups.findPostForOperator(postId))?.hidden_at, null);
    const open = await groups.listReports({ state: 'open', limit: 10 });
    assert.deepEqual(
      open.map((r) => r.post_id),
      [secondId],
      'the report on the hidden post is upheld',
    );
    const badReason = await b.post('/console/moderation/hide', { csrf: b.csrf, post_id: secondId, reason: 'because' });
    assert.equal(badReason.status, 400);
    assert.equal((await b.post('/console/moderation/dismiss', { csrf: b.csrf, report_id: open[0]!.report_id })).status, 303);
    assert.deepEqual(await groups.listReports({ state: 'open', limit: 10 }), []);
    assert.match((await b.get('/console/moderation')).text, /No open reports/);
  }));
