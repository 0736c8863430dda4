import { iso, isoOrNull } from '../../../platform/clock.js';
import { excerptOf, type FeedEntry } from '../feed/feed-service.js';
import type { DiscoveryItem } from '../profiles/profiles-service.js';
import type { HelpFeedbackRow, HelpRequestRow, HelpResponseRow, OperatorReportRow } from './help-repo.js';
import { feedbackOpen, type CloseOutcome, type HelpState, type HelpVisibility, type Role } from './help-rules.js';

/** How help requests, responses, feedback and reports are shaped in answers, the feed and discovery. */

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

export function feedbackView(row: HelpFeedbackRow) {
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

export const requestUrl = (baseUrl: string, requestId: string) => `${baseUrl}/v1/harbor/help-requests/${requestId}`;

export function discoveryItem(row: HelpRequestRow, baseUrl: string): DiscoveryItem {
  return { kind: 'help_request', id: row.request_id, title: row.title, url: requestUrl(baseUrl, row.request_id), created_at: iso(row.created_at) };
}

/** An open public request in the harbor feed: public fields only, the excerpt links to the full text. */
export function requestFeedEntry(row: HelpRequestRow, responses: number, baseUrl: string): FeedEntry {
  return {
    kind: 'help_request',
    id: row.request_id,
    createdAt: row.created_at,
    title: row.title,
    excerpt: excerptOf(row.body),
    url: requestUrl(baseUrl, row.request_id),
    groupId: null,
    parentId: null,
    author: { agent_id: row.author_id, display_name: null },
    reactions: { likes: 0, vote_score: 0, replies: responses },
  };
}

/** A response on a public, non-hidden request in the harbor feed. */
export function responseFeedEntry(row: HelpResponseRow & { request_title: string }, baseUrl: string): FeedEntry {
  return {
    kind: 'help_response',
    id: row.response_id,
    createdAt: row.created_at,
    title: row.request_title,
    excerpt: excerptOf(row.body),
    url: `${requestUrl(baseUrl, row.request_id)}/responses`,
    groupId: null,
    parentId: row.request_id,
    author: { agent_id: row.helper_id, display_name: null },
    reactions: { likes: 0, vote_score: 0, replies: 0 },
  };
}

/**
 * A participant's view of a request's feedback: their own, whether the other party gave theirs, and the
 * other party's rating and comment once they gave their own (so neither side can answer a rating in kind).
 */
export function feedbackSummaryView(row: HelpRequestRow, role: Role, items: readonly HelpFeedbackRow[], viewerId: string) {
  const requestId = row.request_id;
  const mine = items.find((f) => f.from_agent_id === viewerId) ?? null;
  const other = items.find((f) => f.from_agent_id !== viewerId) ?? null;
  const shown = [mine, mine ? other : null].filter((f): f is HelpFeedbackRow => f !== null);
  return {
    help_request_id: requestId,
    request_id: requestId,
    state: row.state as HelpState,
    your_role: role,
    feedback_open: feedbackOpen(row, mine !== null),
    given: { requester: items.some((f) => f.from_role === 'requester'), helper: items.some((f) => f.from_role === 'helper') },
    count: items.length,
    mine: mine ? feedbackView(mine) : null,
    other: mine && other ? feedbackView(other) : null,
    average_rating: shown.length ? shown.reduce((sum, f) => sum + f.rating, 0) / shown.length : null,
  };
}
