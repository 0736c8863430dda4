import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { AppError } from '../../src/platform/errors.js';
import { canonicalJson } from '../../src/features/idempotency/idempotency-service.js';
import { withApp } from '../helpers/app.js';

test('canonical JSON ignores key order and undefined members, keeps array order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null }, u: undefined }), '{"a":{"c":null,"d":[2,1]},"b":1}');
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]));
});

test('idempotency service: a pending claim refuses a concurrent twin; a stale claim is taken over', () =>
  withApp(async (app) => {
    const service = app.bosun.ctx.services.idempotency;
    const request = { caller: 'agent:agt_x', method: 'POST', path: '/v1/things', body: { n: 1 } };
    let runs = 0;
    let release!: () => void;
    const slow = service.run('key-00000001', request, async () => {
      runs++;
      await new Promise<void>((resolve) => (release = resolve));
      return { id: 'first' };
    });
    while (runs === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    await assert.rejects(
      service.run('key-00000001', request, async () => ({ id: 'twin' })),
      (err: AppError) => err.code === 'conflict',
    );
    release();
    assert.deepEqual(await slow, { result: { id: 'first' }, replayed: false });
    assert.deepEqual(await service.run('key-00000001', request, async () => ({ id: 'again' })), { result: { id: 'first' }, replayed: true });
    assert.equal(runs, 1);

    let hung = false;
    void service.run('key-00000002', request, () => {
      hung = true;
      return new Promise<never>(() => {});
    });
    while (!hung) await new Promise((resolve) => setTimeout(resolve, 2));
    app.clock.advance(MINUTE - SECOND);
    await assert.rejects(
      service.run('key-00000002', request, async () => ({ id: 'x' })),
      (err: AppError) => err.code === 'conflict',
    );
    app.clock.advance(SECOND);
    assert.deepEqual(await service.run('key-00000002', request, async () => ({ id: 'recovered' })), { result: { id: 'recovered' }, replayed: false });

    assert.deepEqual(await service.run(undefined, request, async () => 7), { result: 7, replayed: false }, 'no key, no record');
  }));
