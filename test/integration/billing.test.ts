import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PaymentRequiredSchema } from '@x402/core/schemas';
import type { PaymentRequirements } from '@x402/core/types';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun } from '../../src/app/create.js';
import { dropTestSchema, startTestApp, TEST_EPOCH, usingPostgres, type TestApp } from '../helpers/app.js';

const RAILS = JSON.stringify([{ rail_id: 'usdc-base', label: 'USDC on Base', network: 'base', token: 'USDC', address: '0x' + 'ab'.repeat(20), decimals: 6 }]);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The cost a successful call of an operation charges, from the catalog (as milli-units). */
function chargeMilli(app: TestApp, operationId: string): number {
  const op = app.bosun.ctx.catalog.implemented.find((o) => o.entry.operationId === operationId);
  assert.ok(op, operationId);
  return op.entry.free ? 0 : Math.round(op.entry.cost * 1000);
}

describe('billing: metering over a scripted sequence of calls', () => {
  let app: TestApp;
  let a: { agentId: string; apiKey: string };
  let b: { agentId: string; apiKey: string };
  let c: { agentId: string; apiKey: string };
  let operator: string;
  before(async () => {
    // 2026-11-21 is a Saturday: its week began on Monday 2026-11-16
    app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS } });
    a = await app.registerAgent('meter-a');
    b = await app.registerAgent('meter-b');
    c = await app.registerAgent('meter-c');
    operator = await app.operatorToken();

    // Saturday 21 November, agent A: 3 pricing (0.05), quality (0.2), examples (0.07), 2 pings (free), a refused submit-tx (0)
    for (let i = 0; i < 3; i++) assert.equal((await app.api('GET', '/v1/billing/pricing', { token: a.apiKey })).body.cost_units, 0.05);
    assert.equal((await app.api('GET', '/v1/quality', { token: a.apiKey })).body.cost_units, 0.2);
    assert.equal((await app.api('GET', '/v1/capabilities/examples', { token: a.apiKey })).body.cost_units, 0.07);
    for (let i = 0; i < 2; i++) assert.equal((await app.api('GET', '/v1/ping', { token: a.apiKey })).body.cost_units, 0);
    const refused = await app.api('POST', '/v1/billing/submit-tx', { token: a.apiKey, body: { network: 'base', tx_hash: 'ab'.repeat(32) } });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.cost_units, 0);

    // Monday 23 November 10:00 (a new week): agent A 1 pricing and 2 quality, agent B 2 pricing, one anonymous pricing
    app.clock.set(TEST_EPOCH + 2 * DAY + 10 * HOUR);
    await app.api('GET', '/v1/billing/pricing', { token: a.apiKey });
    for (let i = 0; i < 2; i++) await app.api('GET', '/v1/quality', { token: a.apiKey });
    for (let i = 0; i < 2; i++) await app.api('GET', '/v1/billing/pricing', { token: b.apiKey });
    await app.api('GET', '/v1/billing/pricing');
  });
  after(() => app.close());

  test('status: exact sums today, this week and this month, by operation', async () => {
    assert.ok(app.bosun.ctx.services.billing.meter.pending() > 0, 'calls wait in the meter, not written per request');
    const res = await app.api('GET', '/v1/billing/status', { token: a.apiKey });
    assert.equal(res.status, 200);
    assert.equal(res.body.cost_units, 0.15);
    const { usage, tier, allowance } = res.body.data;
    assert.equal(res.body.data.agent_id, a.agentId);
    assert.deepEqual(tier.usage_tier, 'free');
    assert.equal(tier.agent_state, 'sandbox');
    assert.equal(allowance.enforced, false);
    assert.deepEqual(allowance.rate_limits, [{ policy: 'agent_default', window: 'minute', calls: 1200 }]);

    assert.deepEqual(
      { from: usage.today.from, to: usage.today.to, calls: usage.today.calls, charged: usage.today.charged_calls, cost: usage.today.cost_units, milli: usage.today.cost_milli_units },
      { from: '2026-11-23', to: '2026-11-23', calls: 3, charged: 3, cost: 0.45, milli: 450 },
    );
    assert.deepEqual([usage.week.from, usage.week.calls, usage.week.cost_units], ['2026-11-23', 3, 0.45]);
    assert.deepEqual(
      { from: usage.month.from, calls: usage.month.calls, charged: usage.month.charged_calls, cost: usage.month.cost_units, milli: usage.month.cost_milli_units },
      { from: '2026-11-01', calls: 11, charged: 8, cost: 0.87, milli: 870 },
    );
    assert.deepEqual(usage.month.operations, [
      { operation_id: 'getQuality', calls: 3, charged_calls: 3, cost_units: 0.6, cost_milli_units: 600 },
      { operation_id: 'getBillingPricing', calls: 4, charged_calls: 4, cost_units: 0.2, cost_milli_units: 200 },
      { operation_id: 'getCapabilitiesExamples', calls: 1, charged_calls: 1, cost_units: 0.07, cost_milli_units: 70 },
      { operation_id: 'getPing', calls: 2, charged_calls: 0, cost_units: 0, cost_milli_units: 0 },
      { operation_id: 'postBillingSubmitTx', calls: 1, charged_calls: 0, cost_units: 0, cost_milli_units: 0 },
    ]);
    // a read flushes the meter first: at most this status call itself waits now
    assert.ok(app.bosun.ctx.services.billing.meter.pending() <= 1);

    // the status call itself is metered: the next status shows it
    const again = await app.api('GET', '/v1/billing/status', { token: a.apiKey });
    assert.deepEqual([again.body.data.usage.today.calls, again.body.data.usage.today.cost_units], [4, 0.6]);
  });

  test('privacy: each agent sees only its own usage', async () => {
    const ofB = (await app.api('GET', '/v1/billing/status', { token: b.apiKey })).body.data;
    assert.equal(ofB.agent_id, b.agentId);
    assert.deepEqual([ofB.usage.month.calls, ofB.usage.month.cost_units], [2, 0.1]);
    assert.deepEqual(
      ofB.usage.month.operations.map((o: { operation_id: string }) => o.operation_id),
      ['getBillingPricing'],
    );
    const ofC = (await app.api('GET', '/v1/billing/status', { token: c.apiKey })).body.data;
    assert.deepEqual([ofC.usage.month.calls, ofC.usage.month.cost_units, ofC.usage.month.operations], [0, 0, []]);
  });

  test('a new month starts from zero; the week spans the month boundary', async () => {
    const rollover = await startTestApp({ now: Date.UTC(2026, 10, 30, 23, 0, 0) });
    try {
      const { apiKey } = await rollover.registerAgent('month-end');
      await rollover.api('GET', '/v1/quality', { token: apiKey });
      rollover.clock.set(Date.UTC(2026, 11, 1, 1, 0, 0));
      await rollover.api('GET', '/v1/billing/pricing', { token: apiKey });
      const { usage } = (await rollover.api('GET', '/v1/billing/status', { token: apiKey })).body.data;
      assert.deepEqual([usage.today.from, usage.today.cost_units], ['2026-12-01', 0.05]);
      assert.deepEqual([usage.month.from, usage.month.calls, usage.month.cost_units], ['2026-12-01', 1, 0.05]);
      assert.deepEqual([usage.week.from, usage.week.calls, usage.week.cost_units], ['2026-11-30', 2, 0.25]);
    } finally {
      await rollover.close();
    }
  });

  test('ops: every account, paged, with exact per-operation totals', async () => {
    const registration = chargeMilli(app, 'postAgentsRegister');
    const first = await app.api('GET', '/v1/billing/ops?period=month&limit=1', { token: operator });
    assert.equal(first.status, 200);
    const seen = [...first.body.data.accounts];
    let cursor = first.body.data.next_cursor;
    while (cursor) {
      const page = await app.api('GET', `/v1/billing/ops?period=month&limit=1&cursor=${encodeURIComponent(cursor)}`, { token: operator });
      assert.equal(page.body.data.accounts.length, 1);
      seen.push(...page.body.data.accounts);
      cursor = page.body.data.next_cursor;
    }
    const byId = new Map(seen.map((acc) => [acc.agent_id ?? acc.caller_kind, acc]));
    // agent A: 11 scripted calls and its 2 status calls (0.15 each)
    assert.deepEqual([byId.get(a.agentId).calls, byId.get(a.agentId).cost_units, byId.get(a.agentId).cost_milli_units], [13, 1.17, 1170]);
    assert.deepEqual([byId.get(b.agentId).calls, byId.get(b.agentId).cost_milli_units], [3, 250]);
    assert.deepEqual([byId.get(c.agentId).calls, byId.get(c.agentId).cost_milli_units], [1, 150]);
    const anonymous = byId.get('anonymous');
    assert.equal(anonymous.agent_id, null);
    assert.equal(anonymous.cost_milli_units, 3 * registration + 50);
    assert.deepEqual(
      anonymous.operations.find((o: { operation_id: string }) => o.operation_id === 'postAgentsRegister'),
      { operation_id: 'postAgentsRegister', calls: 3, cost_units: (3 * registration) / 1000, cost_milli_units: 3 * registration },
    );
    assert.ok(byId.has('operator'), 'the operator calls of this listing are metered too');
    assert.deepEqual(
      seen.map((acc) => acc.caller_kind),
      [...seen.map((acc) => acc.caller_kind)].sort(),
      'ordered by caller kind',
    );

    const one = await app.api('GET', `/v1/billing/ops?period=today&agent_id=${a.agentId}`, { token: operator });
    assert.deepEqual(
      one.body.data.accounts.map((acc: { agent_id: string; calls: number }) => [acc.agent_id, acc.calls]),
      [[a.agentId, 5]],
    );
    assert.equal(one.body.data.next_cursor, null);
  });

  test('ops: a cursor of another period or a forged one answers cursor_invalid', async () => {
    const first = await app.api('GET', '/v1/billing/ops?period=month&limit=1', { token: operator });
    const other = await app.api('GET', `/v1/billing/ops?period=week&limit=1&cursor=${encodeURIComponent(first.body.data.next_cursor)}`, { token: operator });
    assert.equal(other.status, 400);
    assert.deepEqual([other.body.errors[0].code, other.body.errors[0].field], ['cursor_invalid', 'query.cursor']);
    const forged = await app.api('GET', '/v1/billing/ops?cursor=abc.def', { token: operator });
    assert.equal(forged.body.errors[0].code, 'cursor_invalid');
    const badLimit = await app.api('GET', '/v1/billing/ops?limit=0', { token: operator });
    assert.deepEqual([badLimit.status, badLimit.body.errors[0].field], [400, 'query.limit']);
  });

  test('ops-summary: totals across accounts equal the sum of the accounts', async () => {
    const accounts = (await app.api('GET', '/v1/billing/ops?limit=200', { token: operator })).body.data.accounts;
    const summary = (await app.api('GET', '/v1/billing/ops-summary', { token: operator })).body.data;
    // the ops call above is the only call between the two reads
    const opsCost = chargeMilli(app, 'getBillingOps');
    const sum = accounts.reduce((s: number, acc: { cost_milli_units: number }) => s + acc.cost_milli_units, 0);
    assert.equal(summary.totals.month.cost_milli_units, sum + opsCost);
    assert.equal(summary.totals.month.cost_units, (sum + opsCost) / 1000);
    assert.equal(summary.distinct_agents, 3);
    assert.deepEqual(
      summary.days.map((d: { day: string }) => d.day),
      ['2026-11-21', '2026-11-23'],
    );
    const agentKind = summary.by_caller_kind.find((k: { caller_kind: string }) => k.caller_kind === 'agent');
    assert.equal(agentKind.cost_milli_units, 1170 + 250 + 150);
    const quality = summary.operations.find((o: { operation_id: string }) => o.operation_id === 'getQuality');
    assert.deepEqual([quality.calls, quality.cost_units], [3, 0.6]);
    const today = (await app.api('GET', '/v1/billing/ops-summary?period=today', { token: operator })).body.data;
    assert.deepEqual(
      today.days.map((d: { day: string }) => d.day),
      ['2026-11-23'],
    );
    assert.equal(today.totals.month.cost_milli_units, summary.totals.month.cost_milli_units + chargeMilli(app, 'getBillingOpsSummary'));
  });
});

