import { callingAgent } from '../../http/route.js';
import { defineRoute } from '../kit/route.js';
import {
  NoQuery,
  OpsData,
  OpsQuery,
  OpsSummaryData,
  OpsSummaryQuery,
  PaymentInstructionsData,
  PricingData,
  RefusedData,
  StatusData,
  SubmitTxBody,
  X402RequirementsData,
  X402RequirementsQuery,
  X402VerifyAnyBody,
} from './schemas.js';

const pricing = defineRoute({
  operationId: 'getBillingPricing',
  description:
    'What every implemented operation costs: its cost hint and what a successful call charges in cost units (0 for the free discovery operations; failures always charge 0), generated from the catalog, and what a cost unit means. Cost units are metered, not billed: there is no paid tier.',
  query: NoQuery,
  response: PricingData,
  examples: [{ summary: 'Read the price list' }],
  async handler(_input, call) {
    return { data: call.services.billing.pricing() };
  },
});

const paymentInstructions = defineRoute({
  operationId: 'getBillingPaymentInstructions',
  description:
    'The display-only payment rails configured by the operator (the harbor payments configuration), whether payment intents are enabled, how settlement works (manually, nothing delivered automatically) and the rules of core-interface 4.2: voluntary support purchases nothing; a vessel snapshot purchase needs an immutable quote and a confirmed settlement and is operator_configuration_required; payments, x402, wallets and a facilitator are unavailable.',
  query: NoQuery,
  response: PaymentInstructionsData,
  examples: [{ summary: 'Read the payment instructions' }],
  async handler(_input, call) {
    return { data: call.services.billing.paymentInstructions(call.baseUrl, call.siteUrl) };
  },
});

const x402Requirements = defineRoute({
  operationId: 'getBillingX402Requirements',
  description:
    'The x402 PaymentRequired document (x402Version 2) of this service, marked unavailable: available false, no facilitator, and each PaymentRequirements entry (one per configured rail with a CAIP-2 network) carries amount "0" and extra.available false: nothing can be paid for or bought (vessel snapshot purchase: operator_configuration_required). payment_required is null when no such rail is configured. resource (optional) names what the client wants to pay for, as x402 clients such as the ShipInfo agent kit send it; it is echoed as payment_required.resource.url (a path is made absolute on this service).',
  query: X402RequirementsQuery,
  response: X402RequirementsData,
  examples: [{ summary: 'Read the x402 requirements (unavailable)' }, { summary: 'The requirements for one resource, as x402 clients ask', query: { resource: '/v1/services/vessel-snapshot/read' } }],
  async handler({ query }, call) {
    return { data: call.services.billing.x402Requirements(call.baseUrl, query.resource) };
  },
});

const x402Verify = defineRoute({
  operationId: 'postBillingX402Verify',
  description:
    'Verification of an x402 payment (body: x402Version, paymentPayload, paymentRequirements as the x402 specification defines them). Unavailable: every call with an agent key answers settlement_unavailable first, whatever the body holds (the documented state comes before any check of the body); no facilitator is contacted, nothing is charged, recorded or granted.',
  query: NoQuery,
  body: X402VerifyAnyBody,
  response: RefusedData,
  errors: ['settlement_unavailable'],
  examples: [
    {
      summary: 'Verify a payment (refused: no facilitator is configured)',
      body: {
        x402Version: 2,
        paymentPayload: { x402Version: 2, payload: { signature: '0x00' } },
        paymentRequirements: { scheme: 'exact', network: 'eip155:8453', asset: 'USDC', amount: '1000', payTo: '0x' + '12'.repeat(20), maxTimeoutSeconds: 60 },
      },
      expectError: 'settlement_unavailable',
    },
  ],
  async handler(_input, call) {
    callingAgent(call);
    return call.services.billing.refuseSettlement('x402_verify');
  },
});

const status = defineRoute({
  operationId: 'getBillingStatus',
  description:
    'Your metered usage: calls, charged calls and cost units today, this week (since Monday 00:00 UTC) and this month (since the 1st), each by operation, with your tier (free: there is no paid tier) and allowance (no cost-unit cap; rate limits apply). Sums are exact to 0.001 (cost_milli_units). Every call made with your key counts, failures at 0; this call itself shows in the next answer.',
  query: NoQuery,
  response: StatusData,
  examples: [{ summary: 'My usage' }],
  async handler(_input, call) {
    return { data: await call.services.billing.status(callingAgent(call)) };
  },
});

const submitTx = defineRoute({
  operationId: 'postBillingSubmitTx',
  description:
    'Submission of a settlement transaction (network, tx_hash, optional quote_id). Unavailable: no quotes are issued and no facilitator or verifier is configured, so the call answers settlement_unavailable after checking the body; nothing is charged, recorded or granted. Voluntary payments go through payment intents (POST /v1/payments/intents) and purchase nothing.',
  query: NoQuery,
  body: SubmitTxBody,
  response: RefusedData,
  errors: ['settlement_unavailable'],
  examples: [{ summary: 'Submit a transaction (refused: settlement is unavailable)', body: { network: 'base', tx_hash: 'ab'.repeat(32) }, expectError: 'settlement_unavailable' }],
  async handler(_input, call) {
    callingAgent(call);
    return call.services.billing.refuseSettlement('submit_tx');
  },
});

const ops = defineRoute({
  operationId: 'getBillingOps',
  description:
    'Metered usage of every account over a period (period: today, week or month, default month): one entry per agent (anonymous calls together, operator calls together) with calls, charged calls, cost units and per-operation totals, ordered by caller kind and agent_id; agent_id selects one agent. Paged: limit (1-200, default 50) and next_cursor. Restricted to the operator or agents holding ops:read.',
  query: OpsQuery,
  response: OpsData,
  errors: ['cursor_invalid'],
  examples: [{ summary: 'Usage this month by account', query: { period: 'month', limit: 50 } }],
  async handler({ query }, call) {
    return { data: await call.services.billing.ops(query) };
  },
});

const opsSummary = defineRoute({
  operationId: 'getBillingOpsSummary',
  description:
    'Metered usage across all accounts: totals today, this week and this month, and for the chosen period (period, default month) distinct agents, totals by caller kind, per-operation totals and a per-day series. Restricted to the operator or agents holding ops:read.',
  query: OpsSummaryQuery,
  response: OpsSummaryData,
  examples: [{ summary: 'Usage summary this month', query: { period: 'month' } }],
  async handler({ query }, call) {
    return { data: await call.services.billing.opsSummary(query) };
  },
});

export const billingRoutes = [pricing, paymentInstructions, x402Requirements, x402Verify, status, submitTx, ops, opsSummary];
