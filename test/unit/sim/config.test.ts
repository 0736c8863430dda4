import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../../src/platform/config.js';

test('demo fleet configuration: defaults, explicit values, invalid values refused at start', () => {
  assert.deepEqual(loadConfig({}).demo, { vessels: 300, seed: 'bosun', backfillDays: 7 });
  assert.deepEqual(loadConfig({ BOSUN_DEMO_VESSELS: '25', BOSUN_DEMO_SEED: 'harbour', BOSUN_DEMO_BACKFILL_DAYS: '0.5' }).demo, { vessels: 25, seed: 'harbour', backfillDays: 0.5 });
  for (const env of [{ BOSUN_DEMO_VESSELS: 'many' }, { BOSUN_DEMO_VESSELS: '-1' }, { BOSUN_DEMO_VESSELS: '100000' }, { BOSUN_DEMO_BACKFILL_DAYS: '7d' }]) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && /BOSUN_DEMO/.test(e.message),
      JSON.stringify(env),
    );
  }
});
