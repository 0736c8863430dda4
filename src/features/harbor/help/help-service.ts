import { DAY, type Clock } from '../../../clock.js';
import { AppError } from '../../../http/errors.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { EffectiveState } from '../../../access/principals.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import { decodeCursor, pageOf } from '../cursor.js';
import { HARBOR_LIMITS } from '../harbor-constants.js';
import { excerptOf, type FeedEntry, type FeedSource } from '../feed/feed-service.js';
import type { DiscoveryItem, DiscoverySource } from '../profiles/profiles-service.js';
import type { ActiveItemSource, QuotaService } from '../quota/quota-service.js';
import { harborText, refuseRawCoordinates } from '../text-rules.js';
import type { HelpFeedbackRow, HelpRepo, HelpRequestRow, HelpResponseRow, OperatorReportRow } from './help-repo.js';

export const HELP_VISIBILITIES = ['sandbox', 'trial', 'group', 'public'] as const;
export type HelpVisibility = (typeof HELP_VISIBILITIES)[number];
/** Visibility values an auto-sandbox agent may use (harbor-interface 4.6 rule 1). */
export const SANDBOX_VISIBILITIES: readonly HelpVisibility[] = ['sandbox', 'public'];

export const HELP_STATES = ['open', 'selected', 'in_progress', 'resolved', 'closed', 'cancelled'] as const;
export type HelpState = (typeof HELP_STATES)[number];
/** States in which a request counts as active (auto-sandbox limit and contract-wide active items). */
export const ACTIVE_STATES: readonly HelpState[] = ['open', 'selected', 'in_progress'];
const FEEDBACK_STATES: readonly string[] = ['resolved', 'closed'];

export const CLOSE_OUTCOMES = ['resolved', 'unresolved'] as const;
export type CloseOutcome = (typeof CLOSE_OUTCOMES)[number];

export const TITLE_MIN = 3;
export const TITLE_MAX = 200;
export const BODY_MAX_BYTES = HARBOR_LIMITS.messageBytesMax;
export const REPORT_REASON_MIN = 3;
export const REPORT_REASON_MAX = 500;
export const FEEDBACK_COMMENT_MAX = 1000;
/** Agents registered from the same redacted network within this window are linked. */
export const LINK_WINDOW_MS = DAY;
export const DISCOVERY_REQUESTS_MAX = 50;

/** States that may use help requests at all; a sandbox past its end answers sandbox_access_denied instead. */
const ENABLED_STATES: ReadonlySet<EffectiveState> = new Set(['sandbox', 'trial', 'trusted', 'operator_approved']);
const GROUP_READ_SCOPE = 'harbor:public:participate';

export interface HelpActor {
  agentId: string;
  state: EffectiveState;
  scopes: ReadonlySet<string>;
}

type Role = 'requester' | 'helper';

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/**
 * Help records name themselves `id` (harbor-interface part 2) and other records' help request
 * `help_request_id`; `request_id` stays one release as a deprecated alias, so that the envelope's
 * request_id is the only request_id once it goes (docs/decisions/008-harbor-rules.md).
 */
export function requestView(row: HelpRequestRow, responseCount: number, viewerId: string | null) {
  return {
    id: row.request_id,
    request_id: row.request_id,
    author_id: row.author_id,
    title: row.title,
    body: row.body,
    visibility: row.visibility as HelpVisibility,
    state: row.state as HelpState,
    outcome: row.outcome as CloseOutcome | null,
    selected_response_id: row.selected_response_id,
    selected_helper_id: row.selected_helper_id,
    response_count: responseCount,
    yours: row.author_id === viewerId,
    hidden: row.hidden === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    selected_at: isoOrNull(row.selected_at),
    closed_at: isoOrNull(row.closed_at),
  };
}
export type HelpRequestView = ReturnType<typeof requestView>;

export function responseView(row: HelpResponseRow, request: HelpRequestRow) {
  return {
    response_id: row.response_id,
    help_request_id: row.request_id,
    request_id: row.request_id,
    helper_id: row.helper_id,
    kind: row.kind as 'answer' | 'update',
    body: row.body,
    selected: request.selected_response_id === row.response_id,
    created_at: iso(row.created_at),
  };
}

function feedbackView(row: HelpFeedbackRow) {
  return { from_role: row.from_role as Role, rating: row.rating, comment: row.comment, created_at: iso(row.created_at) };
}

