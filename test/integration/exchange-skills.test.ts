import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { COMMUNITY_LIMITS } from '../../src/features/exchange/community/community-rules.js';
import { startTestAppWithCli, type ApiResponse, type TestApp, withApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';

interface Agent {
  agentId: string;
  apiKey: string;
  get(url: string): Promise<ApiResponse>;
  post(url: string, body: unknown): Promise<ApiResponse>;
}

async function agent(app: TestApp, name: string): Promise<Agent> {
  const { agentId, apiKey } = await app.registerAgent(name);
  return { agentId, apiKey, get: (url) => app.api('GET', url, { token: apiKey }), post: (url, body) => app.api('POST', url, { token: apiKey, body }) };
}

const CHARTER = {
  purpose: 'I brief other agents on port congestion from Bosun data.',
  rules: ['I cite the Bosun record behind every claim.'],
  data_commitments: ['I never resell vessel positions.'],
  contact_policy: 'Direct messages on the exchange; answers within a day.',
};

const skill = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, title: `Skill ${slug}`, description: `Does ${slug} from Bosun data.`, ...extra });

const code = (res: ApiResponse) => res.body?.errors?.[0]?.code as string | undefined;

test('skills: upsert versions, unchanged content keeps the version, tags follow the profile rule, search and filters page with cursors', () =>
  withApp(async (app) => {
    const a = await agent(app, 'skills-a');
    const b = await agent(app, 'skills-b');
    const created = await a.post('/v1/exchange/skills/upsert', skill('port-brief', { tags: [' Ports ', 'congestion', 'ports'], inputs: 'A LOCODE.', outputs: 'A brief.' }));
    assert.equal(created.status, 200, created.text);
    const first = created.body.data.skill;
    assert.equal(created.body.data.changed, true);
    assert.match(first.skill_id, /^skl_[0-9a-f]{20}$/);
    assert.deepEqual([first.owner_id, first.slug, first.version, first.tags, first.hidden, first.pending_transfer], [a.agentId, 'port-brief', 1, ['ports', 'congestion'], false, null]);

    const same = await a.post('/v1/exchange/skills/upsert', skill('port-brief', { tags: ['ports', 'congestion'], inputs: 'A LOCODE.', outputs: 'A brief.' }));
    assert.deepEqual([same.body.data.changed, same.body.data.skill.version], [false, 1]);
    app.clock.advance(HOUR);
    const updated = await a.post('/v1/exchange/skills/upsert', skill('port-brief', { title: 'Port brief v2', tags: ['ports'] }));
    assert.deepEqual([updated.body.data.changed, updated.body.data.skill.version, updated.body.data.skill.skill_id, updated.body.data.skill.title], [true, 2, first.skill_id, 'Port brief v2']);

    const detail = await b.get(`/v1/exchange/skills?skill_id=${first.skill_id}`);
    assert.equal(detail.status, 200);
    const item = detail.body.data.items[0];
    assert.equal(item.hidden, undefined, 'only the owner learns the hidden flag');
    assert.deepEqual(
      item.versions.map((v: any) => [v.version, v.change, v.title, v.tags]),
      [
        [2, 'updated', 'Port brief v2', ['ports']],
        [1, 'created', 'Skill port-brief', ['ports', 'congestion']],
      ],
    );

    for (const [field, body] of [
      ['body.slug', skill('Bad Slug')],
      ['body.title', skill('ok-slug', { title: 'x' })],
      ['body.tags', skill('ok-slug', { tags: ['no spaces allowed'] })],
      ['body.description', skill('ok-slug', { description: 'write to me at someone@example.com' })],
    ] as const) {
      const bad = await a.post('/v1/exchange/skills/upsert', body);
      assert.equal(bad.status, 400, field);
      assert.deepEqual([code(bad), bad.body.errors[0].field], ['skill_input_invalid', field]);
    }

    await b.post('/v1/exchange/skills/upsert', skill('ais-decoder', { tags: ['ais'], description: 'Decodes AIS type 5 messages.' }));
    app.clock.advance(1000);
    await b.post('/v1/exchange/skills/upsert', skill('eta-model', { tags: ['ais', 'eta'], description: 'Estimates arrival times.' }));
    assert.deepEqual(
      (await a.get('/v1/exchange/skills?tag=ais')).body.data.items.map((s: any) => s.slug),
      ['eta-model', 'ais-decoder'],
    );
    assert.deepEqual(
      (await a.get('/v1/exchange/skills?q=DECODES%20type')).body.data.items.map((s: any) => s.slug),
      ['ais-decoder'],
    );
    assert.deepEqual((await a.get('/v1/exchange/skills?q=100%25')).body.data.items, [], 'LIKE wildcards are literal');
    assert.deepEqual(
      (await b.get(`/v1/exchange/skills?owner=${a.agentId}`)).body.data.items.map((s: any) => s.slug),
      ['port-brief'],
    );

    const page1 = await a.get('/v1/exchange/skills?limit=2');
    assert.equal(page1.body.data.items.length, 2);
    const page2 = await a.get(`/v1/exchange/skills?limit=2&cursor=${page1.body.data.next_cursor}`);
    assert.deepEqual([page2.body.data.items.length, page2.body.data.next_cursor], [1, null]);
    assert.deepEqual([...page1.body.data.items, ...page2.body.data.items].map((s: any) => s.slug).sort(), ['ais-decoder', 'eta-model', 'port-brief']);
    assert.equal(code(await a.get('/v1/exchange/skills?cursor=forged.AAAAAAAAAAAAAAAAAAAAAA')), 'cursor_invalid');
    assert.equal(code(await a.get('/v1/exchange/skills?skill_id=skl_missing')), 'skill_not_found');
  }));

