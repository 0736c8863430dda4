import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { jsonText, parseJson } from '../../../store/dialect.js';
import type { QuotaService } from '../quota/quota-service.js';
import type { AgentsService } from '../../agents/agents-service.js';
import { newId } from '../../../access/credentials.js';
import { GRANTABLE_SCOPES } from '../../../access/scopes.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { harborText } from '../../kit/text-rules.js';
import type { OperatorRequestRow, OperatorRequestsRepo } from './operator-requests-repo.js';
import { iso, isoOrNull } from '../../../platform/clock.js';
import type { WorkspaceEmit } from '../../workspace/workspace-service.js';

export const OPERATOR_REQUEST_CATEGORIES = ['missing_function', 'data_problem', 'api_problem', 'service_request', 'access_request', 'collaboration'] as const;
export type OperatorRequestCategory = (typeof OPERATOR_REQUEST_CATEGORIES)[number];

/**
 * open: waiting for the operator. answered: the operator replied and may still decide.
 * approved / rejected / closed: final; approved access requests have had their scopes granted.
 */
export const OPERATOR_REQUEST_STATES = ['open', 'answered', 'approved', 'rejected', 'closed'] as const;
export type OperatorRequestState = (typeof OPERATOR_REQUEST_STATES)[number];
const FINAL_STATES: ReadonlySet<string> = new Set(['approved', 'rejected', 'closed']);

export const OPERATOR_REQUEST_BODY_MAX_BYTES = 4000;

export type OperatorActor = { kind: 'operator' | 'cli'; id?: string };

/** What an agent may see of its own request: never the internal note. */
export function agentView(row: OperatorRequestRow) {
  return {
    id: row.request_id,
    /** Deprecated alias of id, kept for one release (docs/decisions/008-harbor-rules.md). */
    request_id: row.request_id,
    category: row.category as OperatorRequestCategory,
    subject: row.subject,
    body: row.body,
    requested_scopes: parseJson<string[]>(row.requested_scopes, []),
    state: row.state as OperatorRequestState,
    public_response: row.public_response,
    granted_scopes: parseJson<string[]>(row.granted_scopes, []),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    responded_at: isoOrNull(row.responded_at),
  };
}

/** The operator's view adds the requesting agent and the internal note. */
export function operatorView(row: OperatorRequestRow) {
  return { ...agentView(row), agent_id: row.agent_id, internal_note: row.internal_note };
}

