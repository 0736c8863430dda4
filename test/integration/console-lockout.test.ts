import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { startTestApp, startTestAppWithCli, usingPostgres, type ApiResponse, withApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { consoleClient as browser, CONSOLE_PASSWORD as PASSWORD } from '../helpers/console-client.js';

const setCookie = (res: ApiResponse, name: string) => [res.headers['set-cookie']].flat().find((c) => String(c).startsWith(`${name}=`));

test('console lockout per address: 5 wrong passwords lock that address, not its /24 neighbour; Retry-After is the remaining lock, free at its edge; backoff doubles; a success resets', () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const attacker = browser(app, '10.91.0.5');
    for (let i = 0; i < 4; i++) assert.match((await attacker.signIn('guess ' + i)).text, /Wrong password\.<\/p>/);
    const fifth = await attacker.signIn('guess 4');
    assert.equal(fifth.status, 401);
    assert.match(fifth.text, /Wrong password\. Too many failed sign-ins: sign-in from here is paused for 1 minute\./);
    const locked = await attacker.signIn();
    assert.equal(locked.status, 429, 'even the right password is refused while locked');
    assert.equal(locked.headers['retry-after'], '60');
    assert.match(locked.text, /Too many failed sign-ins from this address/);
    assert.match(locked.text, /Try again in 1 minute/);

    const neighbour = browser(app, '10.91.0.77');
    assert.equal((await neighbour.signIn()).status, 303, 'another address of the same /24 is not locked');

    app.clock.advance(30 * SECOND);
    const half = await attacker.signIn();
    assert.equal(half.headers['retry-after'], '30');
    assert.match(half.text, /Try again in 30 seconds/);
    app.clock.advance(30 * SECOND - 1);
    const edge = await attacker.signIn();
    assert.equal(edge.status, 429, 'still locked a millisecond before the lock ends');
    assert.equal(edge.headers['retry-after'], '1');
    app.clock.advance(1);

    // each further failure doubles the lock: 2, 4, 8 minutes
    for (const minutes of [2, 4, 8]) {
      const wrong = await attacker.signIn('another guess');
      assert.equal(wrong.status, 401);
      assert.match(wrong.text, new RegExp(`paused for ${minutes} minutes`));
      const refused = await attacker.signIn();
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], String(minutes * 60));
      app.clock.advance(minutes * MINUTE - 1);
      assert.equal((await attacker.signIn()).status, 429, `locked at ${minutes} minutes less a millisecond`);
      app.clock.advance(1);
    }
    assert.equal((await attacker.signIn()).status, 303, 'free at the lock edge, and the right password signs in');
    const afterSuccess = browser(app, '10.91.0.5');
    for (let i = 0; i < 4; i++) assert.match((await afterSuccess.signIn('typo ' + i)).text, /Wrong password\.<\/p>/, 'the success cleared the streak');

    const actions = (await app.bosun.ctx.services.audit.list({ limit: 100 })).map((e) => `${e.action} ${e.ip}`);
    assert.ok(actions.includes('console.lockout 10.91.0.0/24') && actions.includes('console.login_locked 10.91.0.0/24'), 'locks are audited with redacted addresses');
  }));

test("console lockout: the operator's known browser (device cookie) signs in while its address is locked for other visitors", () =>
  withApp(async (app) => {
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const proxy = '10.93.0.1'; // every visitor behind one proxy shares its address
    const operator = browser(app, proxy);
    const first = await operator.signIn();
    assert.equal(first.status, 303);
    assert.match(String(setCookie(first, 'bosun_console_device')), /^bosun_console_device=[\w-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=7776000$/);
    const device = operator.jar.get('bosun_console_device')!;
    const stored = await app.bosun.ctx.store.db.selectFrom('console_devices').selectAll().execute();
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.token_hash, device, 'the device token is stored hashed');
    assert.equal((await operator.post('/console/logout', { csrf: operator.csrf })).status, 303);

    const attacker = browser(app, proxy);
    for (let i = 0; i < 5; i++) assert.equal((await attacker.signIn('guess ' + i)).status, 401);
    assert.equal((await attacker.signIn()).status, 429);
    assert.equal((await browser(app, proxy).signIn()).status, 429, 'a new browser at the address is locked');
    const forged = browser(app, proxy);
    forged.jar.set('bosun_console_device', 'not-a-known-device');
    assert.equal((await forged.signIn()).status, 429, 'an unknown device cookie counts as none');

    const again = await operator.signIn();
    assert.equal(again.status, 303, 'the known browser signs in while its address is locked');
    assert.equal(operator.jar.get('bosun_console_device'), device, 'the device keeps its cookie');

    // the known browser's own failures lock only it
    await operator.post('/console/logout', { csrf: operator.csrf });
    for (let i = 0; i < 5; i++) assert.equal((await operator.signIn('typo ' + i)).status, 401);
    const deviceLocked = await operator.signIn();
    assert.equal(deviceLocked.status, 429);
    assert.equal(deviceLocked.headers['retry-after'], '60');
    app.clock.advance(MINUTE);
    assert.equal((await attacker.signIn()).status, 303, "the address's own lock ended too");
    assert.equal((await operator.signIn()).status, 303);
  }));