test('charters: versions kept and listed, unchanged content keeps the version; the charter unlocks the skill shelf and transfers', () =>
  withApp(async (app) => {
    const a = await agent(app, 'charter-a');
    const b = await agent(app, 'charter-b');
    const before = (await a.get('/v1/exchange/charters/motivation')).body.data;
    assert.deepEqual(
      [before.has_charter, before.charter, before.skills.held, before.skills.limit, before.privileges.every((p: any) => p.requires_charter && !p.available)],
      [false, null, 0, COMMUNITY_LIMITS.skillsWithoutCharter, true],
    );
    assert.match(before.next_step, /POST \/v1\/exchange\/charters\/upsert/);

    for (let i = 0; i < COMMUNITY_LIMITS.skillsWithoutCharter; i++) assert.equal((await a.post('/v1/exchange/skills/upsert', skill(`shelf-${i}`))).status, 200);
    const fourth = await a.post('/v1/exchange/skills/upsert', skill('shelf-x'));
    assert.deepEqual([fourth.status, code(fourth)], [403, 'charter_required']);

    for (const [field, body] of [
      ['body.purpose', { ...CHARTER, purpose: 'short' }],
      ['body.rules', { ...CHARTER, rules: [] }],
      ['body.rules', { ...CHARTER, rules: ['Same rule', 'Same rule'] }],
      ['body.data_commitments[0]', { ...CHARTER, data_commitments: ['no'] }],
      ['body.contact_policy', { ...CHARTER, contact_policy: 'call +44 20 7946 0958 any time' }],
    ] as const) {
      const bad = await a.post('/v1/exchange/charters/upsert', body);
      assert.deepEqual([bad.status, code(bad), bad.body.errors[0].field], [400, 'charter_input_invalid', field], JSON.stringify(body));
    }

    const published = await a.post('/v1/exchange/charters/upsert', CHARTER);
    assert.equal(published.status, 200, published.text);
    assert.deepEqual([published.body.data.changed, published.body.data.charter.version, published.body.data.charter.rules, published.body.data.charter.hidden], [true, 1, CHARTER.rules, false]);
    assert.equal((await a.post('/v1/exchange/charters/upsert', CHARTER)).body.data.changed, false);
    app.clock.advance(HOUR);
    const v2 = await a.post('/v1/exchange/charters/upsert', { ...CHARTER, rules: [...CHARTER.rules, 'I post no raw coordinates.'] });
    assert.equal(v2.body.data.charter.version, 2);

    const listed = await b.get(`/v1/exchange/charters?agent_id=${a.agentId}`);
    const mine = listed.body.data.items[0];
    assert.deepEqual([mine.agent_id, mine.version, mine.hidden, mine.versions.map((v: any) => v.version), mine.versions[1].rules], [a.agentId, 2, undefined, [2, 1], CHARTER.rules]);

    const after = (await a.get('/v1/exchange/charters/motivation')).body.data;
    assert.deepEqual([after.has_charter, after.charter.version, after.charter.hidden, after.skills.held, after.skills.limit], [true, 2, false, 3, COMMUNITY_LIMITS.skillsWithCharter]);
    assert.ok(after.privileges.every((p: any) => p.available));
    assert.equal((await a.post('/v1/exchange/skills/upsert', skill('shelf-x'))).status, 200, 'a charter raises the shelf');

    app.clock.advance(1000);
    await b.post('/v1/exchange/charters/upsert', { ...CHARTER, purpose: 'I decode AIS messages for other agents.' });
    const all = await a.get('/v1/exchange/charters?limit=1');
    assert.equal(all.body.data.items[0].agent_id, b.agentId, 'most recently updated first');
    const rest = await a.get(`/v1/exchange/charters?limit=1&cursor=${all.body.data.next_cursor}`);
    assert.deepEqual([rest.body.data.items[0].agent_id, rest.body.data.next_cursor], [a.agentId, null]);
    assert.equal(code(await a.get('/v1/exchange/charters?cursor=nope.AAAAAAAAAAAAAAAAAAAAAA')), 'cursor_invalid');
  }));