export function createOperatorRequestsService(deps: {
  cursors: CursorCodec;
  repo: OperatorRequestsRepo;
  clock: Clock;
  audit: AuditService;
  agents: AgentsService;
  quota: QuotaService;
  transaction: TransactionRunner;
  /** Writes the requesting agent's workspace event (operator_request.updated) in the update's transaction. */
  emit?: WorkspaceEmit;
}) {
  const { repo, clock, audit, agents } = deps;

  /** Stores an operator's step, its audit record and the agent's workspace event in one transaction. */
  async function store(row: OperatorRequestRow, patch: Partial<OperatorRequestRow> & { state: string }, auditEntry: Parameters<AuditService['record']>[0]) {
    await deps.transaction(agentLock(row.agent_id), async (trx) => {
      await repo.update(row.request_id, patch, trx);
      await audit.record(auditEntry, trx);
      await deps.emit?.(
        row.agent_id,
        'operator_request.updated',
        { operator_request_id: row.request_id, state: patch.state, public_response: patch.public_response ?? row.public_response, subject: row.subject },
        trx,
      );
    });
  }

  async function requireOpen(requestId: string): Promise<OperatorRequestRow> {
    const row = await repo.findById(requestId);
    if (!row) throw new AppError('operator_request_not_found', `no operator request ${requestId}`);
    if (FINAL_STATES.has(row.state)) throw new AppError('conflict', `operator request ${requestId} is already ${row.state}`);
    return row;
  }

  function validateRequestedScopes(category: OperatorRequestCategory, scopes: string[] | undefined): string[] {
    if (scopes === undefined || scopes.length === 0) return [];
    if (category !== 'access_request') {
      throw new AppError('invalid_request', 'requested_scopes is accepted only with category access_request', { field: 'body.requested_scopes' });
    }
    for (const scope of scopes) {
      if (!GRANTABLE_SCOPES.has(scope)) {
        throw new AppError('invalid_request', `scope ${scope} cannot be requested; see the scope table at /v1/agent-harbor/contract`, { field: 'body.requested_scopes' });
      }
    }
    return [...new Set(scopes)];
  }

  return {
    async create(agentId: string, raw: { category: OperatorRequestCategory; subject: string; body: string; requested_scopes?: string[] }) {
      const input = {
        ...raw,
        subject: harborText(raw.subject, { field: 'body.subject', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 3, maxChars: 200 }),
        body: harborText(raw.body, { field: 'body.body', code: 'invalid_request', multiline: true, maxBytes: OPERATOR_REQUEST_BODY_MAX_BYTES }),
      };
      const requestedScopes = validateRequestedScopes(input.category, input.requested_scopes);
      const now = clock.now();
      const row: OperatorRequestRow = {
        request_id: newId('opr_'),
        agent_id: agentId,
        category: input.category,
        subject: input.subject,
        body: input.body,
        requested_scopes: jsonText(requestedScopes),
        state: 'open',
        public_response: null,
        internal_note: null,
        granted_scopes: jsonText([]),
        created_at: now,
        updated_at: now,
        responded_at: null,
      };
      // An action, never a create: the daily create limit must not close the only path to more access (harbor 5.5).
      return deps.transaction(agentLock(agentId), async (trx) => {
        await deps.quota.charge(agentId, 'postHarborOperatorRequests', {}, trx);
        await repo.insert(row, trx);
        await audit.record({ actor: { kind: 'agent', id: agentId }, action: 'harbor.operator_request.create', target: row.request_id, details: { category: row.category } }, trx);
        return row;
      });
    },

    /** The agent's own requests, newest first; another agent's id answers operator_request_not_found. */
    /** For the onboarding checklist: the agent has sent at least one operator request. */
    async hasSentAny(agentId: string): Promise<boolean> {
      return (await repo.listByAgent(agentId, 1)).length > 0;
    },

    async listOwn(agentId: string, query: { id?: string; limit: number; cursor?: string }) {
      if (query.id !== undefined) {
        const row = await repo.findById(query.id);
        if (!row || row.agent_id !== agentId) throw new AppError('operator_request_not_found', `no operator request ${query.id} of this agent`, { field: 'query.id' });
        return { items: [row], nextCursor: null };
      }
      const after = deps.cursors.decodePosition(query.cursor);
      const rows = await repo.listByAgent(agentId, query.limit + 1, after);
      return deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.request_id }));
    },

    listForOperator: (filter: { state?: string; limit: number }) => {
      if (filter.state !== undefined && !(OPERATOR_REQUEST_STATES as readonly string[]).includes(filter.state)) {
        throw new AppError('invalid_request', `state must be one of ${OPERATOR_REQUEST_STATES.join(', ')}`, { field: 'state' });
      }
      return repo.listForOperator(filter);
    },

    async findForOperator(requestId: string): Promise<OperatorRequestRow> {
      const row = await repo.findById(requestId);
      if (!row) throw new AppError('operator_request_not_found', `no operator request ${requestId}`);
      return row;
    },

    /** Replies publicly (and optionally notes internally) without deciding; the request becomes answered. */
    async respond(requestId: string, input: { publicResponse: string; internalNote?: string }, actor: OperatorActor) {
      const row = await requireOpen(requestId);
      const now = clock.now();
      const patch = {
        state: 'answered',
        public_response: input.publicResponse,
        internal_note: input.internalNote ?? row.internal_note,
        updated_at: now,
        responded_at: now,
      };
      await store(row, patch, { actor, action: 'harbor.operator_request.respond', target: requestId, details: { agent_id: row.agent_id, note_added: input.internalNote !== undefined } });
      return { ...row, ...patch };
    },

    /**
     * Approves a request. For access_request every requested scope is granted through AgentsService.grantScope,
     * so documented fixed durations (snapshot:read: 7 days) win over `days`.
     */
    async approve(requestId: string, input: { days?: number; publicResponse?: string; internalNote?: string }, actor: OperatorActor) {
      const row = await requireOpen(requestId);
      const requested = parseJson<string[]>(row.requested_scopes, []);
      const grants: Array<{ scope: string; expires_at: string | null }> = [];
      if (row.category === 'access_request') {
        for (const scope of requested) grants.push(await agents.grantScope(row.agent_id, scope, actor, input.days));
      }
      const now = clock.now();
      const granted = grants.map((g) => (g.expires_at ? `${g.scope} (until ${g.expires_at})` : g.scope));
      const patch = {
        state: 'approved',
        public_response: input.publicResponse ?? approvalAnswer(row.public_response, granted),
        internal_note: input.internalNote ?? row.internal_note,
        granted_scopes: jsonText(grants.map((g) => g.scope)),
        updated_at: now,
        responded_at: now,
      };
      await store(row, patch, { actor, action: 'harbor.operator_request.approve', target: requestId, details: { agent_id: row.agent_id, granted: grants } });
      return { row: { ...row, ...patch }, grants };
    },

    async reject(requestId: string, input: { publicResponse: string; internalNote?: string }, actor: OperatorActor) {
      return decide(requestId, 'rejected', input, actor);
    },

    async close(requestId: string, input: { publicResponse?: string; internalNote?: string }, actor: OperatorActor) {
      return decide(requestId, 'closed', input, actor);
    },
  };

  async function decide(requestId: string, state: 'rejected' | 'closed', input: { publicResponse?: string; internalNote?: string }, actor: OperatorActor) {
    const row = await requireOpen(requestId);
    const now = clock.now();
    const patch = {
      state,
      public_response: input.publicResponse ?? row.public_response,
      internal_note: input.internalNote ?? row.internal_note,
      updated_at: now,
      responded_at: input.publicResponse !== undefined ? now : row.responded_at,
    };
    await store(row, patch, { actor, action: `harbor.operator_request.${state === 'rejected' ? 'reject' : 'close'}`, target: requestId, details: { agent_id: row.agent_id } });
    return { ...row, ...patch };
  }
}
/**
 * The public answer an approval leaves when the operator gives none: an earlier answer is kept (the
 * scopes granted now added below it), never overwritten by a bare "Approved.".
 */
export function approvalAnswer(previous: string | null, granted: readonly string[]): string {
  const approval = granted.length ? `Approved. Granted: ${granted.join(', ')}.` : 'Approved.';
  if (previous === null || previous === '') return approval;
  return granted.length ? `${previous}\n\n${approval}` : previous;
}

export type OperatorRequestsService = ReturnType<typeof createOperatorRequestsService>;
