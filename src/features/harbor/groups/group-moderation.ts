import type { Clock } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { AuditService } from '../../audit/audit-service.js';
import { FIRST_OPERATOR_GROUP_ID } from './group-constants.js';
import { checkGroupText, MEMBERSHIP_STATES, REPORT_STATES, type HideReason } from './group-rules.js';
import type { GroupRow, GroupsRepo } from './groups-repo.js';

export type GroupActor = { kind: 'operator' | 'cli'; id?: string };

/** The operator's side of the groups (CLI): groups, join requests, reports and hiding posts. */
export function createGroupModeration(deps: { repo: GroupsRepo; clock: Clock; audit: AuditService }) {
  const { repo, clock, audit } = deps;
  return {
    async createGroup(input: { name: string; description: string }, actor: GroupActor) {
      const { name, description } = checkGroupText(input);
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
  };
}