test('a charter holds at most the charter shelf of skills', () =>
  withApp(async (app) => {
    const a = await agent(app, 'shelf-full');
    await a.post('/v1/exchange/charters/upsert', CHARTER);
    for (let i = 0; i < COMMUNITY_LIMITS.skillsWithCharter; i++) assert.equal((await a.post('/v1/exchange/skills/upsert', skill(`item-${i}`))).status, 200);
    const over = await a.post('/v1/exchange/skills/upsert', skill('one-more'));
    assert.deepEqual([over.status, code(over)], [403, 'skill_limit_reached']);
    assert.equal((await a.post('/v1/exchange/skills/upsert', skill('item-0', { title: 'Updating is not a new skill' }))).status, 200);
  }));

test('skill transfer: offer, one pending offer per skill, accept moves ownership as a new version; decline, withdraw and expiry end offers; history and audit kept', () =>
  withApp(async (app) => {
    const a = await agent(app, 'owner-a');
    const b = await agent(app, 'recipient-b');
    const c = await agent(app, 'bystander-c');
    const s = (await a.post('/v1/exchange/skills/upsert', skill('congestion-brief'))).body.data.skill;
    const offer = (to: string, skillId = s.skill_id) => a.post('/v1/exchange/skills/transfer', { skill_id: skillId, to_agent_id: to, note: 'yours now' });

    assert.equal(code(await offer(b.agentId)), 'charter_required', 'offering needs a charter');
    await a.post('/v1/exchange/charters/upsert', CHARTER);
    assert.equal(code(await offer(a.agentId)), 'skill_self_transfer_forbidden');
    assert.equal(code(await offer('agt_nobody')), 'skill_recipient_invalid');
    await app.bosun.ctx.services.exchangeGate.ban(c.agentId, 'spam');
    assert.equal(code(await offer(c.agentId)), 'skill_recipient_invalid', 'a banned agent answers like an unknown one');
    await app.bosun.ctx.services.exchangeGate.unban(c.agentId);
    assert.equal(code(await c.post('/v1/exchange/skills/transfer', { skill_id: s.skill_id, to_agent_id: b.agentId })), 'skill_owner_required');
    assert.equal(code(await offer(b.agentId, 'skl_missing')), 'skill_not_found');

    const made = await offer(b.agentId);
    assert.equal(made.status, 201, made.text);
    const t1 = made.body.data;
    assert.deepEqual(
      [t1.state, t1.from_agent_id, t1.to_agent_id, t1.note, t1.expires_at],
      ['pending', a.agentId, b.agentId, 'yours now', new Date(app.clock.now() + COMMUNITY_LIMITS.transferTtlMs).toISOString()],
    );
    assert.equal(code(await offer(c.agentId)), 'skill_transfer_pending');

    // the parties see the pending offer; the bystander does not
    assert.equal((await a.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0].pending_transfer.transfer_id, t1.transfer_id);
    assert.equal((await b.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0].pending_transfer.transfer_id, t1.transfer_id);
    const seenByC = (await c.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0];
    assert.deepEqual([seenByC.pending_transfer, seenByC.transfers], [null, []]);
    assert.equal(code(await c.post('/v1/exchange/skills/transfer/respond', { transfer_id: t1.transfer_id, decision: 'accept' })), 'skill_transfer_not_found');

    // wrong party for the answer, then a decline
    assert.equal(code(await a.post('/v1/exchange/skills/transfer/respond', { transfer_id: t1.transfer_id, decision: 'accept' })), 'transfer_state_invalid');
    assert.equal(code(await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t1.transfer_id, decision: 'withdraw' })), 'transfer_state_invalid');
    const declined = await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t1.transfer_id, decision: 'decline' });
    assert.deepEqual([declined.status, declined.body.data.transfer.state, declined.body.data.skill], [200, 'declined', null]);
    assert.equal(code(await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t1.transfer_id, decision: 'accept' })), 'transfer_state_invalid');

    // withdraw by the owner
    app.clock.advance(1000);
    const t2 = (await offer(b.agentId)).body.data;
    assert.equal((await a.post('/v1/exchange/skills/transfer/respond', { transfer_id: t2.transfer_id, decision: 'withdraw' })).body.data.transfer.state, 'withdrawn');

    // expiry at exactly the TTL, by the injected clock
    app.clock.advance(1000);
    const t3 = (await offer(b.agentId)).body.data;
    app.clock.advance(COMMUNITY_LIMITS.transferTtlMs - 1);
    assert.equal((await b.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0].pending_transfer.transfer_id, t3.transfer_id);
    app.clock.advance(1);
    const expired = await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t3.transfer_id, decision: 'accept' });
    assert.deepEqual([expired.status, code(expired)], [409, 'transfer_state_invalid']);
    assert.match(expired.body.errors[0].message, /is expired/);

    // accept needs the recipient's charter, then moves ownership
    const t4 = (await offer(b.agentId)).body.data;
    assert.equal(code(await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t4.transfer_id, decision: 'accept' })), 'charter_required');
    await b.post('/v1/exchange/charters/upsert', { ...CHARTER, purpose: 'I keep the congestion tooling alive.' });
    await b.post('/v1/exchange/skills/upsert', skill('congestion-brief', { title: 'My own one' }));
    assert.equal(code(await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t4.transfer_id, decision: 'accept' })), 'skill_slug_conflict');
    const mine = (await b.get(`/v1/exchange/skills?owner=${b.agentId}`)).body.data.items[0];
    await app.bosun.ctx.store.db.deleteFrom('exchange_skills').where('skill_id', '=', mine.skill_id).execute();
    const accepted = await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: t4.transfer_id, decision: 'accept' });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual([accepted.body.data.transfer.state, accepted.body.data.skill.owner_id, accepted.body.data.skill.version], ['accepted', b.agentId, 2]);
    assert.equal(code(await offer(c.agentId)), 'skill_owner_required', 'the former owner no longer owns it');

    const history = (await c.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0];
    assert.deepEqual(
      history.transfers.map((t: any) => t.state),
      ['accepted'],
      'a bystander sees only the public ownership history',
    );
    assert.deepEqual(
      history.versions.map((v: any) => [v.version, v.change, v.owner_id]),
      [
        [2, 'transferred', b.agentId],
        [1, 'created', a.agentId],
      ],
    );
    const parties = (await a.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0];
    assert.deepEqual(
      parties.transfers.map((t: any) => t.state),
      ['accepted', 'expired', 'withdrawn', 'declined'],
    );

    const audit = await app.bosun.ctx.services.audit.list({ limit: 100 });
    const actions = audit.filter((e) => e.action.startsWith('exchange.skill.transfer')).map((e) => e.action);
    assert.deepEqual(actions.sort(), [
      'exchange.skill.transfer_accepted',
      'exchange.skill.transfer_declined',
      'exchange.skill.transfer_offer',
      'exchange.skill.transfer_offer',
      'exchange.skill.transfer_offer',
      'exchange.skill.transfer_offer',
      'exchange.skill.transfer_withdrawn',
    ]);

    // the expiry job marks unanswered offers expired in the store
    const s2 = (await b.post('/v1/exchange/skills/upsert', skill('second-skill'))).body.data.skill;
    await b.post('/v1/exchange/skills/transfer', { skill_id: s2.skill_id, to_agent_id: a.agentId });
    app.clock.advance(COMMUNITY_LIMITS.transferTtlMs + DAY);
    await app.bosun.scheduler.runNow('exchange_skill_transfer_expiry');
    const rows = await app.bosun.ctx.store.db.selectFrom('exchange_skill_transfers').select('state').where('skill_id', '=', s2.skill_id).execute();
    assert.deepEqual(
      rows.map((r) => r.state),
      ['expired'],
    );
  }));

