import type { Bus } from '../../bus/bus.js';
import { iso, SECOND, type Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../access/credentials.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import { agentLock, type TransactionRunner, type Trx } from '../../store/transaction.js';
import type { WorkspaceDocumentRow, WorkspaceEventRow, WorkspaceRepo } from './workspace-repo.js';
import { documentEtag, EVENT_RETENTION, parseEtagList, WORKSPACE_LIMITS, type DocumentMediaType } from './workspace-rules.js';

/** The bus topic that wakes long polls of GET /v1/workspace/events; the store stays the source of truth. */
export const WORKSPACE_EVENTS_TOPIC = 'workspace.events';
/** A waiting poll reads the store again at least this often (a wake-up can precede the writer's commit). */
const RECHECK_MS = SECOND;

/**
 * Writes an event into an agent's workspace inbox, in the caller's transaction when given (so the event
 * exists exactly when the change that caused it does).
 */
export type WorkspaceEmit = (agentId: string, kind: string, payload: Record<string, unknown>, trx?: Trx) => Promise<void>;

export function eventView(row: WorkspaceEventRow) {
  return { event_id: row.event_id, seq: Number(row.seq), kind: row.kind, payload: parseJson<Record<string, unknown>>(row.payload, {}), created_at: iso(Number(row.created_at)) };
}

function documentMeta(row: Omit<WorkspaceDocumentRow, 'agent_id' | 'content'>) {
  return {
    name: row.name,
    media_type: row.media_type as DocumentMediaType,
    size_bytes: Number(row.size_bytes),
    etag: row.etag,
    revision: Number(row.revision),
    created_at: iso(Number(row.created_at)),
    updated_at: iso(Number(row.updated_at)),
  };
}

function documentView(row: WorkspaceDocumentRow) {
  return { ...documentMeta(row), content: row.media_type === 'application/json' ? (JSON.parse(row.content) as unknown) : row.content };
}

/** Checks a write's If-Match / If-None-Match against the stored document (absent when undefined). */
function checkPreconditions(stored: WorkspaceDocumentRow | undefined, ifMatch: string[] | undefined, ifNoneMatch: string[] | undefined): void {
  const current = stored ? stored.etag : null;
  if (ifMatch !== undefined) {
    const ok = current !== null && (ifMatch.includes('*') || ifMatch.includes(current));
    if (!ok) {
      throw new AppError(
        'precondition_failed',
        current === null ? 'If-Match was given but the document does not exist' : `If-Match does not name the current version ${current}; read the document again and retry with its ETag`,
      );
    }
  }
  if (ifNoneMatch !== undefined && current !== null && (ifNoneMatch.includes('*') || ifNoneMatch.includes(current))) {
    throw new AppError('precondition_failed', `If-None-Match: the document exists (version ${current})`);
  }
}

export function createWorkspaceService(deps: { repo: WorkspaceRepo; clock: Clock; bus: Bus; transaction: TransactionRunner }) {
  const { repo, clock, transaction } = deps;

  function encode(content: unknown, mediaType: DocumentMediaType): string {
    if (mediaType === 'text/plain') {
      if (typeof content !== 'string') throw new AppError('invalid_request', 'with media_type text/plain, content must be a string', { field: 'body.content' });
      return content;
    }
    if (content === undefined) throw new AppError('invalid_request', 'content is required', { field: 'body.content' });
    return JSON.stringify(content);
  }

  const emit: WorkspaceEmit = async (agentId, kind, payload, trx) => {
    const write = async (t: Trx) => {
      const seq = await repo.nextSeq(agentId, t);
      await repo.insertEvent({ agent_id: agentId, seq, event_id: newId('wev_'), kind, payload: jsonText(payload), created_at: clock.now(), acked_at: null }, t);
    };
    if (trx) await write(trx);
    else await transaction(agentLock(agentId), write);
    // a hint only: waiting polls read the store again (and every RECHECK_MS in any case)
    void deps.bus.publish(WORKSPACE_EVENTS_TOPIC, { agent_id: agentId }).catch(() => undefined);
  };

  /**
   * The cursor of an empty inbox page: every event up to the agent's last sequence number is acknowledged,
   * so reading on from it loses nothing (never 0 once events existed). The last sequence is read first:
   * an event committed meanwhile is then still above it, or seen by the second read, which keeps `after`.
   */
  async function caughtUpCursor(agentId: string, after: number): Promise<number> {
    const last = await repo.lastSeq(agentId);
    if (last <= after) return after;
    return (await repo.unacked(agentId, after, 1)).length > 0 ? after : last;
  }

  return {
    emit,

    async listDocuments(agentId: string, query: { limit: number; after?: string }) {
      const rows = await repo.listDocuments(agentId, query.limit + 1, query.after);
      const page = rows.slice(0, query.limit);
      const usage = await repo.usage(agentId);
      return {
        items: page.map((r) => documentMeta(r)),
        next_cursor: rows.length > query.limit ? page[page.length - 1]!.name : null,
        usage: {
          documents: usage.documents,
          bytes: usage.bytes,
          max_documents: WORKSPACE_LIMITS.agentDocuments,
          max_bytes: WORKSPACE_LIMITS.agentBytes,
          max_document_bytes: WORKSPACE_LIMITS.documentBytes,
        },
      };
    },

    async getDocument(agentId: string, name: string) {
      const row = await repo.findDocument(agentId, name);
      if (!row) throw new AppError('workspace_document_not_found', `no workspace document ${name}`, { field: 'params.name' });
      return documentView(row);
    },

    /** Creates or replaces a document; If-Match / If-None-Match decide under the agent's lock, the revision guards the write itself. */
    async putDocument(agentId: string, name: string, input: { content: unknown; media_type?: DocumentMediaType }, headers: { ifMatch?: string | string[]; ifNoneMatch?: string | string[] }) {
      const mediaType = input.media_type ?? 'application/json';
      const content = encode(input.content, mediaType);
      const size = Buffer.byteLength(content, 'utf8');
      if (size > WORKSPACE_LIMITS.documentBytes) {
        throw new AppError('workspace_document_too_large', `the document is ${size} bytes; at most ${WORKSPACE_LIMITS.documentBytes} bytes per document`, { field: 'body.content' });
      }
      const ifMatch = parseEtagList(headers.ifMatch);
      const ifNoneMatch = parseEtagList(headers.ifNoneMatch);
      return transaction(agentLock(agentId), async (trx) => {
        const stored = await repo.findDocument(agentId, name, trx);
        checkPreconditions(stored, ifMatch, ifNoneMatch);
        const usage = await repo.usage(agentId, trx);
        const bytesAfter = usage.bytes - Number(stored?.size_bytes ?? 0) + size;
        if (bytesAfter > WORKSPACE_LIMITS.agentBytes) {
          throw new AppError('workspace_quota_exceeded', `the workspace would hold ${bytesAfter} bytes; at most ${WORKSPACE_LIMITS.agentBytes} bytes per agent`);
        }
        if (!stored && usage.documents >= WORKSPACE_LIMITS.agentDocuments) {
          throw new AppError('workspace_quota_exceeded', `the workspace holds ${usage.documents} documents; at most ${WORKSPACE_LIMITS.agentDocuments} per agent`);
        }
        const now = clock.now();
        if (!stored) {
          const row: WorkspaceDocumentRow = {
            agent_id: agentId,
            name,
            media_type: mediaType,
            content,
            size_bytes: size,
            revision: 1,
            etag: documentEtag(1, now, mediaType + '\n' + content),
            created_at: now,
            updated_at: now,
          };
          await repo.insertDocument(row, trx);
          return { created: true, document: documentMeta(row) };
        }
        const revision = Number(stored.revision) + 1;
        const patch = { media_type: mediaType, content, size_bytes: size, revision, etag: documentEtag(revision, Number(stored.created_at), mediaType + '\n' + content), updated_at: now };
        if (!(await repo.replaceDocument(agentId, name, Number(stored.revision), patch, trx))) {
          throw new AppError('precondition_failed', 'the document changed meanwhile; read it again and retry with its ETag');
        }
        return { created: false, document: documentMeta({ ...stored, ...patch }) };
      });
    },

    async deleteDocument(agentId: string, name: string, headers: { ifMatch?: string | string[] }) {
      const ifMatch = parseEtagList(headers.ifMatch);
      return transaction(agentLock(agentId), async (trx) => {
        const stored = await repo.findDocument(agentId, name, trx);
        if (!stored) throw new AppError('workspace_document_not_found', `no workspace document ${name}`, { field: 'params.name' });
        checkPreconditions(stored, ifMatch, undefined);
        await repo.deleteDocument(agentId, name, trx);
        return { name, deleted: true as const };
      });
    },

    /**
     * Unacknowledged events with seq > after, oldest first. With timeout > 0 and nothing to return,
     * waits up to timeout seconds for a new event (woken by the bus, reading the store every second).
     */
    async events(agentId: string, query: { after: number; limit: number; timeout: number }, cancelled: { onCancel(listener: () => void): void }) {
      const read = async () => {
        const rows = await repo.unacked(agentId, query.after, query.limit + 1);
        return rows;
      };
      let rows = await read();
      let timedOut = false;
      if (rows.length === 0 && query.timeout > 0) {
        let wake: (() => void) | null = null;
        let done = false;
        const signal = () => wake?.();
        const unsubscribe = deps.bus.subscribe(WORKSPACE_EVENTS_TOPIC, signal, (p) => (p as { agent_id?: unknown } | null)?.agent_id === agentId);
        const deadline = setTimeout(() => ((done = true), (timedOut = true), signal()), Math.min(query.timeout, WORKSPACE_LIMITS.pollSeconds) * SECOND);
        cancelled.onCancel(() => ((done = true), signal()));
        try {
          await deps.bus.ready();
          rows = await read();
          while (rows.length === 0 && !done) {
            await new Promise<void>((resolve) => {
              const recheck = setTimeout(resolve, RECHECK_MS);
              wake = () => {
                clearTimeout(recheck);
                resolve();
              };
            });
            wake = null;
            rows = await read();
          }
        } finally {
          clearTimeout(deadline);
          unsubscribe();
        }
        timedOut &&= rows.length === 0;
      }
      const page = rows.slice(0, query.limit);
      return {
        items: page.map(eventView),
        next_after: page.length ? Number(page[page.length - 1]!.seq) : await caughtUpCursor(agentId, query.after),
        more_available: rows.length > query.limit,
        timed_out: timedOut,
      };
    },

    /** Acknowledges every event up to a sequence, or the listed event ids; acknowledged events are never returned again. */
    async ack(agentId: string, input: { up_to?: number; event_ids?: string[] }) {
      if ((input.up_to === undefined) === (input.event_ids === undefined)) {
        throw new AppError('invalid_request', 'give exactly one of up_to (a sequence number) or event_ids', { field: 'body.up_to' });
      }
      const now = clock.now();
      let acknowledged: number;
      let unknown: string[] = [];
      if (input.up_to !== undefined) {
        const last = await repo.lastSeq(agentId);
        if (input.up_to > last) {
          throw new AppError('invalid_request', `up_to ${input.up_to} is beyond your newest event (${last}); acknowledge only what you have received`, { field: 'body.up_to' });
        }
        acknowledged = await repo.ackUpTo(agentId, input.up_to, now);
      } else {
        const ids = [...new Set(input.event_ids!)];
        const own = await repo.ownEventIds(agentId, ids);
        unknown = ids.filter((id) => !own.has(id));
        acknowledged = await repo.ackIds(
          agentId,
          ids.filter((id) => own.has(id)),
          now,
        );
      }
      return { acknowledged, unknown_event_ids: unknown, pending: await repo.pendingCount(agentId), last_seq: await repo.lastSeq(agentId) };
    },

    /** Retention job (docs/workspace.md). */
    enforceRetention(): Promise<number> {
      const now = clock.now();
      return repo.purge(now - EVENT_RETENTION.ackedMs, now - EVENT_RETENTION.unackedMs);
    },
  };
}
export type WorkspaceService = ReturnType<typeof createWorkspaceService>;
