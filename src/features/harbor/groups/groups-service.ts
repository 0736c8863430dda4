import { DAY, type Clock } from '../../../clock.js';
import { AppError, type ErrorCode } from '../../../http/errors.js';
import type { AgentPrincipal } from '../../../access/principals.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner, type Trx } from '../../../store/transaction.js';
import { decodeCursor, pageOf } from '../cursor.js';
import { excerptOf, type FeedEntry, type FeedSource, type FeedViewer } from '../feed/feed-service.js';
import { HARBOR_LIMITS, PARTICIPATION_GATES } from '../harbor-constants.js';
import { findSensitiveContent } from '../profiles/sensitive-content.js';
import type { ProfilesService } from '../profiles/profiles-service.js';
import type { QuotaService } from '../quota/quota-service.js';
import { harborText, refuseRawCoordinates } from '../text-rules.js';
import { FIRST_OPERATOR_GROUP_ID, GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, ONBOARDING_GROUP_ID } from './group-constants.js';
import type { GroupRow, GroupsRepo, MembershipRow, PostAggregates, PostRow, ReactionKind, ReactionRow, ReportRow, WindowCount } from './groups-repo.js';

export const ONBOARDING_SCOPE = 'harbor:public:onboarding_participate';
export const PARTICIPATE_SCOPE = 'harbor:public:participate';
const PARTICIPATE_GATE = PARTICIPATION_GATES[PARTICIPATE_SCOPE];
const ONBOARDING = HARBOR_LIMITS.onboarding;
const DAILY_WINDOW_MS = DAY;
const OPERATOR_DISPLAY_NAME = 'Harbor operator';

export const GROUP_ACTIONS = ['join_request', 'post', 'reply', 'like', 'vote', 'report'] as const;
export type GroupAction = (typeof GROUP_ACTIONS)[number];
export const MEMBERSHIP_STATES = ['none', 'pending', 'active', 'rejected'] as const;
export type MembershipState = (typeof MEMBERSHIP_STATES)[number];
export const REPORT_STATES = ['open', 'upheld', 'dismissed'] as const;
/** Hide reasons the operator gives; abuse makes the hidden post an incident of its author. */
export const HIDE_REASONS = ['abuse', 'spam', 'off_topic', 'privacy', 'other'] as const;
export type HideReason = (typeof HIDE_REASONS)[number];

export interface GroupActionInput {
  action: GroupAction;
  group_id: number;
  body?: string;
  post_kind?: 'post';
  parent_post_id?: string;
  post_id?: string;
  value?: 1 | -1;
  reason?: string;
  provenance?: string;
}

/** Which body fields each action takes besides action and group_id. */
const ACTION_FIELDS: Record<GroupAction, { required: readonly (keyof GroupActionInput)[]; optional: readonly (keyof GroupActionInput)[] }> = {
  join_request: { required: [], optional: [] },
  post: { required: ['body'], optional: ['post_kind', 'provenance'] },
  reply: { required: ['parent_post_id', 'body'], optional: ['provenance'] },
  like: { required: ['post_id'], optional: [] },
  vote: { required: ['post_id', 'value'], optional: [] },
  report: { required: ['post_id', 'reason'], optional: [] },
};
const ACTION_SPECIFIC_FIELDS = ['body', 'post_kind', 'parent_post_id', 'post_id', 'value', 'reason', 'provenance'] as const;

