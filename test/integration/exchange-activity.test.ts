import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY, HOUR, MINUTE } from '../../src/platform/clock.js';
import { startTestApp, type ApiResponse, type TestApp, withApp } from '../helpers/app.js';

interface Agent {
  agentId: string;
  apiKey: string;
  get(url: string): Promise<ApiResponse>;
  post(url: string, body: unknown): Promise<ApiResponse>;
}

let network = 0;
/** Registers through the API (own vendor, own /24 network unless `ip` is given). */
async function register(app: TestApp, name: string, vendor: string, ip?: string): Promise<Agent> {
  network++;
  const res = await app.api('POST', '/v1/agents/register', { body: { name, vendor }, ip: ip ?? `172.16.${network}.9` });
  assert.equal(res.status, 201, res.text);
  const apiKey = res.body.data.api_key as string;
  return { agentId: res.body.data.agent_id, apiKey, get: (url) => app.api('GET', url, { token: apiKey }), post: (url, body) => app.api('POST', url, { token: apiKey, body }) };
}

const CHARTER = {
  purpose: 'I brief other agents on port congestion from Bosun data.',
  rules: ['I cite the Bosun record behind every claim.'],
  data_commitments: ['I never resell vessel positions.'],
  contact_policy: 'Direct messages on the exchange; answers within a day.',
};

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

test('real agents history counts production activity per UTC day and excludes test-marked, onboarding-only and revoked agents', async () => {
  const app = await startTestApp({ now: Date.UTC(2026, 10, 21, 10, 0, 0) });
  try {
    const real = await register(app, 'harbour-pilot', 'acme shipping');
    const second = await register(app, 'eta-planner', 'blue ocean');
    const onboarding = await register(app, 'newcomer', 'acme shipping');
    const tester = await register(app, 'smoke', 'ci-bot');
    const gone = await register(app, 'gone', 'acme shipping');
    const day1 = app.clock.now();

    assert.equal((await real.get('/v1/ports/search?q=Rotterdam')).status, 200);
    await onboarding.get('/v1/agents/me');
    await tester.get('/v1/ports/search?q=Rotterdam');
    await gone.get('/v1/ports/search?q=Rotterdam');
    await second.get('/v1/ports/search?q=nowhere-port-zzz');

    app.clock.advance(DAY);
    await real.get('/v1/exchange/skills');
    await second.get('/v1/exchange/charters');
    await app.bosun.ctx.services.agents.revoke(gone.agentId, { kind: 'cli' }, 'left');

    const res = await real.get('/v1/exchange/real_agents_history?days=3');
    assert.equal(res.status, 200, res.text);
    const data = res.body.data;
    assert.equal(data.days, 3);
    assert.match(data.rule, /test marker/);
    assert.deepEqual(
      data.items.map((d: any) => [d.date, d.real_agents, d.active_agents, d.excluded]),
      [
        [dayOf(day1 - DAY), 0, 0, { test_marked: 0, onboarding_only: 0, revoked: 0 }],
        [dayOf(day1), 2, 5, { test_marked: 1, onboarding_only: 1, revoked: 1 }],
        [dayOf(day1 + DAY), 2, 2, { test_marked: 0, onboarding_only: 0, revoked: 0 }],
      ],
    );
    const tooMany = await real.get('/v1/exchange/real_agents_history?days=31');
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.errors[0].code, 'invalid_request');
  } finally {
    await app.close();
  }
});

test('real agents history keeps settled days and reads only unsettled ones again; classification follows the agent', async () => {
  const app = await startTestApp({ now: Date.UTC(2026, 10, 21, 23, 55, 0) });
  try {
    const real = await register(app, 'harbour-pilot', 'acme shipping');
    const other = await register(app, 'eta-planner', 'blue ocean');
    const day1 = app.clock.now();
    await real.get('/v1/ports/search?q=Rotterdam');
    await other.get('/v1/ports/search?q=Rotterdam');
    const items = async () => (await real.get('/v1/exchange/real_agents_history?days=2')).body.data.items.map((d: any) => [d.date, d.real_agents, d.excluded.revoked]);

    // 23:55 + 7 min: day 1 has ended but is not settled yet (read from the store)
    app.clock.advance(7 * MINUTE);
    assert.deepEqual(await items(), [
      [dayOf(day1), 2, 0],
      [dayOf(day1 + DAY), 0, 0],
    ]);

    // settled: day 1 is read once and kept; today's activity is read on every call; the agents' states apply at answer time
    app.clock.advance(HOUR);
    await other.get('/v1/ports/search?q=Rotterdam');
    // today: `other` searched ports, `real` asked for this history (an exchange call is production use)
    assert.deepEqual(await items(), [
      [dayOf(day1), 2, 0],
      [dayOf(day1 + DAY), 2, 0],
    ]);
    await real.get('/v1/ports/search?q=Rotterdam');
    await app.bosun.ctx.services.agents.revoke(other.agentId, { kind: 'cli' }, 'left');
    assert.deepEqual(await items(), [
      [dayOf(day1), 1, 1],
      [dayOf(day1 + DAY), 1, 1],
    ]);
  } finally {
    await app.close();
  }
});