test('operator CLI: console-locks lists locks (addresses redacted), unlock-console clears one address or all, audited', async () => {
  // the CLI reads the system clock: the app's manual clock starts at the real time so its locks are current
  const { app, env, cleanup } = await startTestAppWithCli('console-cli', { now: Date.now() });
  try {
    const bosun = (...args: string[]) => runCli(['operator', ...args], { env });
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);

    assert.match((await bosun('console-locks')).stdout, /no console sign-in failures on record/);
    for (const ip of ['10.95.0.9', '10.96.0.9']) for (let i = 0; i < 5; i++) await browser(app, ip).signIn('guess ' + i);
    await browser(app, '10.97.0.9').signIn('just one typo');

    const list = await bosun('console-locks');
    assert.equal(list.status, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(list.stdout, /^address 10\.95\.0\.0\/24 {2}5 failed {2}LOCKED until \d{4}-\d\d-\d\dT[\d:.]+Z {2}last failure /m);
    assert.match(list.stdout, /^address 10\.97\.0\.0\/24 {2}1 failed {2}not locked/m);
    assert.doesNotMatch(list.stdout, /10\.95\.0\.9/, 'addresses are shown redacted');

    const neither = await bosun('unlock-console');
    assert.notEqual(neither.status, 0);
    assert.match(neither.stderr, /--address <ip> or --all/);
    const bad = await bosun('unlock-console', '--address', 'nowhere');
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /not an IP address: nowhere/);

    const one = await bosun('unlock-console', '--address', '10.95.0.9');
    assert.equal(one.status, 0, one.stderr);
    assert.equal(one.stdout, 'cleared 1 lock\n');
    assert.equal((await browser(app, '10.95.0.9').signIn()).status, 303);
    assert.equal((await browser(app, '10.96.0.9').signIn()).status, 429, 'the other address stays locked');

    const all = await bosun('unlock-console', '--all');
    assert.equal(all.stdout, 'cleared 2 locks\n');
    assert.equal((await browser(app, '10.96.0.9').signIn()).status, 303);
    assert.equal((await bosun('unlock-console', '--all')).stdout, 'nothing to clear\n');

    const unlocks = (await app.bosun.ctx.services.audit.list({ limit: 100 })).filter((e) => e.action === 'console.unlock');
    assert.deepEqual(
      unlocks.map((e) => [e.actor_kind, e.ip, e.details]),
      [
        ['cli', null, { all: true, cleared: 0 }],
        ['cli', null, { all: true, cleared: 2 }],
        ['cli', '10.95.0.0/24', { all: false, cleared: 1 }],
      ],
    );
  } finally {
    await cleanup();
  }
});

test('console lockout holds across processes on one store, and concurrent guesses cannot slip past the threshold', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-console-guard-'));
  const a = await startTestApp({ env: usingPostgres() ? {} : { DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}` } });
  const db = a.config.database;
  const b = await startTestApp({ env: db.kind === 'postgres' ? { DATABASE_URL: db.url, BOSUN_PG_SCHEMA: db.schema } : { DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}` } });
  try {
    await a.bosun.ctx.services.operator.setPassword(PASSWORD);
    for (let i = 0; i < 3; i++) assert.equal((await browser(a, '10.98.0.1').signIn('guess ' + i)).status, 401);
    for (let i = 0; i < 2; i++) assert.equal((await browser(b, '10.98.0.1').signIn('guess ' + i)).status, 401);
    assert.equal((await browser(a, '10.98.0.1').signIn()).status, 429, 'failures through both processes count under one key');
    assert.equal((await browser(b, '10.98.0.1').signIn()).status, 429);

    const guesses = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).bosun.ctx.services.consoleSessions.signIn(`parallel guess ${i}`, { ip: '10.98.0.2' })));
    const reasons = guesses.map((g) => (g.ok ? 'ok' : g.reason));
    assert.equal(reasons.filter((r) => r === 'wrong_password').length, 5, 'exactly five guesses reach the password check');
    assert.equal(reasons.filter((r) => r === 'locked').length, 15);
  } finally {
    await b.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