export function operatorReportView(row: OperatorReportRow) {
  return {
    report_id: row.report_id,
    help_request_id: row.request_id,
    request_id: row.request_id,
    response_id: row.response_id,
    reporter_id: row.reporter_id,
    reason: row.reason,
    created_at: iso(row.created_at),
    request: { title: row.title, state: row.state, author_id: row.author_id, hidden: row.hidden === 1, reports: row.reports_on_request },
  };
}

function notFound(requestId: string): never {
  throw new AppError('help_request_not_found', `no help request ${requestId} visible to you`, { field: 'params.id' });
}

function inputInvalid(field: string, message: string): never {
  throw new AppError('help_request_input_invalid', message, { field: `body.${field}` });
}


export function createHelpService(deps: { repo: HelpRepo; clock: Clock; audit: AuditService; agents: AgentsService; quota: QuotaService; transaction: TransactionRunner }) {
  const { repo, clock, audit, agents, quota, transaction } = deps;

  function requireEnabled(actor: HelpActor): void {
    if (actor.state === 'sandbox_expired') {
      throw new AppError('sandbox_access_denied', 'your 14-day sandbox has ended and with it help requests; ask the operator for a trial with an operator request of category access_request');
    }
    if (!ENABLED_STATES.has(actor.state)) {
      throw new AppError('help_requests_not_enabled', `help requests are not enabled for agents in state ${actor.state}; they open with the sandbox, a trial or operator approval`);
    }
  }

  function roleOf(row: HelpRequestRow, agentId: string): Role | null {
    if (row.author_id === agentId) return 'requester';
    if (row.selected_helper_id === agentId) return 'helper';
    return null;
  }

  /** Participants always see their request; others see it when its visibility admits them and it is not hidden. */
  function canRead(row: HelpRequestRow, actor: HelpActor): boolean {
    if (roleOf(row, actor.agentId)) return true;
    if (row.hidden === 1) return false;
    if (row.visibility === 'public') return true;
    if (row.visibility === 'trial') return actor.state === 'trial';
    if (row.visibility === 'group') return actor.scopes.has(GROUP_READ_SCOPE);
    return false;
  }

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

  /** Registered from the same redacted network within LINK_WINDOW_MS of each other (docs/harbor-help.md). */
  async function linked(a: string, b: string): Promise<boolean> {
    const [x, y] = await Promise.all([agents.standing(a), agents.standing(b)]);
    if (!x || !y || x.registrationNetwork === null || x.registrationNetwork !== y.registrationNetwork) return false;
    return Math.abs(x.registeredAt - y.registeredAt) < LINK_WINDOW_MS;
  }

  function normalizeRequest(input: { title: string; body: string; visibility: string }) {
    const code = 'help_request_input_invalid';
    const title = harborText(input.title, { field: 'body.title', code, multiline: false, name: true, trim: true, minChars: TITLE_MIN, maxChars: TITLE_MAX });
    const body = harborText(input.body, { field: 'body.body', code, multiline: true, maxBytes: BODY_MAX_BYTES });
    if (!(HELP_VISIBILITIES as readonly string[]).includes(input.visibility)) {
      inputInvalid('visibility', `visibility must be one of ${HELP_VISIBILITIES.join(', ')}`);
    }
    // Public requests are listed, discovered and in the feed: no raw vessel coordinates there.
    if (input.visibility === 'public') {
      refuseRawCoordinates(title, 'body.title', 'public help requests');
      refuseRawCoordinates(body, 'body.body', 'public help requests');
    }
    return { title, body, visibility: input.visibility as HelpVisibility };
  }

  function checkVisibilityAllowed(actor: HelpActor, visibility: HelpVisibility): void {
    if (actor.state === 'sandbox' && !SANDBOX_VISIBILITIES.includes(visibility)) {
      throw new AppError('help_sandbox_visibility_forbidden', `auto-sandbox agents may use visibility ${SANDBOX_VISIBILITIES.join(' or ')} only`, { field: 'body.visibility' });
    }
    if (visibility === 'sandbox' && actor.state !== 'sandbox') {
      throw new AppError('help_sandbox_isolation', 'visibility sandbox keeps a request inside your own sandbox, and you have no active sandbox; use public', { field: 'body.visibility' });
    }
    if (visibility === 'trial' && actor.state !== 'trial') {
      throw new AppError('help_trial_access_denied', 'visibility trial needs an active trial; ask the operator for one with an operator request of category access_request', {
        field: 'body.visibility',
      });
    }
  }

  async function checkAutoSandboxLimits(agentId: string, trx: Trx): Promise<void> {
    const now = clock.now();
    const recent = await repo.authoredSince(agentId, now - DAY, trx);
    if (recent.count >= HARBOR_LIMITS.help.newRequestsPer24h) {
      const retryAfter = Math.max(1, Math.ceil(((recent.oldest ?? now) + DAY - now) / 1000));
      throw new AppError('help_auto_sandbox_daily_limit', `auto-sandbox agents may create ${HARBOR_LIMITS.help.newRequestsPer24h} help requests per 24 hours`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    if ((await repo.countByAuthorInStates(agentId, ACTIVE_STATES, trx)) >= HARBOR_LIMITS.help.activeRequests) {
      throw new AppError(
        'help_auto_sandbox_active_limit',
        `auto-sandbox agents may have ${HARBOR_LIMITS.help.activeRequests} active help request (open, selected or in_progress); close it first`,
      );
    }
  }

  /** Responses appear on public requests and in the feed: harbor text rules, no raw vessel coordinates. */
  function checkMessage(body: string): string {
    const clean = harborText(body, { field: 'body.body', code: 'help_response_invalid', multiline: true, maxBytes: HARBOR_LIMITS.messageBytesMax });
    refuseRawCoordinates(clean, 'body.body', 'help responses');
    return clean;
  }

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
        if (actor.state === 'sandbox') await checkAutoSandboxLimits(actor.agentId, trx);
        await quota.assertActiveCapacity(actor.agentId, trx);
        await quota.charge(actor.agentId, 'postHarborHelpRequests.create', { creates: true }, trx);
        const now = clock.now();
        const row: HelpRequestRow = {
          request_id: newId('hlp_'),
          author_id: actor.agentId,
          ...request,
          state: 'open',
          outcome: null,
          selected_response_id: null,
          selected_helper_id: null,
          hidden: 0,
          hidden_at: null,
          created_at: now,
          updated_at: now,
          selected_at: null,
          closed_at: null,
          last_activity_at: now,
        };
        await repo.insertRequest(row, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.create', target: row.request_id, details: { visibility: row.visibility } }, trx);
        return requestView(row, 0, actor.agentId);
      });
    },

    /** Open public requests (newest first), or with `mine` the caller's own in every state and visibility. */
    async list(actor: HelpActor, query: { limit: number; cursor?: string; mine?: boolean }) {
      requireEnabled(actor);
      const after = decodeCursor(query.cursor);
      const rows = query.mine ? await repo.listByAuthor(actor.agentId, query.limit + 1, after) : await repo.listOpenPublic(query.limit + 1, after);
      const page = pageOf(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.request_id }));
      return { items: await views(page.items, actor.agentId), nextCursor: page.nextCursor };
    },

    async get(actor: HelpActor, requestId: string) {
      return view(await visibleRequest(actor, requestId), actor.agentId);
    },

    async responses(actor: HelpActor, requestId: string, query: { limit: number; cursor?: string }) {
      const row = await visibleRequest(actor, requestId);
      const after = decodeCursor(query.cursor);
      const rows = await repo.listResponses(requestId, query.limit + 1, after);
      const page = pageOf(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.response_id }));
      return { items: page.items.map((r) => responseView(r, row)), nextCursor: page.nextCursor };
    },

    async respond(actor: HelpActor, requestId: string, input: { body: string }) {
      const row = await visibleRequest(actor, requestId);
      if (row.author_id === actor.agentId) throw new AppError('help_self_response_forbidden', 'you cannot respond to your own help request');
      if (row.selected_helper_id === actor.agentId && (row.state === 'selected' || row.state === 'in_progress')) return postUpdate(actor, row, input.body);
      if (row.state !== 'open') throw new AppError('help_state_invalid', `help request ${requestId} is ${row.state}; responses are accepted while it is open`);
      const author = await agents.standing(row.author_id);
      if (row.visibility !== 'public' || actor.state !== 'sandbox' || author?.state !== 'sandbox') {
        throw new AppError(
          'help_public_sandbox_response_required',
          'responses are open to active sandbox agents, on public requests whose author is another active sandbox agent',
        );
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
        const selected = await transition(row, {
          state: 'selected',
          selected_response_id: response.response_id,
          selected_helper_id: response.helper_id,
          selected_at: now,
          updated_at: now,
          last_activity_at: now,
        }, trx);
        await audit.record({
          actor: { kind: 'agent', id: actor.agentId },
          action: 'harbor.help.select',
          target: requestId,
          details: { response_id: response.response_id, helper_id: response.helper_id },
        }, trx);
        return selected;
      });
      return view(updated, actor.agentId);
    },

    /**
     * open → cancelled; selected or in_progress → resolved (outcome resolved, the default) or closed
     * (outcome unresolved); resolved → closed. Closed and cancelled are final.
     */
    async close(actor: HelpActor, requestId: string, input: { outcome?: CloseOutcome }) {
      const row = await visibleRequest(actor, requestId);
      if (row.author_id !== actor.agentId) throw new AppError('help_close_forbidden', 'only the author of a help request may close it');
      let patch: Pick<HelpRequestRow, 'state' | 'outcome'>;
      if (row.state === 'open') {
        if (input.outcome === 'resolved') throw new AppError('help_close_forbidden', 'no response is selected, so the request cannot close as resolved; close it without outcome to cancel it', { field: 'body.outcome' });
        patch = { state: 'cancelled', outcome: null };
      } else if (row.state === 'selected' || row.state === 'in_progress') {
        patch = input.outcome === 'unresolved' ? { state: 'closed', outcome: 'unresolved' } : { state: 'resolved', outcome: 'resolved' };
      } else if (row.state === 'resolved') {
        if (input.outcome === 'unresolved') throw new AppError('help_close_forbidden', 'the request is already resolved; closing it keeps outcome resolved', { field: 'body.outcome' });
        patch = { state: 'closed', outcome: 'resolved' };
      } else {
        throw new AppError('help_close_forbidden', `help request ${requestId} is already ${row.state}`);
      }
      const updated = await transaction(agentLock(actor.agentId), async (trx) => {
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdClose.close', {}, trx);
        const now = clock.now();
        const closed = await transition(row, { ...patch, closed_at: now, updated_at: now, last_activity_at: now }, trx);
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.close', target: requestId, details: { from: row.state, to: patch.state } }, trx);
        return closed;
      });
      return view(updated, actor.agentId);
    },

    async report(actor: HelpActor, requestId: string, input: { reason?: string; response_id?: string }) {
      const row = await visibleRequest(actor, requestId);
      const reason = harborText(input.reason ?? '', {
        field: 'body.reason',
        code: 'help_report_invalid',
        multiline: true,
        trim: true,
        minChars: REPORT_REASON_MIN,
        maxChars: REPORT_REASON_MAX,
      });
      if (input.response_id !== undefined) {
        const response = await repo.findResponse(input.response_id);
        if (!response || response.request_id !== requestId) {
          throw new AppError('help_response_not_found', `no response ${input.response_id} on help request ${requestId}`, { field: 'body.response_id' });
        }
      }
      const duplicate = () => new AppError('help_duplicate_report_forbidden', 'you already reported this help request; the operator has your report');
      const report = await transaction(agentLock(actor.agentId), async (trx) => {
        if (await repo.findReport(requestId, actor.agentId, trx)) throw duplicate();
        await quota.charge(actor.agentId, 'postHarborHelpRequestsByIdReport.report', {}, trx);
        const report = { report_id: newId('hrp_'), request_id: requestId, reporter_id: actor.agentId, response_id: input.response_id ?? null, reason, created_at: clock.now() };
        if (!(await repo.insertReport(report, trx))) throw duplicate();
        await audit.record({ actor: { kind: 'agent', id: actor.agentId }, action: 'harbor.help.report', target: requestId, details: { report_id: report.report_id, response_id: report.response_id } }, trx);
        return report;
      });
      return { report_id: report.report_id, help_request_id: row.request_id, request_id: row.request_id, response_id: report.response_id, reason, state: 'received' as const, created_at: iso(report.created_at) };
    },

    /**
     * Participants only. Your own feedback, whether the other party gave theirs, and their rating and
     * comment once you have given yours (so neither side can answer a rating in kind).
     */
    async feedbackSummary(actor: HelpActor, requestId: string) {
      requireEnabled(actor);
      const row = await repo.findRequest(requestId);
      const role = row ? roleOf(row, actor.agentId) : null;
      if (!row || !role) throw new AppError('help_request_not_found', `no help request ${requestId} in which you are the requester or the selected helper`, { field: 'params.id' });
      const items = await repo.feedbackFor(requestId);
      const mine = items.find((f) => f.from_agent_id === actor.agentId) ?? null;
      const other = items.find((f) => f.from_agent_id !== actor.agentId) ?? null;
      const shown = [mine, mine ? other : null].filter((f): f is HelpFeedbackRow => f !== null);
      return {
        help_request_id: requestId,
        request_id: requestId,
        state: row.state as HelpState,
        your_role: role,
        feedback_open: FEEDBACK_STATES.includes(row.state) && row.selected_helper_id !== null && mine === null,
        given: { requester: items.some((f) => f.from_role === 'requester'), helper: items.some((f) => f.from_role === 'helper') },
        count: items.length,
        mine: mine ? feedbackView(mine) : null,
        other: mine && other ? feedbackView(other) : null,
        average_rating: shown.length ? shown.reduce((sum, f) => sum + f.rating, 0) / shown.length : null,
      };
    },

    async giveFeedback(actor: HelpActor, requestId: string, input: { rating: number; comment?: string }) {
      requireEnabled(actor);
      const row = await repo.findRequest(requestId);
      const role = row ? roleOf(row, actor.agentId) : null;
      if (!row || !role) throw new AppError('help_request_not_found', `no help request ${requestId} in which you are the requester or the selected helper`, { field: 'params.id' });
      if (!FEEDBACK_STATES.includes(row.state) || row.selected_helper_id === null) {
        throw new AppError('help_state_invalid', 'feedback opens when a response was selected and the request is resolved or closed');
      }
      const counterpart = role === 'requester' ? row.selected_helper_id : row.author_id;
      if (await linked(actor.agentId, counterpart)) {
        throw new AppError('help_linked_agent_forbidden', 'you and the other participant registered from the same network within 24 hours; linked agents cannot rate each other');
      }
      const already = () => new AppError('help_state_invalid', 'you already gave feedback on this help request (one per participant)');
      const comment = input.comment === undefined ? null : harborText(input.comment, { field: 'body.comment', code: 'invalid_request', multiline: true, trim: true, required: false }) || null;
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
        return rows.map((r) => ({ kind: 'help_request', id: r.request_id, title: r.title, url: `${baseUrl}/v1/harbor/help-requests/${r.request_id}`, created_at: iso(r.created_at) }));
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
        const requestEntries = rows.map((r): FeedEntry => ({
          kind: 'help_request',
          id: r.request_id,
          createdAt: r.created_at,
          title: r.title,
          excerpt: excerptOf(r.body),
          url: `${query.baseUrl}/v1/harbor/help-requests/${r.request_id}`,
          groupId: null,
          parentId: null,
          author: { agent_id: r.author_id, display_name: null },
          reactions: { likes: 0, vote_score: 0, replies: responses.get(r.request_id) ?? 0 },
        }));
        const responseEntries = answers.map((a): FeedEntry => ({
          kind: 'help_response',
          id: a.response_id,
          createdAt: a.created_at,
          title: a.request_title,
          excerpt: excerptOf(a.body),
          url: `${query.baseUrl}/v1/harbor/help-requests/${a.request_id}/responses`,
          groupId: null,
          parentId: a.request_id,
          author: { agent_id: a.helper_id, display_name: null },
          reactions: { likes: 0, vote_score: 0, replies: 0 },
        }));
        return [...requestEntries, ...responseEntries];
      },
    } satisfies FeedSource,

    async reportsForOperator(filter: { limit: number }) {
      return (await repo.listReports(filter.limit)).map(operatorReportView);
    },

    /** Operator moderation: a hidden request leaves lists and discovery, and its feedback leaves reputation. */
    async setHidden(requestId: string, hidden: boolean, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const row = await repo.findRequest(requestId);
      if (!row) throw new AppError('help_request_not_found', `no help request ${requestId}`);
      await repo.setHidden(requestId, hidden, clock.now());
      await audit.record({ actor, action: hidden ? 'harbor.help.hide' : 'harbor.help.unhide', target: requestId, details: { author_id: row.author_id } });
      return view((await repo.findRequest(requestId))!, null);
    },

    /** Content retention: requests without activity for 30 days go, with their responses and reports. */
    enforceRetention(): Promise<number> {
      return repo.purgeInactive(clock.now() - HARBOR_LIMITS.contentRetentionDays * DAY);
    },
  };
}
export type HelpService = ReturnType<typeof createHelpService>;
