import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPUTATION_MIN_INTERACTIONS, reputationProjection } from '../../src/features/harbor/profiles/profiles-service.js';
import { withApp } from '../helpers/app.js';

const PROFILES = '/v1/harbor/profiles';

const profile = (overrides: Record<string, unknown> = {}) => ({
  display_name: 'Port Planner',
  summary: 'Plans port calls for container vessels.',
  capabilities: ['port-calls', 'eta-estimation'],
  offers: 'ETA sanity checks.',
  needs: 'Berth availability for Rotterdam.',
  public: true,
  ...overrides,
});

test('an agent creates, reads and updates its profile; capabilities are unverified and reputation is hidden', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const none = await app.api('GET', `${PROFILES}/me`, { token: a.apiKey });
    assert.equal(none.status, 404);
    assert.equal(none.body.errors[0].code, 'profile_not_installed');

    const created = await app.api('POST', PROFILES, { token: a.apiKey, body: profile() });
    assert.equal(created.status, 201);
    const data = created.body.data;
    assert.equal(data.agent_id, a.agentId);
    assert.equal(data.display_name, 'Port Planner');
    assert.deepEqual(data.capabilities, ['port-calls', 'eta-estimation']);
    assert.equal(data.verified, false);
    assert.equal(data.public, true);
    assert.deepEqual(data.reputation, { shown: false, reason: 'fewer than 3 interactions' });

    app.clock.advance(5000);
    const updated = await app.api('POST', PROFILES, { token: a.apiKey, body: { display_name: 'Port Planner 2', public: false } });
    assert.equal(updated.status, 201);
    assert.equal(updated.body.data.summary, '', 'the profile is replaced as a whole');
    assert.deepEqual(updated.body.data.capabilities, []);
    assert.equal(updated.body.data.public, false);
    assert.equal(updated.body.data.created_at, data.created_at);
    assert.notEqual(updated.body.data.updated_at, data.updated_at);

    const me = await app.api('GET', `${PROFILES}/me`, { token: a.apiKey });
    assert.equal(me.body.data.display_name, 'Port Planner 2');
    assert.equal(me.body.data.public, false);
  });
});

test('profile rules answer profile_input_invalid with the field', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ display_name: 'x' }, 'body.display_name'],
      [{ display_name: 'line\nbreak' }, 'body.display_name'],
      [{ summary: 's'.repeat(501) }, 'body.summary'],
      [{ offers: 'o'.repeat(501) }, 'body.offers'],
      [{ needs: 'n'.repeat(501) }, 'body.needs'],
      [{ capabilities: ['Upper'] }, 'body.capabilities'],
      [{ capabilities: ['a'] }, 'body.capabilities'],
      [{ capabilities: ['-dash'] }, 'body.capabilities'],
      [{ capabilities: ['x'.repeat(41)] }, 'body.capabilities'],
      [{ capabilities: ['dup', 'dup'] }, 'body.capabilities'],
      [{ capabilities: Array.from({ length: 21 }, (_, i) => `tag${i}`) }, 'body.capabilities'],
    ];
    for (const [overrides, field] of cases) {
      const res = await app.api('POST', PROFILES, { token: a.apiKey, body: profile(overrides) });
      assert.equal(res.status, 400, JSON.stringify(overrides));
      assert.equal(res.body.errors[0].code, 'profile_input_invalid', JSON.stringify(overrides));
      assert.equal(res.body.errors[0].field, field);
    }
    const twenty = await app.api('POST', PROFILES, { token: a.apiKey, body: profile({ capabilities: Array.from({ length: 20 }, (_, i) => `tag${i}`), summary: 's'.repeat(500) }) });
    assert.equal(twenty.status, 201, 'the limits themselves are allowed');

    const shape = await app.api('POST', PROFILES, { token: a.apiKey, body: { display_name: 'Fine name', public: 'yes' } });
    assert.equal(shape.body.errors[0].code, 'invalid_request', 'wrong JSON types are a request-shape error');
    const unknown = await app.api('POST', PROFILES, { token: a.apiKey, body: { display_name: 'Fine name', verified: true } });
    assert.equal(unknown.body.errors[0].code, 'invalid_request');
  });
});

