import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../../src/platform/clock.js';
import { withApp, type TestApp } from '../helpers/app.js';
import { register, resolvedRequest, type Agent } from './harbor-help-support.js';

const EVENTS = '/v1/workspace/events';
const ACK = '/v1/workspace/events/ack';

const events = (app: TestApp, who: Agent, query = '') => app.api('GET', `${EVENTS}${query}`, { token: who.apiKey });
const kinds = (res: { body: any }) => res.body.data.items.map((e: any) => [e.seq, e.kind]);

test('help requests write events for the other party: answered to the author, selected and closed to the helper; nothing to a third agent', async () => {
  await withApp(async (app) => {
    const [author, helper, third] = [await register(app, 'author'), await register(app, 'helper'), await register(app, 'third')];
    const { request, response } = await resolvedRequest(app, author, helper);
    const forAuthor = await events(app, author);
    assert.deepEqual(kinds(forAuthor), [[1, 'help_request.answered']]);
    assert.deepEqual(forAuthor.body.data.items[0].payload, { help_request_id: request.request_id, response_id: response.response_id, title: 'Decoding AIS type 5' });
    assert.match(forAuthor.body.data.items[0].event_id, /^wev_[0-9a-f]{20}$/);
    assert.equal(forAuthor.body.data.items[0].created_at, '2026-11-21T00:00:00.000Z');
    const forHelper = await events(app, helper);
    assert.deepEqual(kinds(forHelper), [
      [1, 'help_request.selected'],
      [2, 'help_request.closed'],
    ]);
    assert.equal(forHelper.body.data.items[1].payload.state, 'resolved');
    const forThird = await events(app, third);
    assert.deepEqual(forThird.body.data, { items: [], next_after: 0, more_available: false, timed_out: false });
  });
});

test('an operator answer to an operator request reaches the requesting agent only', async () => {
  await withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')];
    const created = await app.api('POST', '/v1/harbor/operator-requests', { token: a.apiKey, body: { category: 'api_problem', subject: 'Broken search', body: 'details' } });
    const id = created.body.data.id as string;
    const operatorRequests = app.bosun.ctx.services.operatorRequests;
    await operatorRequests.respond(id, { publicResponse: 'Looking into it.', internalNote: 'secret note' }, { kind: 'cli' });
    await operatorRequests.close(id, { publicResponse: 'Fixed.' }, { kind: 'cli' });
    const res = await events(app, a);
    assert.deepEqual(
      res.body.data.items.map((e: any) => [e.kind, e.payload.operator_request_id, e.payload.state, e.payload.public_response]),
      [
        ['operator_request.updated', id, 'answered', 'Looking into it.'],
        ['operator_request.updated', id, 'closed', 'Fixed.'],
      ],
    );
    assert.ok(!res.text.includes('secret note'));
    for (const other of [b, c]) assert.deepEqual((await events(app, other)).body.data.items, []);
  });
});

