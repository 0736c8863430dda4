import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { loadConfig } from '../../src/platform/config.js';
import { startTestApp, type TestApp, withApp } from '../helpers/app.js';

/**
 * The HTTP server's own guards (issue 8 item 5; docs/decisions/012): the client address behind a
 * proxy, slow clients, sockets per address, and envelopes for errors found before any route runs.
 */

async function listening(app: TestApp): Promise<number> {
  await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
  return (app.bosun.http.server.address() as { port: number }).port;
}

/** Opens a socket, writes `text`, and resolves with everything received once the server closes it. */
async function exchange(port: number, text: string | null): Promise<{ socket: Socket; received: Promise<{ data: string; ms: number }> }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const started = performance.now();
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString()));
  socket.on('error', () => {});
  const received = once(socket, 'close').then(() => ({ data, ms: performance.now() - started }));
  if (text !== null) socket.write(text);
  return { socket, received };
}

function parseResponse(raw: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = raw.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]);
  let bodyText = rest.join('\r\n\r\n');
  if (/transfer-encoding: chunked/i.test(head ?? '')) bodyText = bodyText.replace(/^[0-9a-f]+\r\n/, '').replace(/\r\n0\r\n\r\n$/, '');
  return { status, headers: head ?? '', body: bodyText ? JSON.parse(bodyText) : null };
}

const assertEnvelope = (res: { status: number; body: any }, status: number, code: string) => {
  assert.equal(res.status, status);
  assert.equal(res.body.status, 'error');
  assert.match(res.body.request_id, /^req_/);
  assert.equal(res.body.errors[0].code, code);
  assert.deepEqual(res.body.data, {});
};

