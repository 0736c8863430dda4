import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { once } from 'node:events';
import { DeadlineExceededError, withinDeadline } from '../../src/platform/deadline.js';

/**
 * A server in this process that answers every chunk at once with "pong" and then keeps the event loop busy
 * for `busyMs`: the answer waits in the client's socket while every timer set before it expires.
 */
async function pongServer(busyMs: number): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', () => {
      socket.write('pong');
      blockEventLoop(busyMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('an answer already in the socket when a long turn of the event loop ends is delivered, not timed out', async () => {
  const server = await pongServer(200);
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    const answer = once(socket, 'data').then(([chunk]) => String(chunk));
    const guarded = withinDeadline(answer, 50, 'the pong server');
    socket.write('ping');
    assert.equal(await guarded, 'pong');

    // the same busy turn against a plain timer race loses the answer: what withinDeadline exists to avoid
    const second = once(socket, 'data').then(([chunk]) => String(chunk));
    const naive = Promise.race([second, new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), 50))]);
    socket.write('ping');
    assert.equal(await naive, 'timed out');
  } finally {
    socket.end();
    server.close();
  }
});

test('a call that never answers fails with DeadlineExceededError naming the dependency and the deadline', async () => {
  const never = new Promise<string>(() => {});
  await assert.rejects(withinDeadline(never, 5, 'Redis'), (err: unknown) => {
    assert.ok(err instanceof DeadlineExceededError);
    assert.equal((err as Error).message, 'Redis did not answer within 5 ms');
    return true;
  });
});

test('a failure before the deadline is passed through unchanged', async () => {
  const cause = new Error('connection closed');
  await assert.rejects(withinDeadline(Promise.reject(cause), 1000, 'Redis'), (err: unknown) => err === cause);
});