test('linked agents cannot transfer skills to each other; banned agents are refused on every exchange community operation', () =>
  withApp(async (app) => {
    const register = (name: string, address: string) => app.registerAgent(name, [], address);
    const x = await register('linked-x', '192.0.2.10');
    const y = await register('linked-y', '192.0.2.77');
    const post = (who: { apiKey: string }, url: string, body: unknown) => app.api('POST', url, { token: who.apiKey, body });
    await post(x, '/v1/exchange/charters/upsert', CHARTER);
    const s = (await post(x, '/v1/exchange/skills/upsert', skill('linked-skill'))).body.data.skill;
    const refused = await post(x, '/v1/exchange/skills/transfer', { skill_id: s.skill_id, to_agent_id: y.agentId });
    assert.deepEqual([refused.status, code(refused)], [403, 'exchange_linked_agent_forbidden']);

    await app.bosun.ctx.services.exchangeGate.ban(y.agentId, 'farming');
    const K_OPERATIONS: Array<[string, string, unknown?]> = [
      ['GET', '/v1/exchange/skills'],
      ['POST', '/v1/exchange/skills/upsert', skill('banned-skill')],
      ['POST', '/v1/exchange/skills/transfer', { skill_id: s.skill_id, to_agent_id: x.agentId }],
      ['POST', '/v1/exchange/skills/transfer/respond', { transfer_id: 'sktr_x', decision: 'accept' }],
      ['GET', '/v1/exchange/charters'],
      ['POST', '/v1/exchange/charters/upsert', CHARTER],
      ['GET', '/v1/exchange/charters/motivation'],
      ['GET', '/v1/exchange/agents/active'],
      ['GET', '/v1/exchange/swarm_stats'],
      ['GET', '/v1/exchange/real_agents_history'],
      ['GET', '/v1/exchange/builds/continuations'],
    ];
    for (const [method, url, body] of K_OPERATIONS) {
      const res = await app.api(method, url, { token: y.apiKey, body });
      assert.deepEqual([res.status, code(res)], [403, 'exchange_banned'], `${method} ${url}`);
    }
  }));

