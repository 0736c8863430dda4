import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { createBosun } from '../../src/app/create.js';
import { createLogger, type Logger } from '../../src/observability/logger.js';
import { REDIS_COMMAND_TIMEOUT_MS, RedisStartError } from '../../src/app/redis.js';
import { ManualClock } from '../../src/platform/clock.js';
import { loadConfig } from '../../src/platform/config.js';
import { postgresApplicationName } from '../../src/store/db.js';
import { startTestApp, testConfig, TEST_EPOCH, usingPostgres, usingRedis } from '../helpers/app.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';
import { hostPortOf, startTcpProxy, viaProxy } from '../helpers/tcp-proxy.js';

/**
 * Outages of the backing services (issue 8 item 5; docs/decisions/012): a dropped PostgreSQL
 * connection must not end the process, a store that is away answers 503 dependency_unavailable and
 * the service recovers by itself; a wrong REDIS_URL fails at start; a Redis outage keeps ping and
 * status answering, limits counted locally, long polls refused with 503.
 */

/** A silent logger that tells the test about warnings as they happen. */
function watchingLogger(): { logger: Logger; warnings: string[]; next(message: string, count?: number): Promise<void> } {
  const warnings: string[] = [];
  const waiters: Array<{ message: string; count: number; resolve: () => void }> = [];
  const base = createLogger('silent');
  const logger: Logger = {
    ...base,
    warn: (obj: object | string, msg?: string) => {
      const text = msg ?? (typeof obj === 'string' ? obj : '');
      warnings.push(text);
      for (const w of [...waiters]) {
        if (warnings.filter((m) => m === w.message).length >= w.count) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
    },
    child: () => logger,
  };
  return {
    logger,
    warnings,
    next(message, count = 1) {
      if (warnings.filter((m) => m === message).length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ message, count, resolve }));
    },
  };
}

function nextEvent(emitter: { once(name: string, listener: () => void): unknown }, name: string): Promise<void> {
  return new Promise((resolve) => emitter.once(name, () => resolve()));
}

const PG_LOST = 'database connection lost; the pool reconnects on next use';
const skipPg = usingPostgres() ? false : 'PostgreSQL pass only (set DATABASE_URL=postgres://…)';
const skipRedis = usingRedis() ? false : 'Redis pass only (set REDIS_URL=redis://…)';

test('PostgreSQL: terminating every Bosun backend (pg_terminate_backend) does not end the process; the next requests succeed', { skip: skipPg }, async () => {
  const watch = watchingLogger();
  const app = await startTestApp({ bosun: { logger: watch.logger } });
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const { apiKey } = await app.registerAgent('before');
    assert.equal((await app.api('GET', '/v1/agents/me', { token: apiKey })).status, 200);
    const { schema, url } = app.config.database as { schema: string; url: string };
    // its own database too: test apps may share a schema name, each in a database of its own (test/helpers/app.ts)
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = $2', [
      postgresApplicationName(schema),
      decodeURIComponent(new URL(url).pathname.slice(1)),
    ]);
    assert.ok(killed.rowCount! >= 1, 'Bosun holds pooled connections named after its schema');
    // Each idle client sees its connection end as an 'error' event: handled, logged, discarded.
    await watch.next(PG_LOST, killed.rowCount!);
    const me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(me.status, 200, me.text);
    const after = await app.registerAgent('after');
    assert.ok(after.apiKey);
    const status = await app.api('GET', '/v1/status');
    assert.equal(status.body.data.store.healthy, true);
  } finally {
    await admin.end();
    await app.close();
  }
});

test('PostgreSQL away (connections cut by a proxy): 503 dependency_unavailable with Retry-After, ping and status answer, then recovery by itself', { skip: skipPg }, async () => {
  const proxy = await startTcpProxy(hostPortOf(process.env.DATABASE_URL!, 5432));
  const watch = watchingLogger();
  const app = await startTestApp({ env: { DATABASE_URL: viaProxy(process.env.DATABASE_URL!, proxy) }, bosun: { logger: watch.logger } });
  try {
    const { apiKey } = await app.registerAgent('before-outage');
    await proxy.cut();
    const refused = await app.api('POST', '/v1/agents/register', { body: { name: 'during-outage' }, ip: '10.55.0.1' });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.body.errors[0].code, 'dependency_unavailable');
    assert.equal(refused.body.errors[0].retryable, true);
    assert.equal(refused.headers['retry-after'], '5');
    const authed = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(authed.status, 503, 'resolving the key needs the store: 503, not 500');
    const ping = await app.api('GET', '/v1/ping');
    assert.equal(ping.status, 200);
    const status = await app.api('GET', '/v1/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.data.status, 'degraded');
    assert.equal(status.body.data.store.healthy, false);

    proxy.restore();
    const back = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(back.status, 200, back.text);
    assert.equal((await app.api('GET', '/v1/status')).body.data.store.healthy, true);
  } finally {
    await app.close();
    await proxy.close();
  }
});

