import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { PROJECT_ROOT } from '../helpers/shared-data.js';
import { testConfig, dropTestSchema } from '../helpers/app.js';

const cli = join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function startServe(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [cli, 'serve'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (d) => (text += d));
  child.stderr.on('data', (d) => (text += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${text}`)), 20_000);
    child.stdout.on('data', () => {
      if (text.includes('listening on')) {
        clearTimeout(timer);
        resolve({ child, output: () => text });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
  });
}

const stop = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });

test('serve on a data directory: clean Ctrl-C shutdown flushes telemetry, a restart keeps agents and request history', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-serve-'));
  const base = testConfig();
  // The default feed (the demo fleet), kept small so the backfill behind the listening server is quick.
  const env: Record<string, string> = {
    BOSUN_DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    BOSUN_DEMO_VESSELS: '12',
    BOSUN_DEMO_BACKFILL_DAYS: '1',
  };
  if (base.database.kind === 'postgres') Object.assign(env, { DATABASE_URL: base.database.url, BOSUN_PG_SCHEMA: base.database.schema });
  else env.DATABASE_URL = '';
  if (base.redis) Object.assign(env, { REDIS_URL: base.redis.url, BOSUN_REDIS_PREFIX: base.redis.prefix });
  const url = `http://127.0.0.1:${env.PORT}`;
  try {
    let server = await startServe(env);
    const reg = await (await fetch(`${url}/v1/agents/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'persisted' }) })).json();
    const apiKey = reg.data.api_key as string;
    for (let i = 0; i < 4; i++) assert.equal((await fetch(`${url}/v1/ping`)).status, 200);
    const status = await (await fetch(`${url}/v1/status`)).json();
    assert.ok(JSON.stringify(status.data).includes('demo-simulator'), 'with no BOSUN_FEEDS the demo fleet runs');
    assert.equal(await stop(server.child), 0);
    assert.match(server.output(), /stopped cleanly/);

    const token = spawnSync(process.execPath, [cli, 'operator', 'token', '--label', 'restart-test'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.equal(token.status, 0, token.stderr);
    const operator = token.stdout.trim();
    assert.match(operator, /^bop_/);

    server = await startServe(env);
    const me = await (await fetch(`${url}/v1/agents/me`, { headers: { authorization: `Bearer ${apiKey}` } })).json();
    assert.equal(me.data.name, 'persisted', 'the agent survived the restart');
    const summary = await (await fetch(`${url}/v1/telemetry/summary`, { headers: { authorization: `Bearer ${operator}` } })).json();
    const ping = summary.data.operations.find((o: { operation_id: string }) => o.operation_id === 'getPing');
    assert.equal(ping?.requests, 4, 'requests recorded before Ctrl-C were flushed and kept');
    assert.equal(await stop(server.child), 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await dropTestSchema(base);
  }
});