test('operator moderation hides skills and charters from everybody but their author, and restores them; a hidden charter grants nothing', () =>
  withApp(async (app) => {
    const a = await agent(app, 'moderated-a');
    const b = await agent(app, 'viewer-b');
    const c = await agent(app, 'viewer-c');
    await a.post('/v1/exchange/charters/upsert', CHARTER);
    const s = (await a.post('/v1/exchange/skills/upsert', skill('spammy-skill'))).body.data.skill;
    const gate = app.bosun.ctx.services.exchangeGate;
    assert.deepEqual(
      gate.kinds().filter((k) => k === 'skill' || k === 'charter'),
      ['charter', 'skill'],
    );

    assert.equal(await gate.hide('skill', s.skill_id, 'spam'), true);
    assert.equal(await gate.hide('charter', a.agentId, 'misleading'), true);
    assert.equal(await gate.hide('skill', 'skl_missing', 'x'), false);
    for (const viewer of [b, c]) {
      assert.deepEqual((await viewer.get('/v1/exchange/skills')).body.data.items, []);
      assert.equal(code(await viewer.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)), 'skill_not_found');
      assert.deepEqual((await viewer.get('/v1/exchange/charters')).body.data.items, []);
      assert.equal((await viewer.get('/v1/exchange/swarm_stats')).body.data.exchange.skills, 0);
    }
    const own = (await a.get('/v1/exchange/skills')).body.data.items;
    assert.deepEqual(
      own.map((x: any) => [x.skill_id, x.hidden]),
      [[s.skill_id, true]],
    );
    assert.equal((await a.get('/v1/exchange/charters')).body.data.items[0].hidden, true);
    const motivation = (await a.get('/v1/exchange/charters/motivation')).body.data;
    assert.deepEqual([motivation.has_charter, motivation.charter.hidden, motivation.skills.limit], [false, true, COMMUNITY_LIMITS.skillsWithoutCharter]);
    assert.match(motivation.next_step, /hid your charter/);
    const blocked = await a.post('/v1/exchange/skills/transfer', { skill_id: s.skill_id, to_agent_id: b.agentId });
    assert.equal(code(blocked), 'transfer_state_invalid', 'a hidden skill cannot change hands');

    assert.equal(await gate.restore('skill', s.skill_id), true);
    assert.equal(await gate.restore('charter', a.agentId), true);
    assert.equal((await b.get(`/v1/exchange/skills?skill_id=${s.skill_id}`)).body.data.items[0].skill_id, s.skill_id);
    assert.equal((await c.get('/v1/exchange/charters')).body.data.items[0].agent_id, a.agentId);
    assert.equal((await a.post('/v1/exchange/skills/transfer', { skill_id: s.skill_id, to_agent_id: b.agentId })).status, 201);

    const audit = await app.bosun.ctx.services.audit.list({ limit: 100 });
    assert.deepEqual(
      audit
        .filter((e) => e.action === 'exchange.hide' || e.action === 'exchange.restore')
        .map((e) => `${e.action} ${e.target}`)
        .sort(),
      [`exchange.hide charter:${a.agentId}`, `exchange.hide skill:${s.skill_id}`, `exchange.restore charter:${a.agentId}`, `exchange.restore skill:${s.skill_id}`],
    );
  }));

test('the operator hides and restores a skill through bosun exchange hide|restore skill', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('exchange-skills');
  try {
    const bosun = (...args: string[]) => runCli(['exchange', ...args], { env });
    const a = await agent(app, 'cli-owner');
    const b = await agent(app, 'cli-viewer');
    const s = (await a.post('/v1/exchange/skills/upsert', skill('cli-skill'))).body.data.skill;
    const hidden = await bosun('hide', 'skill', s.skill_id, '--reason', 'spam');
    assert.equal(hidden.status, 0, hidden.stderr);
    assert.equal(hidden.stdout.trim(), `skill ${s.skill_id} hidden`);
    assert.deepEqual((await b.get('/v1/exchange/skills')).body.data.items, []);
    const missing = await bosun('hide', 'charter', b.agentId, '--reason', 'spam');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, new RegExp(`no charter ${b.agentId}`));
    assert.equal((await bosun('restore', 'skill', s.skill_id)).stdout.trim(), `skill ${s.skill_id} restored`);
    assert.equal((await b.get('/v1/exchange/skills')).body.data.items[0].skill_id, s.skill_id);
  } finally {
    await cleanup();
  }
});
