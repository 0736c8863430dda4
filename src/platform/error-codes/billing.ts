import type { ErrorDefinitions } from './definition.js';

/** Billing and payments (docs/billing.md). */
export const BILLING_ERRORS = {
  payments_disabled: { status: 403, retryable: false, summary: 'Payment intents are disabled on this deployment; the rails are display-only.' },
  payment_required: { status: 402, retryable: false, summary: 'Payment is required for this operation.' },
  settlement_unavailable: {
    status: 503,
    retryable: false,
    summary: 'No payment facilitator is configured: x402 verification and transaction submission are unavailable; nothing is charged, recorded or granted.',
  },
} as const satisfies ErrorDefinitions;
