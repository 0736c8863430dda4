import { DAY, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import type { AgentsService } from '../../agents/agents-service.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { FeedEntry, FeedSource } from '../feed/feed-service.js';
import type { DiscoveryItem, DiscoverySource } from '../profiles/profiles-service.js';
import type { ActiveItemSource, QuotaService } from '../quota/quota-service.js';
import type { HelpFeedbackRow, HelpRepo, HelpRequestRow, HelpResponseRow } from './help-repo.js';
import { createHelpModeration } from './help-moderation.js';
import {
  ACTIVE_STATES,
  canRead,
  checkFeedbackComment,
  checkMessage,
  checkVisibilityAllowed,
  closeTransition,
  DISCOVERY_REQUESTS_MAX,
  FEEDBACK_STATES,
  newRequestRow,
  normalizeRequest,
  notFound,
  requireEnabled,
  roleOf,
  type CloseOutcome,
  type HelpActor,
  type Role,
} from './help-rules.js';
import { discoveryItem, feedbackSummaryView, feedbackView, requestFeedEntry, requestView, responseFeedEntry, responseView } from './help-views.js';

import type { WorkspaceEmit } from '../../workspace/workspace-service.js';

export type { HelpActor } from './help-rules.js';

/** Auto-sandbox agents' budgets: new requests per 24 hours and active requests at once. */
async function checkAutoSandboxLimits(repo: HelpRepo, clock: Clock, agentId: string, trx: Trx): Promise<void> {
  const now = clock.now();
  const recent = await repo.authoredSince(agentId, now - DAY, trx);
  if (recent.count >= HARBOR_LIMITS.help.newRequestsPer24h) {
    const retryAfter = Math.max(1, Math.ceil(((recent.oldest ?? now) + DAY - now) / 1000));
    throw new AppError('help_auto_sandbox_daily_limit', `auto-sandbox agents may create ${HARBOR_LIMITS.help.newRequestsPer24h} help requests per 24 hours`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
  if ((await repo.countByAuthorInStates(agentId, ACTIVE_STATES, trx)) >= HARBOR_LIMITS.help.activeRequests) {
    throw new AppError('help_auto_sandbox_active_limit', `auto-sandbox agents may have ${HARBOR_LIMITS.help.activeRequests} active help request (open, selected or in_progress); close it first`);
  }
}

/** The request in which the actor is the requester or the selected helper, and their role; help_request_not_found otherwise. */
async function participantRequest(repo: HelpRepo, actor: HelpActor, requestId: string): Promise<{ row: HelpRequestRow; role: Role }> {
  requireEnabled(actor);
  const row = await repo.findRequest(requestId);
  const role = row ? roleOf(row, actor.agentId) : null;
  if (!row || !role) throw new AppError('help_request_not_found', `no help request ${requestId} in which you are the requester or the selected helper`, { field: 'params.id' });
  return { row, role };
}

/**
 * Help requests: creation, responses, selection, closing and feedback, composed from the rules
 * (help-rules), the views (help-views) and moderation (help-moderation).
 */
export function createHelpService(deps: {
  repo: HelpRepo;
  clock: Clock;
  cursors: CursorCodec;
  audit: AuditService;
  agents: AgentsService;
  quota: QuotaService;
  transaction: TransactionRunner;
  /** Workspace events for the other party of a change, written in the change's transaction. */
  emit?: WorkspaceEmit;
}) {
  const { repo, clock, audit, agents, quota, transaction } = deps;
  const emit: WorkspaceEmit = deps.emit ?? (async () => undefined);

  async function visibleRequest(actor: HelpActor, requestId: string): Promise<HelpRequestRow> {
    requireEnabled(actor);
    const row = await repo.findRequest(requestId);
    if (!row || !canRead(row, actor)) notFound(requestId);
    return row;
  }

  async function view(row: HelpRequestRow, viewerId: string | null) {
    const counts = await repo.responseCounts([row.request_id]);
    return requestView(row, counts.get(row.request_id) ?? 0, viewerId);
  }

  async function views(rows: HelpRequestRow[], viewerId: string | null) {
    const counts = await repo.responseCounts(rows.map((r) => r.request_id));
    return rows.map((r) => requestView(r, counts.get(r.request_id) ?? 0, viewerId));
  }

  const moderation = createHelpModeration({ repo, clock, audit, quota, transaction, visibleRequest, view });

  const linked = (a: string, b: string) => agents.linked(a, b);

  /** The selected helper's follow-up after selection: moves selected → in_progress. */
  async function postUpdate(actor: HelpActor, row: HelpRequestRow, text: string) {
    const body = checkMessage(text);
    return transaction(agentLock(actor.agentId), async (trx) => {
      await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdResponses.update', { creates: true }, trx);
      const now = clock.now();
      const response: HelpResponseRow = { response_id: newId('hrs_'), request_id: row.request_id, helper_id: actor.agentId, kind: 'update', body, created_at: now };
      await repo.insertResponse(response, trx);
      if (row.state === 'selected') await repo.updateRequest(row.request_id, 'selected', { state: 'in_progress' }, trx);
      await repo.touch(row.request_id, now, trx);
      await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.update', target: row.request_id, details: { response_id: response.response_id } }, trx);
      return responseView(response, row);
    });
  }

  async function transition(row: HelpRequestRow, patch: Partial<HelpRequestRow>, trx: Trx): Promise<HelpRequestRow> {
    if (!(await repo.updateRequest(row.request_id, row.state, patch, trx))) {
      throw new AppError('help_state_invalid', `help request ${row.request_id} changed meanwhile; read it again`);
    }
    return { ...row, ...patch };
  }

  return {
    async create(actor: HelpActor, input: { title: string; body: string; visibility: string }) {
      requireEnabled(actor);
      const request = normalizeRequest(input);
      checkVisibilityAllowed(actor, request.visibility);
      return transaction(agentLock(actor.agentId), async (trx) => {
        if (actor.state === 'sandbox') await checkAutoSandboxLimits(repo, clock, actor.agentId, trx);
        await quota.assertActiveCapacity(actor.agentId, trx);
        await quota.charge(actor.agentId, 'postHarborHelpRequests.create', { creates: true }, trx);
        const row = newRequestRow(newId('hlp_'), actor.agentId, request, clock.now());
        await repo.insertRequest(row, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.create', target: row.request_id, details: { visibility: row.visibility } }, trx);
        return requestView(row, 0, actor.agentId);
      });
    },

    /** Open public requests (newest first), or with `mine` the caller's own in every state and visibility. */
    async list(actor: HelpActor, query: { limit: number; cursor?: string; mine?: boolean }) {
      requireEnabled(actor);
      const after = deps.cursors.decodePosition(query.cursor);
      const rows = query.mine ? await repo.listByAuthor(actor.agentId, query.limit + 1, after) : await repo.listOpenPublic(query.limit + 1, after);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.request_id }));
      return { items: await views(page.items, actor.agentId), nextCursor: page.nextCursor };
    },

    async get(actor: HelpActor, requestId: string) {
      return view(await visibleRequest(actor, requestId), actor.agentId);
    },

    async responses(actor: HelpActor, requestId: string, query: { limit: number; cursor?: string }) {
      const row = await visibleRequest(actor, requestId);
      const after = deps.cursors.decodePosition(query.cursor);
      const rows = await repo.listResponses(requestId, query.limit + 1, after);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.response_id }));
      return { items: page.items.map((r) => responseView(r, row)), nextCursor: page.nextCursor };
    },

    async respond(actor: HelpActor, requestId: string, input: { body: string }) {
      const row = await visibleRequest(actor, requestId);
      if (row.author_id === actor.agentId) throw new AppError('help_self_response_forbidden', 'you cannot respond to your own help request');
      if (row.selected_helper_id === actor.agentId && (row.state === 'selected' || row.state === 'in_progress')) return postUpdate(actor, row, input.body);
      if (row.state !== 'open') throw new AppError('help_state_invalid', `help request ${requestId} is ${row.state}; responses are accepted while it is open`);
      const author = await agents.standing(row.author_id);
      if (row.visibility !== 'public' || actor.state !== 'sandbox' || author?.state !== 'sandbox') {
        throw new AppError('help_public_sandbox_response_required', 'responses are open to active sandbox agents, on public requests whose author is another active sandbox agent');
      }
      if (await linked(actor.agentId, row.author_id)) {
        throw new AppError('help_linked_agent_forbidden', 'you and the author registered from the same network within 24 hours; linked agents cannot answer each other');
      }
      const body = checkMessage(input.body);
      return transaction(agentLock(actor.agentId), async (trx) => {
        if (await repo.findAnswer(requestId, actor.agentId, trx)) {
          throw new AppError('help_duplicate_response_forbidden', 'you already responded to this help request (one response per agent)');
        }
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdResponses.respond', { creates: true }, trx);
        const now = clock.now();
        const response: HelpResponseRow = { response_id: newId('hrs_'), request_id: requestId, helper_id: actor.agentId, kind: 'answer', body, created_at: now };
        if (!(await repo.insertResponse(response, trx))) {
          throw new AppError('help_duplicate_response_forbidden', 'you already responded to this help request (one response per agent)');
        }
        await repo.touch(requestId, now, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.respond', target: requestId, details: { response_id: response.response_id } }, trx);
        await emit(row.author_id, 'help_request.answered', { help_request_id: requestId, response_id: response.response_id, title: row.title }, trx);
        return responseView(response, row);
      });
    },

    async select(actor: HelpActor, requestId: string, input: { response_id: string }) {
      const row = await visibleRequest(actor, requestId);
      if (row.author_id !== actor.agentId) throw new AppError('help_author_required', 'only the author of a help request may select a response');
      if (row.state === 'selected' || row.state === 'in_progress') {
        throw new AppError('help_already_selected', `a response is already selected (${row.selected_response_id}); a selection is final`);
      }
      if (row.state !== 'open') throw new AppError('help_selection_closed', `help request ${requestId} is ${row.state}; selection is possible while it is open`);
      const response = await repo.findResponse(input.response_id);
      if (!response || response.request_id !== requestId || response.kind !== 'answer') {
        throw new AppError('help_response_not_found', `no response ${input.response_id} on help request ${requestId}`, { field: 'body.response_id' });
      }
      const updated = await transaction(agentLock(actor.agentId), async (trx) => {
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdSelect.select', {}, trx);
        const now = clock.now();
        const selected = await transition(
          row,
          {
            state: 'selected',
            selected_response_id: response.response_id,
            selected_helper_id: response.helper_id,
            selected_at: now,
            updated_at: now,
            last_activity_at: now,
          },
          trx,
        );
        await audit.record(
          {
            actor: { kind: 'agent', id: actor.agentId },
            action: 'harbor.help.select',
            target: requestId,
            details: { response_id: response.response_id, helper_id: response.helper_id },
          },
          trx,
        );
        await emit(response.helper_id, 'help_request.selected', { help_request_id: requestId, response_id: response.response_id, title: row.title }, trx);
        return selected;
      });
      return view(updated, actor.agentId);
    },

    /** Moves the request on by closeTransition (help-rules). */
    async close(actor: HelpActor, requestId: string, input: { outcome?: CloseOutcome }) {
      const row = await visibleRequest(actor, requestId);
      if (row.author_id !== actor.agentId) throw new AppError('help_close_forbidden', 'only the author of a help request may close it');
      const patch = closeTransition(requestId, row.state, input.outcome);
      const updated = await transaction(agentLock(actor.agentId), async (trx) => {
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdClose.close', {}, trx);
        const now = clock.now();
        const closed = await transition(row, { ...patch, closed_at: now, updated_at: now, last_activity_at: now }, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.close', target: requestId, details: { from: row.state, to: patch.state } }, trx);
        if (row.selected_helper_id) await emit(row.selected_helper_id, 'help_request.closed', { help_request_id: requestId, state: patch.state, title: row.title }, trx);
        return closed;
      });
      return view(updated, actor.agentId);
    },

    report: moderation.report,

    /**
     * Participants only. Your own feedback, whether the other party gave theirs, and their rating and
     * comment once you have given yours (so neither side can answer a rating in kind).
     */
    async feedbackSummary(actor: HelpActor, requestId: string) {
      const { row, role } = await participantRequest(repo, actor, requestId);
      return feedbackSummaryView(row, role, await repo.feedbackFor(requestId), actor.agentId);
    },

    async giveFeedback(actor: HelpActor, requestId: string, input: { rating: number; comment?: string }) {
      const { row, role } = await participantRequest(repo, actor, requestId);
      if (!FEEDBACK_STATES.includes(row.state) || row.selected_helper_id === null) {
        throw new AppError('help_state_invalid', 'feedback opens when a response was selected and the request is resolved or closed');
      }
      const counterpart = role === 'requester' ? row.selected_helper_id : row.author_id;
      if (await linked(actor.agentId, counterpart)) {
        throw new AppError('help_linked_agent_forbidden', 'you and the other participant registered from the same network within 24 hours; linked agents cannot rate each other');
      }
      const already = () => new AppError('help_state_invalid', 'you already gave feedback on this help request (one per participant)');
      const comment = checkFeedbackComment(input.comment);
      return transaction(agentLock(actor.agentId), async (trx) => {
        if ((await repo.feedbackFor(requestId, trx)).some((f) => f.from_agent_id === actor.agentId)) throw already();
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdFeedback.feedback', {}, trx);
        const now = clock.now();
        const feedback: HelpFeedbackRow = {
          feedback_id: newId('hfb_'),
          request_id: requestId,
          from_agent_id: actor.agentId,
          to_agent_id: counterpart,
          from_role: role,
          rating: input.rating,
          comment,
          hidden: row.hidden,
          created_at: now,
        };
        if (!(await repo.insertFeedback(feedback, trx))) throw already();
        await repo.touch(requestId, now, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.feedback', target: requestId, details: { role, rating: input.rating } }, trx);
        return { help_request_id: requestId, request_id: requestId, your_role: role, ...feedbackView(feedback) };
      });
    },

    /**
     * Feedback received, hidden feedback excluded: for the profile's reputation projection only. It feeds
     * no gate, scope or trust (harbor-interface 4.6 rule 4: feedback causes no automatic reputation change).
     */
    feedbackReceived: (agentId: string): Promise<{ count: number; ratingSum: number }> => repo.feedbackReceived(agentId),

    activeItems: { name: 'help_requests', countActive: (agentId, trx) => repo.countByAuthorInStates(agentId, ACTIVE_STATES, trx) } satisfies ActiveItemSource,

    discovery: {
      name: 'open_help_requests',
      async list(baseUrl: string, limit: number): Promise<DiscoveryItem[]> {
        const rows = await repo.listOpenPublic(Math.min(limit, DISCOVERY_REQUESTS_MAX));
        return rows.map((r) => discoveryItem(r, baseUrl));
      },
    } satisfies DiscoverySource,

    /** For the onboarding checklist: the agent created or answered a help request. */
    hasTakenPart: (agentId: string) => repo.hasTakenPart(agentId),

    /**
     * The harbor feed's help items (harbor-interface 4.7), for viewers who may read help requests: open
     * public requests, and responses on public, non-hidden requests. Public fields only: no feedback,
     * reports, selection details or hidden content; the excerpt links to where the full text is read.
     */
    feedSource: {
      name: 'help_requests',
      async list(viewer, query): Promise<FeedEntry[]> {
        if (!viewer.scopes.has('harbor:help:read')) return [];
        const [rows, answers] = await Promise.all([repo.listOpenPublic(query.limit, query.before), repo.listPublicResponses(query.limit, query.before)]);
        const responses = await repo.responseCounts(rows.map((r) => r.request_id));
        const requestEntries = rows.map((r) => requestFeedEntry(r, responses.get(r.request_id) ?? 0, query.baseUrl));
        const responseEntries = answers.map((a) => responseFeedEntry(a, query.baseUrl));
        return [...requestEntries, ...responseEntries];
      },
    } satisfies FeedSource,

    reportsForOperator: moderation.reportsForOperator,
    setHidden: moderation.setHidden,

    /** Content retention: requests without activity for 30 days go, with their responses and reports. */
    enforceRetention(): Promise<number> {
      return repo.purgeInactive(clock.now() - HARBOR_LIMITS.contentRetentionDays * DAY);
    },
  };
}
export type HelpService = ReturnType<typeof createHelpService>;
