// The feed commands that must run as processes: a network ingest stopped by Ctrl-C, and serve with feeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { demoFeedFactory } from '../../src/feeds/demo.js';
import { childStore, positionsOf } from '../helpers/child-store.js';
import { tagged, TYPE1_LINE, TYPE1_MMSI, TYPE1_OTHER_LINE } from '../helpers/nmea.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

const cli = join(PROJECT_ROOT, 'dist', 'src', 'cli.js');
const RECORDED = Date.UTC(2020, 0, 1, 12, 0, 0);

test('bosun ingest tcp://… : reads a receiver until Ctrl-C, then flushes, prints the figures and exits 0', async () => {
  const store = childStore();
  const sockets: Socket[] = [];
  const receiver = createServer((socket) => {
    sockets.push(socket);
    socket.write(`${tagged(TYPE1_LINE, RECORDED)}\n`);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const child = spawn(process.execPath, [cli, 'ingest', `tcp://127.0.0.1:${port}`, '--stats-every', '0.05'], { env: store.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  try {
    await waitFor(
      () => /messages 1\b/.test(stderr),
      () => `no progress line: ${stderr}`,
    );
    assert.match(stderr, new RegExp(`tcp:127.0.0.1:${port}  connected  lines 1  messages 1  errors 0  reconnects 0`));
    assert.equal(await interrupt(child), 0, stderr);
    assert.match(stderr, /SIGINT: stopping sources and flushing/);
    assert.match(stdout, new RegExp(`^tcp:127.0.0.1:${port}  stopped  lines 1  messages 1`, 'm'));
    const bosun = await store.open();
    try {
      assert.equal(bosun.ctx.services.fleet.byMmsiNumber(TYPE1_MMSI)?.latest?.source, `tcp:127.0.0.1:${port}`);
      assert.equal(await positionsOf(bosun, TYPE1_MMSI), 1);
    } finally {
      await bosun.close();
    }
  } finally {
    child.kill('SIGKILL');
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => receiver.close(resolve));
    await store.cleanup();
  }
});

test('serve runs BOSUN_FEEDS in-process: a receiver pushing to tcp-listen shows up in /v1/status and the store', async () => {
  const store = childStore();
  const httpPort = await freePort();
  const feedPort = await freePort();
  const env = { ...store.env, HOST: '127.0.0.1', PORT: String(httpPort), BOSUN_FEEDS: `tcp-listen://127.0.0.1:${feedPort}` };
  const child = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  try {
    await waitFor(
      () => output.includes('listening on'),
      () => `serve did not start: ${output}`,
    );
    const sender = connect({ host: '127.0.0.1', port: feedPort });
    await new Promise((resolve) => sender.once('connect', resolve));
    sender.end(`${tagged(TYPE1_LINE, RECORDED)}\r\n${TYPE1_OTHER_LINE}\r\n`);
    let feeds: any;
    await waitFor(
      async () => {
        const status = await (await fetch(`http://127.0.0.1:${httpPort}/v1/status`)).json();
        feeds = status.data.components.feeds;
        return feeds.sources[0].messages === 2 && status.data.components.fleet.vessels === 2;
      },
      () => `feeds: ${JSON.stringify(feeds)}`,
    );
    assert.equal(feeds.sources[0].name, `tcp-listen:127.0.0.1:${feedPort}`);
    assert.equal(feeds.sources[0].state, 'listening');
    assert.equal(feeds.sources[0].last_observed_at !== null, true);
    assert.equal(await interrupt(child), 0, output);
    const bosun = await store.open();
    try {
      assert.equal(await positionsOf(bosun), 2);
    } finally {
      await bosun.close();
    }
  } finally {
    child.kill('SIGKILL');
    await store.cleanup();
  }
});

test('serve refuses to start when a feed cannot start, naming it', async () => {
  const store = childStore();
  try {
    const res = spawnSync(process.execPath, [cli, 'serve'], { env: { ...store.env, PORT: '0', BOSUN_FEEDS: 'file:/nonexistent/rec.nmea' }, encoding: 'utf8', timeout: 20_000 });
    assert.equal(res.status, 1, `${res.signal} ${res.error} ${res.stdout} ${res.stderr}`);
    assert.match(res.stderr, /file:rec.nmea: cannot read: ENOENT/);
    // where the simulator is built in, `serve` with the demo feed starts (demo-fleet tests): nothing to refuse
    if (demoFeedFactory === null) {
      const demo = spawnSync(process.execPath, [cli, 'serve'], { env: { ...store.env, PORT: '0', BOSUN_FEEDS: 'demo' }, encoding: 'utf8', timeout: 20_000 });
      assert.equal(demo.status, 1);
      assert.match(demo.stderr, /BOSUN_FEEDS: invalid feed "demo": the demo fleet simulator is not available/);
    }
  } finally {
    await store.cleanup();
  }
});

async function waitFor(check: () => boolean | Promise<boolean>, describe: () => string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const interrupt = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
