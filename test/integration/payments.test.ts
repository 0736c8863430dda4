import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MINUTE } from '../../src/platform/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const RAILS = JSON.stringify([
  { rail_id: 'usdc-base', label: 'USDC on Base', network: 'base', token: 'USDC', address: '0x' + 'ab'.repeat(20), decimals: 6 },
  { rail_id: 'eth-mainnet', label: 'ETH', network: 'ethereum', token: 'ETH', address: '0x' + 'cd'.repeat(20), decimals: 18 },
]);
const intent = (over: Record<string, unknown> = {}) => ({
  purpose: 'contribution',
  rail_id: 'usdc-base',
  amount_or_pay_what_you_want: '5.00',
  expiry: 900,
  idempotency_key: 'key-00000001',
  ...over,
});
const proofBody = (over: Record<string, unknown> = {}) => ({
  network: 'base',
  token: 'USDC',
  tx_hash: '0x' + 'ef'.repeat(32),
  sender_address: '0x' + '12'.repeat(20),
  amount: '5.00',
  ...over,
});

describe('payments, default deployment', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS } });
  });
  after(() => app.close());

  test('rails are listed for display while intents and proofs answer payments_disabled', async () => {
    const rails = await app.api('GET', '/v1/payments/rails');
    assert.equal(rails.body.data.intents_enabled, false);
    assert.deepEqual(
      rails.body.data.rails.map((r: { rail_id: string }) => r.rail_id),
      ['usdc-base', 'eth-mainnet'],
    );
    const { apiKey } = await app.registerAgent('payer');
    const create = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent() });
    assert.equal(create.status, 403);
    assert.equal(create.body.errors[0].code, 'payments_disabled');
    const proof = await app.api('POST', '/v1/payments/intents/pay_x/proof', { token: apiKey, body: proofBody() });
    assert.equal(proof.body.errors[0].code, 'payments_disabled');
    const page = await app.api('GET', '/payments');
    assert.match(page.text, /USDC on Base/);
    assert.match(page.text, /disabled/);
    assert.match(String(page.headers['content-type']), /text\/html/);
  });
});

