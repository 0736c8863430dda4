import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { startTestApp } from '../helpers/app.js';

/** Generous: a close that waits on a socket waits for the idle timeout (65 s); a prompt one takes milliseconds. */
const CLOSE_BOUND_MS = 10_000;

/** Resolves with 'closed' when `closing` settles first, or 'still waiting' after the bound. */
async function settlesWithin(closing: Promise<void>, ms: number): Promise<'closed' | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ms)));
  try {
    return await Promise.race([closing.then(() => 'closed' as const), bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Regression (issue 12): an aborted message stream followed by another keyed request made close()
 * wait ~65 s. The stream's socket was gone at once; what held the server was a socket the client's
 * pool had opened and never used, which Node counts as busy until its first request, so
 * server.close() waited for it until the idle timeout. The raw socket below is that socket made
 * deterministic (undici opens it only under some timings).
 */
test('close() does not wait on an aborted stream, a used keep-alive socket or a socket that never sent a request', async () => {
  const app = await startTestApp();
  let unused: Socket | null = null;
  try {
    const base = await app.bosun.http.listen({ host: '127.0.0.1', port: 0 });
    const server = app.bosun.http.server;
    const a = await app.registerAgent('alice');
    const auth = { authorization: `Bearer ${a.apiKey}` };

    const aborter = new AbortController();
    const stream = await fetch(`${base}/v1/exchange/messages/stream`, { headers: auth, signal: aborter.signal });
    assert.equal(stream.status, 200);
    const first = await stream.body!.getReader().read();
    assert.match(new TextDecoder().decode(first.value), /^retry: 3000\n/);
    aborter.abort();

    const events = await fetch(`${base}/v1/workspace/events`, { headers: auth });
    assert.equal(events.status, 200);
    assert.ok(Array.isArray(((await events.json()) as { data: { items: unknown[] } }).data.items));

    // a socket opened and never used, as a client's pool may leave one; wait until the server has accepted it
    const { port } = new URL(base);
    const accepted = new Promise<void>((resolve) => {
      const onConnection = (socket: Socket) => {
        if (socket.remotePort === unused?.localPort) {
          server.off('connection', onConnection);
          resolve();
        }
      };
      server.on('connection', onConnection);
    });
    unused = connect(Number(port), '127.0.0.1');
    unused.on('error', () => {});
    await once(unused, 'connect');
    await accepted;
    const unusedClosed = once(unused, 'close');

    assert.equal(await settlesWithin(app.bosun.close(), CLOSE_BOUND_MS), 'closed', 'close() waits on a socket that carries no request');
    await unusedClosed;
    assert.equal(unused.bytesRead, 0, 'the unused socket is closed without an answer');
  } finally {
    unused?.destroy();
    await app.close();
  }
});
