import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBosun } from '../../src/app/create.js';
import { SECOND } from '../../src/platform/clock.js';
import { startTestApp, usingPostgres, usingRedis, type TestApp } from '../helpers/app.js';
import { openSse, type SseConnection, type SseParse } from '../helpers/sse.js';

const STREAM = '/v1/exchange/messages/stream';

const messages = (s: SseParse) => s.events.filter((e) => e.event === 'message');
const hasReady = (s: SseParse) => s.events.some((e) => e.event === 'ready');
const bodiesOf = (s: SseParse) => messages(s).map((e) => JSON.parse(e.data).body as string);

async function postAs(app: TestApp, token: string, url: string, body: unknown) {
  app.clock.advance(11 * SECOND); // stays under 6 messages a minute per agent
  const res = await app.api('POST', url, { token, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { seq: number; message_id: string; body: string };
}

/**
 * The stream's own mechanics over a real socket. Fan-out to three agents, privacy, the reconnect with
 * Last-Event-ID and shutdown with streams open are walked in test/e2e/exchange-walk.test.ts.
 */
test('SSE over a real socket: the head, retry and ready without Last-Event-ID, heartbeats, at most 3 streams per agent and a closed one frees its slot', async () => {
  const app = await startTestApp();
  const open: SseConnection[] = [];
  try {
    const base = await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    const a = await app.registerAgent('alice');
    const connect = async (token: string, query = '') => {
      const conn = await openSse(`${base}${STREAM}${query}`, { authorization: `Bearer ${token}` });
      open.push(conn);
      return conn;
    };

    const before = await postAs(app, a.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'before anyone listens' });
    const streamA = await connect(a.apiKey, '?heartbeat_seconds=1');
    assert.equal(streamA.status, 200);
    assert.match(streamA.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(streamA.headers.get('cache-control'), 'no-store');
    assert.ok(streamA.headers.get('x-request-id'));
    await streamA.until(hasReady);
    assert.equal(streamA.state.retry, 3000);
    const ready = JSON.parse(streamA.state.events.find((e) => e.event === 'ready')!.data);
    assert.deepEqual(ready, { last_event_id: String(before.seq), live: true, heartbeat_seconds: 1 }, 'without Last-Event-ID: only new messages');
    assert.equal(messages(streamA.state).length, 0);
    const m1 = await postAs(app, a.apiKey, '/v1/exchange/messages', { channel: 'vessels', body: 'public one' });
    await streamA.until((s) => messages(s).length === 1);
    assert.deepEqual(bodiesOf(streamA.state), ['public one']);
    assert.equal(messages(streamA.state)[0]!.id, String(m1.seq));
    await streamA.until((s) => s.comments.some((comment) => comment.startsWith('heartbeat ')), 3000);

    // at most 3 open streams per agent
    const second = await connect(a.apiKey, '?kind=direct');
    const third = await connect(a.apiKey, '?channel=general');
    await Promise.all([second.until(hasReady), third.until(hasReady)]);
    const refused = await fetch(`${base}${STREAM}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    assert.equal(refused.status, 429);
    const refusal = (await refused.json()) as { errors: Array<{ code: string }> };
    assert.equal(refusal.errors[0]!.code, 'exchange_stream_limit');
    third.close();
    await third.ended;
    let fourth = false;
    for (let i = 0; i < 50 && !fourth; i++) {
      const attempt = await fetch(`${base}${STREAM}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
      if (attempt.status === 200) {
        await attempt.body?.cancel();
        fourth = true;
      } else {
        await attempt.text();
        await new Promise((r) => setImmediate(r));
      }
    }
    assert.ok(fourth, 'a closed stream frees its slot');
  } finally {
    for (const s of open) s.close();
    await app.close();
  }
});

test('moderation reaches open streams: hidden and restored messages, a hidden channel, a banned agent closed and refused; resuming replays the notices', async () => {
  const app = await startTestApp();
  const open: SseConnection[] = [];
  try {
    const base = await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    const gate = app.bosun.ctx.services.exchangeGate;
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const c = await app.registerAgent('carol');
    const connect = async (token: string, headers: Record<string, string> = {}) => {
      const conn = await openSse(`${base}${STREAM}`, { authorization: `Bearer ${token}`, ...headers });
      open.push(conn);
      return conn;
    };
    const [streamA, streamB, streamC] = [await connect(a.apiKey), await connect(b.apiKey), await connect(c.apiKey)];
    await Promise.all([streamA, streamB, streamC].map((s) => s.until(hasReady)));

    const spam = await postAs(app, c.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'buy cheap bunkers' });
    const secret = await postAs(app, a.apiKey, '/v1/exchange/send_message', { to: b.agentId, body: 'private to bob' });
    const portNote = await postAs(app, b.apiKey, '/v1/exchange/messages', { channel: 'ports', body: 'berth 7 is closed' });
    await streamA.until((s) => messages(s).length === 3);
    await streamC.until((s) => messages(s).length === 2);
    const lastSeenByA = streamA.state.lastEventId;

    // what `bosun exchange hide|restore|ban` calls
    assert.equal(await gate.hide('message', spam.message_id, 'spam'), true);
    assert.equal(await gate.hide('message', secret.message_id, 'leaked a password'), true);
    assert.equal(await gate.hide('message', spam.message_id, 'spam'), true, 'hiding twice finds it');
    const hiddenIds = (s: SseParse) => s.events.filter((e) => e.event === 'message_hidden').map((e) => JSON.parse(e.data).message_id as string);
    await streamA.until((s) => hiddenIds(s).length === 2);
    await streamB.until((s) => hiddenIds(s).length === 2);
    await streamC.until((s) => hiddenIds(s).length === 1);
    assert.deepEqual(hiddenIds(streamA.state), [spam.message_id, secret.message_id]);
    assert.deepEqual(hiddenIds(streamB.state), [spam.message_id, secret.message_id]);
    assert.deepEqual(hiddenIds(streamC.state), [spam.message_id], 'carol hears nothing of the direct message, not even its id');

    assert.equal(await gate.restore('message', spam.message_id), true);
    await streamA.until((s) => s.events.some((e) => e.event === 'message_restored'));
    const restored = streamA.state.events.find((e) => e.event === 'message_restored')!;
    assert.deepEqual([JSON.parse(restored.data).message_id, JSON.parse(restored.data).body], [spam.message_id, 'buy cheap bunkers']);
    const secondHidden = streamA.state.events.filter((e) => e.event === 'message_hidden')[1]!;
    assert.ok(Number(secondHidden.id) > portNote.seq && Number(restored.id) > Number(secondHidden.id), 'notices take the next numbers of the message sequence');

    assert.equal(await gate.hide('channel', 'ports', 'off topic'), true);
    await streamB.until((s) => s.events.some((e) => e.event === 'channel_hidden'));
    assert.deepEqual(JSON.parse(streamB.state.events.find((e) => e.event === 'channel_hidden')!.data), { channel: 'ports' });

    // ids follow one sequence: messages and notices interleave in commit order
    const ids = streamA.state.events.filter((e) => e.event !== 'ready').map((e) => Number(e.id));
    assert.deepEqual(
      ids,
      [...ids].sort((x, y) => x - y),
    );
    assert.equal(new Set(ids).size, ids.length);

    await gate.ban(c.agentId, 'spam');
    await streamC.ended;
    const last = streamC.state.events.at(-1)!;
    assert.deepEqual([last.event, JSON.parse(last.data).reason], ['closing', 'banned']);
    const refused = await fetch(`${base}${STREAM}`, { headers: { authorization: `Bearer ${c.apiKey}` } });
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { errors: Array<{ code: string }> }).errors[0]!.code, 'exchange_banned');
    assert.ok(!streamA.state.events.some((e) => e.event === 'closing'), "another agent's ban closes nothing of alice's");

    // alice resumes from before the moderation: the hidden messages are not replayed, the notices are
    const resumed = await openSse(`${base}${STREAM}?follow=false`, { authorization: `Bearer ${a.apiKey}`, 'last-event-id': lastSeenByA });
    open.push(resumed);
    await resumed.ended;
    assert.deepEqual(
      resumed.state.events.map((e) => e.event),
      ['message_hidden', 'message_hidden', 'message_restored', 'channel_hidden', 'closing'],
    );
    assert.deepEqual(hiddenIds(resumed.state), [spam.message_id, secret.message_id]);

    // an unbanned agent streams again, and old ban notices in its replay do not close it
    await gate.unban(c.agentId);
    const back = await openSse(`${base}${STREAM}?follow=false&last_event_id=0`, { authorization: `Bearer ${c.apiKey}` });
    open.push(back);
    await back.ended;
    assert.equal(JSON.parse(back.state.events.at(-1)!.data).reason, 'replay_complete');
    assert.deepEqual(bodiesOf(back.state), ['buy cheap bunkers'], 'neither the direct message nor the hidden channel');
  } finally {
    for (const s of open) s.close();
    await app.close();
  }
});