test('a REDIS_URL nobody listens on fails at start with a clear message, in-process and from bosun serve', async () => {
  const config = testConfig({ REDIS_URL: 'redis://127.0.0.1:1', BOSUN_REDIS_PREFIX: 'nobody:' });
  await assert.rejects(createBosun(config, { clock: new ManualClock(TEST_EPOCH) }), (err: Error) => {
    assert.ok(err instanceof RedisStartError);
    assert.match(err.message, /cannot connect to Redis at redis:\/\/127\.0\.0\.1:1.*ECONNREFUSED.*REDIS_URL/s);
    return true;
  });

  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'src', 'cli.js'), 'serve'], {
    env: { ...process.env, DATABASE_URL: ':memory:', REDIS_URL: 'redis://127.0.0.1:1', PORT: '0', LOG_LEVEL: 'silent', BOSUN_FEEDS: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const [code] = (await once(child, 'exit')) as [number];
  assert.equal(code, 1, output);
  assert.match(output, /cannot connect to Redis at redis:\/\/127\.0\.0\.1:1/);
  assert.doesNotMatch(output, /listening/);
});

test('Redis outage: ping and status answer, limits fall back to this process with a quality flag, long polls are refused with 503; recovery by itself', { skip: skipRedis }, async () => {
  const proxy = await startTcpProxy(hostPortOf(process.env.REDIS_URL!, 6379));
  const app = await startTestApp({ env: { REDIS_URL: viaProxy(process.env.REDIS_URL!, proxy) } });
  const redis = app.bosun.ctx.redis!;
  try {
    const { apiKey } = await app.registerAgent('redis-outage', ['vessels:live']);
    const before = await app.api('GET', '/v1/ping');
    assert.deepEqual(before.body.quality_flags, []);

    // events.once() rejects when 'error' comes first, and a cut connection may report ECONNRESET
    // before it closes: wait for the event itself.
    const closed = nextEvent(redis, 'close');
    await proxy.cut();
    await closed;
    const started = performance.now();
    const ping = await app.api('GET', '/v1/ping');
    assert.equal(ping.status, 200, ping.text);
    assert.ok(ping.body.quality_flags.includes('rate_limits_local'), 'the limit was counted by this process alone, and says so');
    assert.ok(performance.now() - started < 1000, 'no waiting on Redis');
    const status = await app.api('GET', '/v1/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.data.redis.healthy, false);
    assert.equal(status.body.data.status, 'degraded');
    const me = await app.api('GET', '/v1/agents/me', { token: apiKey });
    assert.equal(me.status, 200, 'keyed calls work with local limits');
    const poll = await app.api('GET', '/v1/vessels/updates?timeout=0', { token: apiKey });
    assert.equal(poll.status, 503, poll.text);
    assert.equal(poll.body.errors[0].code, 'dependency_unavailable');
    assert.equal(poll.headers['retry-after'], '5');

    // Local limits still hold: the registration limit (20 per hour per address) is enforced.
    for (let i = 0; i < 20; i++) assert.equal((await app.api('POST', '/v1/agents/register', { body: { name: `local-${i}` }, ip: '10.66.0.1' })).status, 201);
    const over = await app.api('POST', '/v1/agents/register', { body: { name: 'local-21' }, ip: '10.66.0.1' });
    assert.equal(over.status, 429);

    const ready = nextEvent(redis, 'ready');
    proxy.restore();
    await ready;
    const after = await app.api('GET', '/v1/ping');
    assert.deepEqual(after.body.quality_flags, [], 'shared limits again once Redis is back');
    assert.equal((await app.api('GET', '/v1/status')).body.data.redis.healthy, true);
  } finally {
    await app.close();
    await proxy.close();
  }
});

test('Redis hung (connection open, no answers): limits fall back after the deadline with a quality flag, status says unhealthy; shared again once it answers', { skip: skipRedis }, async () => {
  const proxy = await startTcpProxy(hostPortOf(process.env.REDIS_URL!, 6379));
  const app = await startTestApp({ env: { REDIS_URL: viaProxy(process.env.REDIS_URL!, proxy) } });
  try {
    assert.deepEqual((await app.api('GET', '/v1/ping')).body.quality_flags, []);
    proxy.stall();
    const started = performance.now();
    const ping = await app.api('GET', '/v1/ping');
    const waited = performance.now() - started;
    assert.equal(ping.status, 200, ping.text);
    assert.ok(ping.body.quality_flags.includes('rate_limits_local'), 'the limit was counted by this process alone, and says so');
    assert.ok(waited >= REDIS_COMMAND_TIMEOUT_MS && waited < REDIS_COMMAND_TIMEOUT_MS + 1500, `waited the deadline, not forever (${Math.round(waited)} ms)`);
    const status = await app.api('GET', '/v1/status');
    assert.equal(status.body.data.redis.healthy, false);
    proxy.resume();
    const after = await app.api('GET', '/v1/ping');
    assert.deepEqual(after.body.quality_flags, [], 'shared limits again once Redis answers');
  } finally {
    proxy.resume();
    await app.close();
    await proxy.close();
  }
});

test('loadConfig still validates REDIS_URL syntax at start', () => {
  assert.throws(() => loadConfig({ REDIS_URL: 'localhost:6379' }), /REDIS_URL/);
});