describe('billing: pricing, instructions and the unavailable payment surface', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS } });
  });
  after(() => app.close());

  test('pricing lists every implemented operation of public discovery with its charge', async () => {
    const res = await app.api('GET', '/v1/billing/pricing');
    const { operations, unit, paid_tiers } = res.body.data;
    const discoverable = app.bosun.ctx.catalog.discoverable.map((o) => o.entry.operationId).sort();
    assert.deepEqual(operations.map((o: { operation_id: string }) => o.operation_id).sort(), discoverable);
    const ping = operations.find((o: { operation_id: string }) => o.operation_id === 'getPing');
    assert.deepEqual([ping.cost_hint, ping.charged_cost_units, ping.free], [0.05, 0, true]);
    const status = operations.find((o: { operation_id: string }) => o.operation_id === 'getBillingStatus');
    assert.deepEqual([status.access, status.cost_hint, status.charged_cost_units], ['K', 0.15, 0.15]);
    assert.equal(unit.money_value, null);
    assert.deepEqual(paid_tiers, []);
  });

  test('payment instructions: the configured display-only rails and the 4.2 rules', async () => {
    const { data } = (await app.api('GET', '/v1/billing/payment-instructions')).body;
    assert.deepEqual(
      data.rails.map((r: { rail_id: string }) => r.rail_id),
      ['usdc-base'],
    );
    assert.equal(data.intents_enabled, false);
    assert.deepEqual(data.availability, { payments: 'unavailable', x402: 'unavailable', wallets: 'unavailable', facilitator: 'unavailable' });
    assert.equal(data.vessel_snapshot_purchase.status, 'operator_configuration_required');
    assert.match(data.vessel_snapshot_purchase.voluntary_support, /purchases nothing/);
    assert.equal(data.vessel_snapshot_purchase.requires.length, 2);
  });

  test('x402 requirements: the PaymentRequired shape of @x402/core, every entry marked unavailable', async () => {
    const { data } = (await app.api('GET', '/v1/billing/x402/requirements')).body;
    assert.deepEqual([data.available, data.status, data.facilitator], [false, 'unavailable', null]);
    const parsed = PaymentRequiredSchema.safeParse(data.payment_required);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    assert.equal(data.payment_required.x402Version, 2);
    assert.equal(data.payment_required.resource.url, 'http://localhost:80/v1/services/vessel-snapshot/read');
    assert.deepEqual(data.payment_required.accepts, [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        asset: 'USDC',
        amount: '0',
        payTo: '0x' + 'ab'.repeat(20),
        maxTimeoutSeconds: 60,
        extra: { available: false, status: 'unavailable', purchase_status: 'operator_configuration_required', rail_id: 'usdc-base', reason: data.reason },
      },
    ]);
    const requirement: PaymentRequirements = data.payment_required.accepts[0];
    assert.deepEqual(Object.keys(requirement).sort(), [...data.requirement_fields].sort());
  });

  test('x402 requirements without a rail x402 can name: no PaymentRequired document', async () => {
    const bare = await startTestApp();
    try {
      const { data } = (await bare.api('GET', '/v1/billing/x402/requirements')).body;
      assert.deepEqual([data.available, data.payment_required], [false, null]);
    } finally {
      await bare.close();
    }
  });

  test("the ShipInfo agent kit's x402 calls: resource accepted on requirements (path made absolute, URL echoed), verify answers unavailable whatever the body", async () => {
    const asKit = await app.api('GET', '/v1/billing/x402/requirements?resource=%2Fv1%2Fservices%2Fvessel-snapshot%2Fread', { headers: { host: 'kit.example' } });
    assert.equal(asKit.status, 200);
    assert.equal(asKit.body.data.payment_required.resource.url, 'http://kit.example/v1/services/vessel-snapshot/read');
    assert.equal(asKit.body.data.available, false);
    assert.ok(PaymentRequiredSchema.safeParse(asKit.body.data.payment_required).success);
    const url = 'https://shipinfo.example/api/vessel/9321483';
    assert.equal((await app.api('GET', `/v1/billing/x402/requirements?resource=${encodeURIComponent(url)}`)).body.data.payment_required.resource.url, url);
    const unknown = await app.api('GET', '/v1/billing/x402/requirements?resources=x');
    assert.equal(unknown.status, 400, 'other names are still refused');
    const { apiKey } = await app.registerAgent('shipinfo-kit');
    for (const body of [{ x402Version: 1, paymentPayload: { scheme: 'exact', network: 'base' } }, {}, { x402Version: 'two', paymentRequirements: [] }]) {
      const verify = await app.api('POST', '/v1/billing/x402/verify', { token: apiKey, body });
      assert.deepEqual([verify.status, verify.body.errors[0].code, verify.body.cost_units], [503, 'settlement_unavailable', 0], JSON.stringify(body));
    }
    const foreign = await app.api('POST', '/v1/billing/x402/verify', { token: apiKey, body: { amount: 5 } });
    assert.deepEqual([foreign.status, foreign.body.errors[0].code], [400, 'invalid_request'], 'a body that is no x402 body is still refused');
    const anonymous = await app.api('POST', '/v1/billing/x402/verify', { body: {} });
    assert.equal(anonymous.body.errors[0].code, 'auth_required', 'the key is still checked first');
  });

  test('x402 verify and submit-tx answer settlement_unavailable at no charge (submit-tx checks its body first)', async () => {
    const { apiKey } = await app.registerAgent('payer');
    const verifyBody = {
      x402Version: 2,
      paymentPayload: { x402Version: 2, payload: { signature: '0x00' } },
      paymentRequirements: { scheme: 'exact', network: 'eip155:8453', asset: 'USDC', amount: '1000', payTo: '0x' + '12'.repeat(20), maxTimeoutSeconds: 60 },
    };
    const verify = await app.api('POST', '/v1/billing/x402/verify', { token: apiKey, body: verifyBody });
    assert.deepEqual([verify.status, verify.body.errors[0].code, verify.body.errors[0].retryable, verify.body.cost_units], [503, 'settlement_unavailable', false, 0]);
    const incomplete = await app.api('POST', '/v1/billing/x402/verify', { token: apiKey, body: { ...verifyBody, paymentRequirements: undefined } });
    assert.deepEqual([incomplete.status, incomplete.body.errors[0].code], [503, 'settlement_unavailable'], 'the documented state before any check of the body');
    const submit = await app.api('POST', '/v1/billing/submit-tx', { token: apiKey, body: { network: 'base', tx_hash: 'cd'.repeat(32), quote_id: 'q_1' } });
    assert.deepEqual([submit.status, submit.body.errors[0].code], [503, 'settlement_unavailable']);
    const badHash = await app.api('POST', '/v1/billing/submit-tx', { token: apiKey, body: { network: 'base', tx_hash: 'short' } });
    assert.deepEqual([badHash.status, badHash.body.errors[0].field], [400, 'body.tx_hash']);
  });
});

