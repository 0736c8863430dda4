import type { InsertResult } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborHelpFeedbackTable, HarborHelpReportsTable, HarborHelpRequestsTable, HarborHelpResponsesTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';

export type HelpRequestRow = HarborHelpRequestsTable;
export type HelpResponseRow = HarborHelpResponsesTable;
export type HelpReportRow = HarborHelpReportsTable;
export type HelpFeedbackRow = HarborHelpFeedbackTable;
export type OperatorReportRow = HelpReportRow & { title: string; state: string; hidden: number; author_id: string; reports_on_request: number };

const inserted = (result: InsertResult) => Number(result.numInsertedOrUpdatedRows ?? 0) > 0;

export function createHelpRepo(db: Db) {
  return {
    async insertRequest(row: HelpRequestRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_help_requests').values(row).execute();
    },
    async findRequest(requestId: string): Promise<HelpRequestRow | undefined> {
      return db.selectFrom('harbor_help_requests').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    },
    /** Updates a request only while it is still in `expectedState`; returns whether it did. */
    async updateRequest(requestId: string, expectedState: string, patch: Partial<HelpRequestRow>, trx: Executor = db): Promise<boolean> {
      const result = await trx.updateTable('harbor_help_requests').set(patch).where('request_id', '=', requestId).where('state', '=', expectedState).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async touch(requestId: string, at: number, trx: Executor = db): Promise<void> {
      await trx.updateTable('harbor_help_requests').set({ updated_at: at, last_activity_at: at }).where('request_id', '=', requestId).execute();
    },
    async setHidden(requestId: string, hidden: boolean, at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('harbor_help_requests')
          .set({ hidden: hidden ? 1 : 0, hidden_at: hidden ? at : null })
          .where('request_id', '=', requestId)
          .execute();
        await trx
          .updateTable('harbor_help_feedback')
          .set({ hidden: hidden ? 1 : 0 })
          .where('request_id', '=', requestId)
          .execute();
      });
    },
    /** Open, public, not hidden; newest first, after `after` when given. */
    async listOpenPublic(limit: number, after?: ListPosition): Promise<HelpRequestRow[]> {
      let q = db
        .selectFrom('harbor_help_requests')
        .selectAll()
        .where('state', '=', 'open')
        .where('visibility', '=', 'public')
        .where('hidden', '=', 0)
        .orderBy('created_at', 'desc')
        .orderBy('request_id', 'desc')
        .limit(limit);
      if (after) {
        q = q.where(olderThan('request_id', after));
      }
      return q.execute();
    },
    /** The author's requests in every state, newest first. */
    async listByAuthor(authorId: string, limit: number, after?: ListPosition): Promise<HelpRequestRow[]> {
      let q = db.selectFrom('harbor_help_requests').selectAll().where('author_id', '=', authorId).orderBy('created_at', 'desc').orderBy('request_id', 'desc').limit(limit);
      if (after) {
        q = q.where(olderThan('request_id', after));
      }
      return q.execute();
    },
    /** Requests the author created after `since`, with the oldest creation time among them. */
    async authoredSince(authorId: string, since: number, trx: Executor = db): Promise<{ count: number; oldest: number | null }> {
      const row = await trx
        .selectFrom('harbor_help_requests')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('author_id', '=', authorId)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
    },
    async countByAuthorInStates(authorId: string, states: readonly string[], trx: Executor = db): Promise<number> {
      const row = await trx
        .selectFrom('harbor_help_requests')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('author_id', '=', authorId)
        .where('state', 'in', states)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    /** Whether the agent ever created a help request or answered one (retained rows only). */
    async hasTakenPart(agentId: string): Promise<boolean> {
      const asAuthor = await db.selectFrom('harbor_help_requests').select('request_id').where('author_id', '=', agentId).limit(1).executeTakeFirst();
      if (asAuthor) return true;
      const asHelper = await db.selectFrom('harbor_help_responses').select('response_id').where('helper_id', '=', agentId).limit(1).executeTakeFirst();
      return asHelper !== undefined;
    },
    /** Number of responses per request (answers and updates). */
    async responseCounts(requestIds: readonly string[]): Promise<Map<string, number>> {
      if (requestIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('harbor_help_responses')
        .select((eb) => ['request_id', eb.fn.countAll<number | string>().as('count')])
        .where('request_id', 'in', requestIds)
        .groupBy('request_id')
        .execute();
      return new Map(rows.map((r) => [r.request_id, Number(r.count)]));
    },

    /** False when the helper already answered this request (one answer per helper and request). */
    async insertResponse(row: HelpResponseRow, trx: Executor = db): Promise<boolean> {
      return inserted(
        await trx
          .insertInto('harbor_help_responses')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      );
    },
    async findResponse(responseId: string): Promise<HelpResponseRow | undefined> {
      return db.selectFrom('harbor_help_responses').selectAll().where('response_id', '=', responseId).executeTakeFirst();
    },
    async findAnswer(requestId: string, helperId: string, trx: Executor = db): Promise<HelpResponseRow | undefined> {
      return trx.selectFrom('harbor_help_responses').selectAll().where('request_id', '=', requestId).where('helper_id', '=', helperId).where('kind', '=', 'answer').executeTakeFirst();
    },
    /** A request's responses, oldest first, after `after` when given. */
    async listResponses(requestId: string, limit: number, after?: ListPosition): Promise<HelpResponseRow[]> {
      let q = db.selectFrom('harbor_help_responses').selectAll().where('request_id', '=', requestId).orderBy('created_at', 'asc').orderBy('response_id', 'asc').limit(limit);
      if (after) {
        q = q.where((eb) => eb(eb.refTuple('created_at', 'response_id'), '>', eb.tuple(after.createdAt, after.id)));
      }
      return q.execute();
    },

    /**
     * Responses on public, non-hidden requests, newest first (created_at, then response_id, descending),
     * strictly after `before`: the feed's help_response items, with the request's title.
     */
    async listPublicResponses(limit: number, before?: ListPosition): Promise<Array<HelpResponseRow & { request_title: string }>> {
      let q = db
        .selectFrom('harbor_help_responses as r')
        .innerJoin('harbor_help_requests as q', 'q.request_id', 'r.request_id')
        .selectAll('r')
        .select('q.title as request_title')
        .where('q.visibility', '=', 'public')
        .where('q.hidden', '=', 0)
        .orderBy('r.created_at', 'desc')
        .orderBy('r.response_id', 'desc')
        .limit(limit);
      if (before) {
        q = q.where((eb) => eb(eb.refTuple('r.created_at', 'r.response_id'), '<', eb.tuple(before.createdAt, before.id)));
      }
      return q.execute();
    },

    /** False when the reporter already reported this request. */
    async insertReport(row: HelpReportRow, trx: Executor = db): Promise<boolean> {
      return inserted(
        await trx
          .insertInto('harbor_help_reports')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      );
    },
    async findReport(requestId: string, reporterId: string, trx: Executor = db): Promise<HelpReportRow | undefined> {
      return trx.selectFrom('harbor_help_reports').selectAll().where('request_id', '=', requestId).where('reporter_id', '=', reporterId).executeTakeFirst();
    },
    /** Newest reports first, with the reported request's title, state and moderation flag. */
    async listReports(limit: number): Promise<OperatorReportRow[]> {
      const rows = await db
        .selectFrom('harbor_help_reports as r')
        .innerJoin('harbor_help_requests as q', 'q.request_id', 'r.request_id')
        .selectAll('r')
        .select((eb) => [
          'q.title',
          'q.state',
          'q.hidden',
          'q.author_id',
          eb
            .selectFrom('harbor_help_reports as o')
            .select((o) => o.fn.countAll<number | string>().as('n'))
            .whereRef('o.request_id', '=', 'r.request_id')
            .as('reports_on_request'),
        ])
        .orderBy('r.created_at', 'desc')
        .orderBy('r.report_id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, reports_on_request: Number(r.reports_on_request) }));
    },

    /** False when this participant already gave feedback on the request. */
    async insertFeedback(row: HelpFeedbackRow, trx: Executor = db): Promise<boolean> {
      return inserted(
        await trx
          .insertInto('harbor_help_feedback')
          .values(row)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      );
    },
    async feedbackFor(requestId: string, trx: Executor = db): Promise<HelpFeedbackRow[]> {
      return trx.selectFrom('harbor_help_feedback').selectAll().where('request_id', '=', requestId).orderBy('created_at').execute();
    },
    /** Count and rating sum of the non-hidden feedback an agent received. */
    async feedbackReceived(agentId: string): Promise<{ count: number; ratingSum: number }> {
      const row = await db
        .selectFrom('harbor_help_feedback')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.sum<number | string | null>('rating').as('sum')])
        .where('to_agent_id', '=', agentId)
        .where('hidden', '=', 0)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), ratingSum: Number(row.sum ?? 0) };
    },

    /**
     * Deletes requests without activity since `cutoff`, with their responses and reports, and erases the
     * comments of their feedback (the ratings stay as reputation records). Returns the number of requests.
     */
    async purgeInactive(cutoff: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const stale = trx.selectFrom('harbor_help_requests').select('request_id').where('last_activity_at', '<', cutoff);
        await trx.updateTable('harbor_help_feedback').set({ comment: null }).where('request_id', 'in', stale).execute();
        await trx.deleteFrom('harbor_help_responses').where('request_id', 'in', stale).execute();
        await trx.deleteFrom('harbor_help_reports').where('request_id', 'in', stale).execute();
        const result = await trx.deleteFrom('harbor_help_requests').where('last_activity_at', '<', cutoff).executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
  };
}
export type HelpRepo = ReturnType<typeof createHelpRepo>;
