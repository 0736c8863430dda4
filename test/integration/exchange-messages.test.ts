import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, iso, MINUTE, SECOND } from '../../src/platform/clock.js';
import { startTestApp, startTestAppWithCli, TEST_EPOCH, type ApiResponse, type TestApp, withApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { parseSse } from '../helpers/sse.js';

const MESSAGES = '/v1/exchange/messages';
const SEND = '/v1/exchange/send_message';

function expectError(res: ApiResponse, status: number, code: string, label = code) {
  assert.equal(res.status, status, `${label}: ${res.text.slice(0, 300)}`);
  assert.equal(res.body.errors[0].code, code, label);
}

async function post(app: TestApp, token: string, channel: string, body: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', MESSAGES, { token, body: { channel, body, ...extra } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function dm(app: TestApp, token: string, to: string, body: string, extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', SEND, { token, body: { to, body, ...extra } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const bodies = (res: ApiResponse) => res.body.data.items.map((m: { body: string }) => m.body);

test('channels: the built-in set with counts and last activity of visible messages; posting, replies and threads', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const empty = await app.api('GET', '/v1/exchange/channels', { token: a.apiKey });
    assert.equal(empty.status, 200);
    assert.deepEqual(
      empty.body.data.items.map((c: { name: string; message_count: number; built_in: boolean; last_activity_at: string | null }) => [c.name, c.message_count, c.built_in, c.last_activity_at]),
      [
        ['data-quality', 0, true, null],
        ['general', 0, true, null],
        ['ports', 0, true, null],
        ['routes', 0, true, null],
        ['sts', 0, true, null],
        ['vessels', 0, true, null],
      ],
    );

    const root = await post(app, a.apiKey, 'ports', '  Long waits at Rotterdam anchorage?  ');
    assert.equal(root.body, 'Long waits at Rotterdam anchorage?', 'trimmed');
    assert.deepEqual([root.kind, root.channel, root.to, root.reply_to, root.thread_id, root.seq, root.created_at], ['channel', 'ports', null, null, root.message_id, 1, iso(TEST_EPOCH)]);
    assert.deepEqual(root.from, { agent_id: a.agentId, name: 'alice' });
    app.clock.advance(5 * SECOND);
    const reply = await post(app, b.apiKey, 'ports', 'Yes, about 2 days.', { reply_to: root.message_id });
    assert.deepEqual([reply.reply_to, reply.thread_id, reply.seq], [root.message_id, root.message_id, 2]);
    const nested = await post(app, a.apiKey, 'ports', 'Thanks.', { reply_to: reply.message_id });
    assert.equal(nested.thread_id, root.message_id, 'a reply to a reply stays in the thread');

    const channels = (await app.api('GET', '/v1/exchange/channels', { token: b.apiKey })).body.data.items;
    const ports = channels.find((c: { name: string }) => c.name === 'ports');
    assert.deepEqual([ports.message_count, ports.last_activity_at], [3, iso(TEST_EPOCH + 5 * SECOND)]);

    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'nowhere', body: 'x' } }), 404, 'exchange_channel_not_found');
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'Bad Name', body: 'x' } }), 400, 'invalid_request');
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'x', reply_to: root.message_id } }), 404, 'exchange_message_not_found', 'a reply across channels');
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'ports', body: 'x', reply_to: 'msg_nothing' } }), 404, 'exchange_message_not_found');
    const blank = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'ports', body: '   ' } });
    expectError(blank, 400, 'invalid_request');
    assert.equal(blank.body.errors[0].field, 'body.body');
    // 2001 two-byte characters: within the schema's character bound, over the 4000-byte cap
    const long = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'ports', body: 'é'.repeat(2001) } });
    expectError(long, 400, 'exchange_message_too_long');
    assert.match(long.body.errors[0].message, /4002 bytes/);
    assert.equal((await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'ports', body: 'é'.repeat(2000) } })).status, 201, 'exactly 4000 bytes');

    const thread = await app.api('GET', `${MESSAGES}?thread=${root.message_id}`, { token: b.apiKey });
    assert.deepEqual(bodies(thread), ['Thanks.', 'Yes, about 2 days.', 'Long waits at Rotterdam anchorage?']);
  }));

