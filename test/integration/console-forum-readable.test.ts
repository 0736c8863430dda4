import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { errorsView } from '../../src/features/console/console-ops-views.js';
import { threaded } from '../../src/features/site/forum.js';
import { ago, humanDate } from '../../src/features/web/human-time.js';
import { withApp } from '../helpers/app.js';
import { consoleClient } from '../helpers/console-client.js';
import { createClaim, portClaim, ROTTERDAM } from './exchange-core-support.js';

/** Issue 32: console and forum views people can read. */

test('human times: "just now", minutes, hours, days; dates to the minute without milliseconds', () => {
  const now = Date.UTC(2026, 10, 27, 14, 5, 30, 123);
  assert.deepEqual(
    [0, 44_000, 90_000, 59 * MINUTE, 3 * HOUR, 47 * HOUR, 50 * HOUR, 42 * 24 * HOUR].map((d) => ago(now - d, now)),
    ['just now', 'just now', '2 min ago', '59 min ago', '3 h ago', '47 h ago', '2 days ago', '42 days ago'],
  );
  assert.equal(ago(now + 10 * MINUTE, now), 'in 10 min');
  assert.equal(humanDate(now), '27 Nov 2026, 14:05 UTC');
});

test('threaded: replies follow their parent (oldest first, nested), top level keeps its order, orphans stand alone', () => {
  const items = [
    { id: 'c', parent: 'a', at: 3 },
    { id: 'b', parent: null, at: 2 },
    { id: 'd', parent: 'c', at: 4 },
    { id: 'e', parent: 'a', at: 2.5 },
    { id: 'a', parent: null, at: 1 },
    { id: 'x', parent: 'gone', at: 5 },
  ];
  const view = threaded(
    items,
    (i) => i.id,
    (i) => i.parent,
    (i) => i.at,
  ).map(({ item, replies }) => [item.id, replies.map((r) => r.id)]);
  assert.deepEqual(view, [
    ['b', []],
    ['a', ['e', 'c', 'd']],
    ['x', []],
  ]);
});

test('feed errors are shown by reason, not as [object Object]', () => {
  assert.equal(errorsView({}), '0');
  assert.equal(errorsView({ bad_checksum: 10, unsupported: 2, empty: 0 }), '12: bad checksum 10, unsupported 2');
});

test('console: agents show their scopes; the scope picker preselects nothing; grant and approve confirm what they did; status is a page; route figures as pairs', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword('correct horse battery staple');
    const agent = await app.registerAgent('scoped', ['vessels:live']);
    const b = consoleClient(app);
    await b.signIn();

    const agents = await b.get('/console/agents');
    const row = agents.text.slice(agents.text.indexOf(agent.agentId));
    assert.match(row, /<ul class="scopes">[\s\S]*<code>vessels:live<\/code>/);
    assert.match(agents.text, new RegExp(`<select id="scope-${agent.agentId}" name="scope" required>\\s*<option value="" selected>choose a scope…</option>`));

    const granted = await b.post('/console/agents/grant', { csrf: b.csrf, agent_id: agent.agentId, scope: 'harbor:public:participate' }, { origin: 'http://localhost:3000' });
    assert.equal(granted.status, 303);
    const back = await b.get(String(granted.headers.location));
    assert.match(back.text, new RegExp(`<p class="confirmation" role="status">Granted harbor:public:participate to ${agent.agentId}\\.</p>`));
    const empty = await b.post('/console/agents/grant', { csrf: b.csrf, agent_id: agent.agentId, scope: '' }, { origin: 'http://localhost:3000' });
    assert.equal(empty.status, 400, 'the placeholder grants nothing');

    const request = await app.api('POST', '/v1/harbor/operator-requests', {
      token: agent.apiKey,
      body: { category: 'access_request', subject: 'More', body: 'please', requested_scopes: ['harbor:public:read'] },
    });
    const requestId = request.body.data.request_id as string;
    const approved = await b.post('/console/operator-requests/decide', { csrf: b.csrf, request_id: requestId, decision: 'approve', public_response: '' }, { origin: 'http://localhost:3000' });
    assert.equal(approved.status, 303);
    assert.match((await b.get(String(approved.headers.location))).text, new RegExp(`role="status">Approved request ${requestId}; granted harbor:public:read\\.`));

    const status = await b.get('/console');
    assert.match(status.text, /<a href="\/v1\/status">\/v1\/status<\/a>/);
    assert.doesNotMatch(status.text, /<pre>/, 'no JSON dump');
    assert.match(status.text, /<section class="component" aria-labelledby="component-fleet">[\s\S]*<dl class="pairs">/);

    const routes = await b.get('/console/routes');
    assert.match(routes.text, /<dl class="pairs" data-section="route-engine">/);
    const moderation = await b.get('/console/moderation');
    assert.equal(moderation.status, 200);
  }));

test('console moderation: hiding an unknown post answers its error code, not a crash', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword('correct horse battery staple');
    const b = consoleClient(app);
    await b.signIn();
    const page = await b.get('/console/moderation');
    assert.equal(page.status, 200);
    const hidden = await b.post('/console/moderation/hide', { csrf: b.csrf, post_id: 'post_nope', reason: 'other' }, { origin: 'http://localhost:3000' });
    assert.equal(hidden.status, 404, 'an unknown post is refused with its code, not a crash');
  }));

test('forum: replies under their parents, human times, claims by agent name about a named port', () =>
  withApp(async (app) => {
    const alice = await app.registerAgent('alice-forum');
    const bob = await app.registerAgent('bob-forum');
    const post = (token: string, body: Record<string, unknown>) => app.api('POST', '/v1/exchange/messages', { token, body: { channel: 'ports', ...body } });
    const parent = (await post(alice.apiKey, { body: 'Anchorage full?' })).body.data.message_id as string;
    app.clock.advance(5 * MINUTE);
    const other = (await post(bob.apiKey, { body: 'Unrelated topic.' })).body.data.message_id as string;
    app.clock.advance(5 * MINUTE);
    const reply = (await post(bob.apiKey, { body: 'Yes, since noon.', reply_to: parent })).body.data.message_id as string;
    app.clock.advance(2 * HOUR);
    const page = (await app.api('GET', '/agents-forum?view=channels')).text;
    const at = (id: string) => page.indexOf(`data-message="${id}"`);
    assert.ok(at(other) < at(parent) && at(parent) < at(reply), 'newest topic first; the reply after its parent, not above it');
    assert.match(page.slice(at(parent)), new RegExp(`^data-message="${parent}">[\\s\\S]*?<ol class="replies">\\s*<li data-message="${reply}" data-reply-to="${parent}">`));
    assert.match(page, /<time datetime="2026-11-21T00:10:00\.000Z" title="21 Nov 2026, 00:10 UTC">2 h ago<\/time>/);
    assert.doesNotMatch(page, />\d{4}-\d\d-\d\dT[\d:.]+Z</, 'no raw ISO time as text');

    const claimId = await createClaim(app, alice, portClaim());
    const claims = (await app.api('GET', '/agents-forum?view=claims')).text;
    const claim = claims.slice(claims.indexOf(`data-claim="${claimId}"`));
    const port = app.bosun.ctx.services.ports.byId(ROTTERDAM);
    assert.ok(port, 'the shipped port table holds Rotterdam');
    assert.match(claim, new RegExp(`about port ${port.name} <code>${ROTTERDAM}</code> · by alice-forum <span class="muted">\\(<code>${alice.agentId}</code>\\)</span>`));
  }));
