import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { withApp } from '../helpers/app.js';
import { ingest, position } from '../helpers/fleet.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { groupsServiceWithSignals } from '../helpers/harbor-groups.js';

const CLI = { kind: 'cli' } as const;

test('home page: live figures from the store (vessels, positions in the last hour, agents, operations), security headers', () =>
  withApp(async (app) => {
    await app.registerAgent('site-a');
    await app.registerAgent('site-b');
    const now = app.clock.now();
    await ingest(app.bosun.ctx.services.fleet, position(244010001, now - 2 * HOUR, 52, 4), position(244010001, now - 10 * 60_000, 52.01, 4.01), position(244010002, now - 5 * 60_000, 51, 3));
    const res = await app.api('GET', '/');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const figure = (name: string) => new RegExp(`data-figure="${name}">([^<]*)<`).exec(res.text)?.[1];
    assert.equal(figure('vessels'), '2');
    assert.equal(figure('positions-last-hour'), '2', 'the position two hours old is not counted');
    assert.equal(figure('agents'), '2');
    const status = (await app.api('GET', '/v1/status')).body.data;
    assert.equal(figure('operations'), String(status.operations.implemented));
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'.*frame-ancestors 'none'/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.text, /<a class="skip" href="#main">/);
  }));

test('docs page: every discoverable operation of the catalog, escaped; the API still refuses form bodies', () =>
  withApp(async (app) => {
    const res = await app.api('GET', '/docs');
    assert.equal(res.status, 200);
    const ids = [...res.text.matchAll(/<article class="op" id="([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    const capabilities = (await app.api('GET', '/v1/capabilities')).body.data.capabilities as Array<{ operation_id?: string; operationId?: string }>;
    assert.equal(ids.length, capabilities.length);
    assert.ok(ids.includes('getPing') || ids.includes('getV1Ping') || ids.length > 50);
    assert.doesNotMatch(res.text, /<script>(?!.*src)/);
    const form = await app.api('POST', '/v1/agents/register', { rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 415, 'form bodies are parsed for site pages only');
    assert.equal(form.body.errors[0].code, 'unsupported_media_type');
  }));

test('docs: an API reference from the OpenAPI document, vessels first, searchable, with parameters, responses and examples at deep links; paths wrap only after a slash', () =>
  withApp(async (app) => {
    const page = (await app.api('GET', '/docs')).text;
    const sections = [...page.matchAll(/<h2 id="section-([a-z-]+)">/g)].map((m) => m[1]);
    assert.deepEqual(sections.slice(0, 3), ['vessels', 'ports', 'sts'], 'the maritime data first, not catalog order');
    assert.equal(new Set(sections).size, sections.length);
    assert.match(page, /<nav aria-label="API sections">[\s\S]*<a href="#section-vessels">vessels<\/a>/);
    // one operation in full: deep link, method, path, parameters, responses, an example request
    const ping = page.slice(page.indexOf('<article class="op" id="getPing"'));
    assert.match(ping, /^<article class="op" id="getPing" data-section="meta">\s*<h3>\s*<a class="anchor" href="#getPing"/);
    assert.match(ping.slice(0, ping.indexOf('</article>')), /<h4>Responses<\/h4>[\s\S]*<code>200<\/code>[\s\S]*<h4>Examples<\/h4>[\s\S]*<pre tabindex="0"><code>GET \/v1\/ping<\/code><\/pre>/);
    const withQuery = page.slice(page.indexOf('<h4>Parameters</h4>'));
    assert.match(withQuery, /<dt><code>\w+<\/code> <span class="muted">(query|path)/);
    // paths break only after a slash
    for (const m of page.matchAll(/<code class="path">(.*?)<\/code>/g)) {
      assert.doesNotMatch(m[1]!.replace(/\/<wbr \/>/g, '/'), /<wbr/, 'a break opportunity only after a slash');
    }
    assert.match(page, /<code class="path">\/<wbr \/>v1\/<wbr \/>capabilities/);
    // search: every word must match; nothing else is listed
    const found = (await app.api('GET', '/docs?q=vessel+track')).text;
    const ids = [...found.matchAll(/<article class="op" id="([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
    assert.ok(ids.length >= 1 && ids.length < 20, `a few operations match: ${ids.join(', ')}`);
    for (const id of ids) assert.match(found.slice(found.indexOf(`id="${id}"`), found.indexOf('</article>', found.indexOf(`id="${id}"`))).toLowerCase(), /vessel[\s\S]*track|track[\s\S]*vessel/);
    assert.match(found, /value="vessel track"/);
    assert.match((await app.api('GET', '/docs?q=zzqx-nothing')).text, /0 of \d+ operations match &quot;zzqx-nothing&quot;/);
  }));

test('agents forum: public topics of ordinary groups as excerpts, paged; hidden posts and the onboarding group never shown', () =>
  withApp(async (app) => {
    const s = app.bosun.ctx.services;
    const group = await s.groups.createGroup({ name: 'Port data', description: 'Talk about <ports>' }, CLI);
    const poster = await app.registerAgent('forum-poster');
    await s.agents.grantScope(poster.agentId, 'harbor:public:participate', CLI);
    app.clock.advance(8 * DAY);
    const agent = await s.agents.authenticate(poster.apiKey);
    assert.ok(agent);
    const gated = groupsServiceWithSignals(app);
    await gated.act(agent, { action: 'join_request', group_id: group.group_id });
    await s.groups.decideJoinRequest(group.group_id, poster.agentId, 'active', CLI);
    const post = async (groupId: number, body: string) => {
      const res = await app.api('POST', '/v1/harbor/public/groups', { token: poster.apiKey, body: { action: 'post', group_id: groupId, body } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.changed, true);
      app.clock.advance(3 * HOUR); // 10 creates per 24 hours
      return res.body.data.post.post_id as string;
    };
    const onboarding = await post(HARBOR_LIMITS.onboarding.groupId, 'hello from onboarding');
    const hidden = await post(group.group_id, 'this one gets hidden');
    for (let i = 0; i < 26; i++) await post(group.group_id, `berth report ${i} <b>bold</b>`);
    await s.groups.hidePost(hidden, 'spam', CLI);

    const first = await app.api('GET', '/agents-forum?view=harbor');
    assert.equal(first.status, 200);
    assert.match(first.text, /Port data<\/strong> \(public\) — Talk about &lt;ports&gt;/);
    assert.match(first.text, /berth report 25 &lt;b&gt;bold&lt;\/b&gt;/, 'post text is escaped');
    assert.doesNotMatch(first.text, /this one gets hidden|hello from onboarding/);
    assert.equal([...first.text.matchAll(/berth report \d+/g)].length, 25);
    const next = /href="(\/agents-forum\?view=harbor&amp;before=[^"]+)" rel="next"/.exec(first.text)?.[1];
    assert.ok(next, 'a next-page link');
    const second = await app.api('GET', next!.replaceAll('&amp;', '&'));
    assert.deepEqual(
      [...second.text.matchAll(/berth report (\d+)/g)].map((m) => m[1]),
      ['0'],
    );
    assert.doesNotMatch(second.text, /rel="next"/);
    void onboarding;
  }));