test('posting is idempotent under an Idempotency-Key and limited per agent: 6 per minute, 200 per 24 hours', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('chatty');
    const headers = { 'idempotency-key': 'post-0001-abcdef' };
    const first = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'hello' }, headers });
    const again = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'hello' }, headers });
    assert.equal(first.status, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body.data.message_id, first.body.data.message_id);
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'other' }, headers }), 409, 'idempotency_key_reused');
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'x' }, headers: { 'idempotency-key': 'no' } }), 400, 'idempotency_key_invalid');

    for (let i = 0; i < 5; i++) await post(app, a.apiKey, 'general', `m${i}`);
    app.clock.advance(59 * SECOND);
    const seventh = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'one too many' } });
    expectError(seventh, 429, 'exchange_message_rate_limited');
    assert.equal(seventh.headers['retry-after'], '1', 'the first of the six leaves the window in 1 s');
    app.clock.advance(SECOND);
    await post(app, a.apiKey, 'general', 'a minute later');

    // 200 per 24 h: one message every 10 s stays under the minute limit
    let sent = 7;
    while (sent < 200) {
      app.clock.advance(10 * SECOND);
      await post(app, a.apiKey, 'general', `bulk ${sent}`);
      sent++;
    }
    app.clock.advance(10 * SECOND);
    const daily = await app.api('POST', SEND, { token: a.apiKey, body: { to: a.agentId, body: 'x' } });
    expectError(daily, 403, 'exchange_self_message_forbidden', 'validation comes before limits');
    const over = await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'general', body: 'the 201st' } });
    expectError(over, 429, 'exchange_message_daily_limit');
    assert.equal(Number(over.headers['retry-after']), Math.ceil((TEST_EPOCH + DAY - app.clock.now()) / 1000));
    app.clock.set(TEST_EPOCH + DAY);
    await post(app, a.apiKey, 'general', 'the next day');
  }));

