import { sql } from 'kysely';
import type { Db } from '../../../store/db.js';
import type { Executor } from '../../../store/transaction.js';
import type { HarborGroupMembersTable, HarborGroupModerationTable, HarborGroupPostsTable, HarborGroupReactionsTable, HarborGroupReportsTable, HarborGroupsTable } from '../../../store/schema.js';
import type { ListPosition } from '../../../http/cursor-codec.js';
import { olderThan } from '../cursor.js';

export type GroupRow = HarborGroupsTable;
export type MembershipRow = HarborGroupMembersTable;
export type PostRow = HarborGroupPostsTable;
export type ReactionRow = HarborGroupReactionsTable;
export type ReportRow = HarborGroupReportsTable;
export type ModerationRow = Omit<HarborGroupModerationTable, 'id'>;

export type ReactionKind = 'like' | 'vote';

export interface PostAggregates {
  likes: number;
  votesUp: number;
  votesDown: number;
  replies: number;
}

/** A count in a time window and the oldest counted time (for Retry-After). */
export interface WindowCount {
  count: number;
  oldest: number | null;
}

const toWindow = (row: { count: number | string; oldest: number | string | null }): WindowCount => ({
  count: Number(row.count),
  oldest: row.oldest === null ? null : Number(row.oldest),
});

