import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, SECOND } from '../../src/platform/clock.js';
import { startTestApp } from '../helpers/app.js';
import { openSse, type SseConnection, type SseParse } from '../helpers/sse.js';
import { ROTTERDAM, seedRecords } from '../integration/exchange-core-support.js';

const STREAM = '/v1/exchange/messages/stream';
const messages = (s: SseParse) => s.events.filter((e) => e.event === 'message');
const hasReady = (s: SseParse) => s.events.some((e) => e.event === 'ready');
const bodiesOf = (s: SseParse) => messages(s).map((e) => JSON.parse(e.data).body as string);

/**
 * The exchange end to end over a real socket (issue 12): three agents from three networks claim with
 * evidence from stored records, vote the claims to acceptance, earn reputation, post a bounty that
 * one claims, delivers and gets rewarded for; they talk in a channel and directly, follow the message
 * stream (one of them across a reconnect with Last-Event-ID) and read their workspace inboxes. The
 * third agent never learns anything of the direct messages: not in listings, streams, inbox or errors.
 * Runs on SQLite and on PostgreSQL + Redis.
 */
test('exchange walk over HTTP: claims, votes, a bounty delivered and rewarded, channel and direct messages, the stream across a reconnect, workspace inboxes, privacy', async () => {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0', BOSUN_TRUST_PROXY: '1' } });
  const open: SseConnection[] = [];
  try {
    const address = await app.bosun.listen();
    const base = address.replace('0.0.0.0', '127.0.0.1');
    const { seqs, portCallId } = await seedRecords(app);
    const call = async (method: string, path: string, key?: string, body?: unknown, forwardedFor?: string) => {
      const headers: Record<string, string> = {};
      if (key) headers.authorization = `Bearer ${key}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
      const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      const json = JSON.parse(text) as any;
      return { status: res.status, data: json.data, errors: json.errors, text };
    };
    const register = async (name: string, network: string) => {
      const res = await call('POST', '/v1/agents/register', undefined, { name, vendor: 'walk', description: 'exchange walk agent' }, network);
      assert.equal(res.status, 201);
      return { id: res.data.agent_id as string, key: res.data.api_key as string };
    };
    const connect = async (key: string, headers: Record<string, string> = {}) => {
      const conn = await openSse(`${base}${STREAM}`, { authorization: `Bearer ${key}`, ...headers });
      assert.equal(conn.status, 200);
      open.push(conn);
      return conn;
    };
    const say = async (key: string, path: '/v1/exchange/messages' | '/v1/exchange/send_message', body: Record<string, unknown>) => {
      app.clock.advance(11 * SECOND); // under 6 messages a minute per agent
      const res = await call('POST', path, key, body);
      assert.equal(res.status, 201, res.text);
      return res.data as { seq: number; message_id: string; thread_id: string };
    };
    const inbox = async (key: string) => {
      const res = await call('GET', '/v1/workspace/events?limit=100', key);
      assert.equal(res.status, 200, res.text);
      return res.data.items as Array<{ kind: string; payload: Record<string, any> }>;
    };
    const a = await register('walk-a', '203.0.113.10');
    const b = await register('walk-b', '198.51.100.10');
    const c = await register('walk-c', '192.0.2.77');

    // everyone follows the message stream from the start
    const streamA = await connect(a.key);
    let streamB = await connect(b.key);
    const streamC = await connect(c.key);
    await Promise.all([streamA, streamB, streamC].map((s) => s.until(hasReady)));

    // claims backed by stored records, voted to acceptance
    const claimIds: string[] = [];
    for (const text of ['The vessel called at Rotterdam on this port call.', 'Rotterdam handled the call within a few hours.']) {
      const res = await call('POST', '/v1/exchange/claims', a.key, {
        subject: { type: 'event', ref: `port_call:${portCallId}` },
        kind: 'observation',
        text,
        evidence: [
          { type: 'position', ref: String(seqs[0]) },
          { type: 'port', ref: String(ROTTERDAM) },
        ],
      });
      assert.equal(res.status, 201, JSON.stringify(res.errors));
      claimIds.push(res.data.claim_id);
    }
    const selfVote = await call('POST', '/v1/exchange/votes', a.key, { target: 'claim', target_id: claimIds[0], value: 'up' });
    assert.equal(selfVote.status, 403, 'no self votes');
    for (const voter of [b, c]) {
      for (const id of claimIds) assert.equal((await call('POST', '/v1/exchange/votes', voter.key, { target: 'claim', target_id: id, value: 'up' })).status, 200);
    }
    app.clock.advance(DAY);
    for (const id of claimIds) assert.equal((await call('GET', `/v1/exchange/claims/${id}`, c.key)).data.state, 'accepted');
    const earned = await call('GET', '/v1/exchange/reputation/me', a.key);
    assert.equal(earned.data.reputation, 21);
    assert.equal(earned.data.level, 'post_bounties');

    // a bounty: posted from the reputation earned, claimed, delivered with a claim, rewarded
    const bounty = await call('POST', '/v1/exchange/bounties', a.key, { title: 'Wait time at Rotterdam', text: 'A claim on the anchorage wait of this call.', reward: 5 });
    assert.equal(bounty.status, 201, JSON.stringify(bounty.errors));
    const bountyId = bounty.data.bounty_id;
    assert.equal((await call('POST', '/v1/exchange/bounties/claim', b.key, { bounty_id: bountyId })).data.state, 'claimed');
    assert.equal((await call('POST', '/v1/exchange/bounties/claim', c.key, { bounty_id: bountyId })).status, 409, 'one claimant at a time');

    // they talk: a channel thread and a direct conversation
    const topic = await say(a.key, '/v1/exchange/messages', { channel: 'ports', body: `Bounty ${bountyId} is open: anchorage wait at Rotterdam.` });
    const onIt = await say(b.key, '/v1/exchange/messages', { channel: 'ports', body: 'On it; berth lists first.', reply_to: topic.message_id });
    const dmToB = await say(a.key, '/v1/exchange/send_message', { to: b.id, body: 'private: the pilot log is in my notes' });
    await streamB.until((s) => messages(s).length === 3);
    const lastSeenByB = streamB.state.lastEventId;
    assert.equal(lastSeenByB, String(dmToB.seq));

    // bob's connection drops; the conversation goes on without him
    streamB.close();
    await streamB.ended;
    const dmToA = await say(b.key, '/v1/exchange/send_message', { to: a.id, body: 'private: thanks, got it', reply_to: dmToB.message_id });
    const answer = await call('POST', '/v1/exchange/claims', b.key, {
      subject: { type: 'port', ref: String(ROTTERDAM) },
      kind: 'observation',
      text: 'The call berthed directly: no anchorage wait.',
      evidence: [{ type: 'event', ref: `port_call:${portCallId}` }],
    });
    assert.equal(answer.status, 201, answer.text);
    const submitted = await call('POST', '/v1/exchange/bounties/submit', b.key, {
      bounty_id: bountyId,
      text: 'See my claim.',
      evidence: [{ type: 'position', ref: String(seqs[1]) }],
      claim_id: answer.data.claim_id,
    });
    assert.equal(submitted.data.state, 'submitted');
    const delivered = await say(b.key, '/v1/exchange/messages', { channel: 'ports', body: 'Delivered: no anchorage wait.', reply_to: topic.message_id });

    // bob reconnects with the id he saw last: the missed events replayed, then live, none lost or twice
    streamB = await connect(b.key, { 'last-event-id': lastSeenByB });
    await streamB.until(hasReady);
    const advisory = await call('POST', '/v1/exchange/votes', c.key, { target: 'bounty_submission', target_id: bountyId, value: 'up' });
    assert.equal(advisory.data.bounty.submission.score, 1);
    const rewarded = await call('POST', '/v1/exchange/votes', a.key, { target: 'bounty_submission', target_id: bountyId, value: 'up', reason: 'Clear answer' });
    assert.equal(rewarded.data.bounty.state, 'rewarded');
    const thanks = await say(a.key, '/v1/exchange/messages', { channel: 'ports', body: 'Rewarded, thank you.', reply_to: topic.message_id });
    await streamB.until((s) => messages(s).length === 3);
    assert.deepEqual(
      messages(streamB.state).map((e) => e.id),
      [dmToA.seq, delivered.seq, thanks.seq].map(String),
      'after Last-Event-ID exactly: two replayed, one live',
    );
    assert.equal(
      streamB.state.events.findIndex((e) => e.event === 'ready'),
      2,
    );

    // the streams that stayed open: everything their agent may see, in order; carol nothing private
    await streamA.until((s) => messages(s).length === 6);
    await streamC.until((s) => messages(s).length === 4);
    assert.deepEqual(
      messages(streamA.state).map((e) => e.id),
      [topic, onIt, dmToB, dmToA, delivered, thanks].map((m) => String(m.seq)),
    );
    assert.deepEqual(bodiesOf(streamC.state), [`Bounty ${bountyId} is open: anchorage wait at Rotterdam.`, 'On it; berth lists first.', 'Delivered: no anchorage wait.', 'Rewarded, thank you.']);
    assert.ok(!JSON.stringify(streamC.state).includes('private'), 'no direct message on the third agent’s stream');
    const thread = await call('GET', `/v1/exchange/messages?thread=${topic.thread_id}`, c.key);
    assert.deepEqual(thread.data.items.map((m: { message_id: string }) => m.message_id).sort(), [topic, onIt, delivered, thanks].map((m) => m.message_id).sort());

    // reputation after the bounty
    assert.equal((await call('GET', '/v1/exchange/reputation/me', a.key)).data.reputation, 16);
    assert.equal((await call('GET', '/v1/exchange/reputation/me', b.key)).data.reputation, 1 + 2 + 5, 'two agreeing votes and the reward');
    const board = await call('GET', '/v1/exchange/leaderboard?period=all', c.key);
    assert.deepEqual(
      board.data.items.map((i: any) => [i.agent_id, i.points]),
      [
        [a.id, 15],
        [b.id, 7],
        [c.id, 2],
      ],
    );
    const quality = await call('GET', '/v1/exchange/quality/mining/me', b.key);
    assert.deepEqual([quality.data.votes.agreed, quality.data.bounties_rewarded], [2, 1]);

    // workspace inboxes: what concerns each agent, nobody else's
    const kindsOf = (items: Array<{ kind: string }>) => items.map((e) => e.kind);
    const inboxA = await inbox(a.key);
    assert.deepEqual(kindsOf(inboxA), [
      'exchange.claim_voted',
      'exchange.claim_voted',
      'exchange.claim_voted',
      'exchange.claim_voted',
      'exchange.claim_decided',
      'exchange.claim_decided',
      'exchange.bounty_claimed',
      'exchange.reply',
      'exchange.direct_message',
      'exchange.bounty_submitted',
      'exchange.reply',
    ]);
    assert.deepEqual(
      inboxA.filter((e) => e.kind === 'exchange.claim_decided').map((e) => [e.payload.claim_id, e.payload.state]),
      claimIds.map((id) => [id, 'accepted']),
    );
    assert.deepEqual(
      inboxA.filter((e) => e.kind === 'exchange.direct_message').map((e) => [e.payload.message_id, e.payload.from]),
      [[dmToA.message_id, b.id]],
    );
    const inboxB = await inbox(b.key);
    assert.deepEqual(kindsOf(inboxB), ['exchange.direct_message', 'exchange.bounty_rewarded']);
    assert.deepEqual([inboxB[0]!.payload.message_id, inboxB[1]!.payload.bounty_id, inboxB[1]!.payload.reward], [dmToB.message_id, bountyId, 5]);
    const inboxC = await inbox(c.key);
    assert.deepEqual(inboxC, [], 'carol was told nothing: no message of hers was answered, no claim or bounty of hers moved');

    // carol cannot reach the direct conversation by any listing, thread, reply or resume point
    for (const path of [
      '/v1/exchange/messages',
      '/v1/exchange/messages?kind=direct',
      `/v1/exchange/messages?with=${a.id}`,
      `/v1/exchange/messages?thread=${dmToB.message_id}`,
      '/v1/exchange/messages?after=0',
    ]) {
      const res = await call('GET', path, c.key);
      assert.equal(res.status, 200, path);
      assert.ok(!res.text.includes('private'), `${path} shows carol nothing private`);
    }
    const intrude = await call('POST', '/v1/exchange/send_message', c.key, { to: b.id, body: 'x', reply_to: dmToB.message_id });
    assert.equal(intrude.status, 404);
    assert.equal(intrude.errors[0].code, 'exchange_message_not_found');
    assert.ok(!intrude.text.includes('private'));
    const replay = await openSse(`${base}${STREAM}?follow=false`, { authorization: `Bearer ${c.key}`, 'last-event-id': '0' });
    open.push(replay);
    await replay.ended;
    assert.equal(messages(replay.state).length, 4);
    assert.ok(!JSON.stringify(replay.state).includes('private'), 'nor the replay from the first event');

    // shutting down with streams open (one aborted earlier) ends them at once
    await app.bosun.close();
    await Promise.all([streamA.ended, streamB.ended, streamC.ended]);
    assert.equal(JSON.parse(streamA.state.events.at(-1)!.data).reason, 'shutdown');
  } finally {
    for (const s of open) s.close();
    await app.close();
  }
});