describe('payments enabled by the operator', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS, BOSUN_PAYMENT_INTENTS: 'true' } });
  });
  after(() => app.close());

  test('an intent is idempotent on its key; the same key with other fields is refused', async () => {
    const { apiKey } = await app.registerAgent('payer');
    const first = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent() });
    assert.equal(first.status, 201);
    assert.equal(first.body.data.state, 'awaiting_payment');
    assert.equal(first.body.data.amount, '5.00');
    assert.equal(first.body.data.expires_at, new Date(app.clock.now() + 900_000).toISOString());
    const again = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent() });
    assert.equal(again.body.data.payment_id, first.body.data.payment_id);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    const other = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ amount_or_pay_what_you_want: '6.00' }) });
    assert.equal(other.status, 409);
    assert.equal(other.body.errors[0].code, 'idempotency_key_reused');
    const { apiKey: otherAgent } = await app.registerAgent('other');
    const sameKeyOtherAgent = await app.api('POST', '/v1/payments/intents', { token: otherAgent, body: intent() });
    assert.notEqual(sameKeyOtherAgent.body.data.payment_id, first.body.data.payment_id, 'keys are per agent');
  });

  test('input rules: quote TTL bounds, decimals, pay-what-you-want only for contributions, known rails', async () => {
    const { apiKey } = await app.registerAgent('rules');
    const cases: Array<[Record<string, unknown>, string]> = [
      [intent({ expiry: 59, idempotency_key: 'ttl-low-0001' }), 'body.expiry'],
      [intent({ expiry: 901, idempotency_key: 'ttl-high-001' }), 'body.expiry'],
      [intent({ amount_or_pay_what_you_want: '1.1234567', idempotency_key: 'decimals-001' }), 'body.amount_or_pay_what_you_want'],
      [intent({ amount_or_pay_what_you_want: '0.00', idempotency_key: 'zero-000001' }), 'body.amount_or_pay_what_you_want'],
      [intent({ purpose: 'vessel_snapshot', amount_or_pay_what_you_want: 'pay_what_you_want', idempotency_key: 'pwyw-snap-01' }), 'body.amount_or_pay_what_you_want'],
      [intent({ rail_id: 'nope', idempotency_key: 'rail-000001' }), 'body.rail_id'],
    ];
    for (const [body, field] of cases) {
      const res = await app.api('POST', '/v1/payments/intents', { token: apiKey, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.errors[0].field, field);
    }
    const ok60 = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ expiry: 60, idempotency_key: 'ttl-edge-060' }) });
    assert.equal(ok60.status, 201);
    const eth = await app.api('POST', '/v1/payments/intents', {
      token: apiKey,
      body: intent({ rail_id: 'eth-mainnet', amount_or_pay_what_you_want: '0.000000000000000001', idempotency_key: 'eth-wei-0001' }),
    });
    assert.equal(eth.status, 201);
  });

  test('a proof without a verifier goes to manual_review, delivers nothing, and the operator decides', async () => {
    const { apiKey, agentId } = await app.registerAgent('prover');
    const scopesBefore = (await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data.scopes;
    const created = (await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ idempotency_key: 'proof-flow-1' }) })).body.data;
    const wrongNet = await app.api('POST', `/v1/payments/intents/${created.payment_id}/proof`, { token: apiKey, body: proofBody({ network: 'ethereum' }) });
    assert.equal(wrongNet.body.errors[0].field, 'body.network');
    const { apiKey: stranger } = await app.registerAgent('stranger');
    const foreign = await app.api('POST', `/v1/payments/intents/${created.payment_id}/proof`, { token: stranger, body: proofBody() });
    assert.equal(foreign.status, 404);

    const proof = await app.api('POST', `/v1/payments/intents/${created.payment_id}/proof`, { token: apiKey, body: proofBody({ amount: '4.00' }) });
    assert.equal(proof.status, 200);
    assert.equal(proof.body.data.state, 'manual_review');
    assert.deepEqual(proof.body.quality_flags, ['amount_mismatch']);
    assert.match(proof.body.data.delivers, /nothing automatically/);
    const twice = await app.api('POST', `/v1/payments/intents/${created.payment_id}/proof`, { token: apiKey, body: proofBody({ tx_hash: '0x' + '99'.repeat(32) }) });
    assert.equal(twice.status, 409);
    const second = (await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ idempotency_key: 'proof-flow-2' }) })).body.data;
    const reusedTx = await app.api('POST', `/v1/payments/intents/${second.payment_id}/proof`, { token: apiKey, body: proofBody({ amount: '4.00' }) });
    assert.equal(reusedTx.status, 409);
    assert.equal(reusedTx.body.errors[0].field, 'body.tx_hash');
    assert.deepEqual((await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data.scopes, scopesBefore, 'a payment grants nothing');

    const mine = (await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data.payment_intents;
    const byId = new Map(mine.map((i: any) => [i.payment_id, i]));
    assert.equal(mine.length, 2, 'the agent reads its intents back');
    assert.equal((byId.get(second.payment_id) as any).state, 'awaiting_payment');
    assert.equal((byId.get(created.payment_id) as any).state, 'manual_review');
    assert.equal((byId.get(created.payment_id) as any).proof.amount, '4.00');
    assert.deepEqual((await app.api('GET', '/v1/agents/me', { token: stranger })).body.data.payment_intents, [], 'nobody else sees them');

    const payments = app.bosun.ctx.services.payments;
    await assert.rejects(
      payments.review(created.payment_id, 'confirm', 'seen on chain'),
      (e: any) => e.code === 'conflict' && /amount_mismatch/.test(e.message) && /--accept-mismatch/.test(e.message),
    );
    const reviewed = await payments.review(created.payment_id, 'confirm', 'seen on chain', { acceptMismatch: true });
    assert.equal(reviewed.state, 'contribution_recorded');
    assert.deepEqual(reviewed.flags, ['amount_mismatch']);
    await assert.rejects(payments.review(created.payment_id, 'reject', null), /not manual_review/);
    assert.equal((await payments.listForOperator({ state: 'contribution_recorded', limit: 10 })).filter((r) => r.agent_id === agentId).length, 1);
  });

  test('an unpaid intent expires at the end of its quote', async () => {
    const { apiKey } = await app.registerAgent('late');
    const created = (await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ expiry: 120, idempotency_key: 'expiry-0001' }) })).body.data;
    const stale = (await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ expiry: 60, idempotency_key: 'expiry-0002' }) })).body.data;
    app.clock.advance(2 * MINUTE);
    const late = await app.api('POST', `/v1/payments/intents/${created.payment_id}/proof`, { token: apiKey, body: proofBody({ tx_hash: '0x' + '77'.repeat(32) }) });
    assert.equal(late.status, 409);
    assert.match(late.body.errors[0].message, /expired/);
    assert.ok((await app.bosun.ctx.services.payments.expireDue()) >= 1);
    const replay = await app.api('POST', '/v1/payments/intents', { token: apiKey, body: intent({ expiry: 60, idempotency_key: 'expiry-0002' }) });
    assert.equal(replay.body.data.payment_id, stale.payment_id);
    assert.equal(replay.body.data.state, 'expired');
  });
});