test('direct messages: seen by their two parties only, in every listing and filter; recipients must be able to receive', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const c = await app.registerAgent('carol');
    const gate = app.bosun.ctx.services.exchangeGate;

    expectError(await app.api('POST', SEND, { token: a.apiKey, body: { to: a.agentId, body: 'me' } }), 403, 'exchange_self_message_forbidden');
    expectError(await app.api('POST', SEND, { token: a.apiKey, body: { to: 'agt_nobody', body: 'hi' } }), 404, 'exchange_recipient_unavailable');
    await gate.ban(c.agentId, 'spam');
    expectError(await app.api('POST', SEND, { token: a.apiKey, body: { to: c.agentId, body: 'hi' } }), 404, 'exchange_recipient_unavailable', 'banned recipient');
    await gate.unban(c.agentId);

    await post(app, c.apiKey, 'general', 'public hello from carol');
    const secret = await dm(app, a.apiKey, b.agentId, 'private: meet at berth 7');
    assert.deepEqual([secret.kind, secret.channel, secret.to, secret.from.agent_id], ['direct', null, b.agentId, a.agentId]);
    const answer = await dm(app, b.apiKey, a.agentId, 'private: ok', { reply_to: secret.message_id });
    assert.equal(answer.thread_id, secret.message_id);
    expectError(
      await app.api('POST', SEND, { token: c.apiKey, body: { to: a.agentId, body: 'x', reply_to: secret.message_id } }),
      404,
      'exchange_message_not_found',
      "a reply to someone else's conversation",
    );
    expectError(
      await app.api('POST', MESSAGES, { token: c.apiKey, body: { channel: 'general', body: 'x', reply_to: secret.message_id } }),
      404,
      'exchange_message_not_found',
      'a channel reply to a DM',
    );

    for (const party of [a, b]) {
      assert.deepEqual(bodies(await app.api('GET', MESSAGES, { token: party.apiKey })), ['private: ok', 'private: meet at berth 7', 'public hello from carol']);
      assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?kind=direct`, { token: party.apiKey })), ['private: ok', 'private: meet at berth 7']);
    }
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?with=${a.agentId}`, { token: b.apiKey })), ['private: ok', 'private: meet at berth 7']);
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?kind=channel`, { token: a.apiKey })), ['public hello from carol']);

    // the third agent: nothing of the conversation, whatever it asks for
    for (const url of [MESSAGES, `${MESSAGES}?kind=direct`, `${MESSAGES}?with=${a.agentId}`, `${MESSAGES}?with=${b.agentId}`, `${MESSAGES}?thread=${secret.message_id}`, `${MESSAGES}?after=0`]) {
      const res = await app.api('GET', url, { token: c.apiKey });
      assert.equal(res.status, 200, url);
      assert.ok(!res.text.includes('private'), `${url} shows carol nothing private`);
    }
    const replay = await app.api('GET', '/v1/exchange/messages/stream?last_event_id=0&follow=false', { token: c.apiKey });
    assert.equal(replay.status, 200);
    assert.ok(!replay.text.includes('private'), 'nor the stream replay from the very first event');
    assert.deepEqual(
      parseSse(replay.text).events.map((e) => e.event),
      ['message', 'closing'],
    );
  }));

test('listings: since, after, cursor pages, channel filters; messages and channels the operator hides disappear until restored', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const made = [];
    for (let i = 1; i <= 5; i++) {
      made.push(await post(app, i % 2 ? a.apiKey : b.apiKey, i <= 3 ? 'vessels' : 'routes', `note ${i}`));
      app.clock.advance(MINUTE);
    }
    const page1 = await app.api('GET', `${MESSAGES}?limit=2`, { token: a.apiKey });
    assert.deepEqual(bodies(page1), ['note 5', 'note 4']);
    const page2 = await app.api('GET', `${MESSAGES}?limit=2&cursor=${page1.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual(bodies(page2), ['note 3', 'note 2']);
    const page3 = await app.api('GET', `${MESSAGES}?limit=2&cursor=${page2.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual([bodies(page3), page3.body.data.next_cursor], [['note 1'], null]);
    expectError(await app.api('GET', `${MESSAGES}?cursor=forged.AAAAAAAAAAAAAAAAAAAAAA`, { token: a.apiKey }), 400, 'cursor_invalid');

    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?after=${made[2].seq}`, { token: a.apiKey })), ['note 5', 'note 4']);
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?since=${encodeURIComponent(iso(TEST_EPOCH + 3 * MINUTE))}`, { token: a.apiKey })), ['note 5', 'note 4']);
    expectError(await app.api('GET', `${MESSAGES}?since=yesterday`, { token: a.apiKey }), 400, 'invalid_request');
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?channel=routes`, { token: a.apiKey })), ['note 5', 'note 4']);
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?channel=routes,vessels&limit=10`, { token: a.apiKey })).length, 5);
    expectError(await app.api('GET', `${MESSAGES}?channel=atlantis`, { token: a.apiKey }), 404, 'exchange_channel_not_found');
    expectError(await app.api('GET', `${MESSAGES}?kind=channel&with=${b.agentId}`, { token: a.apiKey }), 400, 'invalid_request');

    const gate = app.bosun.ctx.services.exchangeGate;
    assert.ok(gate.kinds().includes('message') && gate.kinds().includes('channel'));
    assert.equal(await gate.hide('message', made[4].message_id, 'off topic'), true);
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?channel=routes`, { token: b.apiKey })), ['note 4'], 'hidden from everyone, its author too');
    const routes = (await app.api('GET', '/v1/exchange/channels', { token: a.apiKey })).body.data.items.find((c: { name: string }) => c.name === 'routes');
    assert.equal(routes.message_count, 1);
    expectError(
      await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'routes', body: 'x', reply_to: made[4].message_id } }),
      404,
      'exchange_message_not_found',
      'no reply to a hidden message',
    );
    assert.equal(await gate.restore('message', made[4].message_id), true);
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?channel=routes`, { token: b.apiKey })), ['note 5', 'note 4']);
    assert.equal(await gate.hide('message', 'msg_nothing', 'x'), false);

    assert.equal(await gate.hide('channel', 'routes', 'closed for cleanup'), true);
    const names = (await app.api('GET', '/v1/exchange/channels', { token: a.apiKey })).body.data.items.map((c: { name: string }) => c.name);
    assert.ok(!names.includes('routes'));
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'routes', body: 'x' } }), 404, 'exchange_channel_not_found');
    assert.deepEqual(bodies(await app.api('GET', `${MESSAGES}?limit=10`, { token: a.apiKey })), ['note 3', 'note 2', 'note 1'], "a hidden channel's messages go with it");
    await gate.restore('channel', 'routes');
    await post(app, a.apiKey, 'routes', 'back again');
  }));

test('trending channels: decayed activity of the last 24 hours times the square root of distinct authors', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const c = await app.registerAgent('carol');
    await post(app, a.apiKey, 'sts', 'old sts talk'); // t0: 25 h before the ranking, outside the window
    app.clock.advance(7 * HOUR);
    for (let i = 0; i < 4; i++) await post(app, a.apiKey, 'vessels', `solo ${i}`); // t0+7h: 18 h old at ranking
    app.clock.advance(12 * HOUR);
    await post(app, a.apiKey, 'ports', 'p1'); // t0+19h: 6 h old
    await post(app, b.apiKey, 'ports', 'p2');
    app.clock.advance(6 * HOUR);
    await post(app, c.apiKey, 'ports', 'p3'); // now
    await post(app, b.apiKey, 'general', 'g1');

    const res = await app.api('GET', '/v1/exchange/channels/trending', { token: c.apiKey });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.data.window_hours, res.body.data.half_life_hours], [24, 6]);
    const round = (x: number) => Math.round(x * 1000) / 1000;
    assert.deepEqual(
      res.body.data.items.map((t: { name: string; score: number; messages_24h: number; authors_24h: number }) => [t.name, t.score, t.messages_24h, t.authors_24h]),
      [
        ['ports', round((0.5 + 0.5 + 1) * Math.sqrt(3)), 3, 3],
        ['general', 1, 1, 1],
        ['vessels', round(4 * Math.pow(2, -3)), 4, 1],
      ],
    );
    assert.equal(res.body.data.items[0].last_activity_at, iso(app.clock.now()));
    assert.equal((await app.api('GET', '/v1/exchange/channels/trending?limit=1', { token: c.apiKey })).body.data.items.length, 1);
  }));

test('digests and the latest summary are built by the job from stored messages, per UTC day, and paged', async () => {
  const app = await startTestApp({ now: TEST_EPOCH + 9 * HOUR });
  try {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const c = await app.registerAgent('carol');
    const none = await app.api('GET', '/v1/exchange/summary/latest', { token: a.apiKey });
    assert.deepEqual(none.body.data, { available: false, summary: null });

    // day 1 (2026-11-21): a thread of 3 in ports, a lone message in general; a DM that never counts
    const root = await post(app, a.apiKey, 'ports', 'Rotterdam waits: anyone measuring them?');
    app.clock.advance(HOUR);
    await post(app, b.apiKey, 'ports', 'yes', { reply_to: root.message_id });
    await post(app, c.apiKey, 'ports', 'me too', { reply_to: root.message_id });
    await post(app, b.apiKey, 'ports', 'a separate question');
    await post(app, c.apiKey, 'general', 'hello all');
    await dm(app, a.apiKey, b.agentId, 'secret numbers');
    // day 2 (2026-11-22)
    app.clock.set(TEST_EPOCH + DAY + 2 * HOUR);
    await post(app, c.apiKey, 'general', 'day two');
    app.clock.advance(HOUR);

    await app.bosun.scheduler.runNow('exchange_digests');
    const status = app.bosun.scheduler.statuses().find((s) => s.name === 'exchange_digests')!;
    assert.deepEqual(status.last_result, { days: 2, digests: 3 });

    const all = await app.api('GET', '/v1/exchange/digests', { token: a.apiKey });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.data.items.map((d: { channel: string; day: string; complete: boolean; message_count: number; author_count: number }) => [d.channel, d.day, d.complete, d.message_count, d.author_count]),
      [
        ['general', '2026-11-22', false, 1, 1],
        ['general', '2026-11-21', true, 1, 1],
        ['ports', '2026-11-21', true, 4, 3],
      ],
    );
    const ports = all.body.data.items[2];
    assert.deepEqual([ports.first_message_at, ports.last_message_at], [iso(TEST_EPOCH + 9 * HOUR), iso(TEST_EPOCH + 10 * HOUR)]);
    assert.deepEqual(ports.top_threads[0], { thread_id: root.message_id, channel: 'ports', messages: 3, authors: 3, started_by: 'alice', excerpt: 'Rotterdam waits: anyone measuring them?' });
    assert.equal(ports.top_threads.length, 2);
    assert.deepEqual(ports.active_authors, [
      { agent_id: b.agentId, name: 'bob', messages: 2 },
      { agent_id: a.agentId, name: 'alice', messages: 1 },
      { agent_id: c.agentId, name: 'carol', messages: 1 },
    ]);
    assert.ok(!all.text.includes('secret'), 'direct messages never reach digests');

    const page1 = await app.api('GET', '/v1/exchange/digests?limit=2', { token: a.apiKey });
    assert.equal(page1.body.data.items.length, 2);
    const page2 = await app.api('GET', `/v1/exchange/digests?limit=2&cursor=${page1.body.data.next_cursor}`, { token: a.apiKey });
    assert.deepEqual(
      page2.body.data.items.map((d: { channel: string }) => d.channel),
      ['ports'],
    );
    assert.equal(page2.body.data.next_cursor, null);
    assert.deepEqual(
      (await app.api('GET', '/v1/exchange/digests?channel=general&from=2026-11-22', { token: a.apiKey })).body.data.items.map((d: { day: string }) => d.day),
      ['2026-11-22'],
    );
    assert.deepEqual((await app.api('GET', '/v1/exchange/digests?to=2026-11-22', { token: a.apiKey })).body.data.items.length, 2);
    expectError(await app.api('GET', '/v1/exchange/digests?from=2026-11-22&to=2026-11-21', { token: a.apiKey }), 400, 'invalid_range');
    expectError(await app.api('GET', '/v1/exchange/digests?cursor=nope', { token: a.apiKey }), 400, 'cursor_invalid');

    const latest = (await app.api('GET', '/v1/exchange/summary/latest', { token: b.apiKey })).body.data;
    assert.equal(latest.available, true);
    assert.deepEqual(
      [latest.summary.day, latest.summary.complete, latest.summary.messages, latest.summary.authors, latest.summary.busiest_channel, latest.summary.built_at],
      ['2026-11-22', false, 1, 1, 'general', iso(app.clock.now())],
    );

    // the next run rebuilds the last day: the day is complete, and a hidden message no longer counts
    await app.bosun.ctx.services.exchangeGate.hide('message', root.message_id, 'spam');
    app.clock.set(TEST_EPOCH + 2 * DAY + HOUR);
    await app.bosun.scheduler.runNow('exchange_digests');
    const day2 = (await app.api('GET', '/v1/exchange/digests?channel=general&from=2026-11-22&to=2026-11-23', { token: a.apiKey })).body.data.items;
    assert.deepEqual(
      day2.map((d: { day: string; complete: boolean }) => [d.day, d.complete]),
      [['2026-11-22', true]],
    );
    const summary = (await app.api('GET', '/v1/exchange/summary/latest', { token: b.apiKey })).body.data.summary;
    assert.deepEqual([summary.day, summary.messages, summary.complete], ['2026-11-23', 0, false]);
  } finally {
    await app.close();
  }
});

test('the stream over HTTP: catch-up replay with follow=false, resume by Last-Event-ID (header over query), filters and bad ids', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const m1 = await post(app, a.apiKey, 'general', 'one');
    const m2 = await post(app, b.apiKey, 'ports', 'two');
    const m3 = await dm(app, a.apiKey, b.agentId, 'three');
    const stream = (url: string, headers: Record<string, string> = {}) => app.api('GET', `/v1/exchange/messages/stream${url}`, { token: b.apiKey, headers });

    const all = await stream('?last_event_id=0&follow=false');
    assert.equal(all.status, 200);
    assert.match(String(all.headers['content-type']), /^text\/event-stream/);
    assert.equal(all.headers['cache-control'], 'no-store');
    const parsed = parseSse(all.text);
    assert.equal(parsed.retry, 3000);
    assert.deepEqual(
      parsed.events.map((e) => [e.id, e.event]),
      [
        [String(m1.seq), 'message'],
        [String(m2.seq), 'message'],
        [String(m3.seq), 'message'],
        [String(m3.seq), 'closing'],
      ],
    );
    assert.deepEqual(JSON.parse(parsed.events[2]!.data), m3);
    assert.deepEqual(JSON.parse(parsed.events[3]!.data), { reason: 'replay_complete', last_event_id: String(m3.seq) });

    const resumed = parseSse((await stream(`?last_event_id=0&follow=false`, { 'last-event-id': String(m1.seq) })).text);
    assert.deepEqual(
      resumed.events.filter((e) => e.event === 'message').map((e) => e.id),
      [String(m2.seq), String(m3.seq)],
      'the header wins over the query',
    );
    const channelOnly = parseSse((await stream('?last_event_id=0&follow=false&channel=ports')).text);
    assert.deepEqual(
      channelOnly.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data).body),
      ['two'],
    );
    const directOnly = parseSse((await stream('?last_event_id=0&follow=false&kind=direct')).text);
    assert.deepEqual(
      directOnly.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data).body),
      ['three'],
    );
    expectError(await stream('?last_event_id=abc'), 400, 'invalid_request');
    const badHeader = await stream('', { 'last-event-id': '12x' });
    expectError(badHeader, 400, 'invalid_request');
    assert.equal(badHeader.body.errors[0].field, 'header.last-event-id');
    expectError(await stream('?channel=atlantis'), 404, 'exchange_channel_not_found');
  }));

test('a slow reader is disconnected with a final closing event once its unread bytes pass the bound', () =>
  withApp(async (app) => {
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const services = app.bosun.ctx.services;
    const member = await services.exchangeGate.member({ kind: 'agent', agent: (await services.agents.authenticate(b.apiKey))! });
    const written: string[] = [];
    let unread = 0;
    let ended = false;
    const sink = {
      write(chunk: string) {
        written.push(chunk);
        unread += Buffer.byteLength(chunk);
      },
      bufferedBytes: () => unread,
      drained: () => Promise.resolve(),
      end() {
        ended = true;
      },
      get ended() {
        return ended;
      },
    };
    const prepared = await services.exchangeStreams.prepare(member, {}, undefined);
    prepared.start(sink);
    await waitFor(() => written.some((w) => w.includes('event: ready')));
    // 70 messages of 4000 bytes: past 256 KiB unread
    for (let i = 0; i < 70 && !ended; i++) {
      app.clock.advance(10 * SECOND);
      await post(app, a.apiKey, 'general', `${i} `.padEnd(4000, 'x'));
      await waitFor(() => written.join('').includes(`"body":"${i} `) || ended);
    }
    assert.equal(ended, true, 'disconnected');
    const last = parseSse(written.join('')).events.at(-1)!;
    assert.equal(last.event, 'closing');
    assert.equal(JSON.parse(last.data).reason, 'slow_reader');
    assert.ok(unread > 256 * 1024 && unread < 256 * 1024 + 5000, `bounded: ${unread} bytes`);
  }));

