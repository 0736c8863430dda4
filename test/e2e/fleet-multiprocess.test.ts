import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBosun } from '../../src/app/create.js';
import { startTestApp, TEST_EPOCH, usingPostgres, usingRedis } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';
import { runScaleOutCheck } from '../../bench/scale-out/scale-out-check.js';

const skip = usingPostgres() && usingRedis() ? false : 'needs DATABASE_URL (PostgreSQL) and REDIS_URL';

test('two instances on one PostgreSQL + Redis: a position ingested by one is long-polled and looked up on the other', { skip }, async () => {
  const ingestSide = await startTestApp();
  const serveSide = await createBosun(ingestSide.config, { clock: ingestSide.clock });
  try {
    const { apiKey } = await ingestSide.registerAgent('cross-process', ['vessels:live']);
    const call = async (url: string) => {
      const res = await serveSide.http.inject({ method: 'GET', url, headers: { authorization: `Bearer ${apiKey}` } });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    };
    const start = await call('/v1/vessels/updates?timeout=0');
    const pending = call(`/v1/vessels/updates?since=${start.body.data.cursor}&timeout=20`);
    await new Promise((r) => setTimeout(r, 100));
    await ingest(ingestSide.bosun.ctx.services.fleet, identity(563033300, TEST_EPOCH, { imo: 9811000, name: 'OCEAN PRIDE' }), position(563033300, TEST_EPOCH, 1.25, 103.8));
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.items.map((i: { mmsi: number; lat: number }) => [i.mmsi, i.lat]),
      [[563033300, 1.25]],
    );

    const lookup = await call('/v1/vessels/lookup?imo=9811000');
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.data.vessel.name, 'OCEAN PRIDE');
    assert.equal(lookup.body.data.latest_position.lat, 1.25);
    assert.equal(lookup.body.data.vessel.vsl_id, ingestSide.bosun.ctx.services.fleet.byMmsiNumber(563033300)!.vslId);
  } finally {
    await serveSide.close();
    await ingestSide.close();
  }
});

test('scale-out: two serve processes started at once on one fresh PostgreSQL schema and Redis, one ingesting, agree on keys, limits and long polls', { skip }, async () => {
  const result = await runScaleOutCheck({ databaseUrl: process.env.DATABASE_URL!, redisUrl: process.env.REDIS_URL! });
  const r = result.registration;
  assert.deepEqual([r.registeredOnA, r.meOnB], [201, 200], 'a key registered on A works on B');
  assert.deepEqual([r.liveBeforeGrantOnB, r.liveAfterGrantOnB], [403, 200], "a grant made by the CLI holds on B's next request");
  assert.deepEqual(r.afterRevokeOnB, { status: 401, code: 'auth_invalid' }, "a revocation made by the CLI holds on B's next request");
  assert.deepEqual(
    result.limits.statuses.map((s) => [s.side, s.status, s.remaining]),
    [
      ['A', 200, '5'],
      ['B', 200, '4'],
      ['A', 200, '3'],
      ['B', 200, '2'],
      ['A', 200, '1'],
      ['B', 200, '0'],
      ['A', 429, '0'],
    ],
    'one preview count (6 a minute) across both processes',
  );
  assert.equal(result.limits.refusedCode, 'ip_rate_limited');
  assert.equal(result.longPoll.status, 200);
  assert.ok(result.longPoll.items > 0, 'the poll waiting on B was answered with positions A ingested');
  assert.deepEqual(
    result.longPoll.mmsis.filter((m) => !result.longPoll.sentMmsis.includes(m)),
    [],
    'only vessels sent to A',
  );
});
