import { sql } from 'kysely';
import type { Db } from '../../store/db.js';
import type { WorkspaceDocumentsTable, WorkspaceEventsTable } from '../../store/schema.js';
import type { Executor } from '../../store/transaction.js';

export type WorkspaceDocumentRow = WorkspaceDocumentsTable;
export type WorkspaceEventRow = WorkspaceEventsTable;

/** Documents and the event inbox of the agent workspace (docs/workspace.md). */
export function createWorkspaceRepo(db: Db) {
  return {
    findDocument(agentId: string, name: string, ex: Executor = db): Promise<WorkspaceDocumentRow | undefined> {
      return ex.selectFrom('workspace_documents').selectAll().where('agent_id', '=', agentId).where('name', '=', name).executeTakeFirst();
    },
    /** Names in ascending order after `after`; the content is not read. */
    listDocuments(agentId: string, limit: number, after?: string) {
      let q = db
        .selectFrom('workspace_documents')
        .select(['name', 'media_type', 'size_bytes', 'revision', 'etag', 'created_at', 'updated_at'])
        .where('agent_id', '=', agentId)
        .orderBy('name', 'asc')
        .limit(limit);
      if (after !== undefined) q = q.where('name', '>', after);
      return q.execute();
    },
    async usage(agentId: string, ex: Executor = db): Promise<{ documents: number; bytes: number }> {
      const row = await ex
        .selectFrom('workspace_documents')
        .select((eb) => [eb.fn.countAll<number | string>().as('documents'), eb.fn.sum<number | string | null>('size_bytes').as('bytes')])
        .where('agent_id', '=', agentId)
        .executeTakeFirst();
      return { documents: Number(row?.documents ?? 0), bytes: Number(row?.bytes ?? 0) };
    },
    async insertDocument(row: WorkspaceDocumentRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('workspace_documents').values(row).execute();
    },
    /** Replaces the content when the stored revision is still `revision`; false when another write came first. */
    async replaceDocument(
      agentId: string,
      name: string,
      revision: number,
      patch: Pick<WorkspaceDocumentRow, 'media_type' | 'content' | 'size_bytes' | 'revision' | 'etag' | 'updated_at'>,
      ex: Executor = db,
    ): Promise<boolean> {
      const res = await ex.updateTable('workspace_documents').set(patch).where('agent_id', '=', agentId).where('name', '=', name).where('revision', '=', revision).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async deleteDocument(agentId: string, name: string, ex: Executor = db): Promise<boolean> {
      const res = await ex.deleteFrom('workspace_documents').where('agent_id', '=', agentId).where('name', '=', name).executeTakeFirst();
      return Number(res.numDeletedRows) === 1;
    },

    /** The agent's next event sequence number: one counter row per agent, bumped in the caller's transaction. */
    async nextSeq(agentId: string, ex: Executor): Promise<number> {
      const row = await ex
        .insertInto('workspace_event_counters')
        .values({ agent_id: agentId, last_seq: 1 })
        .onConflict((oc) => oc.column('agent_id').doUpdateSet({ last_seq: sql`workspace_event_counters.last_seq + 1` }))
        .returning('last_seq')
        .executeTakeFirstOrThrow();
      return Number(row.last_seq);
    },
    async insertEvent(row: WorkspaceEventRow, ex: Executor): Promise<void> {
      await ex.insertInto('workspace_events').values(row).execute();
    },
    /** Unacknowledged events with seq > after, oldest first. */
    async unacked(agentId: string, after: number, limit: number): Promise<WorkspaceEventRow[]> {
      const rows = await db
        .selectFrom('workspace_events')
        .selectAll()
        .where('agent_id', '=', agentId)
        .where('seq', '>', after)
        .where('acked_at', 'is', null)
        .orderBy('seq', 'asc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ ...r, seq: Number(r.seq), created_at: Number(r.created_at), acked_at: r.acked_at === null ? null : Number(r.acked_at) }));
    },
    async pendingCount(agentId: string): Promise<number> {
      const row = await db
        .selectFrom('workspace_events')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('agent_id', '=', agentId)
        .where('acked_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async lastSeq(agentId: string): Promise<number> {
      const row = await db.selectFrom('workspace_event_counters').select('last_seq').where('agent_id', '=', agentId).executeTakeFirst();
      return Number(row?.last_seq ?? 0);
    },
    async ackUpTo(agentId: string, seq: number, now: number): Promise<number> {
      const res = await db.updateTable('workspace_events').set({ acked_at: now }).where('agent_id', '=', agentId).where('seq', '<=', seq).where('acked_at', 'is', null).executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    async ackIds(agentId: string, eventIds: readonly string[], now: number): Promise<number> {
      if (eventIds.length === 0) return 0;
      const res = await db
        .updateTable('workspace_events')
        .set({ acked_at: now })
        .where('agent_id', '=', agentId)
        .where('event_id', 'in', [...eventIds])
        .where('acked_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    /** Of these ids, those that are this agent's events (acknowledged or not). */
    async ownEventIds(agentId: string, eventIds: readonly string[]): Promise<Set<string>> {
      if (eventIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('workspace_events')
        .select('event_id')
        .where('agent_id', '=', agentId)
        .where('event_id', 'in', [...eventIds])
        .execute();
      return new Set(rows.map((r) => r.event_id));
    },
    /** Retention: acknowledged events acknowledged before `ackedBefore`, any event created before `createdBefore`. */
    async purge(ackedBefore: number, createdBefore: number): Promise<number> {
      const res = await db
        .deleteFrom('workspace_events')
        .where((eb) => eb.or([eb('acked_at', '<', ackedBefore), eb('created_at', '<', createdBefore)]))
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
export type WorkspaceRepo = ReturnType<typeof createWorkspaceRepo>;
