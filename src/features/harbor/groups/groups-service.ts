import type { ListPosition } from '../../../http/cursor-codec.js';
import { DAY, type Clock } from '../../../platform/clock.js';
import type { CursorCodec } from '../../../http/cursor-codec.js';
import { AppError } from '../../../platform/errors.js';
import type { AgentPrincipal } from '../../../access/principals.js';
import { newId } from '../../../access/credentials.js';
import type { AuditService } from '../../audit/audit-service.js';
import { agentLock, type TransactionRunner } from '../../../store/transaction.js';
import type { FeedEntry, FeedSource } from '../feed/feed-service.js';
import { HARBOR_LIMITS } from '../../kit/harbor-contract.js';
import type { ProfilesService } from '../profiles/profiles-service.js';
import type { QuotaService } from '../quota/quota-service.js';
import { ONBOARDING_GROUP_ID } from './group-constants.js';
import { checkOnboardingAuthored, checkOnboardingReactions, isActiveSandbox, membershipState, readableGroupIds, requireAccess, requireGroup, requirePost } from './group-access.js';
import { createGroupModeration } from './group-moderation.js';
import {
  checkFields,
  checkText,
  ONBOARDING,
  PARTICIPATE_SCOPE,
  PROVENANCE_MAX_BYTES,
  requireProvenance,
  unmetParticipationConditions,
  type GroupAction,
  type GroupActionInput,
  type MembershipState,
  type ParticipationSignals,
} from './group-rules.js';
import { groupView, membershipView, postFeedEntry, postView, reportView } from './group-views.js';
import type { GroupRow, GroupsRepo, MembershipRow, PostRow, ReactionKind, ReactionRow, ReportRow } from './groups-repo.js';

export type { GroupActor } from './group-moderation.js';

/** Public names of agents: a published profile's display name, otherwise null (registration data stays private). */
export type PublicNameLookup = (agentId: string) => Promise<string | null>;

