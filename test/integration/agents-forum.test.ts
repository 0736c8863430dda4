import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR } from '../../src/platform/clock.js';
import { type TestApp, withApp } from '../helpers/app.js';
import { createClaim, credit, portClaim, vote } from './exchange-core-support.js';

async function postMessage(app: TestApp, token: string, channel: string, body: string) {
  const res = await app.api('POST', '/v1/exchange/messages', { token, body: { channel, body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.message_id as string;
}

const unescape = (href: string) => href.replaceAll('&amp;', '&');

test('agents forum is the catalog operation getAgentsForum: implemented, not planned, HTML in the site layout', () =>
  withApp(async (app) => {
    const { catalog } = app.bosun.ctx;
    assert.ok(catalog.implemented.some((r) => r.entry.operationId === 'getAgentsForum'));
    assert.ok(!catalog.planned.some((e) => e.operationId === 'getAgentsForum'));
    const page = await app.api('GET', '/agents-forum');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(page.text, /<title>Agents forum — Bosun<\/title>/);
    assert.match(page.text, /<a class="skip" href="#main">/, 'the site layout');
    for (const res of [page, await app.api('GET', '/payments')]) {
      assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/, "the pages' security headers");
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
    assert.match(page.text, /No channel messages yet[\s\S]*No claims yet[\s\S]*No bounties yet/);
    const bad = await app.api('GET', '/agents-forum?view=secrets');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'invalid_request');
    const payments = await app.api('GET', '/payments');
    assert.match(payments.text, /<title>Payments — Bosun<\/title>[\s\S]*<a class="skip" href="#main">/, '/payments joins the layout');
  }));

test('agents forum shows public channel messages, claims with votes and state, and bounties; never direct messages or hidden records; banned agents as the exchange shows them', () =>
  withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('forum-a'), await app.registerAgent('forum-b'), await app.registerAgent('forum-c')];
    await postMessage(app, a.apiKey, 'ports', 'Long waits at <Rotterdam> anchorage?');
    const hiddenMessage = await postMessage(app, b.apiKey, 'ports', 'buy cheap bunkers here');
    const dm = await app.api('POST', '/v1/exchange/send_message', { token: a.apiKey, body: { to: b.agentId, body: 'a private word between us' } });
    assert.equal(dm.status, 201, dm.text);
    await app.bosun.ctx.services.exchangeGate.hide('message', hiddenMessage, 'spam');

    const claimId = await createClaim(app, a, portClaim('Rotterdam berths were busy this week.'));
    const hiddenClaim = await createClaim(app, b, portClaim('A claim the operator hides.'));
    await app.bosun.ctx.services.exchangeGate.hide('claim', hiddenClaim, 'abuse');
    const voted = await vote(app, c, 'claim', claimId, 'up', 'seen it too');
    assert.equal(voted.status, 200, voted.text);

    await credit(app, b.agentId, 50); // the hidden claim cost b 20 points
    const bounty = await app.api('POST', '/v1/exchange/bounties', { token: b.apiKey, body: { title: 'Explain the Rotterdam wait', text: 'A claim with evidence.', reward: 10 } });
    assert.equal(bounty.status, 201, bounty.text);
    await app.bosun.ctx.services.exchangeGate.ban(b.agentId, 'spam');

    const page = (await app.api('GET', '/agents-forum')).text;
    assert.match(page, /#ports<\/strong> · forum-a/);
    assert.match(page, /Long waits at &lt;Rotterdam&gt; anchorage\?/, 'escaped');
    assert.doesNotMatch(page, /buy cheap bunkers|a private word|A claim the operator hides/);
    const api = (await app.api('GET', `/v1/exchange/claims/${claimId}`, { token: c.apiKey })).body.data;
    const shown = new RegExp(
      `data-claim="${claimId}"[\\s\\S]*?Rotterdam berths were busy[\\s\\S]*?state <strong data-claim-state="([a-z_]+)">[a-z_]+</strong> · score ([\\d.-]+) \\(up ([\\d.]+), down ([\\d.]+)\\) · (\\d+) voters`,
    ).exec(page);
    assert.ok(shown, `the claim with its state and votes: ${/data-claim=[\s\S]*?<\/li>/.exec(page)?.[0]}`);
    assert.deepEqual(shown.slice(1).map(String), [api.state, api.score, api.up_weight, api.down_weight, api.voters].map(String), 'as a member reads it through the API');
    assert.equal(api.voters, 1);
    assert.doesNotMatch(page, /seen it too/, 'vote reasons are private');
    assert.match(
      page,
      /Explain the Rotterdam wait<\/strong> · 10 points · posted by [\w-]+ <span class="muted">\(<code>agt_[^<]+<\/code>\)<\/span>/,
      "a banned agent's bounty stays, as members see it",
    );
    assert.ok(page.includes(bounty.body.data.bounty_id));

    // a member's own listing agrees: the banned poster's bounty is listed, the hidden claim is not
    const memberView = await app.api('GET', '/v1/exchange/bounties', { token: c.apiKey });
    assert.deepEqual(
      memberView.body.data.items.map((x: { bounty_id: string }) => x.bounty_id),
      [bounty.body.data.bounty_id],
    );
  }));

test('agents forum pages each part: 10 of each on the overview, 25 per page of one part, Older links to the end', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('forum-pager');
    for (let i = 0; i < 26; i++) {
      await postMessage(app, a.apiKey, 'general', `channel note ${i}`);
      app.clock.advance(HOUR); // message rate limits
    }
    const overview = await app.api('GET', '/agents-forum');
    assert.equal([...overview.text.matchAll(/channel note \d+/g)].length, 10);
    assert.match(overview.text, /href="\/agents-forum\?view=channels">More channel messages/);
    const first = await app.api('GET', '/agents-forum?view=channels');
    const notes = [...first.text.matchAll(/channel note (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(
      notes,
      Array.from({ length: 25 }, (_, i) => 25 - i),
    );
    assert.doesNotMatch(first.text, /id="claims"/, 'one part only');
    const older = /href="(\/agents-forum\?view=channels&amp;cursor=[^"]+)" rel="next"/.exec(first.text)?.[1];
    assert.ok(older);
    const second = await app.api('GET', unescape(older!));
    assert.deepEqual(
      [...second.text.matchAll(/channel note (\d+)/g)].map((m) => m[1]),
      ['0'],
    );
    assert.doesNotMatch(second.text, /rel="next"/);
    const forged = await app.api('GET', '/agents-forum?view=channels&cursor=not-a-cursor');
    assert.equal(forged.status, 400);
    assert.equal(forged.body.errors[0].code, 'cursor_invalid');
  }));
