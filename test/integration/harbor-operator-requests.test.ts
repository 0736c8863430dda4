import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { withApp } from '../helpers/app.js';

const URL = '/v1/harbor/operator-requests';

test('an agent creates operator requests and lists only its own, newest first, with cursor paging', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.api('POST', URL, { token: a.apiKey, body: { category: 'api_problem', subject: `Problem ${i}`, body: `Details ${i}` } });
      assert.equal(res.status, 201);
      assert.match(res.body.data.request_id, /^opr_[0-9a-f]{20}$/);
      assert.equal(res.body.data.state, 'open');
      assert.equal(res.body.data.public_response, null);
      assert.deepEqual(res.body.data.requested_scopes, []);
      ids.push(res.body.data.request_id);
      app.clock.advance(1000);
    }
    await app.api('POST', URL, { token: b.apiKey, body: { category: 'collaboration', subject: 'B only', body: 'private to B' } });

    const page1 = await app.api('GET', `${URL}?limit=2`, { token: a.apiKey });
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.body.data.items.map((r: any) => r.request_id),
      [ids[2], ids[1]],
    );
    assert.equal(typeof page1.body.data.next_cursor, 'string');
    const page2 = await app.api('GET', `${URL}?limit=2&cursor=${page1.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual(
      page2.body.data.items.map((r: any) => r.request_id),
      [ids[0]],
    );
    assert.equal(page2.body.data.next_cursor, null);
    assert.ok(!page1.text.includes('B only') && !page2.text.includes('B only'));

    const bad = await app.api('GET', `${URL}?cursor=not-a-cursor`, { token: a.apiKey });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'cursor_invalid');

    const one = await app.api('GET', `${URL}?id=${ids[1]}`, { token: a.apiKey });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.items.length, 1);
    assert.equal(one.body.data.items[0].subject, 'Problem 1');
  });
});

test('operator request input is validated', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const cases: Array<[unknown, string]> = [
      [{ category: 'gossip', subject: 'Hello', body: 'x' }, 'body.category'],
      [{ category: 'api_problem', subject: 'Hi', body: 'x' }, 'body.subject'],
      [{ category: 'api_problem', subject: 'Hello', body: '' }, 'body.body'],
      [{ category: 'api_problem', subject: 'Hello', body: 'é'.repeat(2001) }, 'body.body'],
      [{ category: 'api_problem', subject: 'Hello', body: 'x', requested_scopes: ['snapshot:read'] }, 'body.requested_scopes'],
      [{ category: 'access_request', subject: 'Hello', body: 'x', requested_scopes: ['harbor:public:moderate'] }, 'body.requested_scopes'],
      [{ category: 'access_request', subject: 'Hello', body: 'x', requested_scopes: ['root'] }, 'body.requested_scopes'],
      [{ category: 'api_problem', subject: 'Hello', body: 'x', priority: 'high' }, 'body.priority'],
    ];
    for (const [body, field] of cases) {
      const res = await app.api('POST', URL, { token: a.apiKey, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.errors[0].code, 'invalid_request');
      assert.equal(res.body.errors[0].field, field, JSON.stringify(body));
    }
    const list = await app.api('GET', URL, { token: a.apiKey });
    assert.deepEqual(list.body.data.items, []);
    const anonymous = await app.api('POST', URL, { body: { category: 'api_problem', subject: 'Hello', body: 'x' } });
    assert.equal(anonymous.status, 401);
  });
});

test('approving an access request really grants the requested scopes with their documented expiry', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const created = await app.api('POST', URL, {
      token: a.apiKey,
      body: { category: 'access_request', subject: 'Snapshot trial', body: 'One vessel please', requested_scopes: ['snapshot:read', 'harbor:help:report', 'snapshot:read'] },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.data.requested_scopes, ['snapshot:read', 'harbor:help:report']);
    const id = created.body.data.request_id;

    const before = await app.api('GET', '/v1/agents/me', { token: a.apiKey });
    assert.ok(!before.body.data.scopes.includes('snapshot:read'));

    const service = app.bosun.ctx.services.operatorRequests;
    await service.respond(id, { publicResponse: 'Looking at it.', internalNote: 'check the agent history first' }, { kind: 'cli' });
    let mine = await app.api('GET', `${URL}?id=${id}`, { token: a.apiKey });
    assert.equal(mine.body.data.items[0].state, 'answered');
    assert.equal(mine.body.data.items[0].public_response, 'Looking at it.');
    assert.ok(!mine.text.includes('agent history'), 'internal notes never reach the agent');

    app.clock.advance(60_000);
    const approvedAt = app.clock.now();
    const { grants } = await service.approve(id, { days: 30 }, { kind: 'cli' });
    assert.deepEqual(
      grants.map((g) => g.scope),
      ['snapshot:read', 'harbor:help:report'],
    );

    const me = await app.api('GET', '/v1/agents/me', { token: a.apiKey });
    assert.ok(me.body.data.scopes.includes('snapshot:read'));
    assert.ok(me.body.data.scopes.includes('harbor:help:report'));
    const snapshot = me.body.data.scope_grants.find((g: any) => g.scope === 'snapshot:read');
    assert.equal(snapshot.expires_at, new Date(approvedAt + 7 * DAY).toISOString(), 'snapshot:read keeps its fixed 7 days');
    assert.equal(snapshot.granted_by, 'operator');
    const report = me.body.data.scope_grants.find((g: any) => g.scope === 'harbor:help:report');
    assert.equal(report.expires_at, new Date(approvedAt + 30 * DAY).toISOString(), '--days applies where no duration is fixed');

    mine = await app.api('GET', `${URL}?id=${id}`, { token: a.apiKey });
    const item = mine.body.data.items[0];
    assert.equal(item.state, 'approved');
    assert.deepEqual(item.granted_scopes, ['snapshot:read', 'harbor:help:report']);
    assert.match(item.public_response, /snapshot:read \(until /);
    assert.ok(!mine.text.includes('agent history'));

    await assert.rejects(service.reject(id, { publicResponse: 'no' }, { kind: 'cli' }), (e: any) => e.code === 'conflict');

    app.clock.advance(7 * DAY);
    const later = await app.api('GET', '/v1/agents/me', { token: a.apiKey });
    assert.ok(!later.body.data.scopes.includes('snapshot:read'), 'the snapshot grant lapses after 7 days');

    const audit = await app.bosun.ctx.services.audit.list({ limit: 50 });
    const actions = audit.map((e) => e.action);
    assert.ok(actions.includes('harbor.operator_request.respond'));
    assert.ok(actions.includes('harbor.operator_request.approve'));
    assert.ok(actions.includes('agent.scope_grant'));
  });
});

test("rejecting and closing record the public response; an agent never reaches another agent's request", async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const service = app.bosun.ctx.services.operatorRequests;
    const r1 = await app.api('POST', URL, { token: a.apiKey, body: { category: 'access_request', subject: 'Tasks please', body: 'x', requested_scopes: ['harbor:task:read'] } });
    const r2 = await app.api('POST', URL, { token: a.apiKey, body: { category: 'missing_function', subject: 'Need ETA', body: 'y' } });
    await service.reject(r1.body.data.request_id, { publicResponse: 'Not during the sandbox.', internalNote: 'SECRET-NOTE-1' }, { kind: 'cli' });
    await service.close(r2.body.data.request_id, { publicResponse: 'Planned for next release.' }, { kind: 'cli' });

    const list = await app.api('GET', URL, { token: a.apiKey });
    const byId = new Map(list.body.data.items.map((r: any) => [r.request_id, r]));
    assert.equal((byId.get(r1.body.data.request_id) as any).state, 'rejected');
    assert.equal((byId.get(r1.body.data.request_id) as any).public_response, 'Not during the sandbox.');
    assert.deepEqual((byId.get(r1.body.data.request_id) as any).granted_scopes, []);
    assert.equal((byId.get(r2.body.data.request_id) as any).state, 'closed');
    assert.ok(!list.text.includes('SECRET-NOTE-1'));
    const me = await app.api('GET', '/v1/agents/me', { token: a.apiKey });
    assert.ok(!me.body.data.scopes.includes('harbor:task:read'), 'a rejected access request grants nothing');

    const foreign = await app.api('GET', `${URL}?id=${r1.body.data.request_id}`, { token: b.apiKey });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.errors[0].code, 'operator_request_not_found');
    const missing = await app.api('GET', `${URL}?id=opr_00000000000000000000`, { token: b.apiKey });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errors[0].message.replace('opr_00000000000000000000', 'X'), foreign.body.errors[0].message.replace(r1.body.data.request_id, 'X'), 'foreign and missing ids answer alike');
    assert.ok(!foreign.text.includes('Tasks please') && !foreign.text.includes('SECRET-NOTE-1'));
    const bList = await app.api('GET', URL, { token: b.apiKey });
    assert.deepEqual(bList.body.data.items, []);

    const operatorList = await service.listForOperator({ state: 'rejected', limit: 10 });
    assert.deepEqual(
      operatorList.map((r) => r.request_id),
      [r1.body.data.request_id],
    );
    assert.equal(operatorList[0]!.internal_note, 'SECRET-NOTE-1');
    await assert.rejects(service.approve('opr_missing', {}, { kind: 'cli' }), (e: any) => e.code === 'operator_request_not_found');
  });
});

test('operator requests need no stored grant: every non-revoked agent holds the two operator_request scopes', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    await app.bosun.ctx.services.agents.revokeScope(a.agentId, 'harbor:operator_request:read', { kind: 'cli' });
    await app.bosun.ctx.services.agents.revokeScope(a.agentId, 'harbor:operator_request:create', { kind: 'cli' });
    assert.equal((await app.api('POST', URL, { token: a.apiKey, body: { category: 'api_problem', subject: 'Still here', body: 'x' } })).status, 201);
    const res = await app.api('GET', URL, { token: a.apiKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.items[0].subject, 'Still here');
  });
});

test('the daily create limit does not block operator requests (they count as actions only)', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const quota = app.bosun.ctx.services.harborQuota;
    for (let i = 0; i < 10; i++) await quota.charge(a.agentId, 'test.create', { creates: true });
    app.clock.advance(5 * 60 * 1000);
    const res = await app.api('POST', URL, { token: a.apiKey, body: { category: 'api_problem', subject: 'After ten creates', body: 'x' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.id, res.body.data.request_id, 'id, with the deprecated request_id alias');
    const usage = await quota.usage(a.agentId);
    assert.equal(usage.creates_last_24_hours, 10);
  });
});
