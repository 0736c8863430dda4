import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../src/platform/config.js';

test('defaults: 127.0.0.1:8080, SQLite under ./data, auto-sandbox and telemetry on, no Redis', () => {
  const c = loadConfig({});
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.port, 8080);
  assert.deepEqual(c.database, { kind: 'sqlite', file: resolve('./data', 'bosun.sqlite') });
  assert.equal(c.redis, null);
  assert.equal(c.autoSandbox, true);
  assert.equal(c.telemetry, true);
  assert.equal(c.bodyLimitBytes, 65536);
  assert.equal(c.eventDetection, true);
});

test('BOSUN_EVENT_DETECTION: false or 0 keeps the process out of the live detection; anything else but true or 1 is refused', () => {
  assert.equal(loadConfig({ BOSUN_EVENT_DETECTION: 'false' }).eventDetection, false);
  assert.equal(loadConfig({ BOSUN_EVENT_DETECTION: '0' }).eventDetection, false);
  assert.equal(loadConfig({ BOSUN_EVENT_DETECTION: '1' }).eventDetection, true);
  assert.throws(() => loadConfig({ BOSUN_EVENT_DETECTION: 'off' }), /BOSUN_EVENT_DETECTION/);
});

test('DATABASE_URL postgres:// switches the store; REDIS_URL enables Redis; overrides apply', () => {
  const c = loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/bosun', REDIS_URL: 'redis://cache:6379', HOST: '0.0.0.0', PORT: '9000', BOSUN_AUTO_SANDBOX: 'false' });
  assert.deepEqual(c.database, { kind: 'postgres', url: 'postgres://u:p@db:5432/bosun', schema: 'public' });
  assert.deepEqual(c.redis, { url: 'redis://cache:6379', prefix: 'bosun:' });
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.port, 9000);
  assert.equal(c.autoSandbox, false);
});

test('invalid values fail fast with every problem named', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty' }),
    (e: unknown) => e instanceof ConfigError && /PORT/.test(e.message),
  );
  assert.throws(() => loadConfig({ PORT: '70000' }), /PORT: out of range/);
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  assert.throws(() => loadConfig({ BOSUN_AUTO_SANDBOX: 'maybe' }), /BOSUN_AUTO_SANDBOX/);
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL/);
  assert.throws(() => loadConfig({ REDIS_URL: 'http://x' }), /REDIS_URL/);
});

test('payment rails are validated at start; intents are off unless enabled', () => {
  assert.deepEqual(loadConfig({}).payments, { rails: [], intentsEnabled: false });
  assert.throws(() => loadConfig({ BOSUN_PAYMENT_RAILS: '[{' }), /BOSUN_PAYMENT_RAILS: not valid JSON/);
  assert.throws(() => loadConfig({ BOSUN_PAYMENT_RAILS: '[{"rail_id":"x"}]' }), /BOSUN_PAYMENT_RAILS/);
  const rail = { rail_id: 'usdc-base', label: 'USDC', network: 'base', token: 'USDC', address: '0x1234567890', decimals: 6 };
  assert.throws(() => loadConfig({ BOSUN_PAYMENT_RAILS: JSON.stringify([rail, rail]) }), /unique/);
  const c = loadConfig({ BOSUN_PAYMENT_RAILS: JSON.stringify([rail]), BOSUN_PAYMENT_INTENTS: 'true' });
  assert.deepEqual(c.payments, { rails: [rail], intentsEnabled: true });
});
