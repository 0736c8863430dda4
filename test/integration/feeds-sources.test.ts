import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { connect, createServer, type Socket } from 'node:net';
import { systemClock } from '../../src/platform/clock.js';
import { FeedManager } from '../../src/feeds/feed-manager.js';
import { TcpClientSource } from '../../src/feeds/sources/tcp-client.js';
import { TcpServerSource } from '../../src/feeds/sources/tcp-server.js';
import { UdpSource } from '../../src/feeds/sources/udp.js';
import { RecordingSink } from '../helpers/recording-sink.js';
import { TYPE1_LINE, TYPE1_MMSI, TYPE1_OTHER_LINE, TYPE1_OTHER_MMSI } from '../helpers/nmea.js';

/** Polls `check` every few ms until it holds (sockets deliver asynchronously). */
async function eventually(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const connectTo = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    socket.once('error', reject);
  });

test('TCP client: reads lines split across writes, reconnects with backoff when the server drops it, and reports it', async () => {
  const served: Socket[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    served.push(socket);
    if (connections === 1) {
      // First connection: a line in two pieces, then a partial line, then the server hangs up.
      socket.write(TYPE1_LINE.slice(0, 20));
      setTimeout(() => {
        socket.write(TYPE1_LINE.slice(20) + '\r\n' + TYPE1_OTHER_LINE.slice(0, 10));
        setTimeout(() => socket.destroy(), 20);
      }, 20);
    } else {
      socket.write(TYPE1_OTHER_LINE + '\n');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const sink = new RecordingSink();
  const source = new TcpClientSource(`tcp:127.0.0.1:${port}`, systemClock, { host: '127.0.0.1', port, initialBackoffMs: 20, maxBackoffMs: 80 });
  const manager = new FeedManager({ sink, clock: systemClock }).add(source);
  try {
    await manager.start();
    await eventually(() => sink.messages.length === 2, 'two messages over two connections');
    assert.deepEqual(
      sink.messages.map((m) => m.message.fields.mmsi),
      [TYPE1_MMSI, TYPE1_OTHER_MMSI],
    );
    assert.equal(sink.messages[0]!.meta.source, `tcp:127.0.0.1:${port}`);
    assert.equal(sink.messages[0]!.meta.simulated, false);
    await eventually(() => source.status().state === 'connected', 'connected again');
    const [report] = manager.reports();
    assert.equal(report!.reconnects, 1);
    assert.equal(report!.lines, 2, 'the partial line cut by the hang-up is not delivered');
    assert.equal(report!.messages, 2);
    assert.equal(connections, 2);
  } finally {
    await manager.stop();
    for (const s of served) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  assert.equal(source.status().state, 'stopped');
});

test('TCP client: backoff doubles per failed attempt and is capped; a refused connection keeps retrying', async () => {
  const source = new TcpClientSource('tcp:127.0.0.1:1', systemClock, { host: '127.0.0.1', port: 1, initialBackoffMs: 5, maxBackoffMs: 30 });
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((n) => source.backoffMs(n)),
    [5, 10, 20, 30, 30, 30],
  );
  const defaults = new TcpClientSource('x', systemClock, { host: 'x', port: 1 });
  assert.deepEqual(
    [1, 2, 5, 6, 10].map((n) => defaults.backoffMs(n)),
    [1000, 2000, 16000, 30000, 30000],
  );
  await source.start(() => {});
  await eventually(() => source.status().reconnects >= 3, 'three failed attempts');
  const status = source.status();
  assert.equal(status.state, 'reconnecting');
  assert.match(status.lastError ?? '', /ECONNREFUSED/);
  await source.stop();
});

test('TCP server: two NMEA clients at once, each with its own partial lines; the status counts clients', async () => {
  const sink = new RecordingSink();
  const source = new TcpServerSource('tcp-listen:127.0.0.1:0', systemClock, '127.0.0.1', 0);
  const manager = new FeedManager({ sink, clock: systemClock }).add(source);
  await manager.start();
  const port = source.address().port;
  const a = await connectTo(port);
  const b = await connectTo(port);
  try {
    await eventually(() => source.status().clients === 2, 'two clients');
    assert.equal(source.status().state, 'listening');
    a.write(TYPE1_LINE.slice(0, 30));
    b.write(TYPE1_OTHER_LINE.slice(0, 30));
    await new Promise((resolve) => setTimeout(resolve, 20));
    a.write(TYPE1_LINE.slice(30) + '\n');
    b.write(TYPE1_OTHER_LINE.slice(30) + '\n' + 'x'.repeat(2000) + '\n');
    await eventually(() => sink.messages.length === 2, 'one message per client');
    assert.deepEqual(sink.messages.map((m) => m.message.fields.mmsi).sort(), [TYPE1_OTHER_MMSI, TYPE1_MMSI].sort());
    await eventually(() => manager.reports()[0]!.overlongLines === 1, 'the overlong line counted');
    a.destroy();
    await eventually(() => source.status().clients === 1, 'one client left');
  } finally {
    b.destroy();
    await manager.stop();
  }
  assert.equal(source.status().state, 'stopped');
});

test('UDP: datagrams with several lines each (last one unterminated) and a junk line counted by reason', async () => {
  const sink = new RecordingSink();
  const source = new UdpSource('udp:127.0.0.1:0', systemClock, '127.0.0.1', 0);
  const manager = new FeedManager({ sink, clock: systemClock }).add(source);
  await manager.start();
  const port = source.address().port;
  const sender = createSocket('udp4');
  try {
    const send = (text: string) => new Promise<void>((resolve, reject) => sender.send(text, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    await send(`${TYPE1_LINE}\r\n${TYPE1_OTHER_LINE}`);
    await send(`garbage\n${TYPE1_LINE}\n`);
    await eventually(() => sink.messages.length === 3, 'three messages');
    const [report] = manager.reports();
    assert.equal(report!.kind, 'udp');
    assert.equal(report!.state, 'listening');
    assert.equal(report!.lines, 4);
    assert.deepEqual(report!.errors, { junk_line: 1 });
    assert.ok(report!.lastMessageAt !== null && report!.lastObservedAt === report!.lastMessageAt);
  } finally {
    sender.close();
    await manager.stop();
  }
});

test('a port already in use fails at start with the source name', async () => {
  const first = new TcpServerSource('tcp-listen:127.0.0.1:0', systemClock, '127.0.0.1', 0);
  await first.start(() => {});
  const taken = first.address().port;
  const second = new TcpServerSource(`tcp-listen:127.0.0.1:${taken}`, systemClock, '127.0.0.1', taken);
  await assert.rejects(
    second.start(() => {}),
    new RegExp(`tcp-listen:127.0.0.1:${taken}: cannot listen: .*EADDRINUSE`),
  );
  assert.equal(second.status().state, 'failed');
  await first.stop();
});