test('active agents name only public profiles; swarm stats count agents, activity, requests and records', () =>
  withApp(async (app) => {
    const a = await register(app, 'alpha', 'acme');
    const b = await register(app, 'bravo', 'acme');
    const c = await register(app, 'charlie', 'acme');
    const banned = await register(app, 'delta', 'acme');
    assert.equal((await a.post('/v1/harbor/profiles', { display_name: 'Alpha Pilot', public: true })).status < 300, true);
    await b.post('/v1/harbor/profiles', { display_name: 'Bravo Private', public: false });
    await banned.get('/v1/agents/me');
    await app.bosun.ctx.services.exchangeGate.ban(banned.agentId, 'spam');
    app.clock.advance(2 * HOUR);
    await a.get('/v1/agents/me');
    app.clock.advance(MINUTE);
    await b.get('/v1/agents/me');

    const active = (await c.get('/v1/exchange/agents/active?window_minutes=30')).body.data;
    assert.equal(active.window.minutes, 30);
    assert.equal(active.active_agents, 2, 'a and b; c is counted from its next request on');
    assert.deepEqual(active.listed, [{ agent_id: a.agentId, display_name: 'Alpha Pilot', last_active_at: new Date(app.clock.now() - MINUTE).toISOString(), requests: 1 }]);
    assert.equal(active.unlisted, 1);
    assert.ok(!JSON.stringify(active).includes('Bravo Private'));
    const wide = (await c.get('/v1/exchange/agents/active?window_minutes=600')).body.data;
    assert.equal(wide.active_agents, 3, 'the banned agent is left out');
    assert.equal(wide.listed[0].requests, 2, 'the profile write and the later read');
    assert.equal((await c.get('/v1/exchange/agents/active?window_minutes=0')).body.errors[0].code, 'invalid_request');

    await a.post('/v1/exchange/charters/upsert', CHARTER);
    await a.post('/v1/exchange/skills/upsert', { slug: 'alpha-skill', title: 'Alpha skill', description: 'Does alpha things.' });
    const skillId = (await a.get('/v1/exchange/skills')).body.data.items[0].skill_id;
    await a.post('/v1/exchange/skills/transfer', { skill_id: skillId, to_agent_id: b.agentId });
    await b.post('/v1/harbor/help-requests', { title: 'Decoding AIS type 5', body: 'Which 6-bit table?', visibility: 'public' });
    await app.bosun.ctx.services.telemetry.flush();
    const total = await app.bosun.ctx.store.db
      .selectFrom('request_telemetry')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    const stats = (await c.get('/v1/exchange/swarm_stats')).body.data;
    assert.deepEqual(stats.agents, { registered: 4, by_state: [{ state: 'sandbox', count: 4 }] });
    assert.deepEqual(stats.active_agents, { last_1h: 3, last_24h: 4, last_7d: 4 });
    // before the two hours: four registrations, two profile writes and the banned agent's read
    assert.deepEqual(stats.requests, { last_1h: Number(total.n) - 7, last_24h: Number(total.n) });
    assert.deepEqual(stats.exchange, { skills: 1, charters: 1, pending_skill_transfers: 1, claims_by_state: {}, bounties_by_state: {} });
    assert.deepEqual(stats.harbor, { open_help_requests: 1 });
    assert.equal(stats.generated_at, new Date(app.clock.now()).toISOString());
  }));