test('events: after/limit paging, ack up to a sequence or by ids, at-least-once until acknowledged', async () => {
  await withApp(async (app) => {
    const [a, b, c] = [await app.registerAgent('alpha'), await app.registerAgent('beta'), await app.registerAgent('gamma')];
    const emit = app.bosun.ctx.services.workspace.emit;
    for (let i = 1; i <= 5; i++) await emit(a.agentId, 'test.kind', { n: i });
    await emit(b.agentId, 'test.kind', { n: 'b1' });

    const page1 = await events(app, a, '?limit=2');
    assert.deepEqual(
      page1.body.data.items.map((e: any) => [e.seq, e.payload.n]),
      [
        [1, 1],
        [2, 2],
      ],
    );
    assert.deepEqual([page1.body.data.next_after, page1.body.data.more_available], [2, true]);
    const page2 = await events(app, a, `?after=${page1.body.data.next_after}&limit=2`);
    assert.deepEqual(
      page2.body.data.items.map((e: any) => e.seq),
      [3, 4],
    );
    // not acknowledged: read again from the start, everything is still there
    assert.equal((await events(app, a)).body.data.items.length, 5);

    const acked = await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 2 } });
    assert.deepEqual(acked.body.data, { acknowledged: 2, unknown_event_ids: [], pending: 3, last_seq: 5 });
    assert.deepEqual(
      (await events(app, a)).body.data.items.map((e: any) => e.seq),
      [3, 4, 5],
    );
    const again = await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 2 } });
    assert.equal(again.body.data.acknowledged, 0, 'repeating an ack is harmless');

    const four = page2.body.data.items[1].event_id as string;
    const bEvent = (await events(app, b)).body.data.items[0].event_id as string;
    const byId = await app.api('POST', ACK, { token: a.apiKey, body: { event_ids: [four, bEvent, 'wev_unknown'] } });
    assert.deepEqual(byId.body.data, { acknowledged: 1, unknown_event_ids: [bEvent, 'wev_unknown'], pending: 2, last_seq: 5 });
    assert.deepEqual(
      (await events(app, a)).body.data.items.map((e: any) => e.seq),
      [3, 5],
    );
    assert.equal((await events(app, b)).body.data.items.length, 1, "another agent's id acknowledges nothing of theirs");

    const beyond = await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 6 } });
    assert.equal(beyond.status, 400);
    assert.deepEqual([beyond.body.errors[0].code, beyond.body.errors[0].field], ['invalid_request', 'body.up_to']);
    const both = await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 1, event_ids: [four] } });
    assert.equal(both.status, 400);
    const neither = await app.api('POST', ACK, { token: a.apiKey, body: {} });
    assert.equal(neither.status, 400);
    const fresh = await app.api('POST', ACK, { token: c.apiKey, body: { up_to: 1 } });
    assert.equal(fresh.status, 400, 'an agent without events acknowledges nothing');

    assert.equal((await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 5 } })).body.data.pending, 0);
    assert.deepEqual((await events(app, a)).body.data.items, []);
    await emit(a.agentId, 'test.kind', { n: 6 });
    assert.deepEqual(
      (await events(app, a)).body.data.items.map((e: any) => e.seq),
      [6],
      'sequence numbers keep increasing',
    );
  });
});

test('events: a long poll returns as soon as an event is written, and times out empty otherwise', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const b = await app.registerAgent('beta');
    const started = performance.now();
    const waiting = events(app, a, '?timeout=10');
    setTimeout(() => {
      void app.bosun.ctx.services.workspace.emit(b.agentId, 'test.other', {});
      setTimeout(() => void app.bosun.ctx.services.workspace.emit(a.agentId, 'test.kind', { n: 1 }), 150);
    }, 100);
    const res = await waiting;
    assert.deepEqual(kinds(res), [[1, 'test.kind']]);
    assert.equal(res.body.data.timed_out, false);
    assert.ok(performance.now() - started < 5000, 'woken, not timed out');

    const empty = await events(app, a, '?after=1&timeout=1');
    assert.deepEqual([empty.body.data.items, empty.body.data.timed_out], [[], true]);
  });
});

test('events retention: acknowledged events go 7 days after the ack, unacknowledged ones 30 days after writing', async () => {
  await withApp(async (app) => {
    const a = await app.registerAgent('alpha');
    const { emit, enforceRetention } = app.bosun.ctx.services.workspace;
    await emit(a.agentId, 'test.kind', { n: 1 });
    await emit(a.agentId, 'test.kind', { n: 2 });
    await app.api('POST', ACK, { token: a.apiKey, body: { up_to: 1 } });
    app.clock.advance(7 * DAY - 1);
    assert.equal(await enforceRetention(), 0);
    app.clock.advance(1);
    assert.equal(await enforceRetention(), 0, 'exactly 7 days after the ack it is still kept');
    app.clock.advance(1);
    assert.equal(await enforceRetention(), 1);
    app.clock.advance(23 * DAY - 2);
    assert.equal(await enforceRetention(), 0);
    app.clock.advance(2);
    assert.equal(await enforceRetention(), 1);
    assert.deepEqual((await events(app, a)).body.data.items, []);
    await emit(a.agentId, 'test.kind', { n: 3 });
    assert.equal((await events(app, a)).body.data.items[0].seq, 3, 'purging never reuses a sequence number');
  });
});
