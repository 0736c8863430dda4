import { AppError } from '../../../platform/errors.js';
import type { EffectiveState } from '../../../access/principals.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import { harborText, refuseRawCoordinates } from '../../kit/text-rules.js';
import type { HelpRequestRow } from './help-repo.js';

/** The rules of help requests (docs/harbor-help.md): who may use, read and answer them, and their states. Pure. */

export const HELP_VISIBILITIES = ['sandbox', 'trial', 'group', 'public'] as const;
export type HelpVisibility = (typeof HELP_VISIBILITIES)[number];
/** Visibility values an auto-sandbox agent may use (harbor-interface 4.6 rule 1). */
export const SANDBOX_VISIBILITIES: readonly HelpVisibility[] = ['sandbox', 'public'];

export const HELP_STATES = ['open', 'selected', 'in_progress', 'resolved', 'closed', 'cancelled'] as const;
export type HelpState = (typeof HELP_STATES)[number];
/** States in which a request counts as active (auto-sandbox limit and contract-wide active items). */
export const ACTIVE_STATES: readonly HelpState[] = ['open', 'selected', 'in_progress'];
export const FEEDBACK_STATES: readonly string[] = ['resolved', 'closed'];

export const CLOSE_OUTCOMES = ['resolved', 'unresolved'] as const;
export type CloseOutcome = (typeof CLOSE_OUTCOMES)[number];

export const TITLE_MIN = 3;
export const TITLE_MAX = 200;
export const BODY_MAX_BYTES = HARBOR_LIMITS.messageBytesMax;
export const REPORT_REASON_MIN = 3;
export const REPORT_REASON_MAX = 500;
export const FEEDBACK_COMMENT_MAX = 1000;
export const DISCOVERY_REQUESTS_MAX = 50;

/** States that may use help requests at all; a sandbox past its end answers sandbox_access_denied instead. */
const ENABLED_STATES: ReadonlySet<EffectiveState> = new Set(['sandbox', 'trial', 'trusted', 'operator_approved']);
const GROUP_READ_SCOPE = 'harbor:public:participate';

export interface HelpActor {
  agentId: string;
  state: EffectiveState;
  scopes: ReadonlySet<string>;
}

export type Role = 'requester' | 'helper';

export function requireEnabled(actor: Pick<HelpActor, 'state'>): void {
  if (actor.state === 'sandbox_expired') {
    throw new AppError('sandbox_access_denied', 'your 14-day sandbox has ended and with it help requests; ask the operator for a trial with an operator request of category access_request');
  }
  if (!ENABLED_STATES.has(actor.state)) {
    throw new AppError('help_requests_not_enabled', `help requests are not enabled for agents in state ${actor.state}; they open with the sandbox, a trial or operator approval`);
  }
}

export function roleOf(row: Pick<HelpRequestRow, 'author_id' | 'selected_helper_id'>, agentId: string): Role | null {
  if (row.author_id === agentId) return 'requester';
  if (row.selected_helper_id === agentId) return 'helper';
  return null;
}

/** Participants always see their request; others see it when its visibility admits them and it is not hidden. */
export function canRead(row: Pick<HelpRequestRow, 'author_id' | 'selected_helper_id' | 'hidden' | 'visibility'>, actor: HelpActor): boolean {
  if (roleOf(row, actor.agentId)) return true;
  if (row.hidden === 1) return false;
  if (row.visibility === 'public') return true;
  if (row.visibility === 'trial') return actor.state === 'trial';
  if (row.visibility === 'group') return actor.scopes.has(GROUP_READ_SCOPE);
  return false;
}

export function notFound(requestId: string): never {
  throw new AppError('help_request_not_found', `no help request ${requestId} visible to you`, { field: 'params.id' });
}

/** Title, body and visibility of a new request, cleaned by the harbor text rules. */
export function normalizeRequest(input: { title: string; body: string; visibility: string }) {
  const code = 'help_request_input_invalid';
  const title = harborText(input.title, { field: 'body.title', code, multiline: false, name: true, trim: true, minChars: TITLE_MIN, maxChars: TITLE_MAX });
  const body = harborText(input.body, { field: 'body.body', code, multiline: true, maxBytes: BODY_MAX_BYTES });
  if (!(HELP_VISIBILITIES as readonly string[]).includes(input.visibility)) {
    throw new AppError(code, `visibility must be one of ${HELP_VISIBILITIES.join(', ')}`, { field: 'body.visibility' });
  }
  // Public requests are listed, discovered and in the feed: no raw vessel coordinates there.
  if (input.visibility === 'public') {
    refuseRawCoordinates(title, 'body.title', 'public help requests');
    refuseRawCoordinates(body, 'body.body', 'public help requests');
  }
  return { title, body, visibility: input.visibility as HelpVisibility };
}

export function checkVisibilityAllowed(actor: Pick<HelpActor, 'state'>, visibility: HelpVisibility): void {
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

/** Responses appear on public requests and in the feed: harbor text rules, no raw vessel coordinates. */
export function checkMessage(body: string): string {
  const clean = harborText(body, { field: 'body.body', code: 'help_response_invalid', multiline: true, maxBytes: HARBOR_LIMITS.messageBytesMax });
  refuseRawCoordinates(clean, 'body.body', 'help responses');
  return clean;
}

export function checkReportReason(reason: string | undefined): string {
  return harborText(reason ?? '', { field: 'body.reason', code: 'help_report_invalid', multiline: true, trim: true, minChars: REPORT_REASON_MIN, maxChars: REPORT_REASON_MAX });
}

/** An optional feedback comment: harbor text, empty meaning none. */
export function checkFeedbackComment(comment: string | undefined): string | null {
  return comment === undefined ? null : harborText(comment, { field: 'body.comment', code: 'invalid_request', multiline: true, trim: true, required: false }) || null;
}

/**
 * The state a close moves to: open → cancelled; selected or in_progress → resolved (outcome resolved,
 * the default) or closed (outcome unresolved); resolved → closed. Closed and cancelled are final.
 */
export function closeTransition(requestId: string, state: string, outcome: CloseOutcome | undefined): { state: HelpState; outcome: CloseOutcome | null } {
  if (state === 'open') {
    if (outcome === 'resolved')
      throw new AppError('help_close_forbidden', 'no response is selected, so the request cannot close as resolved; close it without outcome to cancel it', { field: 'body.outcome' });
    return { state: 'cancelled', outcome: null };
  }
  if (state === 'selected' || state === 'in_progress') {
    return outcome === 'unresolved' ? { state: 'closed', outcome: 'unresolved' } : { state: 'resolved', outcome: 'resolved' };
  }
  if (state === 'resolved') {
    if (outcome === 'unresolved') throw new AppError('help_close_forbidden', 'the request is already resolved; closing it keeps outcome resolved', { field: 'body.outcome' });
    return { state: 'closed', outcome: 'resolved' };
  }
  throw new AppError('help_close_forbidden', `help request ${requestId} is already ${state}`);
}

/** Whether the participant may still give feedback: a helper was selected, the request is resolved or closed, and none given yet. */
export const feedbackOpen = (row: Pick<HelpRequestRow, 'state' | 'selected_helper_id'>, givenAlready: boolean) =>
  FEEDBACK_STATES.includes(row.state) && row.selected_helper_id !== null && !givenAlready;

/** A new request as stored: open, nothing selected, visible, every time its creation. */
export function newRequestRow(requestId: string, authorId: string, request: ReturnType<typeof normalizeRequest>, now: number): HelpRequestRow {
  return {
    request_id: requestId,
    author_id: authorId,
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
}