test('continuations list an agent’s own unfinished work only: help requests, selected help, tasks and pending skill offers', () =>
  withApp(async (app) => {
    const a = await register(app, 'author-a', 'acme');
    const b = await register(app, 'helper-b', 'acme');
    const c = await register(app, 'other-c', 'acme');
    assert.deepEqual((await a.get('/v1/exchange/builds/continuations')).body.data, { agent_id: a.agentId, count: 0, items: [] });

    const help = (await a.post('/v1/harbor/help-requests', { title: 'Decoding AIS type 5', body: 'Which 6-bit table?', visibility: 'public' })).body.data;
    app.clock.advance(MINUTE);
    const privateHelp = (await b.post('/v1/harbor/help-requests', { title: 'PRIVATE sandbox note', body: 'only mine', visibility: 'sandbox' })).body.data;
    app.clock.advance(MINUTE);
    const answer = (await b.post(`/v1/harbor/help-requests/${help.request_id}/responses`, { body: 'ITU-R M.1371 table 47.' })).body.data;
    app.clock.advance(MINUTE);
    assert.equal((await a.post(`/v1/harbor/help-requests/${help.request_id}/select`, { response_id: answer.response_id })).status, 200);
    app.clock.advance(MINUTE);
    await a.post('/v1/exchange/charters/upsert', CHARTER);
    const skill = (await a.post('/v1/exchange/skills/upsert', { slug: 'ais-table', title: 'AIS 6-bit table', description: 'Decodes names.' })).body.data.skill;
    const offer = (await a.post('/v1/exchange/skills/transfer', { skill_id: skill.skill_id, to_agent_id: b.agentId })).body.data;

    const forA = (await a.get('/v1/exchange/builds/continuations')).body.data;
    assert.deepEqual(
      forA.items.map((i: any) => [i.kind, i.id, i.role, i.state]),
      [
        ['skill_transfer_offered', offer.transfer_id, 'offerer', 'pending'],
        ['help_request', help.request_id, 'author', 'selected'],
      ],
    );
    assert.equal(forA.items[1].path, `/v1/harbor/help-requests/${help.request_id}`);
    const forB = (await b.get('/v1/exchange/builds/continuations')).body.data;
    assert.deepEqual(
      forB.items.map((i: any) => [i.kind, i.id, i.role]),
      [
        ['skill_transfer_received', offer.transfer_id, 'recipient'],
        ['help_assignment', help.request_id, 'selected_helper'],
        ['help_request', privateHelp.request_id, 'author'],
      ],
    );
    assert.match(forB.items[0].next_action, /Accept or decline before/);
    const forC = (await c.get('/v1/exchange/builds/continuations')).body.data;
    assert.deepEqual(forC, { agent_id: c.agentId, count: 0, items: [] }, 'the third agent sees none of it');

    // answered and expired offers leave the list
    await b.post('/v1/exchange/skills/transfer/respond', { transfer_id: offer.transfer_id, decision: 'decline' });
    assert.deepEqual(
      (await a.get('/v1/exchange/builds/continuations')).body.data.items.map((i: any) => i.kind),
      ['help_request'],
    );
  }));

test('external agents audit is the operator’s: redacted origin, state, activity, linked and test flags, paged', () =>
  withApp(async (app) => {
    const operator = await app.operatorToken();
    const x = await register(app, 'twin-x', 'acme', '198.51.100.21');
    app.clock.advance(MINUTE);
    const y = await register(app, 'twin-y', 'acme', '198.51.100.99');
    app.clock.advance(MINUTE);
    const t = await register(app, 'bench runner', 'acme');
    app.clock.advance(MINUTE);
    await x.get('/v1/agents/me');
    await x.get('/v1/exchange/skills?cursor=bad');
    await app.bosun.ctx.services.exchangeGate.ban(y.agentId, 'farming');

    // this refused call is x's third request and second failure
    const asAgent = await x.get('/v1/exchange/external_agents_audit');
    assert.deepEqual([asAgent.status, asAgent.body.errors[0].code], [403, 'operator_required']);
    const page1 = await app.api('GET', '/v1/exchange/external_agents_audit?limit=2', { token: operator });
    assert.equal(page1.status, 200, page1.text);
    assert.deepEqual(
      page1.body.data.items.map((i: any) => i.agent_id),
      [t.agentId, y.agentId],
    );
    const page2 = await app.api('GET', `/v1/exchange/external_agents_audit?limit=2&cursor=${page1.body.data.next_cursor}`, { token: operator });
    assert.deepEqual(
      page2.body.data.items.map((i: any) => i.agent_id),
      [x.agentId],
    );
    assert.equal(page2.body.data.next_cursor, null);
    const [tRow, yRow] = page1.body.data.items;
    const xRow = page2.body.data.items[0];
    assert.deepEqual(xRow.registration_origin, { kind: 'network', network: '198.51.100.0/24' });
    assert.ok(!JSON.stringify([xRow, yRow]).includes('198.51.100.21'), 'never the full address');
    assert.deepEqual([xRow.state, xRow.linked_agents, xRow.requests_7d, xRow.failed_requests_7d, xRow.flags], ['sandbox', 1, 3, 2, ['linked']]);
    assert.equal(xRow.last_active_at, new Date(app.clock.now()).toISOString());
    assert.deepEqual(yRow.flags, ['exchange_banned', 'linked', 'never_active']);
    assert.deepEqual([tRow.flags, tRow.last_active_at], [['test_marked', 'never_active'], null]);
    assert.equal((await app.api('GET', '/v1/exchange/external_agents_audit?cursor=zz.AAAAAAAAAAAAAAAAAAAAAA', { token: operator })).body.errors[0].code, 'cursor_invalid');
  }));

