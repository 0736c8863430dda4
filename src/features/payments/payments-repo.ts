import type { Db } from '../../store/db.js';
import type { Executor } from '../../store/transaction.js';
import type { PaymentIntentsTable } from '../../store/schema.js';

export type PaymentIntentRow = PaymentIntentsTable;

export function createPaymentsRepo(db: Db) {
  return {
    async insert(row: PaymentIntentRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('payment_intents').values(row).execute();
    },
    async findById(paymentId: string): Promise<PaymentIntentRow | undefined> {
      return db.selectFrom('payment_intents').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
    },
    async findByKey(agentId: string, idempotencyKey: string, trx: Executor = db): Promise<PaymentIntentRow | undefined> {
      return trx.selectFrom('payment_intents').selectAll().where('agent_id', '=', agentId).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
    },
    async findByTxHash(txHash: string, trx: Executor = db): Promise<PaymentIntentRow | undefined> {
      return trx.selectFrom('payment_intents').selectAll().where('proof_tx_hash', '=', txHash).executeTakeFirst();
    },
    /** Moves an intent only if it is still in `fromState`; false when another writer got there first. */
    async transition(paymentId: string, fromState: string, patch: Partial<PaymentIntentRow>, trx: Executor = db): Promise<boolean> {
      const result = await trx.updateTable('payment_intents').set(patch).where('payment_id', '=', paymentId).where('state', '=', fromState).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async list(filter: { state?: string; limit: number }): Promise<PaymentIntentRow[]> {
      let q = db.selectFrom('payment_intents').selectAll().orderBy('created_at', 'desc').orderBy('payment_id', 'desc').limit(filter.limit);
      if (filter.state) q = q.where('state', '=', filter.state);
      return q.execute();
    },
    /** One agent's intents, newest first. */
    async listByAgent(agentId: string, limit: number): Promise<PaymentIntentRow[]> {
      return db.selectFrom('payment_intents').selectAll().where('agent_id', '=', agentId).orderBy('created_at', 'desc').orderBy('payment_id', 'desc').limit(limit).execute();
    },
    async expireDue(now: number): Promise<number> {
      const result = await db.updateTable('payment_intents').set({ state: 'expired', updated_at: now }).where('state', '=', 'awaiting_payment').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
export type PaymentsRepo = ReturnType<typeof createPaymentsRepo>;
