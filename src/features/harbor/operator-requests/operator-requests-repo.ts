import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborOperatorRequestsTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';

export type OperatorRequestRow = HarborOperatorRequestsTable;

export function createOperatorRequestsRepo(db: Db) {
  return {
    async insert(row: OperatorRequestRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_operator_requests').values(row).execute();
    },
    async findById(requestId: string): Promise<OperatorRequestRow | undefined> {
      return db.selectFrom('harbor_operator_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    },
    /** Newest first; `limit` rows at most, after `after` when given. */
    async listByAgent(agentId: string, limit: number, after?: ListPosition): Promise<OperatorRequestRow[]> {
      let q = db.selectFrom('harbor_operator_requests').selectAll().where('agent_id', '=', agentId).orderBy('created_at', 'desc').orderBy('request_id', 'desc').limit(limit);
      if (after) {
        q = q.where(olderThan('request_id', after));
      }
      return q.execute();
    },
    async listForOperator(filter: { state?: string; limit: number }): Promise<OperatorRequestRow[]> {
      let q = db.selectFrom('harbor_operator_requests').selectAll().orderBy('created_at', 'desc').orderBy('request_id', 'desc').limit(filter.limit);
      if (filter.state) q = q.where('state', '=', filter.state);
      return q.execute();
    },
    async update(requestId: string, patch: Partial<OperatorRequestRow>, trx: Executor = db): Promise<void> {
      await trx.updateTable('harbor_operator_requests').set(patch).where('request_id', '=', requestId).execute();
    },
  };
}
export type OperatorRequestsRepo = ReturnType<typeof createOperatorRequestsRepo>;