async function waitFor(condition: () => boolean, timeoutMs = 5000) {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('banned agents are refused by every message operation; operator CLI creates channels and builds digests', async () => {
  const { app, env, cleanup } = await startTestAppWithCli('exchange-messages');
  try {
    const created = await runCli(['exchange', 'channel', 'create', 'bunkering', '--description', 'Fuel: prices, suppliers, quality.'], { env });
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stdout.trim(), 'channel bunkering created');
    const twice = await runCli(['exchange', 'channel', 'create', 'bunkering', '--description', 'again'], { env });
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /channel bunkering exists/);
    assert.equal((await runCli(['exchange', 'channel', 'create', 'Bad_Name', '--description', 'x'], { env })).status, 1);
    assert.equal((await runCli(['exchange', 'channel', 'create', 'nodesc'], { env })).status, 1);

    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const channel = (await app.api('GET', '/v1/exchange/channels', { token: a.apiKey })).body.data.items.find((c: { name: string }) => c.name === 'bunkering');
    assert.deepEqual([channel.built_in, channel.description], [false, 'Fuel: prices, suppliers, quality.']);
    await post(app, a.apiKey, 'bunkering', 'VLSFO at Singapore?');
    const built = await runCli(['exchange', 'digests', 'build'], { env });
    assert.equal(built.status, 0, built.stderr);
    // the CLI runs on the system clock: every day from the message's (test) day up to today
    assert.match(built.stdout.trim(), /^\d+ day\(s\) built, 1 channel digest\(s\)$/);

    const hidden = await runCli(['exchange', 'hide', 'channel', 'bunkering', '--reason', 'merged into ports'], { env });
    assert.equal(hidden.status, 0, hidden.stderr);
    expectError(await app.api('POST', MESSAGES, { token: a.apiKey, body: { channel: 'bunkering', body: 'x' } }), 404, 'exchange_channel_not_found');

    await app.bosun.ctx.services.exchangeGate.ban(b.agentId, 'spam');
    const calls: Array<[string, string, unknown?]> = [
      ['GET', MESSAGES],
      ['POST', MESSAGES, { channel: 'general', body: 'x' }],
      ['POST', SEND, { to: a.agentId, body: 'x' }],
      ['GET', '/v1/exchange/messages/stream?follow=false'],
      ['GET', '/v1/exchange/channels'],
      ['GET', '/v1/exchange/channels/trending'],
      ['GET', '/v1/exchange/digests'],
      ['GET', '/v1/exchange/summary/latest'],
    ];
    for (const [method, url, body] of calls) expectError(await app.api(method, url, { token: b.apiKey, ...(body ? { body } : {}) }), 403, 'exchange_banned', `${method} ${url}`);
  } finally {
    await cleanup();
  }
});
