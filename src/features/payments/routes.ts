import { callingAgent } from '../../http/route.js';
import { defineRoute } from '../kit/route.js';
import { PAGE_SECURITY_HEADERS } from '../../http/pages.js';
import { renderPaymentsPage } from './payments-page.js';
import { PAYMENT_PURPOSES } from './payments-service.js';
import { CreateIntentBody, IntentData, PaymentIdParams, PaymentsPage, ProofBody, RailsData } from './schemas.js';

const rails = defineRoute({
  operationId: 'getPaymentsRails',
  description:
    'Public payment destinations configured by the operator (display only), whether payment intents are enabled here (disabled by default), the purposes an intent may have and how settlement works: manually, with nothing delivered automatically.',
  response: RailsData,
  examples: [{ summary: 'List payment rails' }],
  async handler(_input, call) {
    const payments = call.services.payments;
    return {
      data: {
        rails: [...payments.rails()],
        intents_enabled: payments.intentsEnabled(),
        purposes: [...PAYMENT_PURPOSES],
        settlement: 'manual: the operator reviews every proof; no keys on the server, no automatic delivery, no guaranteed refund',
        catalog_url: `${call.siteUrl}/payments`,
      },
    };
  },
});

const createIntent = defineRoute({
  operationId: 'postPaymentsIntents',
  description:
    'Creates a payment intent: purpose (contribution, pay_what_you_want, help_request, vessel_snapshot, sponsorship), rail_id, amount_or_pay_what_you_want, expiry (60-900 s) and idempotency_key, all required. Disabled by default (payments_disabled). The same idempotency_key with the same fields returns the same intent (header Idempotent-Replayed: true); with different fields it is refused (idempotency_key_reused). A payment grants no access, scope or data.',
  body: CreateIntentBody,
  response: IntentData,
  successStatus: 201,
  errors: ['payments_disabled', 'idempotency_key_reused'],
  examples: [
    {
      summary: 'Offer a contribution (refused while intents are disabled, the default)',
      body: { purpose: 'contribution', rail_id: 'usdc-base', amount_or_pay_what_you_want: 'pay_what_you_want', expiry: 900, idempotency_key: 'contribution-2026-11-21' },
      expectError: 'payments_disabled',
    },
  ],
  async handler({ body }, call) {
    const { intent, replayed } = await call.services.payments.createIntent(callingAgent(call).agentId, body);
    if (replayed) call.setHeader('idempotent-replayed', 'true');
    return { data: intent };
  },
});

const proof = defineRoute({
  operationId: 'postPaymentsIntentsByPaymentIdProof',
  description:
    'Submits the proof of a payment for one of your intents: network, token, tx_hash, sender_address and amount, all required. No verifier is configured, so the intent moves to manual_review and waits for the operator; nothing is delivered automatically. Disabled by default (payments_disabled).',
  params: PaymentIdParams,
  body: ProofBody,
  response: IntentData,
  errors: ['payments_disabled', 'not_found', 'conflict'],
  examples: [
    {
      summary: 'Submit a proof (refused while intents are disabled, the default)',
      params: { payment_id: 'pay_0000000000000000' },
      body: { network: 'base', token: 'USDC', tx_hash: '0x' + 'ab'.repeat(32), sender_address: '0x' + '12'.repeat(20), amount: '5.00' },
      expectError: 'payments_disabled',
    },
  ],
  async handler({ params, body }, call) {
    const result = await call.services.payments.submitProof(callingAgent(call).agentId, params.payment_id, body);
    return { data: result.intent, qualityFlags: result.qualityFlags };
  },
});

const page = defineRoute({
  operationId: 'getPayments',
  description: 'The display-only payments catalog page (HTML): destinations and the statement that nothing settles or delivers automatically.',
  response: PaymentsPage,
  examples: [{ summary: 'Open the payments page' }],
  async handler(_input, call) {
    const payments = call.services.payments;
    return { bare: renderPaymentsPage(payments.rails(), payments.intentsEnabled(), call.baseUrl), contentType: 'text/html; charset=utf-8', headers: PAGE_SECURITY_HEADERS };
  },
});

export const paymentRoutes = [rails, createIntent, proof, page];
