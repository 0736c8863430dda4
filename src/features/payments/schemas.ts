import { Type } from '@sinclair/typebox';
import { PAYMENT_PURPOSES, PAYMENT_STATES } from './payments-service.js';

const Str = (min: number, max: number, pattern: string, description: string) => Type.String({ minLength: min, maxLength: max, pattern, description });

export const CreateIntentBody = Type.Object(
  {
    purpose: Type.Union(
      PAYMENT_PURPOSES.map((p) => Type.Literal(p)),
      { description: 'What the payment is for.' },
    ),
    rail_id: Str(2, 40, '^[a-z0-9][a-z0-9_-]+$', 'A rail from GET /v1/payments/rails.'),
    amount_or_pay_what_you_want: Str(1, 40, '^([0-9]{1,12}(\\.[0-9]{1,18})?|pay_what_you_want)$', 'A positive decimal amount in the rail token ("12.50"), or "pay_what_you_want" for contributions.'),
    expiry: Type.Integer({ minimum: 60, maximum: 900, description: 'Seconds the quote stays payable (60-900).' }),
    idempotency_key: Str(8, 128, '^[\\x21-\\x7e]+$', 'Your key for this intent; repeating it with the same fields returns the same intent.'),
  },
  { additionalProperties: false },
);

export const ProofBody = Type.Object(
  {
    network: Str(2, 32, '^[a-z0-9][a-z0-9_-]+$', 'Network of the rail.'),
    token: Str(1, 16, '^[A-Za-z0-9.]+$', 'Token of the rail.'),
    tx_hash: Str(16, 128, '^[A-Za-z0-9]+$', 'Transaction hash or reference.'),
    sender_address: Str(8, 128, '^[A-Za-z0-9:._-]+$', 'Address the payment came from.'),
    amount: Str(1, 40, '^[0-9]{1,12}(\\.[0-9]{1,18})?$', 'Amount sent, decimal.'),
  },
  { additionalProperties: false },
);

export const PaymentIdParams = Type.Object({ payment_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

const Rail = Type.Object({ rail_id: Type.String(), label: Type.String(), network: Type.String(), token: Type.String(), address: Type.String(), decimals: Type.Integer() });
export const RailsData = Type.Object({
  rails: Type.Array(Rail),
  intents_enabled: Type.Boolean(),
  purposes: Type.Array(Type.String()),
  settlement: Type.String(),
  catalog_url: Type.String(),
});

const NullableString = Type.Union([Type.String(), Type.Null()]);
export const IntentData = Type.Object({
  payment_id: Type.String(),
  state: Type.Union(PAYMENT_STATES.map((s) => Type.Literal(s))),
  purpose: Type.String(),
  rail: Type.Object({ rail_id: Type.String(), network: NullableString, token: NullableString, address: NullableString }),
  amount: NullableString,
  pay_what_you_want: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  proof: Type.Union([Type.Object({ network: Type.String(), token: Type.String(), tx_hash: Type.String(), sender_address: Type.String(), amount: Type.String() }), Type.Null()]),
  delivers: Type.String(),
});

export const PaymentsPage = Type.String({ description: 'HTML page' });