test('BOSUN_TRUST_PROXY: a hop count or proxy addresses; "true" is refused; a spoofed leftmost X-Forwarded-For does not change the limit subject', async () => {
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ BOSUN_TRUST_PROXY: '1' }).trustProxy, 1);
  assert.deepEqual(loadConfig({ BOSUN_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,loopback' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', 'loopback']);
  assert.throws(() => loadConfig({ BOSUN_TRUST_PROXY: 'true' }), /BOSUN_TRUST_PROXY: "true" would trust every X-Forwarded-For hop/);
  assert.throws(() => loadConfig({ BOSUN_TRUST_PROXY: 'nginx.local' }), /BOSUN_TRUST_PROXY: not a hop count/);
  assert.equal(loadConfig({ BOSUN_TRUST_PROXY: '1' }).server.maxConnectionsPerAddress, 0, "behind a proxy every socket is the proxy's: no per-address cap unless set");
  assert.equal(loadConfig({}).server.maxConnectionsPerAddress, 64);

  for (const trust of ['1', '127.0.0.1']) {
    const app = await startTestApp({ env: { BOSUN_TRUST_PROXY: trust } });
    try {
      // nginx appends the address it saw: the client writes everything to its left.
      const viaProxy = (spoof: string, client: string) => app.api('GET', '/v1/bootstrap/vessels/search?q=ab', { ip: '127.0.0.1', headers: { 'x-forwarded-for': `${spoof}, ${client}` } });
      for (let i = 0; i < 6; i++) assert.equal((await viaProxy(`198.51.100.${i}`, '203.0.113.7')).status, 200, `${trust}: call ${i + 1} of 6`);
      const seventh = await viaProxy('198.51.100.99', '203.0.113.7');
      assert.equal(seventh.status, 429, `${trust}: the 7th call is refused whatever the leftmost hop says`);
      assert.equal(seventh.body.errors[0].code, 'ip_rate_limited');
      assert.equal((await viaProxy('198.51.100.99', '203.0.113.8')).status, 200, `${trust}: another client behind the proxy has its own count`);
    } finally {
      await app.close();
    }
  }

  const listed = await startTestApp({ env: { BOSUN_TRUST_PROXY: '10.0.0.1' } });
  try {
    // A client that is not the listed proxy cannot choose its address with the header.
    for (let i = 0; i < 6; i++) {
      const res = await listed.api('GET', '/v1/bootstrap/vessels/search?q=ab', { ip: '203.0.113.9', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      assert.equal(res.status, 200);
    }
    const direct = await listed.api('GET', '/v1/bootstrap/vessels/search?q=ab', { ip: '203.0.113.9', headers: { 'x-forwarded-for': '198.51.100.200' } });
    assert.equal(direct.status, 429);
  } finally {
    await listed.close();
  }
});

test('slow clients: a body or headers trickling past the request timeout get 408 request_timeout and the socket is closed', async () => {
  const app = await startTestApp({ env: { BOSUN_REQUEST_TIMEOUT_MS: '200', BOSUN_HEADERS_TIMEOUT_MS: '200' } });
  try {
    const port = await listening(app);
    const slowBody = await exchange(port, 'POST /v1/agents/register HTTP/1.1\r\nHost: bosun\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na');
    const body = await slowBody.received;
    assertEnvelope(parseResponse(body.data), 408, 'request_timeout');
    assert.ok(body.ms >= 150 && body.ms < 2000, `closed after the 200 ms timeout, not much later (${Math.round(body.ms)} ms)`);

    const slowHeaders = await exchange(port, 'GET /v1/ping HTTP/1.1\r\nHost: bosun\r\nX-Slow: ');
    const headers = await slowHeaders.received;
    assertEnvelope(parseResponse(headers.data), 408, 'request_timeout');
    assert.ok(headers.ms < 2000, `${Math.round(headers.ms)} ms`);

    // A long poll's wait is not receiving: it outlives the request timeout.
    const { apiKey } = await app.registerAgent('poller', ['vessels:live']);
    const poll = await exchange(port, `GET /v1/vessels/updates?timeout=1 HTTP/1.1\r\nHost: bosun\r\nAuthorization: Bearer ${apiKey}\r\nConnection: close\r\n\r\n`);
    const polled = await poll.received;
    const parsed = parseResponse(polled.data);
    assert.equal(parsed.status, 200, polled.data.slice(0, 300));
    assert.equal(parsed.body.data.timed_out, true);
    assert.ok(polled.ms >= 900, `the poll waited its full second (${Math.round(polled.ms)} ms)`);
  } finally {
    await app.close();
  }
});

test('sockets per address: the cap is held open, the next socket from that address is closed at once', async () => {
  const app = await startTestApp({ env: { BOSUN_MAX_CONNECTIONS_PER_ADDRESS: '3' } });
  try {
    const port = await listening(app);
    const held = [await exchange(port, null), await exchange(port, null), await exchange(port, null)];
    const extra = await exchange(port, 'GET /v1/ping HTTP/1.1\r\nHost: bosun\r\n\r\n');
    const refused = await extra.received;
    assert.equal(refused.data, '', 'the fourth socket is closed without an answer');
    const served = held[0]!;
    served.socket.write('GET /v1/ping HTTP/1.1\r\nHost: bosun\r\nConnection: close\r\n\r\n');
    const ok = parseResponse((await served.received).data);
    assert.equal(ok.status, 200, 'the sockets within the cap are served');
    for (const h of held.slice(1)) h.socket.destroy();
  } finally {
    await app.close();
  }
});

test('errors found before any route runs are envelopes: malformed request, oversized headers, bad percent-encoding, over-long path segment', () =>
  withApp(async (app) => {
    const port = await listening(app);
    const send = async (text: string) => parseResponse((await (await exchange(port, text)).received).data);

    assertEnvelope(await send('GARBAGE\r\n\r\n'), 400, 'invalid_request');
    assertEnvelope(await send('GET /v1/ping HTTP/1.1\r\nHost: bosun\r\nBad Header Line\r\n\r\n'), 400, 'invalid_request');
    assertEnvelope(await send(`GET /v1/ping HTTP/1.1\r\nHost: bosun\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`), 431, 'headers_too_large');
    assertEnvelope(await send(`GET /v1/ping?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: bosun\r\n\r\n`), 431, 'headers_too_large');
    const badUrl = await send('GET /v1/harbor/profiles/%zz HTTP/1.1\r\nHost: bosun\r\nConnection: close\r\n\r\n');
    assertEnvelope(badUrl, 400, 'invalid_request');
    assert.match(badUrl.headers, /content-type: application\/json/i);
    const longParam = await send(`GET /v1/harbor/profiles/${'a'.repeat(300)} HTTP/1.1\r\nHost: bosun\r\nConnection: close\r\n\r\n`);
    assertEnvelope(longParam, 414, 'uri_too_long');
  }));
