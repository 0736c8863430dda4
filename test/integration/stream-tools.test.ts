import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../src/platform/clock.js';
import { MESSAGE_LIMITS } from '../../src/features/exchange/messages/message-rules.js';
import { openStreams } from '../../src/http/stream.js';
import { parseSse } from '../helpers/sse.js';
import { withApp, type TestApp } from '../helpers/app.js';

const PUBLIC_URL = 'https://bosun.example';
const STREAM = '/v1/exchange/messages/stream';
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

const rpc = (app: TestApp, token: string, id: number, method: string, params: unknown) =>
  app.api('POST', '/mcp?toolsets=all', { token, headers: MCP_HEADERS, body: { jsonrpc: '2.0', id, method, params } });

/** Opens the agent's own stream (a catch-up read) until its slot is free: the released lease may land a few I/O turns later on Redis. */
async function ownStreamOpens(app: TestApp, token: string): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < 50; attempt++) {
    status = (await app.api('GET', `${STREAM}?last_event_id=0&follow=false`, { token })).status;
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return status;
}

test('streaming operations are no MCP tool and no dispatch target: a clear refusal naming the real GET URL, at once', async () => {
  await withApp(
    async (app) => {
      const { apiKey } = await app.registerAgent('stream-tools');
      const listed = await rpc(app, apiKey, 1, 'tools/list', {});
      const names = (listed.body.result.tools as Array<{ name: string }>).map((t) => t.name);
      assert.ok(names.includes('getExchangeMessages'), 'ordinary exchange operations stay tools');
      assert.ok(!names.includes('getExchangeMessagesStream'));
      const published = await app.api('GET', '/v1/webmcp/tools');
      const excluded = (published.body.data.excluded as Array<{ operation_id: string; reason: string }>).find((e) => e.operation_id === 'getExchangeMessagesStream');
      assert.match(excluded!.reason, /open GET \/v1\/exchange\/messages\/stream directly/);

      // an LLM client trying every tool once: three calls over /mcp, each answered at once with a JSON-RPC error
      for (let id = 10; id < 13; id++) {
        const called = await rpc(app, apiKey, id, 'tools/call', { name: 'getExchangeMessagesStream', arguments: { follow: true } });
        assert.equal(called.status, 200);
        assert.equal(called.body.id, id);
        assert.equal(called.body.error.code, -32602);
        assert.match(called.body.error.message, new RegExp(`open GET ${PUBLIC_URL}${STREAM} directly`));
      }
      const dispatched = await app.api('POST', '/v1/webmcp/dispatch', { token: apiKey, body: { tool: 'getExchangeMessagesStream', arguments: {} } });
      assert.equal(dispatched.status, 404);
      assert.equal(dispatched.body.errors[0].code, 'tool_not_found');
      assert.equal(dispatched.body.errors[0].field, 'body.tool');
      assert.match(dispatched.body.errors[0].message, new RegExp(`open GET ${PUBLIC_URL}${STREAM} directly`));

      assert.equal(openStreams(app.bosun.http).count(), 0, 'no stream was opened in process');
      assert.equal(await ownStreamOpens(app, apiKey), 200, "the agent's own stream opens");
    },
    { BOSUN_PUBLIC_URL: PUBLIC_URL },
  );
});

test('an in-process stream ends and frees its slot the moment its caller gives it up: three abandoned, then the own stream opens', () =>
  withApp(async (app) => {
    const { agentId, apiKey } = await app.registerAgent('abandoner');
    const agent = (await app.bosun.ctx.services.agents.authenticate(apiKey))!;
    assert.equal(agent.agentId, agentId);
    const answers: Array<Promise<unknown>> = [];
    const callers: AbortController[] = [];
    for (let i = 0; i < MESSAGE_LIMITS.streamsPerAgent; i++) {
      // the in-process pipeline tool calls and resource reads run through, with the caller's credential and signal
      const caller = new AbortController();
      const who = { caller: { kind: 'agent' as const, agent }, authorization: `Bearer ${apiKey}`, ip: '10.1.2.3', requestId: `req_abandon_${i}`, channel: 'mcp' as const, signal: caller.signal };
      answers.push(app.bosun.ctx.services.webmcp.read('getExchangeMessagesStream', who, `${STREAM}?follow=true`).catch((err: unknown) => err));
      for (let turn = 0; turn < 200 && openStreams(app.bosun.http).count() < i + 1; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
      assert.equal(openStreams(app.bosun.http).count(), i + 1, `stream ${i + 1} open`);
      callers.push(caller);
    }
    for (const caller of callers) caller.abort();
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([Promise.all(answers), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('an abandoned stream never ended')), 5000)))]);
    clearTimeout(timer);
    for (const answer of ended) {
      const text = (answer as { text?: string }).text;
      if (text !== undefined) assert.equal(JSON.parse(parseSse(text).events.at(-1)!.data).reason, 'shutdown', 'ended by the server, not left open');
    }
    assert.equal(openStreams(app.bosun.http).count(), 0, 'each abandoned stream ended with its caller');
    assert.equal(await ownStreamOpens(app, apiKey), 200, "the agent's own stream opens");
  }));

test('an in-process stream nobody reads is bounded: it ends as a slow reader once its buffered bytes pass the bound', () =>
  withApp(async (app) => {
    const reader = await app.registerAgent('reader');
    const writers = [await app.registerAgent('writer-a'), await app.registerAgent('writer-b')];
    // not read until it ends: the whole answer is held in memory meanwhile. From the first message on (last_event_id=0):
    // without it the stream starts at the newest message when its hub is ready, which may be after every post below.
    const pending = app.bosun.http.inject({ method: 'GET', url: `${STREAM}?follow=true&channel=general&last_event_id=0`, headers: { authorization: `Bearer ${reader.apiKey}` } });
    const body = 'x'.repeat(MESSAGE_LIMITS.bodyMaxBytes);
    const needed = Math.ceil(MESSAGE_LIMITS.streamBufferMaxBytes / MESSAGE_LIMITS.bodyMaxBytes) + 1;
    let posted = 0;
    while (posted < needed) {
      for (const w of writers) {
        for (let i = 0; i < MESSAGE_LIMITS.perMinute && posted < needed; i++, posted++) {
          const res = await app.api('POST', '/v1/exchange/messages', { token: w.apiKey, body: { channel: 'general', body: `${posted} ${body}`.slice(0, MESSAGE_LIMITS.bodyMaxBytes) } });
          assert.equal(res.status, 201, res.text);
        }
      }
      app.clock.advance(MINUTE);
    }
    const answer = await pending;
    const events = parseSse(answer.body).events;
    const closing = events.at(-1)!;
    assert.equal(closing.event, 'closing');
    assert.equal(JSON.parse(closing.data).reason, 'slow_reader');
    const delivered = events.filter((e) => e.event === 'message').length;
    assert.ok(delivered < needed, `ended before every message (${delivered} of ${needed})`);
    assert.ok(Buffer.byteLength(answer.body) < MESSAGE_LIMITS.streamBufferMaxBytes + 2 * MESSAGE_LIMITS.bodyMaxBytes, `buffer bounded: ${Buffer.byteLength(answer.body)} bytes`);
    assert.equal(openStreams(app.bosun.http).count(), 0);
  }));