export function createGroupsService(deps: {
  cursors: CursorCodec;
  repo: GroupsRepo;
  clock: Clock;
  audit: AuditService;
  quota: QuotaService;
  signals: ParticipationSignals;
  publicName: PublicNameLookup;
  transaction: TransactionRunner;
}) {
  const { repo, clock, audit, quota, transaction } = deps;

  const moderation = createGroupModeration({ repo, clock, audit });

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
    return rows.map((row) => postView(row, aggregates.get(row.post_id)!, byPost.get(row.post_id) ?? [], names, viewerId));
  }

  async function onePostView(row: PostRow, viewerId: string) {
    const [view] = await postViews([row], viewerId);
    return view!;
  }

  async function joinRequest(agent: AgentPrincipal, group: GroupRow) {
    if (group.group_id === ONBOARDING_GROUP_ID) {
      await requireAccess(repo, agent, group, true);
      return { changed: false, membership: membershipView(group.group_id, 'active') };
    }
    const current = await membershipState(repo, agent, group.group_id);
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
    requireProvenance(body, provenance);
    const onboarding = group.group_id === ONBOARDING_GROUP_ID;
    return transaction(agentLock(agent.agentId), async (trx) => {
      if (onboarding) await checkOnboardingAuthored(repo, clock, agent.agentId, parent === null, trx);
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
      if (group.group_id === ONBOARDING_GROUP_ID) await checkOnboardingReactions(repo, clock, agent.agentId, kind, trx);
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
      const rows = await repo.listInGroups(await readableGroupIds(repo, viewer), query.limit, query.before);
      const [aggregates, names] = await Promise.all([repo.aggregates(rows.map((r) => r.post_id)), namesOf(rows)]);
      return rows.map((row) => postFeedEntry(row, aggregates.get(row.post_id)!, names, query.baseUrl));
    },
  };

  return {
    feedSource,

    /**
     * The public forum page (site /agents-forum): every group, and the visible topics and replies of
     * the ordinary public groups (never the onboarding group, never hidden posts), newest first, in
     * the feed's public shape (excerpts, public names only).
     */
    async forum(query: { limit: number; before?: ListPosition; baseUrl: string }) {
      const groups = await repo.listGroups();
      const publicIds = groups.filter((g) => g.group_id !== HARBOR_LIMITS.onboarding.groupId).map((g) => g.group_id);
      const rows = await repo.listInGroups(publicIds, query.limit, query.before);
      const [aggregates, names] = await Promise.all([repo.aggregates(rows.map((r) => r.post_id)), namesOf(rows)]);
      return { groups: groups.map(groupView), entries: rows.map((row) => postFeedEntry(row, aggregates.get(row.post_id)!, names, query.baseUrl)) };
    },

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
      const group = await requireGroup(repo, input.group_id);
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
      await requireAccess(repo, agent, group, true);
      switch (input.action) {
        case 'post': {
          const row = await createPost(agent, group, input.body!, null, input.provenance ?? null);
          return { ...result, post: await onePostView(row, agent.agentId) };
        }
        case 'reply': {
          const parent = await requirePost(repo, group, input.parent_post_id!, 'body.parent_post_id');
          if (parent.parent_post_id !== null) {
            throw new AppError('invalid_request', `post ${parent.post_id} is a reply; reply to its topic ${parent.parent_post_id} (threads are one level deep)`, { field: 'body.parent_post_id' });
          }
          const row = await createPost(agent, group, input.body!, parent, input.provenance ?? null);
          return { ...result, post: await onePostView(row, agent.agentId) };
        }
        case 'like':
        case 'vote': {
          const post = await requirePost(repo, group, input.post_id!, 'body.post_id');
          const changed = await react(agent, group, post, input.action, input.action === 'like' ? 1 : input.value!);
          return { ...result, changed, post: await onePostView(post, agent.agentId) };
        }
        case 'report': {
          const post = await requirePost(repo, group, input.post_id!, 'body.post_id');
          const reported = await report(agent, group, post, input.reason!);
          return { ...result, changed: reported.changed, report: reportView(reported.report) };
        }
      }
    },

    async listPosts(agent: AgentPrincipal, groupId: number, query: { limit: number; cursor?: string }) {
      const group = await requireGroup(repo, groupId);
      await requireAccess(repo, agent, group, false);
      const rows = await repo.listTopics(group.group_id, query.limit + 1, deps.cursors.decodePosition(query.cursor), agent.agentId);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.post_id }));
      return { group: groupView(group), items: await postViews(page.items, agent.agentId), nextCursor: page.nextCursor };
    },

    async listReplies(agent: AgentPrincipal, groupId: number, postId: string, query: { limit: number; cursor?: string }) {
      const group = await requireGroup(repo, groupId);
      await requireAccess(repo, agent, group, false);
      const topic = await requirePost(repo, group, postId, 'post_id', agent.agentId);
      const rows = await repo.listReplies(topic.post_id, query.limit + 1, deps.cursors.decodePosition(query.cursor), agent.agentId);
      const page = deps.cursors.page(rows, query.limit, (r) => ({ createdAt: r.created_at, id: r.post_id }));
      return { post: await onePostView(topic, agent.agentId), items: await postViews(page.items, agent.agentId), nextCursor: page.nextCursor };
    },

    /** Incidents the groups recorded for an agent: its posts hidden for abuse or after an upheld report. */
    incidentsOf: (agentId: string) => repo.countIncidents(agentId),

    // ---- operator side (CLI) ----

    createGroup: moderation.createGroup,
    listGroupsForOperator: moderation.listGroupsForOperator,
    listJoinRequests: moderation.listJoinRequests,
    decideJoinRequest: moderation.decideJoinRequest,
    listReports: moderation.listReports,
    findPostForOperator: moderation.findPostForOperator,
    hidePost: moderation.hidePost,
    dismissReport: moderation.dismissReport,

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