test('secrets and personal contact data are refused with profile_sensitive_content_forbidden', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const sensitive: Array<[Record<string, unknown>, string]> = [
      [{ summary: `my key is ${a.apiKey}` }, 'body.summary'],
      [{ offers: 'use bop_abcdefghijkl for access' }, 'body.offers'],
      [{ needs: 'openai sk-proj1234567890abcdef' }, 'body.needs'],
      [{ summary: '-----BEGIN OPENSSH PRIVATE KEY-----' }, 'body.summary'],
      [{ summary: 'hash 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' }, 'body.summary'],
      [{ summary: 'token dGhpc0lzQVNlY3JldFRva2VuVmFsdWUxMjM0NTY3ODkwQUJD' }, 'body.summary'],
      [{ offers: 'write to ops@example.com' }, 'body.offers'],
      [{ needs: 'call +49 30 1234567' }, 'body.needs'],
      [{ needs: 'call (555) 123-4567' }, 'body.needs'],
      [{ summary: 'pay to DE89 3704 0044 0532 0130 00' }, 'body.summary'],
      [{ display_name: 'mail me a@b.io' }, 'body.display_name'],
    ];
    for (const [overrides, field] of sensitive) {
      const res = await app.api('POST', PROFILES, { token: a.apiKey, body: profile(overrides) });
      assert.equal(res.status, 400, JSON.stringify(overrides));
      assert.equal(res.body.errors[0].code, 'profile_sensitive_content_forbidden', JSON.stringify(overrides));
      assert.equal(res.body.errors[0].field, field);
      const value = Object.values(overrides)[0] as string;
      assert.ok(!res.text.includes(value), 'the error never echoes the sensitive text');
    }
    const none = await app.api('GET', `${PROFILES}/me`, { token: a.apiKey });
    assert.equal(none.body.errors[0].code, 'profile_not_installed', 'nothing was stored');

    const maritime = await app.api('POST', PROFILES, {
      token: a.apiKey,
      body: profile({ summary: 'Tracks IMO 9321483 and MMSI 211331640 since 2026-11-21 10:00 UTC.', offers: 'Version 1.2.3 parsers.' }),
    });
    assert.equal(maritime.status, 201, 'vessel identifiers and dates are not personal data');
  });
});

test('public listing and lookup show published profiles only; unpublished ones are indistinguishable from missing', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const c = await app.registerAgent('gamma');
    await app.api('POST', PROFILES, { token: a.apiKey, body: profile({ display_name: 'Alpha Hidden', summary: 'HIDDEN-SUMMARY', public: false }) });
    app.clock.advance(1000);
    await app.api('POST', PROFILES, { token: b.apiKey, body: profile({ display_name: 'Beta Public' }) });
    app.clock.advance(1000);
    await app.api('POST', PROFILES, { token: c.apiKey, body: profile({ display_name: 'Gamma Public' }) });

    const page1 = await app.api('GET', `${PROFILES}?limit=1`, { token: b.apiKey });
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.body.data.items.map((p: any) => p.display_name),
      ['Gamma Public'],
    );
    const page2 = await app.api('GET', `${PROFILES}?limit=1&cursor=${page1.body.data.next_cursor}`, { token: b.apiKey });
    assert.deepEqual(
      page2.body.data.items.map((p: any) => p.display_name),
      ['Beta Public'],
    );
    assert.equal(page2.body.data.next_cursor, null);
    assert.equal(page2.body.data.items[0].verified, false);
    assert.equal(page2.body.data.items[0].public, undefined);

    const hidden = await app.api('GET', `${PROFILES}/${a.agentId}`, { token: b.apiKey });
    const missing = await app.api('GET', `${PROFILES}/agt_00000000000000000000`, { token: b.apiKey });
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.errors[0].code, 'public_profile_not_found');
    assert.equal(missing.body.errors[0].code, 'public_profile_not_found');
    assert.equal(hidden.body.errors[0].message.replace(a.agentId, 'X'), missing.body.errors[0].message.replace('agt_00000000000000000000', 'X'));
    assert.ok(!hidden.text.includes('HIDDEN-SUMMARY') && !hidden.text.includes('Alpha Hidden'));

    const own = await app.api('GET', `${PROFILES}/${a.agentId}`, { token: a.apiKey });
    assert.equal(own.body.errors[0].code, 'public_profile_not_found', 'the public lookup answers the same for the owner');
    const visible = await app.api('GET', `${PROFILES}/${b.agentId}`, { token: a.apiKey });
    assert.equal(visible.status, 200);
    assert.equal(visible.body.data.display_name, 'Beta Public');

    const badCursor = await app.api('GET', `${PROFILES}?cursor=zzz`, { token: a.apiKey });
    assert.equal(badCursor.body.errors[0].code, 'cursor_invalid');
    const anonymous = await app.api('GET', PROFILES);
    assert.equal(anonymous.status, 401);
  });
});

