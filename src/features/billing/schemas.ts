import { Type } from '@sinclair/typebox';
import { BILLING_PERIODS } from './billing-service.js';
import { Nullable } from '../kit/schema-kit.js';

export const NoQuery = Type.Object({}, { additionalProperties: false });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, YYYY-MM-DD.' });
const Period = Type.Union(
  BILLING_PERIODS.map((p) => Type.Literal(p)),
  { description: 'today (this UTC day), week (since Monday 00:00 UTC) or month (since the 1st, 00:00 UTC); default month.' },
);

const Unit = Type.Object({
  name: Type.String(),
  meaning: Type.String(),
  money_value: Type.Null(),
  charged_on: Type.String(),
  precision: Type.String(),
});
const Availability = Type.Object({
  payments: Type.Literal('unavailable'),
  x402: Type.Literal('unavailable'),
  wallets: Type.Literal('unavailable'),
  facilitator: Type.Literal('unavailable'),
});
const SnapshotPurchase = Type.Object({
  product: Type.Literal('vessel_snapshot'),
  status: Type.Literal('operator_configuration_required'),
  requires: Type.Array(Type.String()),
  voluntary_support: Type.String(),
});

export const PricingData = Type.Object({
  unit: Unit,
  usage_tiers: Type.Array(Type.String()),
  paid_tiers: Type.Array(Type.String(), { maxItems: 0 }),
  counts: Type.Object({ operations: Type.Integer(), free: Type.Integer() }),
  operations: Type.Array(
    Type.Object({
      operation_id: Type.String(),
      method: Type.String(),
      path: Type.String(),
      section: Type.String(),
      access: Type.Union([Type.Literal('P'), Type.Literal('K'), Type.Literal('U')]),
      stability: Type.String(),
      cost_hint: Type.Number({ description: 'x-cost-units-hint of the catalog.' }),
      charged_cost_units: Type.Number({ description: 'What a successful call charges (0 for the free discovery operations).' }),
      free: Type.Boolean(),
    }),
  ),
});

const Rail = Type.Object({ rail_id: Type.String(), label: Type.String(), network: Type.String(), token: Type.String(), address: Type.String(), decimals: Type.Integer() });
export const PaymentInstructionsData = Type.Object({
  display_only: Type.Literal(true),
  rails: Type.Array(Rail),
  intents_enabled: Type.Boolean(),
  settlement: Type.String(),
  availability: Availability,
  vessel_snapshot_purchase: SnapshotPurchase,
  links: Type.Object({ rails: Type.String(), payments_page: Type.String(), x402_requirements: Type.String(), pricing: Type.String() }),
});

export const X402RequirementsQuery = Type.Object(
  {
    resource: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'The resource an x402 client wants to pay for (a URL or a path of this service), as the ShipInfo agent kit sends it. Accepted and echoed in payment_required.resource.url; nothing can be paid for it either.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const X402RequirementsData = Type.Object({
  available: Type.Literal(false),
  status: Type.Literal('unavailable'),
  reason: Type.String(),
  facilitator: Type.Null(),
  payment_required: Nullable(
    Type.Object(
      {
        x402Version: Type.Literal(2),
        error: Type.String(),
        resource: Type.Object({ url: Type.String(), description: Type.String(), mimeType: Type.String() }),
        accepts: Type.Array(
          Type.Object({
            scheme: Type.String(),
            network: Type.String({ description: 'CAIP-2 network of the configured rail.' }),
            asset: Type.String(),
            amount: Type.Literal('0', { description: 'No price is quoted: nothing can be bought.' }),
            payTo: Type.String(),
            maxTimeoutSeconds: Type.Integer(),
            extra: Type.Object({
              available: Type.Literal(false),
              status: Type.Literal('unavailable'),
              purchase_status: Type.Literal('operator_configuration_required'),
              rail_id: Type.String(),
              reason: Type.String(),
            }),
          }),
          { minItems: 1 },
        ),
      },
      {
        description:
          'The x402 PaymentRequired document (version 2): one PaymentRequirements entry per configured rail whose network x402 can name (CAIP-2), each marked unavailable in extra; null when no such rail is configured.',
      },
    ),
  ),
  requirement_fields: Type.Array(Type.String(), { description: 'The fields of an x402 PaymentRequirements entry, had one been offered.' }),
  availability: Availability,
  vessel_snapshot_purchase: SnapshotPurchase,
});