const crossProcessSkip = usingPostgres() && usingRedis() ? false : 'needs DATABASE_URL (PostgreSQL) and REDIS_URL';

test('across two instances on one PostgreSQL + Redis: posted on one, streamed on the other, resumed on the first; moderation on one reaches the other', { skip: crossProcessSkip }, async () => {
  const postSide = await startTestApp();
  const streamSide = await createBosun(postSide.config, { clock: postSide.clock });
  const open: SseConnection[] = [];
  try {
    const streamBase = await streamSide.http.listen({ host: '127.0.0.1', port: 0 });
    const postBase = await postSide.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    const a = await postSide.registerAgent('alice');
    const b = await postSide.registerAgent('bob');
    const c = await postSide.registerAgent('carol');
    const streamB = await openSse(`${streamBase}${STREAM}`, { authorization: `Bearer ${b.apiKey}` });
    const streamC = await openSse(`${streamBase}${STREAM}`, { authorization: `Bearer ${c.apiKey}` });
    open.push(streamB, streamC);
    await Promise.all([streamB.until(hasReady), streamC.until(hasReady)]);

    const m1 = await postAs(postSide, a.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'from the other process' });
    const m2 = await postAs(postSide, a.apiKey, '/v1/exchange/send_message', { to: b.agentId, body: 'private across processes' });
    await streamB.until((s) => messages(s).length === 2, 10_000);
    assert.deepEqual(
      messages(streamB.state).map((e) => e.id),
      [String(m1.seq), String(m2.seq)],
    );
    const m3 = await postAs(postSide, c.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'third' });
    await streamC.until((s) => messages(s).length === 2, 10_000);
    assert.deepEqual(bodiesOf(streamC.state), ['from the other process', 'third']);

    // bob moves to the first instance, resuming after the first message
    streamB.close();
    const resumed = await openSse(`${postBase}${STREAM}?follow=false`, { authorization: `Bearer ${b.apiKey}`, 'last-event-id': String(m1.seq) });
    open.push(resumed);
    await resumed.ended;
    assert.deepEqual(
      messages(resumed.state).map((e) => e.id),
      [String(m2.seq), String(m3.seq)],
    );

    // moderation on one instance reaches the streams of the other (what `bosun exchange hide|ban` does from its own process)
    const gate = postSide.bosun.ctx.services.exchangeGate;
    assert.equal(await gate.hide('message', m3.message_id, 'off topic'), true);
    await streamC.until((s) => s.events.some((e) => e.event === 'message_hidden'), 10_000);
    assert.deepEqual(JSON.parse(streamC.state.events.find((e) => e.event === 'message_hidden')!.data), { message_id: m3.message_id });
    await gate.ban(c.agentId, 'spam');
    await streamC.ended;
    assert.equal(JSON.parse(streamC.state.events.at(-1)!.data).reason, 'banned');
  } finally {
    for (const s of open) s.close();
    await streamSide.close();
    await postSide.close();
  }
});
