import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBosun } from '../../src/app/create.js';
import { SECOND } from '../../src/clock.js';
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

test('SSE over a real socket: three agents, live fan-out, privacy, heartbeats, reconnect with Last-Event-ID without loss or duplicates, the stream limit, shutdown', async () => {
  const app = await startTestApp();
  const open: SseConnection[] = [];
  try {
    const base = await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    const a = await app.registerAgent('alice');
    const b = await app.registerAgent('bob');
    const c = await app.registerAgent('carol');
    const connect = async (token: string, query = '', headers: Record<string, string> = {}) => {
      const conn = await openSse(`${base}${STREAM}${query}`, { authorization: `Bearer ${token}`, ...headers });
      open.push(conn);
      return conn;
    };

    const before = await postAs(app, a.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'before anyone listens' });
    const streamA = await connect(a.apiKey, '?heartbeat_seconds=1');
    const streamB = await connect(b.apiKey);
    const streamC = await connect(c.apiKey);
    assert.equal(streamA.status, 200);
    assert.match(streamA.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(streamA.headers.get('x-request-id'));
    for (const s of [streamA, streamB, streamC]) await s.until(hasReady);
    assert.equal(streamA.state.retry, 3000);
    const ready = JSON.parse(streamA.state.events.find((e) => e.event === 'ready')!.data);
    assert.deepEqual(ready, { last_event_id: String(before.seq), live: true, heartbeat_seconds: 1 }, 'without Last-Event-ID: only new messages');
    assert.equal(messages(streamA.state).length, 0);

    const m1 = await postAs(app, a.apiKey, '/v1/exchange/messages', { channel: 'vessels', body: 'public one' });
    const secret = await postAs(app, a.apiKey, '/v1/exchange/send_message', { to: b.agentId, body: 'private to bob' });
    const m3 = await postAs(app, c.apiKey, '/v1/exchange/messages', { channel: 'ports', body: 'public three' });
    await streamA.until((s) => messages(s).length === 3);
    await streamB.until((s) => messages(s).length === 3);
    await streamC.until((s) => messages(s).length === 2);
    assert.deepEqual(bodiesOf(streamA.state), ['public one', 'private to bob', 'public three']);
    assert.deepEqual(bodiesOf(streamB.state), ['public one', 'private to bob', 'public three']);
    assert.deepEqual(bodiesOf(streamC.state), ['public one', 'public three'], 'carol never sees the direct message');
    assert.deepEqual(
      messages(streamA.state).map((e) => e.id),
      [m1.seq, secret.seq, m3.seq].map(String),
    );

    await streamA.until((s) => s.comments.some((comment) => comment.startsWith('heartbeat ')), 3000);

    // A goes away after the DM; two messages arrive meanwhile; A reconnects with the id it last saw
    streamA.close();
    await streamA.ended;
    const m4 = await postAs(app, b.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'while alice was away' });
    const m5 = await postAs(app, b.apiKey, '/v1/exchange/send_message', { to: a.agentId, body: 'private to alice' });
    const resumed = await connect(a.apiKey, '', { 'last-event-id': String(secret.seq) });
    await resumed.until(hasReady);
    const m6 = await postAs(app, c.apiKey, '/v1/exchange/messages', { channel: 'general', body: 'after the reconnect' });
    await resumed.until((s) => messages(s).length === 4);
    assert.deepEqual(
      messages(resumed.state).map((e) => e.id),
      [m3.seq, m4.seq, m5.seq, m6.seq].map(String),
      'exactly the events after Last-Event-ID, replayed then live, none twice',
    );
    const readyAt = resumed.state.events.findIndex((e) => e.event === 'ready');
    assert.equal(readyAt, 3, 'three replayed before ready, the fourth live');

    // carol forging a resume point before the DM still gets nothing private
    const forged = await connect(c.apiKey, '?last_event_id=0&follow=false');
    await forged.ended;
    assert.deepEqual(bodiesOf(forged.state), ['before anyone listens', 'public one', 'public three', 'while alice was away', 'after the reconnect']);

    // at most 3 open streams per agent (resumed is one of alice's)
    const second = await connect(a.apiKey, '?kind=direct');
    const third = await connect(a.apiKey, '?channel=general');
    await Promise.all([second.until(hasReady), third.until(hasReady)]);
    const refused = await fetch(`${base}${STREAM}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
    assert.equal(refused.status, 429);
    const refusal = (await refused.json()) as { errors: Array<{ code: string }> };
    assert.equal(refusal.errors[0]!.code, 'exchange_stream_limit');
    third.close();
    await third.ended;
    let fourth: SseConnection | null = null;
    for (let i = 0; i < 50 && !fourth; i++) {
      const attempt = await fetch(`${base}${STREAM}`, { headers: { authorization: `Bearer ${a.apiKey}` } });
      if (attempt.status === 200) {
        await attempt.body?.cancel();
        fourth = resumed;
      } else {
        await attempt.text();
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    assert.ok(fourth, 'a closed stream frees its slot');

    // shutting the server down ends open streams with a closing event instead of waiting on them
    const closing = app.bosun.close();
    await streamB.ended;
    await closing;
    const last = streamB.state.events.at(-1)!;
    assert.deepEqual([last.event, JSON.parse(last.data).reason], ['closing', 'shutdown']);
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
    assert.deepEqual(ids, [...ids].sort((x, y) => x - y));
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

test('across two instances on one PostgreSQL + Redis: posted on one, streamed on the other, resumed on the first', { skip: crossProcessSkip }, async () => {
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
  } finally {
    for (const s of open) s.close();
    await streamSide.close();
    await postSide.close();
  }
});
