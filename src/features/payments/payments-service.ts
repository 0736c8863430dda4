import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { PaymentRail } from '../../platform/config.js';
import { AppError } from '../../platform/errors.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import { newId } from '../../access/credentials.js';
import type { AuditService } from '../audit/audit-service.js';
import { agentLock, type TransactionRunner } from '../../store/transaction.js';
import type { PaymentIntentRow, PaymentsRepo } from './payments-repo.js';
import { iso } from '../../platform/clock.js';

export const PAYMENT_PURPOSES = ['contribution', 'pay_what_you_want', 'help_request', 'vessel_snapshot', 'sponsorship'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export const PAYMENT_STATES = ['quoted', 'awaiting_payment', 'submitted', 'verifying', 'confirmed', 'delivered', 'contribution_recorded', 'manual_review', 'rejected', 'expired'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];
export const PAY_WHAT_YOU_WANT = 'pay_what_you_want';
/** Purposes a confirmed payment records as a contribution; the others are purchases whose delivery stays manual. */
const CONTRIBUTION_PURPOSES: ReadonlySet<string> = new Set(['contribution', 'pay_what_you_want', 'sponsorship']);

export interface IntentInput {
  purpose: PaymentPurpose;
  rail_id: string;
  amount_or_pay_what_you_want: string;
  expiry: number;
  idempotency_key: string;
}

export interface ProofInput {
  network: string;
  token: string;
  tx_hash: string;
  sender_address: string;
  amount: string;
}

const AMOUNT = /^(\d{1,12})(?:\.(\d{1,18}))?$/;

function checkAmount(text: string, rail: PaymentRail, field: string): string {
  const match = AMOUNT.exec(text);
  if (!match || /^0*(\.0*)?$/.test(text)) throw new AppError('invalid_request', `${field} must be a positive decimal like "12.50"`, { field });
  if ((match[2]?.length ?? 0) > rail.decimals) throw new AppError('invalid_request', `${field} has more than ${rail.decimals} decimals for ${rail.token}`, { field });
  return text;
}

/** Decimal amounts compared by value: "5", "5.0" and "5.00" are the same amount. */
const sameAmount = (a: string, b: string) => {
  const norm = (x: string) => {
    const [whole = '', frac = ''] = x.split('.');
    return `${whole.replace(/^0+(?=\d)/, '')}.${frac.replace(/0+$/, '')}`;
  };
  return norm(a) === norm(b);
};

/** The flags of a submitted proof: amount_mismatch when it names another amount than a fixed-amount intent. */
export function proofFlags(row: Pick<PaymentIntentRow, 'amount' | 'proof'>): string[] {
  const proof = parseJson<ProofInput | null>(row.proof, null);
  return row.amount !== null && proof !== null && !sameAmount(proof.amount, row.amount) ? ['amount_mismatch'] : [];
}

/** How many of its newest intents an agent reads back in GET /v1/agents/me. */
export const OWN_INTENTS_SHOWN = 20;

const requestHash = (input: IntentInput) =>
  createHash('sha256')
    .update(jsonText([input.purpose, input.rail_id, input.amount_or_pay_what_you_want, input.expiry]))
    .digest('hex');

/**
 * Payment intents and proofs (harbor-interface 4.9). Disabled unless the operator sets
 * BOSUN_PAYMENT_INTENTS=true; even then nothing settles or delivers automatically: no verifier
 * is configured, so every proof waits in manual_review for the operator.
 */
export function createPaymentsService(deps: { repo: PaymentsRepo; clock: Clock; audit: AuditService; rails: readonly PaymentRail[]; intentsEnabled: () => boolean; transaction: TransactionRunner }) {
  const { repo, clock, audit } = deps;

  function railOf(railId: string): PaymentRail {
    const rail = deps.rails.find((r) => r.rail_id === railId);
    if (!rail) throw new AppError('invalid_request', `unknown rail_id "${railId}"; GET /v1/payments/rails lists them`, { field: 'body.rail_id' });
    return rail;
  }

  function requireEnabled() {
    if (!deps.intentsEnabled()) {
      throw new AppError('payments_disabled', 'payment intents are disabled on this deployment; the rails at GET /v1/payments/rails are display-only');
    }
  }

  /** Applies expiry lazily so a read never shows an intent as payable after its quote ended. */
  async function current(row: PaymentIntentRow): Promise<PaymentIntentRow> {
    const now = clock.now();
    if (row.state === 'awaiting_payment' && row.expires_at <= now && (await repo.transition(row.payment_id, 'awaiting_payment', { state: 'expired', updated_at: now }))) {
      return { ...row, state: 'expired', updated_at: now };
    }
    return row;
  }

  function view(row: PaymentIntentRow) {
    const rail = deps.rails.find((r) => r.rail_id === row.rail_id);
    return {
      payment_id: row.payment_id,
      state: row.state as PaymentState,
      purpose: row.purpose,
      rail: rail ? { rail_id: rail.rail_id, network: rail.network, token: rail.token, address: rail.address } : { rail_id: row.rail_id, network: null, token: null, address: null },
      amount: row.amount,
      pay_what_you_want: row.amount === null,
      created_at: iso(row.created_at),
      expires_at: iso(row.expires_at),
      updated_at: iso(row.updated_at),
      proof: parseJson<ProofInput | null>(row.proof, null),
      delivers: 'nothing automatically: confirmation is manual and no access, scope or data is granted by a payment',
    };
  }

  return {
    rails: () => deps.rails,
    intentsEnabled: () => deps.intentsEnabled(),
    view,

    async createIntent(agentId: string, input: IntentInput): Promise<{ intent: ReturnType<typeof view>; replayed: boolean }> {
      requireEnabled();
      const hash = requestHash(input);
      // Under the agent's lock, so concurrent calls with one key find the intent the first one wrote.
      const outcome = await deps.transaction(agentLock(agentId), async (trx) => {
        const existing = await repo.findByKey(agentId, input.idempotency_key, trx);
        if (existing) {
          if (existing.request_hash !== hash) {
            throw new AppError('idempotency_key_reused', 'this idempotency_key was used for a different intent; use a new key', { field: 'body.idempotency_key' });
          }
          return { row: existing, replayed: true };
        }
        const rail = railOf(input.rail_id);
        const payWhatYouWant = input.amount_or_pay_what_you_want === PAY_WHAT_YOU_WANT;
        const amount = payWhatYouWant ? null : checkAmount(input.amount_or_pay_what_you_want, rail, 'body.amount_or_pay_what_you_want');
        if (payWhatYouWant && !CONTRIBUTION_PURPOSES.has(input.purpose)) {
          throw new AppError('invalid_request', `purpose ${input.purpose} needs a fixed amount`, { field: 'body.amount_or_pay_what_you_want' });
        }
        const now = clock.now();
        const row: PaymentIntentRow = {
          payment_id: newId('pay_'),
          agent_id: agentId,
          purpose: input.purpose,
          rail_id: rail.rail_id,
          amount,
          state: 'awaiting_payment',
          idempotency_key: input.idempotency_key,
          request_hash: hash,
          created_at: now,
          expires_at: now + input.expiry * 1000,
          updated_at: now,
          proof: null,
          proof_tx_hash: null,
          review_note: null,
        };
        await repo.insert(row, trx);
        await audit.record({ actor: { kind: 'agent', id: agentId }, action: 'payments.intent.create', target: row.payment_id, ip: null, details: { purpose: row.purpose, rail_id: row.rail_id } }, trx);
        return { row, replayed: false };
      });
      return { intent: view(outcome.replayed ? await current(outcome.row) : outcome.row), replayed: outcome.replayed };
    },

    async submitProof(agentId: string, paymentId: string, proof: ProofInput) {
      requireEnabled();
      const found = await repo.findById(paymentId);
      if (!found || found.agent_id !== agentId) throw new AppError('not_found', `no payment intent ${paymentId} of yours`);
      const row = await current(found);
      if (row.state === 'expired') throw new AppError('conflict', `intent ${paymentId} expired at ${iso(row.expires_at)}; create a new one`);
      if (row.state !== 'awaiting_payment') throw new AppError('conflict', `intent ${paymentId} is ${row.state}; a proof was already submitted`);
      const rail = railOf(row.rail_id);
      if (proof.network !== rail.network) throw new AppError('invalid_request', `network must be ${rail.network} for rail ${rail.rail_id}`, { field: 'body.network' });
      if (proof.token !== rail.token) throw new AppError('invalid_request', `token must be ${rail.token} for rail ${rail.rail_id}`, { field: 'body.token' });
      checkAmount(proof.amount, rail, 'body.amount');
      const now = clock.now();
      const flags = proofFlags({ amount: row.amount, proof: jsonText(proof) });
      // A tx_hash proves one intent, whoever sends it: its own lock beside the agent's.
      await deps.transaction([agentLock(agentId), `payment_proof:${proof.tx_hash}`], async (trx) => {
        if (await repo.findByTxHash(proof.tx_hash, trx)) throw new AppError('conflict', 'this tx_hash was already submitted as a proof', { field: 'body.tx_hash' });
        // No verifier is configured in Bosun: a proof always waits for the operator (harbor-interface part 3).
        const moved = await repo.transition(paymentId, 'awaiting_payment', { state: 'manual_review', proof: jsonText(proof), proof_tx_hash: proof.tx_hash, updated_at: now }, trx);
        if (!moved) throw new AppError('conflict', `intent ${paymentId} changed meanwhile; read the error and retry`);
        await audit.record({ actor: { kind: 'agent', id: agentId }, action: 'payments.proof.submit', target: paymentId, ip: null, details: { flags } }, trx);
      });
      return { intent: view({ ...row, state: 'manual_review', proof: jsonText(proof), proof_tx_hash: proof.tx_hash, updated_at: now }), qualityFlags: flags };
    },

    /**
     * The agent's own intents, newest first, in their current state: the read-back of intents, which
     * the catalog has no GET operation for; GET /v1/agents/me shows them (docs/decisions/008-harbor-rules.md).
     */
    async ownIntents(agentId: string) {
      const rows = await repo.listByAgent(agentId, OWN_INTENTS_SHOWN);
      return Promise.all(rows.map(async (r) => view(await current(r))));
    },

    async listForOperator(filter: { state?: string; limit: number }) {
      return repo.list(filter);
    },

    /**
     * The operator's decision on a proof in manual_review. Confirming a proof flagged amount_mismatch
     * needs `acceptMismatch`: the operator has checked the transfer and accepts the other amount.
     */
    async review(paymentId: string, decision: 'confirm' | 'reject', note: string | null, options: { acceptMismatch?: boolean; actor?: { kind: 'cli' | 'operator' } } = {}) {
      const row = await repo.findById(paymentId);
      if (!row) throw new AppError('not_found', `no payment intent ${paymentId}`);
      if (row.state !== 'manual_review') throw new AppError('conflict', `intent ${paymentId} is ${row.state}, not manual_review`);
      const flags = proofFlags(row);
      if (decision === 'confirm' && flags.includes('amount_mismatch') && !options.acceptMismatch) {
        const proofAmount = parseJson<ProofInput | null>(row.proof, null)?.amount;
        throw new AppError(
          'conflict',
          `the proof of ${paymentId} names amount ${proofAmount}, the intent asked for ${row.amount} (amount_mismatch); check the transfer, then confirm with --accept-mismatch or reject it`,
        );
      }
      const state = decision === 'reject' ? 'rejected' : CONTRIBUTION_PURPOSES.has(row.purpose) ? 'contribution_recorded' : 'confirmed';
      const now = clock.now();
      if (!(await repo.transition(paymentId, 'manual_review', { state, review_note: note, updated_at: now }))) {
        throw new AppError('conflict', `intent ${paymentId} changed meanwhile`);
      }
      await audit.record({
        actor: options.actor ?? { kind: 'cli' },
        action: `payments.review.${decision}`,
        target: paymentId,
        ip: null,
        details: { state, flags, accepted_mismatch: flags.length > 0 && decision === 'confirm' },
      });
      return { ...row, state, review_note: note, updated_at: now, flags };
    },

    expireDue: () => repo.expireDue(clock.now()),
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