const Requirement = Type.Object(
  {
    scheme: Type.String({ minLength: 1, maxLength: 64 }),
    network: Type.String({ minLength: 1, maxLength: 64 }),
    asset: Type.String({ minLength: 1, maxLength: 128 }),
    amount: Type.String({ minLength: 1, maxLength: 64 }),
    payTo: Type.String({ minLength: 1, maxLength: 128 }),
    maxTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
    extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const X402VerifyBody = Type.Object(
  {
    x402Version: Type.Integer({ minimum: 1, maximum: 2, description: 'x402 protocol version.' }),
    paymentPayload: Type.Object(
      {
        x402Version: Type.Integer({ minimum: 1, maximum: 2 }),
        accepted: Type.Optional(Requirement),
        payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Scheme-specific signed payload.' }),
        resource: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      },
      { additionalProperties: false, description: 'The x402 PaymentPayload.' },
    ),
    paymentRequirements: Requirement,
  },
  { additionalProperties: false },
);

/**
 * What x402/verify accepts: a JSON object with the x402 verify fields of any version and any content, so
 * an x402 client learns the documented unavailable state before any check of their content; other field
 * names are still refused. The v2 shape is published as the first alternative.
 */
export const X402VerifyAnyBody = Type.Union(
  [
    X402VerifyBody,
    Type.Object({ x402Version: Type.Optional(Type.Unknown()), paymentPayload: Type.Optional(Type.Unknown()), paymentRequirements: Type.Optional(Type.Unknown()) }, { additionalProperties: false }),
  ],
  {
    description:
      'An x402 verify body (x402Version, paymentPayload, paymentRequirements as the x402 specification defines them, version 1 or 2). Their content is not checked: payments are unavailable, so every such body answers settlement_unavailable.',
  },
);

export const SubmitTxBody = Type.Object(
  {
    network: Type.String({ minLength: 2, maxLength: 32, pattern: '^[a-z0-9][a-z0-9_:-]+$', description: 'Network the transaction was sent on.' }),
    tx_hash: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9]+$', description: 'Transaction hash.' }),
    quote_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The quote the transaction settles (no quotes are issued at present).' })),
  },
  { additionalProperties: false },
);

export const RefusedData = Type.Object({}, { description: 'Never answered: these operations always refuse with settlement_unavailable.' });

const OperationUsage = Type.Object({
  operation_id: Type.String(),
  calls: Type.Integer(),
  charged_calls: Type.Integer(),
  cost_units: Type.Number(),
  cost_milli_units: Type.Integer(),
});
const PeriodUsage = Type.Object({
  from: Day,
  to: Day,
  calls: Type.Integer(),
  charged_calls: Type.Integer(),
  cost_units: Type.Number(),
  cost_milli_units: Type.Integer({ description: 'cost_units × 1000, summed exactly.' }),
  operations: Type.Array(OperationUsage),
});

export const StatusData = Type.Object({
  agent_id: Type.String(),
  tier: Type.Object({ usage_tier: Type.Literal('free'), agent_state: Type.String(), billing: Type.String(), description: Type.String() }),
  allowance: Type.Object({
    cost_units_per_day: Type.Null(),
    cost_units_per_month: Type.Null(),
    enforced: Type.Literal(false),
    rate_limits: Type.Array(Type.Object({ policy: Type.String(), window: Type.String(), calls: Type.Integer() })),
    note: Type.String(),
    agent_state: Type.String(),
  }),
  usage: Type.Object({ today: PeriodUsage, week: PeriodUsage, month: PeriodUsage }),
  unit: Unit,
  availability: Availability,
});

export const OpsQuery = Type.Object(
  {
    period: Type.Optional(Period),
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$', description: 'Only this agent.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Accounts per page (1-200, default 50).' })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'next_cursor of the previous page (same period, same day).' })),
  },
  { additionalProperties: false },
);

export const OpsData = Type.Object({
  period: Period,
  from: Day,
  to: Day,
  accounts: Type.Array(
    Type.Object({
      caller_kind: Type.String({ description: 'agent, anonymous (every call without a key, together) or operator.' }),
      agent_id: Nullable(Type.String()),
      calls: Type.Integer(),
      charged_calls: Type.Integer(),
      cost_units: Type.Number(),
      cost_milli_units: Type.Integer(),
      operations: Type.Array(Type.Object({ operation_id: Type.String(), calls: Type.Integer(), cost_units: Type.Number(), cost_milli_units: Type.Integer() })),
    }),
  ),
  next_cursor: Nullable(Type.String()),
});

export const OpsSummaryQuery = Type.Object({ period: Type.Optional(Period) }, { additionalProperties: false });

const Total = Type.Object({ from: Day, to: Day, calls: Type.Integer(), charged_calls: Type.Integer(), cost_units: Type.Number(), cost_milli_units: Type.Integer() });
export const OpsSummaryData = Type.Object({
  period: Period,
  totals: Type.Object({ today: Total, week: Total, month: Total }),
  distinct_agents: Type.Integer(),
  by_caller_kind: Type.Array(Type.Object({ caller_kind: Type.String(), calls: Type.Integer(), cost_units: Type.Number(), cost_milli_units: Type.Integer() })),
  operations: Type.Array(OperationUsage),
  days: Type.Array(Type.Object({ day: Day, calls: Type.Integer(), cost_units: Type.Number(), cost_milli_units: Type.Integer() })),
  pending_lines: Type.Integer(),
});