describe('billing: no operation grants data for a payment', () => {
  test('payment attempts on every payment surface change no scope, state or answer', async () => {
    const app = await startTestApp({ env: { BOSUN_PAYMENT_RAILS: RAILS, BOSUN_PAYMENT_INTENTS: 'true' } });
    try {
      const { apiKey } = await app.registerAgent('buyer');
      const me = async () => {
        const d = (await app.api('GET', '/v1/agents/me', { token: apiKey })).body.data;
        return { state: d.state, scopes: d.scopes.map((s: { scope: string }) => s.scope).sort() };
      };
      const position = async (headers: Record<string, string> = {}) => {
        const r = await app.api('GET', '/v1/vessels/last_position?imo=9074729', { token: apiKey, headers });
        return { status: r.status, codes: r.body.errors.map((e: { code: string }) => e.code), data: r.body.data };
      };
      const before = { me: await me(), position: await position() };

      const intent = await app.api('POST', '/v1/payments/intents', {
        token: apiKey,
        body: { purpose: 'vessel_snapshot', rail_id: 'usdc-base', amount_or_pay_what_you_want: '5.00', expiry: 900, idempotency_key: 'snapshot-0001' },
      });
      assert.equal(intent.status, 201);
      const proof = await app.api('POST', `/v1/payments/intents/${intent.body.data.payment_id}/proof`, {
        token: apiKey,
        body: { network: 'base', token: 'USDC', tx_hash: '0x' + 'ef'.repeat(32), sender_address: '0x' + '12'.repeat(20), amount: '5.00' },
      });
      assert.equal(proof.body.data.state, 'manual_review', 'a proof waits for the operator; nothing is delivered');
      await app.api('POST', '/v1/billing/submit-tx', { token: apiKey, body: { network: 'base', tx_hash: 'ef'.repeat(32) } });
      await app.api('POST', '/v1/billing/x402/verify', {
        token: apiKey,
        body: {
          x402Version: 2,
          paymentPayload: { x402Version: 2, payload: { signature: '0x01' } },
          paymentRequirements: { scheme: 'exact', network: 'eip155:8453', asset: 'USDC', amount: '5000000', payTo: '0x' + 'ab'.repeat(20), maxTimeoutSeconds: 60 },
        },
      });
      const paymentHeaders = { 'x-payment': Buffer.from('{"x402Version":2}').toString('base64'), 'payment-signature': 'c2lnbmVk' };
      assert.deepEqual(await position(paymentHeaders), before.position, 'x402 payment headers change no answer');
      assert.deepEqual(await me(), before.me, 'no scope or state was granted');
      assert.deepEqual(await position(), before.position);

      // no implemented operation declares a payment-gated answer
      for (const { entry, route } of app.bosun.ctx.catalog.implemented) assert.ok(!(route.errors ?? []).includes('payment_required'), entry.operationId);
    } finally {
      await app.close();
    }
  });
});