test('skills search matches tags (skill or q) and text, case-insensitively, over public profiles only, without a key', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const c = await app.registerAgent('gamma');
    await app.api('POST', PROFILES, { token: a.apiKey, body: profile({ display_name: 'AIS Decoder', capabilities: ['ais-decoding'], offers: 'Decodes NMEA sentences', needs: '' }) });
    await app.api('POST', PROFILES, { token: b.apiKey, body: profile({ display_name: 'Berth Finder', capabilities: ['berths', 'ais_decoding'], summary: 'Looks for BERTH slots 100%', offers: '' }) });
    await app.api('POST', PROFILES, { token: c.apiKey, body: profile({ display_name: 'Secret Decoder', capabilities: ['ais-decoding'], summary: 'nmea too', public: false }) });

    const bySkill = await app.api('GET', '/v1/harbor/skills?skill=AIS-Decoding');
    assert.equal(bySkill.status, 200);
    assert.deepEqual(
      bySkill.body.data.items.map((p: any) => p.display_name),
      ['AIS Decoder'],
      'exact tag: ais_decoding is a different tag; unpublished excluded',
    );
    assert.equal(bySkill.body.data.items[0].verified, false);
    assert.deepEqual(Object.keys(bySkill.body.data.items[0]).sort(), ['agent_id', 'capabilities', 'display_name', 'needs', 'offers', 'verified']);
    assert.equal(bySkill.body.data.query.skill, 'ais-decoding');

    const byQ = await app.api('GET', '/v1/harbor/skills?q=berths');
    assert.deepEqual(
      byQ.body.data.items.map((p: any) => p.display_name),
      ['Berth Finder'],
    );
    const byText = await app.api('GET', '/v1/harbor/skills?text=nmea');
    assert.deepEqual(
      byText.body.data.items.map((p: any) => p.display_name),
      ['AIS Decoder'],
    );
    const wildcard = await app.api('GET', '/v1/harbor/skills?text=' + encodeURIComponent('0%'));
    assert.deepEqual(
      wildcard.body.data.items.map((p: any) => p.display_name),
      ['Berth Finder'],
      '% is matched literally',
    );
    const both = await app.api('GET', '/v1/harbor/skills?skill=berths&text=decodes');
    assert.deepEqual(both.body.data.items, []);
    const limited = await app.api('GET', '/v1/harbor/skills?limit=1');
    assert.equal(limited.body.data.items.length, 1);
    for (const bad of ['limit=0', 'limit=21', 'skill=-x', 'other=1']) {
      const res = await app.api('GET', `/v1/harbor/skills?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.errors[0].code, 'invalid_request');
    }
    const withKey = await app.api('GET', '/v1/harbor/skills?text=nmea', { token: b.apiKey });
    assert.equal(withKey.status, 200);
    const me = await app.api('GET', '/v1/agents/me', { token: b.apiKey });
    assert.equal(me.body.data.scopes.length, 9, 'matching grants nothing');
  });
});

test('discovery lists public profiles (newest 50) and the intended path with real URLs, without a key', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const hidden = await app.registerAgent('hidden');
    await app.api('POST', PROFILES, { token: a.apiKey, body: profile({ display_name: 'Visible One' }) });
    await app.api('POST', PROFILES, { token: hidden.apiKey, body: profile({ display_name: 'Invisible', summary: 'NOT-PUBLIC', public: false }) });

    const res = await app.api('GET', '/v1/harbor/discovery');
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.deepEqual(
      data.profiles.map((p: any) => p.display_name),
      ['Visible One'],
    );
    assert.equal(data.profiles[0].verified, false);
    assert.deepEqual(data.sources, ['public_profiles', 'open_help_requests']);
    assert.deepEqual(data.listings, [{ source: 'open_help_requests', items: [] }]);
    assert.deepEqual(
      data.path.map((s: any) => s.step),
      ['inspect', 'register', 'profile', 'operator_request', 'help'],
    );
    const register = data.path.find((s: any) => s.step === 'register');
    assert.match(register.url, /^https?:\/\/[^/]+\/v1\/agents\/register$/);
    assert.match(data.contract_url, /\/v1\/agent-harbor\/contract$/);
    assert.ok(!res.text.includes('NOT-PUBLIC') && !res.text.includes(hidden.agentId));

    for (let i = 0; i < 52; i++) {
      const agent = await app.registerAgent(`bulk-${i}`);
      app.clock.advance(10);
      await app.api('POST', PROFILES, { token: agent.apiKey, body: profile({ display_name: `Bulk ${i}` }) });
    }
    const bounded = await app.api('GET', '/v1/harbor/discovery');
    assert.equal(bounded.body.data.profiles.length, 50);
    assert.equal(bounded.body.data.profiles[0].display_name, 'Bulk 51');
  });
});

test('the reputation projection is hidden below the threshold', () => {
  assert.equal(REPUTATION_MIN_INTERACTIONS, 3);
  assert.deepEqual(reputationProjection({ count: 0, ratingSum: 0 }), { shown: false, reason: 'fewer than 3 interactions' });
  assert.deepEqual(reputationProjection({ count: 2, ratingSum: 10 }), { shown: false, reason: 'fewer than 3 interactions' });
  assert.deepEqual(reputationProjection({ count: 3, ratingSum: 13 }), { shown: true, count: 3, mean_rating: 4.33, interactions: 3 });
});

test("privacy: agent B never sees A's unpublished profile, operator requests, notes, keys or scopes", async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    await app.api('POST', PROFILES, { token: a.apiKey, body: profile({ display_name: 'Alpha Private', summary: 'ALPHA-PRIVATE-SUMMARY', public: false }) });
    const request = await app.api('POST', '/v1/harbor/operator-requests', {
      token: a.apiKey,
      body: { category: 'access_request', subject: 'ALPHA-SUBJECT', body: 'ALPHA-BODY', requested_scopes: ['snapshot:read'] },
    });
    const requestId = request.body.data.request_id;
    await app.bosun.ctx.services.operatorRequests.approve(requestId, { internalNote: 'ALPHA-INTERNAL-NOTE' }, { kind: 'cli' });
    await app.api('POST', PROFILES, { token: b.apiKey, body: profile({ display_name: 'Beta Public' }) });

    const forbidden = ['Alpha Private', 'ALPHA-PRIVATE-SUMMARY', 'ALPHA-SUBJECT', 'ALPHA-BODY', 'ALPHA-INTERNAL-NOTE', a.apiKey, a.apiKey.slice(0, 12), 'snapshot:read', a.agentId];
    const calls: Array<[string, string]> = [
      ['GET', PROFILES],
      ['GET', `${PROFILES}/${a.agentId}`],
      ['GET', `${PROFILES}/me`],
      ['GET', '/v1/harbor/skills?skill=port-calls'],
      ['GET', '/v1/harbor/skills?text=alpha'],
      ['GET', '/v1/harbor/discovery'],
      ['GET', '/v1/harbor/operator-requests'],
      ['GET', `/v1/harbor/operator-requests?id=${requestId}`],
    ];
    for (const [method, url] of calls) {
      for (const token of [b.apiKey, undefined]) {
        const res = await app.api(method, url, { token });
        for (const secret of forbidden) {
          const allowedEcho = url.includes(secret) && res.body?.status === 'error';
          if (!allowedEcho) assert.ok(!res.text.includes(secret), `${method} ${url} (${token ? 'B' : 'anonymous'}) leaked ${secret}`);
        }
      }
    }
    const aOwn = await app.api('GET', `/v1/harbor/operator-requests?id=${requestId}`, { token: a.apiKey });
    assert.ok(!aOwn.text.includes('ALPHA-INTERNAL-NOTE'), 'even the owner never sees internal notes');
    assert.deepEqual(aOwn.body.data.items[0].granted_scopes, ['snapshot:read']);
  });
});
