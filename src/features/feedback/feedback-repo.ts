import type { Db } from '../../store/db.js';
import type { FeedbackTicketsTable } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

export type TicketRow = FeedbackTicketsTable;

export function createFeedbackRepo(db: Db) {
  return {
    async insert(row: TicketRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('feedback_tickets').values(row).execute();
    },
    find(ticketId: string, ex: Executor = db): Promise<TicketRow | undefined> {
      return ex.selectFrom('feedback_tickets').selectAll().where('ticket_id', '=', ticketId).executeTakeFirst();
    },
    /** Tickets the agent opened after `since` (exclusive): how many, and when the oldest of them was opened. */
    async openedSince(agentId: string, since: number, ex: Executor): Promise<{ count: number; oldest: number | null }> {
      const row = await ex
        .selectFrom('feedback_tickets')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('agent_id', '=', agentId)
        .where('created_at', '>', since)
        .executeTakeFirst();
      return { count: Number(row?.n ?? 0), oldest: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest) };
    },
    listForOperator(filter: { state?: string; kind?: string; limit: number }): Promise<TicketRow[]> {
      let q = db.selectFrom('feedback_tickets').selectAll().orderBy('created_at', 'desc').orderBy('ticket_id', 'desc').limit(filter.limit);
      if (filter.state) q = q.where('state', '=', filter.state);
      if (filter.kind) q = q.where('kind', '=', filter.kind);
      return q.execute();
    },
    /** Moves a ticket on only from the state it was read in; false when another step came first. */
    async update(ticketId: string, fromState: string, patch: Partial<TicketRow>, ex: Executor): Promise<boolean> {
      const res = await ex.updateTable('feedback_tickets').set(patch).where('ticket_id', '=', ticketId).where('state', '=', fromState).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
  };
}
export type FeedbackRepo = ReturnType<typeof createFeedbackRepo>;