describe('billing: the ledger is durable', () => {
  test('calls still buffered are written when the app closes, and old lines are deleted by the retention job', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-ledger-'));
    const env: Record<string, string> = usingPostgres() ? { BOSUN_PG_SCHEMA: `t_ledger_${process.pid}` } : { DATABASE_URL: `sqlite:${join(dir, 'ledger.db')}` };
    const first = await startTestApp({ env });
    const { apiKey, agentId } = await first.registerAgent('durable');
    for (let i = 0; i < 3; i++) await first.api('GET', '/v1/quality', { token: apiKey });
    assert.ok(first.bosun.ctx.services.billing.meter.pending() > 0);
    await first.bosun.close();

    const reopened = await createBosun(first.config, { clock: first.clock });
    try {
      await reopened.ctx.services.billing.meter.flush();
      const ops = await reopened.ctx.services.billing.ops({ agent_id: agentId });
      assert.deepEqual(
        ops.accounts.map((a) => [a.agent_id, a.calls, a.cost_units]),
        [[agentId, 3, 0.6]],
      );
      first.clock.advance(401 * DAY);
      assert.ok((await reopened.ctx.services.billing.enforceRetention()) >= 2, 'the agent line and the registration line');
      assert.deepEqual((await reopened.ctx.services.billing.ops({ period: 'month' })).accounts, []);
    } finally {
      await reopened.close();
      await dropTestSchema(first.config);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