export function createGroupsRepo(db: Db) {
  /** Posts that are not hidden, plus (when given) the viewer's own hidden posts, which only their author sees. */
  function visiblePosts(viewerId?: string) {
    const q = db.selectFrom('harbor_group_posts').selectAll().orderBy('created_at', 'desc').orderBy('post_id', 'desc');
    return viewerId === undefined ? q.where('hidden_at', 'is', null) : q.where((eb) => eb.or([eb('hidden_at', 'is', null), eb('author_agent_id', '=', viewerId)]));
  }

  function after<Q extends ReturnType<typeof visiblePosts>>(q: Q, position: ListPosition | undefined): Q {
    if (!position) return q;
    return q.where(olderThan('post_id', position)) as Q;
  }

  return {
    listGroups(): Promise<GroupRow[]> {
      return db.selectFrom('harbor_groups').selectAll().orderBy('group_id', 'asc').execute();
    },
    findGroup(groupId: number): Promise<GroupRow | undefined> {
      return db.selectFrom('harbor_groups').selectAll().where('group_id', '=', groupId).executeTakeFirst();
    },
    findGroupByName(name: string): Promise<GroupRow | undefined> {
      return db.selectFrom('harbor_groups').selectAll().where('name', '=', name).executeTakeFirst();
    },
    async maxGroupId(): Promise<number> {
      const row = await db
        .selectFrom('harbor_groups')
        .select((eb) => eb.fn.max<number | string | null>('group_id').as('max'))
        .executeTakeFirstOrThrow();
      return row.max === null ? 0 : Number(row.max);
    },
    async insertGroup(row: GroupRow): Promise<void> {
      await db.insertInto('harbor_groups').values(row).execute();
    },

    findMembership(groupId: number, agentId: string): Promise<MembershipRow | undefined> {
      return db.selectFrom('harbor_group_members').selectAll().where('group_id', '=', groupId).where('agent_id', '=', agentId).executeTakeFirst();
    },
    membershipsOf(agentId: string): Promise<MembershipRow[]> {
      return db.selectFrom('harbor_group_members').selectAll().where('agent_id', '=', agentId).execute();
    },
    async upsertMembership(row: MembershipRow, trx: Executor = db): Promise<void> {
      const { group_id: _g, agent_id: _a, ...changes } = row;
      await trx
        .insertInto('harbor_group_members')
        .values(row)
        .onConflict((oc) => oc.columns(['group_id', 'agent_id']).doUpdateSet(changes))
        .execute();
    },
    async updateMembership(groupId: number, agentId: string, patch: Partial<MembershipRow>): Promise<void> {
      await db.updateTable('harbor_group_members').set(patch).where('group_id', '=', groupId).where('agent_id', '=', agentId).execute();
    },
    listMemberships(filter: { state?: string; groupId?: number; limit: number }): Promise<MembershipRow[]> {
      let q = db.selectFrom('harbor_group_members').selectAll().orderBy('requested_at', 'asc').orderBy('agent_id', 'asc').limit(filter.limit);
      if (filter.state !== undefined) q = q.where('state', '=', filter.state);
      if (filter.groupId !== undefined) q = q.where('group_id', '=', filter.groupId);
      return q.execute();
    },

    async insertPost(row: PostRow, trx: Executor = db): Promise<void> {
      await trx.insertInto('harbor_group_posts').values(row).execute();
    },
    findPost(postId: string): Promise<PostRow | undefined> {
      return db.selectFrom('harbor_group_posts').selectAll().where('post_id', '=', postId).executeTakeFirst();
    },
    async touchActivity(postId: string, at: number, trx: Executor = db): Promise<void> {
      await trx.updateTable('harbor_group_posts').set({ last_activity_at: at }).where('post_id', '=', postId).execute();
    },
    /** Visible topics of a group (and the viewer's own hidden ones), newest first (created_at, then post_id, descending). */
    listTopics(groupId: number, limit: number, position?: ListPosition, viewerId?: string): Promise<PostRow[]> {
      return after(visiblePosts(viewerId).where('group_id', '=', groupId).where('parent_post_id', 'is', null), position)
        .limit(limit)
        .execute();
    },
    listReplies(topicId: string, limit: number, position?: ListPosition, viewerId?: string): Promise<PostRow[]> {
      return after(visiblePosts(viewerId).where('parent_post_id', '=', topicId), position)
        .limit(limit)
        .execute();
    },
    /** Visible topics and replies of the given groups, newest first. */
    listInGroups(groupIds: number[], limit: number, position?: ListPosition): Promise<PostRow[]> {
      if (groupIds.length === 0) return Promise.resolve([]);
      return after(visiblePosts().where('group_id', 'in', groupIds), position)
        .limit(limit)
        .execute();
    },
    /** An agent's topics (or replies) in a group since `since`, hidden ones included. */
    async countAuthored(agentId: string, groupId: number, topics: boolean, since: number, trx: Executor = db): Promise<WindowCount> {
      const row = await trx
        .selectFrom('harbor_group_posts')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('author_agent_id', '=', agentId)
        .where('group_id', '=', groupId)
        .where('parent_post_id', topics ? 'is' : 'is not', null)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return toWindow(row);
    },
    /** Hides a post and, when it is a topic, its visible replies. */
    async hideThread(postId: string, at: number, reason: string): Promise<void> {
      await db.updateTable('harbor_group_posts').set({ hidden_at: at, hidden_reason: reason }).where('post_id', '=', postId).execute();
      await db.updateTable('harbor_group_posts').set({ hidden_at: at, hidden_reason: 'parent_hidden' }).where('parent_post_id', '=', postId).where('hidden_at', 'is', null).execute();
    },
    async aggregates(postIds: string[]): Promise<Map<string, PostAggregates>> {
      const result = new Map<string, PostAggregates>(postIds.map((id) => [id, { likes: 0, votesUp: 0, votesDown: 0, replies: 0 }]));
      if (postIds.length === 0) return result;
      const reactions = await db
        .selectFrom('harbor_group_reactions')
        .select((eb) => ['post_id', 'kind', eb.fn.countAll<number | string>().as('count'), sql<number | string>`sum(case when value > 0 then 1 else 0 end)`.as('positive')])
        .where('post_id', 'in', postIds)
        .groupBy(['post_id', 'kind'])
        .execute();
      for (const r of reactions) {
        const agg = result.get(r.post_id)!;
        if (r.kind === 'like') agg.likes = Number(r.count);
        else {
          agg.votesUp = Number(r.positive);
          agg.votesDown = Number(r.count) - Number(r.positive);
        }
      }
      const replies = await db
        .selectFrom('harbor_group_posts')
        .select((eb) => ['parent_post_id', eb.fn.countAll<number | string>().as('count')])
        .where('parent_post_id', 'in', postIds)
        .where('hidden_at', 'is', null)
        .groupBy('parent_post_id')
        .execute();
      for (const r of replies) result.get(r.parent_post_id!)!.replies = Number(r.count);
      return result;
    },

    findReaction(postId: string, agentId: string, kind: ReactionKind, trx: Executor = db): Promise<ReactionRow | undefined> {
      return trx.selectFrom('harbor_group_reactions').selectAll().where('post_id', '=', postId).where('agent_id', '=', agentId).where('kind', '=', kind).executeTakeFirst();
    },
    reactionsBy(agentId: string, postIds: string[]): Promise<ReactionRow[]> {
      if (postIds.length === 0) return Promise.resolve([]);
      return db.selectFrom('harbor_group_reactions').selectAll().where('agent_id', '=', agentId).where('post_id', 'in', postIds).execute();
    },
    /** false when the agent already has this reaction on the post (a concurrent duplicate). */
    async insertReaction(row: ReactionRow, trx: Executor = db): Promise<boolean> {
      const result = await trx
        .insertInto('harbor_group_reactions')
        .values(row)
        .onConflict((oc) => oc.columns(['post_id', 'agent_id', 'kind']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async countReactions(agentId: string, groupId: number, kind: ReactionKind, since: number, trx: Executor = db): Promise<WindowCount> {
      const row = await trx
        .selectFrom('harbor_group_reactions')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('created_at').as('oldest')])
        .where('agent_id', '=', agentId)
        .where('group_id', '=', groupId)
        .where('kind', '=', kind)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return toWindow(row);
    },

    findReportBy(postId: string, reporterId: string, trx: Executor = db): Promise<ReportRow | undefined> {
      return trx.selectFrom('harbor_group_reports').selectAll().where('post_id', '=', postId).where('reporter_agent_id', '=', reporterId).executeTakeFirst();
    },
    findReport(reportId: string): Promise<ReportRow | undefined> {
      return db.selectFrom('harbor_group_reports').selectAll().where('report_id', '=', reportId).executeTakeFirst();
    },
    /** false when the agent already reported the post (a concurrent duplicate). */
    async insertReport(row: ReportRow, trx: Executor = db): Promise<boolean> {
      const result = await trx
        .insertInto('harbor_group_reports')
        .values(row)
        .onConflict((oc) => oc.columns(['post_id', 'reporter_agent_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    listReports(filter: { state?: string; limit: number }): Promise<ReportRow[]> {
      let q = db.selectFrom('harbor_group_reports').selectAll().orderBy('created_at', 'asc').orderBy('report_id', 'asc').limit(filter.limit);
      if (filter.state !== undefined) q = q.where('state', '=', filter.state);
      return q.execute();
    },
    /** Decides the open reports of a post; returns how many were open. */
    async decideOpenReports(postId: string, state: string, at: number): Promise<number> {
      const result = await db.updateTable('harbor_group_reports').set({ state, decided_at: at }).where('post_id', '=', postId).where('state', '=', 'open').executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async updateReport(reportId: string, patch: Partial<ReportRow>): Promise<void> {
      await db.updateTable('harbor_group_reports').set(patch).where('report_id', '=', reportId).execute();
    },

    async insertModeration(row: ModerationRow): Promise<void> {
      await db.insertInto('harbor_group_moderation').values(row).execute();
    },
    async countIncidents(agentId: string): Promise<number> {
      const row = await db
        .selectFrom('harbor_group_moderation')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('author_agent_id', '=', agentId)
        .where('incident', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Deletes threads (a topic with its replies, reactions and reports) whose last post is at or before
     * `cutoff`; pinned topics stay and lose only their old replies. Returns the number of posts deleted.
     */
    async deleteStaleContent(cutoff: number): Promise<number> {
      const staleTopics = db.selectFrom('harbor_group_posts').select('post_id').where('parent_post_id', 'is', null).where('pinned', '=', 0).where('last_activity_at', '<=', cutoff);
      const replies = await db.deleteFrom('harbor_group_posts').where('parent_post_id', 'in', staleTopics).executeTakeFirst();
      const topics = await db.deleteFrom('harbor_group_posts').where('parent_post_id', 'is', null).where('pinned', '=', 0).where('last_activity_at', '<=', cutoff).executeTakeFirst();
      const pinnedReplies = await db
        .deleteFrom('harbor_group_posts')
        .where('parent_post_id', 'is not', null)
        .where('created_at', '<=', cutoff)
        .where('parent_post_id', 'in', db.selectFrom('harbor_group_posts').select('post_id').where('pinned', '=', 1))
        .executeTakeFirst();
      return Number(replies.numDeletedRows) + Number(topics.numDeletedRows) + Number(pinnedReplies.numDeletedRows);
    },
  };
}
export type GroupsRepo = ReturnType<typeof createGroupsRepo>;