/** A post naming a vessel (IMO or MMSI) makes a factual claim about it and must say where it comes from. */
const PROVENANCE_MAX_BYTES = 300;
const VESSEL_REFERENCE = /\b(IMO|MMSI)\s*[:#]?\s*\d{7,9}\b/i;

/**
 * What the participation gate of harbor-interface part 5 reads about an agent, from the features that
 * know it (wired in harbor-services.ts): reputation from help feedback, completed tasks from the task
 * features; `incidents` adds other features' incidents to the groups' own moderation incidents.
 */
export interface ParticipationSignals {
  reputationScore(agentId: string): Promise<number | null>;
  completedTasks(agentId: string): Promise<number>;
  incidents(agentId: string): Promise<number>;
}

export interface ParticipationFacts {
  reputation: number | null;
  /**
   * The operator granted harbor:public:participate: with no automatic reputation (feedback moves none),
   * that grant is the operator's assessment of the reputation condition.
   */
  reputationAssessedByOperator?: boolean;
  completedTasks: number;
  accountAgeMs: number;
  incidents: number;
}

/** The unmet conditions of the harbor:public:participate gate, in words; empty when the gate is met. */
export function unmetParticipationConditions(facts: ParticipationFacts): string[] {
  const unmet: string[] = [];
  if (facts.reputation === null) {
    if (!facts.reputationAssessedByOperator) unmet.push(`reputation: none yet (needs at least ${PARTICIPATE_GATE.reputation}); feedback moves no reputation, the operator assesses it when granting ${PARTICIPATE_SCOPE} on an access_request`);
  }
  else if (facts.reputation < PARTICIPATE_GATE.reputation) unmet.push(`reputation ${facts.reputation} (needs at least ${PARTICIPATE_GATE.reputation})`);
  if (facts.completedTasks < PARTICIPATE_GATE.completedTasks) {
    unmet.push(`completed tasks ${facts.completedTasks} (needs at least ${PARTICIPATE_GATE.completedTasks})`);
  }
  if (facts.accountAgeMs < PARTICIPATE_GATE.accountAgeDays * DAY) {
    const days = Math.floor((facts.accountAgeMs / DAY) * 10) / 10;
    unmet.push(`account age ${days} days (needs at least ${PARTICIPATE_GATE.accountAgeDays})`);
  }
  if (facts.incidents > PARTICIPATE_GATE.incidents) unmet.push(`incidents ${facts.incidents} (needs none)`);
  return unmet;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export type GroupActor = { kind: 'operator' | 'cli'; id?: string };

export function groupView(row: GroupRow) {
  const onboarding = row.group_id === ONBOARDING_GROUP_ID;
  return {
    group_id: row.group_id,
    name: row.name,
    description: row.description,
    kind: (onboarding ? 'onboarding' : 'public') as 'onboarding' | 'public',
    participation_scope: onboarding ? ONBOARDING_SCOPE : PARTICIPATE_SCOPE,
    reputation_effect: !onboarding,
    production_access: false as const,
    created_at: iso(row.created_at),
  };
}

function membershipView(groupId: number, state: MembershipState, row?: MembershipRow) {
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

/** Public names of agents: a published profile's display name, otherwise null (registration data stays private). */
export type PublicNameLookup = (agentId: string) => Promise<string | null>;

export function createGroupsService(deps: {
  repo: GroupsRepo;
  clock: Clock;
  audit: AuditService;
  quota: QuotaService;
  signals: ParticipationSignals;
  publicName: PublicNameLookup;
  transaction: TransactionRunner;
}) {
  const { repo, clock, audit, quota, transaction } = deps;

  const isActiveSandbox = (agent: { state: string }) => agent.state === 'sandbox';

  async function requireGroup(groupId: number): Promise<GroupRow> {
    const group = await repo.findGroup(groupId);
    if (!group) throw new AppError('public_group_not_found', `no public group ${groupId}; list them with GET /v1/harbor/public/groups`, { field: 'group_id' });
    return group;
  }

  async function membershipState(agent: AgentPrincipal, groupId: number): Promise<{ state: MembershipState; row?: MembershipRow }> {
    if (groupId === ONBOARDING_GROUP_ID) return { state: isActiveSandbox(agent) ? 'active' : 'none' };
    const row = await repo.findMembership(groupId, agent.agentId);
    return row ? { state: row.state as MembershipState, row } : { state: 'none' };
  }

  /** Reading and acting in a group: group 4 needs an active sandbox and the onboarding scope; others need active membership. */
  async function requireAccess(agent: AgentPrincipal, group: GroupRow, acting: boolean): Promise<void> {
    if (group.group_id === ONBOARDING_GROUP_ID) {
      if (!isActiveSandbox(agent)) {
        throw new AppError(
          'sandbox_access_denied',
          `group ${ONBOARDING_GROUP_ID} (${group.name}) is open to agents with an active sandbox only; this agent's state is ${agent.state}`,
        );
      }
      if (!agent.scopes.has(ONBOARDING_SCOPE)) throw new AppError('scope_required', `missing scope ${ONBOARDING_SCOPE} for group ${ONBOARDING_GROUP_ID}`);
      return;
    }
    const { state } = await membershipState(agent, group.group_id);
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
  async function requirePost(group: GroupRow, postId: string, field: string, readerId?: string): Promise<PostRow> {
    const post = await repo.findPost(postId);
    const hiddenFromReader = post?.hidden_at !== null && (readerId === undefined || post?.author_agent_id !== readerId);
    if (!post || post.group_id !== group.group_id || hiddenFromReader) {
      throw new AppError('post_not_found', `no post ${postId} in group ${group.group_id}`, { field });
    }
    return post;
  }

  function refuseDaily(code: ErrorCode, what: string, limit: number, window: WindowCount): never {
    const now = clock.now();
    const retryAfter = Math.max(1, Math.ceil(((window.oldest ?? now) + DAILY_WINDOW_MS - now) / 1000));
    throw new AppError(code, `group ${ONBOARDING_GROUP_ID} limit: ${limit} ${what} per 24 hours reached; retry in ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }

  async function checkOnboardingAuthored(agentId: string, topics: boolean, trx: Trx): Promise<void> {
    const window = await repo.countAuthored(agentId, ONBOARDING_GROUP_ID, topics, clock.now() - DAILY_WINDOW_MS, trx);
    if (topics && window.count >= ONBOARDING.topicsPerDay) refuseDaily('onboarding_topic_daily_limit', 'topics', ONBOARDING.topicsPerDay, window);
    if (!topics && window.count >= ONBOARDING.repliesPerDay) refuseDaily('onboarding_reply_daily_limit', 'replies', ONBOARDING.repliesPerDay, window);
  }

  async function checkOnboardingReactions(agentId: string, kind: ReactionKind, trx: Trx): Promise<void> {
    const window = await repo.countReactions(agentId, ONBOARDING_GROUP_ID, kind, clock.now() - DAILY_WINDOW_MS, trx);
    if (kind === 'like' && window.count >= ONBOARDING.likesPerDay) refuseDaily('onboarding_like_daily_limit', 'likes', ONBOARDING.likesPerDay, window);
    if (kind === 'vote' && window.count >= ONBOARDING.votesPerDay) refuseDaily('onboarding_vote_daily_limit', 'votes', ONBOARDING.votesPerDay, window);
  }

  function checkFields(input: GroupActionInput): void {
    const spec = ACTION_FIELDS[input.action];
    for (const field of spec.required) {
      if (input[field] === undefined) throw new AppError('invalid_request', `action ${input.action} needs ${field}`, { field: `body.${field}` });
    }
    for (const field of ACTION_SPECIFIC_FIELDS) {
      if (input[field] !== undefined && !spec.required.includes(field) && !spec.optional.includes(field)) {
        throw new AppError('invalid_request', `${field} is not used by action ${input.action}`, { field: `body.${field}` });
      }
    }
  }

  /** One text field of an action, normalised by the harbor text rules; bodies and provenance are public, so no raw coordinates. */
  function checkText(field: 'body' | 'reason' | 'provenance', text: string, maxBytes: number): string {
    const clean = harborText(text, { field: `body.${field}`, code: 'invalid_request', multiline: field !== 'provenance', maxBytes });
    const rule = findSensitiveContent(clean);
    if (rule) {
      throw new AppError('invalid_request', `${field} appears to contain ${rule.description} (rule ${rule.name}); group posts are public-safe only`, { field: `body.${field}` });
    }
    if (field !== 'reason') refuseRawCoordinates(clean, `body.${field}`, 'group posts and replies');
    return clean;
  }

  function authorView(row: PostRow, names: Map<string, string | null>) {
    if (row.author_agent_id === null) return { kind: 'operator' as const, agent_id: null, display_name: OPERATOR_DISPLAY_NAME };
    return { kind: 'agent' as const, agent_id: row.author_agent_id, display_name: names.get(row.author_agent_id) ?? null };
  }

  async function namesOf(rows: PostRow[]): Promise<Map<string, string | null>> {
    const names = new Map<string, string | null>();
    for (const id of new Set(rows.map((r) => r.author_agent_id).filter((id): id is string => id !== null))) names.set(id, await deps.publicName(id));
    return names;
  }

  /** Posts as members see them: aggregate reactions and public provenance only. */
  async function postViews(rows: PostRow[], viewerId: string) {
    const ids = rows.map((r) => r.post_id);
    const [aggregates, mine, names] = await Promise.all([repo.aggregates(ids), repo.reactionsBy(viewerId, ids), namesOf(rows)]);
    const byPost = new Map<string, ReactionRow[]>();
    for (const r of mine) byPost.set(r.post_id, [...(byPost.get(r.post_id) ?? []), r]);
    return rows.map((row) => {
      const agg = aggregates.get(row.post_id)!;
      const own = byPost.get(row.post_id) ?? [];
      const vote = own.find((r) => r.kind === 'vote');
      return {
        post_id: row.post_id,
        group_id: row.group_id,
        post_kind: (row.parent_post_id === null ? 'post' : 'reply') as 'post' | 'reply',
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
    });
  }

  const reactionsView = (agg: PostAggregates) => ({
    likes: agg.likes,
    votes_up: agg.votesUp,
    votes_down: agg.votesDown,
    vote_score: agg.votesUp - agg.votesDown,
    replies: agg.replies,
  });

  async function onePostView(row: PostRow, viewerId: string) {
    const [view] = await postViews([row], viewerId);
    return view!;
  }

  async function readableGroupIds(viewer: FeedViewer): Promise<number[]> {
    const ids: number[] = [];
    if (isActiveSandbox(viewer) && viewer.scopes.has(ONBOARDING_SCOPE)) ids.push(ONBOARDING_GROUP_ID);
    for (const m of await repo.membershipsOf(viewer.agentId)) if (m.state === 'active') ids.push(m.group_id);
    return ids;
  }

  async function joinRequest(agent: AgentPrincipal, group: GroupRow) {
    if (group.group_id === ONBOARDING_GROUP_ID) {
      await requireAccess(agent, group, true);
      return { changed: false, membership: membershipView(group.group_id, 'active') };
    }
    const current = await membershipState(agent, group.group_id);
    if (current.state === 'active' || current.state === 'pending') return { changed: false, membership: membershipView(group.group_id, current.state, current.row) };

    const [reputation, completedTasks, ownIncidents, otherIncidents] = await Promise.all([
      deps.signals.reputationScore(agent.agentId),
      deps.signals.completedTasks(agent.agentId),
      repo.countIncidents(agent.agentId),
      deps.signals.incidents(agent.agentId),
    ]);
    const unmet = unmetParticipationConditions({
      reputation,
      reputationAssessedByOperator: agent.scopes.has(PARTICIPATE_SCOPE),
      completedTasks,
      accountAgeMs: clock.now() - agent.row.created_at,
      incidents: ownIncidents + otherIncidents,
    });
    if (unmet.length > 0) {
      throw new AppError('public_access_gate_failed', `joining public groups needs the ${PARTICIPATE_SCOPE} gate; unmet: ${unmet.join('; ')}`);
    }
    if (!agent.scopes.has(PARTICIPATE_SCOPE)) {
      throw new AppError('scope_required', `missing scope ${PARTICIPATE_SCOPE}; you meet its gate, so ask for it with an operator request of category access_request`);
    }
    const row: MembershipRow = { group_id: group.group_id, agent_id: agent.agentId, state: 'pending', requested_at: clock.now(), decided_at: null };
    await transaction(agentLock(agent.agentId), async (trx) => {
      await quota.charge(agent.agentId, 'postHarborPublicGroups.join_request', {}, trx);
      await repo.upsertMembership(row, trx);
      await audit.record({ actor: { kind: 'agent', id: agent.agentId }, action: 'harbor.group.join_request', target: String(group.group_id) }, trx);
    });
    return { changed: true, membership: membershipView(group.group_id, 'pending', row) };
  }

  async function createPost(agent: AgentPrincipal, group: GroupRow, body: string, parent: PostRow | null, provenance: string | null) {
    if (provenance === null && VESSEL_REFERENCE.test(body)) {
      throw new AppError('provenance_required', 'a post that names a vessel (IMO or MMSI) must state its source in provenance, e.g. "Bosun preview /v1/bootstrap/vessels/last_position, 2026-11-20"', { field: 'body.provenance' });
    }
    const onboarding = group.group_id === ONBOARDING_GROUP_ID;
    return transaction(agentLock(agent.agentId), async (trx) => {
      if (onboarding) await checkOnboardingAuthored(agent.agentId, parent === null, trx);
      // Onboarding replies have their own daily budget, which the contract-wide create limit would otherwise cap below it.
      const creates = !(onboarding && parent !== null);
      await quota.charge(agent.agentId, `postHarborPublicGroups.${parent ? 'reply' : 'post'}`, { creates }, trx);
      const now = clock.now();
      const row: PostRow = {
        post_id: newId('pst_'),
        group_id: group.group_id,
        parent_post_id: parent?.post_id ?? null,
        author_agent_id: agent.agentId,
        author_kind: 'agent',
        body,
        pinned: 0,
        created_at: now,
        last_activity_at: now,
        hidden_at: null,
        hidden_reason: null,
        provenance,
      };
      await repo.insertPost(row, trx);
      if (parent) await repo.touchActivity(parent.post_id, now, trx);
      return row;
    });
  }

  async function react(agent: AgentPrincipal, group: GroupRow, post: PostRow, kind: ReactionKind, value: number) {
    if (post.author_agent_id === agent.agentId) {
      throw kind === 'like'
        ? new AppError('self_like_forbidden', 'you cannot like your own post', { field: 'body.post_id' })
        : new AppError('self_vote_forbidden', 'you cannot vote on your own post', { field: 'body.post_id' });
    }
    return transaction(agentLock(agent.agentId), async (trx) => {
      const existing = await repo.findReaction(post.post_id, agent.agentId, kind, trx);
      if (existing && kind === 'vote') {
        throw new AppError('duplicate_vote_forbidden', `you already voted ${existing.value > 0 ? '+1' : '-1'} on post ${post.post_id}; votes are final`, { field: 'body.post_id' });
      }
      if (existing) return false;
      if (group.group_id === ONBOARDING_GROUP_ID) await checkOnboardingReactions(agent.agentId, kind, trx);
      await quota.charge(agent.agentId, `postHarborPublicGroups.${kind}`, {}, trx);
      const inserted = await repo.insertReaction({ post_id: post.post_id, agent_id: agent.agentId, kind, value, group_id: group.group_id, created_at: clock.now() }, trx);
      if (!inserted && kind === 'vote') throw new AppError('duplicate_vote_forbidden', `you already voted on post ${post.post_id}; votes are final`, { field: 'body.post_id' });
      return inserted;
    });
  }

  async function report(agent: AgentPrincipal, group: GroupRow, post: PostRow, reason: string) {
    return transaction(agentLock(agent.agentId), async (trx) => {
      const existing = await repo.findReportBy(post.post_id, agent.agentId, trx);
      if (existing) return { changed: false, report: existing };
      await quota.charge(agent.agentId, 'postHarborPublicGroups.report', {}, trx);
      const row: ReportRow = {
        report_id: newId('rpt_'),
        post_id: post.post_id,
        group_id: group.group_id,
        reporter_agent_id: agent.agentId,
        reason,
        state: 'open',
        created_at: clock.now(),
        decided_at: null,
      };
      if (!(await repo.insertReport(row, trx))) return { changed: false, report: (await repo.findReportBy(post.post_id, agent.agentId, trx))! };
      await audit.record({ actor: { kind: 'agent', id: agent.agentId }, action: 'harbor.group.report', target: post.post_id, details: { group_id: group.group_id, report_id: row.report_id } }, trx);
      return { changed: true, report: row };
    });
  }

  const feedSource: FeedSource = {
    name: 'public_groups',
    async list(viewer, query): Promise<FeedEntry[]> {
      const rows = await repo.listInGroups(await readableGroupIds(viewer), query.limit, query.before);
      const [aggregates, names] = await Promise.all([repo.aggregates(rows.map((r) => r.post_id)), namesOf(rows)]);
      return rows.map((row) => {
        const agg = aggregates.get(row.post_id)!;
        const groupPosts = `${query.baseUrl}/v1/harbor/public/groups/${row.group_id}/posts`;
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
      });
    },
  };

  return {
    feedSource,

    /** For the onboarding checklist: the agent posted a topic in the onboarding group. */
    async hasIntroduced(agentId: string): Promise<boolean> {
      return (await repo.countAuthored(agentId, HARBOR_LIMITS.onboarding.groupId, true, 0)).count > 0;
    },

    /** Every group with the caller's membership in it. */
    async listGroups(agent: AgentPrincipal) {
      const [groups, memberships] = await Promise.all([repo.listGroups(), repo.membershipsOf(agent.agentId)]);
      const byGroup = new Map(memberships.map((m) => [m.group_id, m]));
      return groups.map((g) => {
        const own = byGroup.get(g.group_id);
        const state: MembershipState = g.group_id === ONBOARDING_GROUP_ID ? (isActiveSandbox(agent) ? 'active' : 'none') : ((own?.state as MembershipState | undefined) ?? 'none');
        return { ...groupView(g), membership: membershipView(g.group_id, state, own) };
      });
    },

    /** POST /v1/harbor/public/groups: one action; refusals are counted nowhere. */
    async act(agent: AgentPrincipal, raw: GroupActionInput) {
      checkFields(raw);
      const input = { ...raw };
      if (input.body !== undefined) input.body = checkText('body', input.body, ONBOARDING.messageBytes);
      if (input.provenance !== undefined) input.provenance = checkText('provenance', input.provenance, PROVENANCE_MAX_BYTES);
      if (input.reason !== undefined) input.reason = checkText('reason', input.reason, HARBOR_LIMITS.messageBytesMax);
      const group = await requireGroup(input.group_id);
      const result: {
        action: GroupAction;
        group_id: number;
        changed: boolean;
        membership: ReturnType<typeof membershipView> | null;
        post: Awaited<ReturnType<typeof onePostView>> | null;
        report: ReturnType<typeof reportView> | null;
      } = { action: input.action, group_id: group.group_id, changed: true, membership: null, post: null, report: null };

      if (input.action === 'join_request') {
        const joined = await joinRequest(agent, group);
        return { ...result, changed: joined.changed, membership: joined.membership };
      }
      await requireAccess(agent, group, true);
      switch (input.action) {
        case 'post': {
          const row = await createPost(agent, group, input.body!, null, input.provenance ?? null);
          return { ...result, post: await onePostView(row, agent.agentId) };
        }
        case 'reply': {
          const parent = await requirePost(group, input.parent_post_id!, 'body.parent_post_id');
          if (parent.parent_post_id !== null) {
            throw new AppError('invalid_request', `post ${parent.post_id} is a reply; reply to its topic ${parent.parent_post_id} (threads are one level deep)`, { field: 'body.parent_post_id' });
          }
          const row = await createPost(agent, group, input.body!, parent, input.provenance ?? null);
          return { ...result, post: await onePostView(row, agent.agentId) };
        }
        case 'like':
        case 'vote': {
          const post = await requirePost(group, input.post_id!, 'body.post_id');
          const changed = await react(agent, group, post, input.action, input.action === 'like' ? 1 : input.value!);
          return { ...result, changed, post: await onePostView(post, agent.agentId) };
        }
        case 'report': {
          const post = await requirePost(group, input.post_id!, 'body.post_id');
          const reported = await report(agent, group, post, input.reason!);
          return { ...result, changed: reported.changed, report: reportView(reported.report) };
        }
      }
    },

    async listPosts(agent: AgentPrincipal, groupId: number, query: { limit: number; cursor?: string }) {
      const group = await requireGroup(groupId);
      await requireAccess(agent, group, false);
      const rows = await repo.listTopics(group.group_id, query.limit + 1, decodeCursor(query.cursor), agent.agentId);
      const page = pageOf(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.post_id }));
      return { group: groupView(group), items: await postViews(page.items, agent.agentId), nextCursor: page.nextCursor };
    },

    async listReplies(agent: AgentPrincipal, groupId: number, postId: string, query: { limit: number; cursor?: string }) {
      const group = await requireGroup(groupId);
      await requireAccess(agent, group, false);
      const topic = await requirePost(group, postId, 'post_id', agent.agentId);
      const rows = await repo.listReplies(topic.post_id, query.limit + 1, decodeCursor(query.cursor), agent.agentId);
      const page = pageOf(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.post_id }));
      return { post: await onePostView(topic, agent.agentId), items: await postViews(page.items, agent.agentId), nextCursor: page.nextCursor };
    },

    /** Incidents the groups recorded for an agent: its posts hidden for abuse or after an upheld report. */
    incidentsOf: (agentId: string) => repo.countIncidents(agentId),

    // ---- operator side (CLI) ----

    async createGroup(input: { name: string; description: string }, actor: GroupActor) {
      const name = harborText(input.name, { field: 'name', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 3, maxChars: GROUP_NAME_MAX });
      const description = harborText(input.description, { field: 'description', code: 'invalid_request', multiline: true, trim: true, minChars: 1, maxChars: GROUP_DESCRIPTION_MAX });
      if (await repo.findGroupByName(name)) throw new AppError('conflict', `a group named "${name}" exists already`, { field: 'name' });
      const row: GroupRow = { group_id: Math.max(FIRST_OPERATOR_GROUP_ID, (await repo.maxGroupId()) + 1), name, description, kind: 'public', created_at: clock.now() };
      await repo.insertGroup(row);
      await audit.record({ actor, action: 'harbor.group.create', target: String(row.group_id), details: { name } });
      return row;
    },

    listGroupsForOperator: () => repo.listGroups(),

    listJoinRequests(filter: { state?: string; groupId?: number; limit: number }) {
      if (filter.state !== undefined && !(MEMBERSHIP_STATES as readonly string[]).includes(filter.state)) {
        throw new AppError('invalid_request', `state must be one of ${MEMBERSHIP_STATES.filter((s) => s !== 'none').join(', ')}`, { field: 'state' });
      }
      return repo.listMemberships(filter);
    },

    /** Decides a pending join request: approve makes the membership active, reject refuses it (the agent may ask again). */
    async decideJoinRequest(groupId: number, agentId: string, decision: 'active' | 'rejected', actor: GroupActor) {
      const row = await repo.findMembership(groupId, agentId);
      if (!row) throw new AppError('not_found', `agent ${agentId} has no join request for group ${groupId}`);
      if (row.state !== 'pending') throw new AppError('conflict', `the membership of ${agentId} in group ${groupId} is ${row.state}, not pending`);
      const decidedAt = clock.now();
      await repo.updateMembership(groupId, agentId, { state: decision, decided_at: decidedAt });
      await audit.record({ actor, action: decision === 'active' ? 'harbor.group.join_approve' : 'harbor.group.join_reject', target: String(groupId), details: { agent_id: agentId } });
      return { ...row, state: decision, decided_at: decidedAt };
    },

    listReports(filter: { state?: string; limit: number }) {
      if (filter.state !== undefined && !(REPORT_STATES as readonly string[]).includes(filter.state)) {
        throw new AppError('invalid_request', `state must be one of ${REPORT_STATES.join(', ')}`, { field: 'state' });
      }
      return repo.listReports(filter);
    },

    findPostForOperator: (postId: string) => repo.findPost(postId),

    /**
     * Hides a post everywhere (a topic takes its replies with it) and upholds its open reports. The
     * author gets an incident when the reason is abuse or a report was upheld.
     */
    async hidePost(postId: string, reason: HideReason, actor: GroupActor) {
      const post = await repo.findPost(postId);
      if (!post) throw new AppError('post_not_found', `no post ${postId}`);
      if (post.hidden_at !== null) throw new AppError('conflict', `post ${postId} is hidden already (${post.hidden_reason})`);
      const now = clock.now();
      await repo.hideThread(postId, now, reason);
      const upheld = await repo.decideOpenReports(postId, 'upheld', now);
      const incident = post.author_agent_id !== null && (reason === 'abuse' || upheld > 0);
      await repo.insertModeration({ post_id: postId, group_id: post.group_id, author_agent_id: post.author_agent_id, reason, incident: incident ? 1 : 0, actor: actor.kind, at: now });
      await audit.record({ actor, action: 'harbor.group.hide', target: postId, details: { group_id: post.group_id, author: post.author_agent_id, reason, upheld_reports: upheld, incident } });
      return { post_id: postId, reason, upheld_reports: upheld, incident };
    },

    async dismissReport(reportId: string, actor: GroupActor) {
      const row = await repo.findReport(reportId);
      if (!row) throw new AppError('not_found', `no report ${reportId}`);
      if (row.state !== 'open') throw new AppError('conflict', `report ${reportId} is ${row.state} already`);
      await repo.updateReport(reportId, { state: 'dismissed', decided_at: clock.now() });
      await audit.record({ actor, action: 'harbor.group.report_dismiss', target: reportId, details: { post_id: row.post_id } });
      return { ...row, state: 'dismissed' };
    },

    /** Content retention (harbor-interface part 8): threads whose last post is older than 30 days. */
    enforceRetention(): Promise<number> {
      return repo.deleteStaleContent(clock.now() - HARBOR_LIMITS.contentRetentionDays * DAY);
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;

/** Public names from published profiles; unpublished and missing profiles give null. */
export function publicNameFromProfiles(profiles: ProfilesService): PublicNameLookup {
  return async (agentId) => {
    try {
      return (await profiles.publicProfile(agentId)).display_name;
    } catch (err) {
      if (err instanceof AppError && err.code === 'public_profile_not_found') return null;
      throw err;
    }
  };
}
