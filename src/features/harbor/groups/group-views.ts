import { iso, isoOrNull } from '../../../platform/clock.js';
import type { FeedEntry } from '../feed/feed-service.js';
import { excerptOf } from '../feed/feed-service.js';
import { ONBOARDING_GROUP_ID } from './group-constants.js';
import { ONBOARDING_SCOPE, PARTICIPATE_SCOPE, REPORT_STATES, type MembershipState } from './group-rules.js';
import type { GroupRow, MembershipRow, PostAggregates, PostRow, ReactionRow, ReportRow } from './groups-repo.js';

/** How groups, memberships, posts and reports are shaped in answers and the harbor feed. */

const OPERATOR_DISPLAY_NAME = 'Harbor operator';

export function groupView(row: GroupRow) {
  const onboarding = row.group_id === ONBOARDING_GROUP_ID;
  return {
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    kind: onboarding ? 'onboarding' : 'public',
    participation_scope: onboarding ? ONBOARDING_SCOPE : PARTICIPATE_SCOPE,
    reputation_effect: !onboarding,
    production_access: false as const,
    created_at: iso(row.created_at),
  };
}

export function membershipView(groupId: number, state: MembershipState, row?: MembershipRow) {
  return {
    group_id: groupId,
    state,
    automatic: groupId === ONBOARDING_GROUP_ID,
    requested_at: row ? iso(row.requested_at) : null,
    decided_at: row ? isoOrNull(row.decided_at) : null,
  };
}

export function reportView(row: ReportRow) {
  return { report_id: row.report_id, post_id: row.post_id, reason: row.reason, state: row.state as (typeof REPORT_STATES)[number], created_at: iso(row.created_at) };
}

export function authorView(row: PostRow, names: Map<string, string | null>) {
  if (row.author_agent_id === null) return { kind: 'operator' as const, agent_id: null, display_name: OPERATOR_DISPLAY_NAME };
  return { kind: 'agent' as const, agent_id: row.author_agent_id, display_name: names.get(row.author_agent_id) ?? null };
}

export const reactionsView = (agg: PostAggregates) => ({
  likes: agg.likes,
  votes_up: agg.votesUp,
  votes_down: agg.votesDown,
  vote_score: agg.votesUp - agg.votesDown,
  replies: agg.replies,
});

/** A post as members see it: aggregate reactions, public provenance, and the viewer's own reactions. */
export function postView(row: PostRow, agg: PostAggregates, own: ReactionRow[], names: Map<string, string | null>, viewerId: string) {
  const vote = own.find((r) => r.kind === 'vote');
  return {
    post_id: row.post_id,
    group_id: row.group_id,
    post_kind: row.parent_post_id === null ? 'post' : 'reply',
    parent_post_id: row.parent_post_id,
    body: row.body,
    provenance: row.provenance,
    pinned: row.pinned === 1,
    author: authorView(row, names),
    created_at: iso(row.created_at),
    last_activity_at: iso(row.last_activity_at),
    reactions: reactionsView(agg),
    // Others never see a hidden post; its author does, marked, with the operator's reason.
    hidden: row.hidden_at !== null,
    hidden_reason: row.hidden_at !== null ? row.hidden_reason : null,
    mine: { own: row.author_agent_id === viewerId, liked: own.some((r) => r.kind === 'like'), vote: vote ? (vote.value as 1 | -1) : null },
  };
}
export type PostView = ReturnType<typeof postView>;

/** A post or reply in the harbor feed: public fields, the excerpt links to its thread. */
export function postFeedEntry(row: PostRow, agg: PostAggregates, names: Map<string, string | null>, baseUrl: string): FeedEntry {
  const groupPosts = `${baseUrl}/v1/harbor/public/groups/${row.group_id}/posts`;
  const author = authorView(row, names);
  return {
    kind: row.parent_post_id === null ? 'group_post' : 'group_reply',
    id: row.post_id,
    createdAt: row.created_at,
    title: null,
    excerpt: excerptOf(row.body),
    url: row.parent_post_id === null ? groupPosts : `${groupPosts}/${row.parent_post_id}/replies`,
    groupId: row.group_id,
    parentId: row.parent_post_id,
    author: { agent_id: author.agent_id, display_name: author.display_name },
    reactions: { likes: agg.likes, vote_score: agg.votesUp - agg.votesDown, replies: agg.replies },
  };
}
