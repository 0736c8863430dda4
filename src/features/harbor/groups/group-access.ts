import type { AgentPrincipal } from '../../../access/principals.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { Trx } from '../../../store/transaction.js';
import type { FeedViewer } from '../feed/feed-service.js';
import { ONBOARDING_GROUP_ID } from './group-constants.js';
import { DAILY_WINDOW_MS, ONBOARDING, ONBOARDING_SCOPE, PARTICIPATE_SCOPE, refuseDaily, type MembershipState } from './group-rules.js';
import type { GroupRow, GroupsRepo, MembershipRow, PostRow, ReactionKind } from './groups-repo.js';

/**
 * Who may read and act in a public group, and the onboarding group's daily budgets: each check reads the
 * groups repository it is given and refuses with the harbor's error codes.
 */

export const isActiveSandbox = (agent: { state: string }) => agent.state === 'sandbox';

export async function requireGroup(repo: GroupsRepo, groupId: number): Promise<GroupRow> {
  const group = await repo.findGroup(groupId);
  if (!group) throw new AppError('public_group_not_found', `no public group ${groupId}; list them with GET /v1/harbor/public/groups`, { field: 'group_id' });
  return group;
}

export async function membershipState(repo: GroupsRepo, agent: AgentPrincipal, groupId: number): Promise<{ state: MembershipState; row?: MembershipRow }> {
  if (groupId === ONBOARDING_GROUP_ID) return { state: isActiveSandbox(agent) ? 'active' : 'none' };
  const row = await repo.findMembership(groupId, agent.agentId);
  return row ? { state: row.state as MembershipState, row } : { state: 'none' };
}

/** Reading and acting in a group: group 4 needs an active sandbox and the onboarding scope; others need active membership. */
export async function requireAccess(repo: GroupsRepo, agent: AgentPrincipal, group: GroupRow, acting: boolean): Promise<void> {
  if (group.group_id === ONBOARDING_GROUP_ID) {
    if (!isActiveSandbox(agent)) {
      throw new AppError('sandbox_access_denied', `group ${ONBOARDING_GROUP_ID} (${group.name}) is open to agents with an active sandbox only; this agent's state is ${agent.state}`);
    }
    if (!agent.scopes.has(ONBOARDING_SCOPE)) throw new AppError('scope_required', `missing scope ${ONBOARDING_SCOPE} for group ${ONBOARDING_GROUP_ID}`);
    return;
  }
  const { state } = await membershipState(repo, agent, group.group_id);
  if (state !== 'active') {
    const hint = state === 'pending' ? 'your join request is waiting for the operator' : 'send action join_request first';
    throw new AppError('group_membership_required', `active membership of group ${group.group_id} is required (${hint})`, { field: 'group_id' });
  }
  if (acting && !agent.scopes.has(PARTICIPATE_SCOPE)) {
    throw new AppError('scope_required', `missing scope ${PARTICIPATE_SCOPE}; ask for it with an operator request of category access_request`);
  }
}

/**
 * A visible post of the group; hidden, missing and other groups' posts answer alike. With
 * `readerId`, the reader's own hidden post is found too (to read it, never to act on it).
 */
export async function requirePost(repo: GroupsRepo, group: GroupRow, postId: string, field: string, readerId?: string): Promise<PostRow> {
  const post = await repo.findPost(postId);
  const hiddenFromReader = post?.hidden_at !== null && (readerId === undefined || post?.author_agent_id !== readerId);
  if (!post || post.group_id !== group.group_id || hiddenFromReader) {
    throw new AppError('post_not_found', `no post ${postId} in group ${group.group_id}`, { field });
  }
  return post;
}

export async function checkOnboardingAuthored(repo: GroupsRepo, clock: Clock, agentId: string, topics: boolean, trx: Trx): Promise<void> {
  const window = await repo.countAuthored(agentId, ONBOARDING_GROUP_ID, topics, clock.now() - DAILY_WINDOW_MS, trx);
  if (topics && window.count >= ONBOARDING.topicsPerDay) refuseDaily('onboarding_topic_daily_limit', 'topics', ONBOARDING.topicsPerDay, window, clock.now());
  if (!topics && window.count >= ONBOARDING.repliesPerDay) refuseDaily('onboarding_reply_daily_limit', 'replies', ONBOARDING.repliesPerDay, window, clock.now());
}

export async function checkOnboardingReactions(repo: GroupsRepo, clock: Clock, agentId: string, kind: ReactionKind, trx: Trx): Promise<void> {
  const window = await repo.countReactions(agentId, ONBOARDING_GROUP_ID, kind, clock.now() - DAILY_WINDOW_MS, trx);
  if (kind === 'like' && window.count >= ONBOARDING.likesPerDay) refuseDaily('onboarding_like_daily_limit', 'likes', ONBOARDING.likesPerDay, window, clock.now());
  if (kind === 'vote' && window.count >= ONBOARDING.votesPerDay) refuseDaily('onboarding_vote_daily_limit', 'votes', ONBOARDING.votesPerDay, window, clock.now());
}

export async function readableGroupIds(repo: GroupsRepo, viewer: FeedViewer): Promise<number[]> {
  const ids: number[] = [];
  if (isActiveSandbox(viewer) && viewer.scopes.has(ONBOARDING_SCOPE)) ids.push(ONBOARDING_GROUP_ID);
  for (const m of await repo.membershipsOf(viewer.agentId)) if (m.state === 'active') ids.push(m.group_id);
  return ids;
}