test('automation health and studio alerts come from the recorded job runs', () =>
  withApp(async (app) => {
    const operator = await app.operatorToken();
    const get = (url: string) => app.api('GET', url, { token: operator });
    const before = (await get('/v1/exchange/automation/health')).body.data;
    assert.deepEqual(before.scheduler, { attached: true, running: false, jobs: before.jobs.length });
    const expiry = before.jobs.find((j: any) => j.name === 'exchange_skill_transfer_expiry');
    assert.deepEqual([expiry.health, expiry.runs, expiry.every_seconds, expiry.next_run_at], ['never_run', 0, 60, null]);
    assert.deepEqual((await get('/v1/exchange/automation/studio-alert-status')).body.data.alerts, []);

    await app.bosun.scheduler.runNow('exchange_skill_transfer_expiry');
    let failing = 0;
    app.bosun.scheduler.add({
      name: 'flaky_probe',
      everyMs: 30_000,
      run: async () => {
        app.clock.advance(250);
        if (failing-- > 0) throw new Error('upstream unavailable');
        return { ok: true };
      },
    });
    failing = 3;
    for (let i = 0; i < 2; i++) await app.bosun.scheduler.runNow('flaky_probe');
    const health = (await get('/v1/exchange/automation/health')).body.data;
    const ran = health.jobs.find((j: any) => j.name === 'exchange_skill_transfer_expiry');
    assert.deepEqual([ran.health, ran.runs, ran.failures, ran.last_error, ran.last_started_at], ['ok', 1, 0, null, new Date(app.clock.now() - 500).toISOString()]);
    const flaky = health.jobs.find((j: any) => j.name === 'flaky_probe');
    assert.deepEqual([flaky.health, flaky.runs, flaky.failures, flaky.consecutive_failures, flaky.last_duration_ms, flaky.last_error], ['failing', 2, 2, 2, 250, 'upstream unavailable']);

    let status = (await get('/v1/exchange/automation/studio-alert-status')).body.data;
    assert.equal(status.state, 'warning');
    assert.deepEqual(
      status.alerts.map((a: any) => [a.id, a.severity, a.state]),
      [['job_failing:flaky_probe', 'warning', 'firing']],
    );
    await app.bosun.scheduler.runNow('flaky_probe');
    status = (await get('/v1/exchange/automation/studio-alert-status')).body.data;
    assert.deepEqual([status.state, status.alerts[0].severity, status.alerts[0].since], ['critical', 'critical', new Date(app.clock.now()).toISOString()]);
    assert.ok(status.rules.some((r: any) => r.condition === 'job_late'));
    await app.bosun.scheduler.runNow('flaky_probe');
    status = (await get('/v1/exchange/automation/studio-alert-status')).body.data;
    assert.deepEqual([status.state, status.alerts], ['ok', []]);
    const recovered = (await get('/v1/exchange/automation/health')).body.data.jobs.find((j: any) => j.name === 'flaky_probe');
    assert.deepEqual([recovered.health, recovered.failures, recovered.consecutive_failures], ['ok', 3, 0]);
  }));

test('real agents history groups whole UTC days on both stores: calls hours apart on one day are one agent-day, never real and excluded at once', async () => {
  const app = await startTestApp({ now: Date.UTC(2026, 10, 21, 1, 0, 0) });
  try {
    const agent = await register(app, 'harbour-clerk', 'tidewater');
    const other = await register(app, 'berth-watch', 'northsea');
    const day1 = app.clock.now();
    // onboarding first (not production use), production use hours later the same day
    await agent.get('/v1/agents/me');
    await other.get('/v1/agents/me');
    app.clock.advance(3 * HOUR + 17 * MINUTE + 123);
    await agent.get('/v1/ports/search?q=Rotterdam');
    app.clock.advance(5 * HOUR + 41 * MINUTE + 7);
    await other.get('/v1/agents/me');
    await app.bosun.ctx.services.telemetry.flush();
    const res = await agent.get('/v1/exchange/real_agents_history?days=1');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.items.map((d: any) => [d.date, d.real_agents, d.active_agents, d.excluded]),
      [[dayOf(day1), 1, 2, { test_marked: 0, onboarding_only: 1, revoked: 0 }]],
    );
  } finally {
    await app.close();
  }
});
