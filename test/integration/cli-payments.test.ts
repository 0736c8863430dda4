import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, usingPostgres } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
const RAILS = JSON.stringify([{ rail_id: 'usdc-base', label: 'USDC on Base', network: 'base', token: 'USDC', address: '0x' + 'ab'.repeat(20), decimals: 6 }]);

test('operator CLI: a proof flagged amount_mismatch shows a warning and is confirmed only with --accept-mismatch', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-payments-cli-'));
  const paymentEnv = { BOSUN_PAYMENT_INTENTS: 'true', BOSUN_PAYMENT_RAILS: RAILS };
  const app = await startTestApp({ env: usingPostgres() ? paymentEnv : { ...paymentEnv, DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}` } });
  try {
    const db = app.config.database;
    const env = {
      ...process.env,
      ...paymentEnv,
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.kind === 'postgres' ? db.url : `sqlite:${join(dir, 'bosun.db')}`,
      ...(db.kind === 'postgres' ? { BOSUN_PG_SCHEMA: db.schema } : {}),
    };
    const bosun = (...args: string[]) => runCli(['payments', ...args], { env });

    const { apiKey } = await app.registerAgent('payer');
    const intent = await app.api('POST', '/v1/payments/intents', {
      token: apiKey,
      body: { purpose: 'contribution', rail_id: 'usdc-base', amount_or_pay_what_you_want: '5.00', expiry: 900, idempotency_key: 'cli-mismatch-1' },
    });
    assert.equal(intent.status, 201, intent.text);
    const id = intent.body.data.payment_id;
    const proof = { network: 'base', token: 'USDC', tx_hash: '0x' + 'ef'.repeat(32), sender_address: '0x' + '12'.repeat(20), amount: '4.00' };
    assert.equal((await app.api('POST', `/v1/payments/intents/${id}/proof`, { token: apiKey, body: proof })).status, 200);

    const list = await bosun('list', '--state', 'manual_review');
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /WARNING: amount_mismatch/);
    const plain = await bosun('review', id, '--confirm');
    assert.notEqual(plain.status, 0, 'a mismatch is not confirmed without the flag');
    assert.match(plain.stderr + plain.stdout, /amount_mismatch.*--accept-mismatch/);
    const accepted = await bosun('review', id, '--confirm', '--accept-mismatch');
    assert.equal(accepted.status, 0, accepted.stderr);
    assert.match(accepted.stdout, /is now contribution_recorded/);
    assert.match(accepted.stderr, /warning: confirmed despite amount_mismatch/);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
