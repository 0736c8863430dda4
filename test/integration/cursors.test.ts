import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { createCursorCodec } from '../../src/http/cursor-codec.js';
import { AppError } from '../../src/platform/errors.js';
import { startTestApp, testConfig, TEST_EPOCH, usingPostgres, type TestApp, withApp } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';

/** Issue 8 item 2: cursors are opaque and HMAC-signed; a changed cursor answers cursor_invalid; every process on a store accepts them. */

async function seedTwo(app: TestApp) {
  const fleet = app.bosun.ctx.services.fleet;
  await ingest(
    fleet,
    identity(563033300, TEST_EPOCH - 3_600_000, { imo: 9811000, name: 'OCEAN PRIDE' }),
    position(563033300, TEST_EPOCH - 3_000_000, 1.2, 103.7),
    identity(563033400, TEST_EPOCH - 3_600_000, { name: 'OCEAN QUEEN' }),
    position(563033400, TEST_EPOCH - 3_000_000, 1.3, 103.8),
  );
}

/** Flips one character of the payload part, keeping the cursor well-formed. */
function tamper(cursor: string): string {
  const at = 2;
  const c = cursor[at] === 'A' ? 'B' : 'A';
  return cursor.slice(0, at) + c + cursor.slice(at + 1);
}

test('a harbor cursor is signed: its payload is not readable as plain created_at:id and any change is cursor_invalid', () => {
  const codec = createCursorCodec('a test secret');
  const cursor = codec.encodePosition({ createdAt: 1_700_000_000_000, id: 'hreq_abc' });
  assert.match(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  assert.deepEqual(codec.decodePosition(cursor), { createdAt: 1_700_000_000_000, id: 'hreq_abc' });
  assert.throws(
    () => createCursorCodec('another secret').decodePosition(cursor),
    (err: unknown) => err instanceof AppError && err.code === 'cursor_invalid',
    'a codec with another secret refuses it',
  );
  const forged = Buffer.from('1800000000000:hreq_zzz', 'utf8').toString('base64url');
  for (const bad of [tamper(cursor), forged, `${forged}.${cursor.split('.')[1]}`, cursor.slice(0, -1), `${cursor}x`]) {
    assert.throws(
      () => codec.decodePosition(bad),
      (err: unknown) => err instanceof AppError && err.code === 'cursor_invalid' && err.options.field === 'query.cursor',
      bad,
    );
  }
});

test('vessel cursors are signed too: a tampered search or updates cursor answers cursor_invalid', () =>
  withApp(async (app) => {
    await seedTwo(app);
    const { apiKey } = await app.registerAgent('cursor-user', ['vessels:live']);
    const first = await app.api('GET', '/v1/vessels/search?q=OCEAN&limit=1', { token: apiKey });
    const cursor = first.body.data.next_cursor as string;
    assert.ok(cursor);
    const second = await app.api('GET', `/v1/vessels/search?q=OCEAN&limit=1&cursor=${cursor}`, { token: apiKey });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.data.items[0].vsl_id, first.body.data.items[0].vsl_id);
    const bad = await app.api('GET', `/v1/vessels/search?q=OCEAN&limit=1&cursor=${tamper(cursor)}`, { token: apiKey });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 'cursor_invalid');
    const plain = Buffer.from('u:1', 'utf8').toString('base64url');
    const unsigned = await app.api('GET', `/v1/vessels/updates?timeout=0&since=${plain}`, { token: apiKey });
    assert.equal(unsigned.status, 400, 'the old unsigned form is refused');
    assert.equal(unsigned.body.errors[0].code, 'cursor_invalid');
    assert.equal(unsigned.body.errors[0].field, 'query.since');
  }));

test('the signing secret is generated once per store and shared: a cursor from one process is accepted by the next', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-cursor-'));
  const env: Record<string, string> = usingPostgres() ? { BOSUN_PG_SCHEMA: `t_cursor_${process.pid}_${Date.now() % 1_000_000}` } : { DATABASE_URL: `sqlite:${join(dir, 'shared.sqlite')}` };
  try {
    const first = await createBosun(testConfig(env), { clock: new ManualClock(TEST_EPOCH) });
    const secret = await first.ctx.store.db.selectFrom('service_secrets').select(['name', 'secret']).execute();
    assert.equal(secret.length, 1);
    assert.equal(secret[0]!.name, 'cursor_signing');
    const cursor = first.ctx.services.cursors.encodePosition({ createdAt: 42, id: 'op_1' });
    await first.close();

    const second = await startTestApp({ env });
    try {
      assert.deepEqual(await second.bosun.ctx.store.db.selectFrom('service_secrets').select(['name', 'secret']).execute(), secret, 'the stored secret is reused');
      assert.deepEqual(second.bosun.ctx.services.cursors.decodePosition(cursor), { createdAt: 42, id: 'op_1' }, 'the next process verifies it with the same secret');
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BOSUN_CURSOR_SECRET replaces the generated secret', async () => {
  const app = await startTestApp({ env: { BOSUN_CURSOR_SECRET: 'x'.repeat(40) } });
  try {
    assert.equal(app.config.cursorSecret, 'x'.repeat(40));
    assert.deepEqual(await app.bosun.ctx.store.db.selectFrom('service_secrets').selectAll().execute(), [], 'no per-store secret is generated');
    const cursors = app.bosun.ctx.services.cursors;
    assert.deepEqual(cursors.decodePosition(createCursorCodec('x'.repeat(40)).encodePosition({ createdAt: 7, id: 'x_1' })), { createdAt: 7, id: 'x_1' }, 'the configured secret signs');
  } finally {
    await app.close();
  }
});
