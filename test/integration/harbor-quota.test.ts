import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MINUTE, HOUR } from '../../src/platform/clock.js';
import { AppError } from '../../src/platform/errors.js';
import { HARBOR_LIMITS } from '../../src/features/kit/harbor-contract.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
before(async () => {
  app = await startTestApp();
});
after(() => app.close());

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof AppError);
    return err;
  }
  assert.fail('expected a refusal');
}

test('actions per 5 minutes: 30 accepted, the 31st refused with task_rate_limited until the window moves', async () => {
  const quota = app.bosun.ctx.services.harborQuota;
  const { agentId } = await app.registerAgent('busy');
  for (let i = 0; i < HARBOR_LIMITS.actionsPer5Minutes; i++) {
    await quota.charge(agentId, 'test.action');
    app.clock.advance(1000);
  }
  const err = await refusal(quota.charge(agentId, 'test.action'));
  assert.equal(err.code, 'task_rate_limited');
  assert.equal(err.status, 429);
  // the oldest action was 30 s ago: the window frees a slot in 5 min - 30 s
  assert.equal(err.options.headers?.['retry-after'], String(5 * 60 - 30));
  assert.equal((await quota.usage(agentId)).actions_last_5_minutes, 30, 'a refused call is not counted');

  app.clock.advance(5 * MINUTE - 30_000);
  await quota.charge(agentId, 'test.action');
});

test('creates per day: 10 accepted, the 11th refused; other agents are unaffected', async () => {
  const quota = app.bosun.ctx.services.harborQuota;
  const { agentId } = await app.registerAgent('creator');
  const other = await app.registerAgent('other');
  for (let i = 0; i < HARBOR_LIMITS.createsPerDay; i++) {
    await quota.charge(agentId, 'test.create', { creates: true });
    app.clock.advance(HOUR);
  }
  assert.equal((await refusal(quota.charge(agentId, 'test.create', { creates: true }))).code, 'task_rate_limited');
  await quota.charge(agentId, 'test.action');
  await quota.charge(other.agentId, 'test.create', { creates: true });
  const usage = await quota.usage(agentId);
  assert.equal(usage.creates_last_24_hours, 10);
  assert.equal(usage.creates_limit, 10);

  app.clock.advance(14 * HOUR + 1);
  await quota.charge(agentId, 'test.create', { creates: true });
  assert.ok((await quota.enforceRetention()) >= 1, 'ledger rows past 24 h are purged');
});
