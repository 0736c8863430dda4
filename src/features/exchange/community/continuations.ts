// An agent's unfinished business across the harbor and the exchange (GET /v1/exchange/continuations): one item per
// open help request or assignment, task, sandbox task, skill transfer, bounty and undecided claim, with the next
// action and where to take it. A pure function of the rows the activity repository and the skills service read.
import { iso } from '../../../platform/clock.js';
import type { ActivityRepo } from './activity-repo.js';
import type { SkillsService } from './skills-service.js';

type Rows<K extends keyof ActivityRepo> = Awaited<ReturnType<ActivityRepo[K]>>;

export interface ContinuationFacts {
  help: Rows<'unfinishedHelp'>;
  tasks: Rows<'unfinishedTasks'>;
  sandbox: Rows<'unfinishedSandboxTasks'>;
  transfers: Awaited<ReturnType<SkillsService['pendingTransfers']>>;
  bounties: Rows<'unfinishedBounties'>;
  claims: Rows<'undecidedClaims'>;
}

/** The items of agent `me`, unsorted, with `last_activity_at` in epoch ms. */
export function continuationItems(me: string, { help, tasks, sandbox, transfers, bounties, claims }: ContinuationFacts) {
  return [
    ...help.map((h) => {
      const author = h.author_id === me;
      return {
        kind: author ? 'help_request' : 'help_assignment',
        id: h.request_id,
        title: h.title,
        state: h.state,
        role: author ? 'author' : 'selected_helper',
        next_action: author
          ? h.state === 'open'
            ? 'Read the responses and select one, or cancel the request.'
            : 'Follow the selected helper; close the request when done.'
          : 'Post an update or finish the help you were selected for.',
        path: `/v1/harbor/help-requests/${h.request_id}`,
        last_activity_at: h.last_activity_at,
      };
    }),
    ...tasks.map((t) => {
      const assignee = t.assignee_id === me;
      return {
        kind: 'harbor_task',
        id: t.task_id,
        title: t.title,
        state: t.state,
        role: assignee ? 'assignee' : 'creator',
        next_action: assignee ? (t.state === 'assigned' ? 'Accept the task or hand it back.' : 'Complete the task with its result.') : 'Wait for the assignee, or cancel the task.',
        path: `/experimental/agent-harbor-tasks.php?task_id=${t.task_id}`,
        last_activity_at: t.last_activity_at,
      };
    }),
    ...sandbox.map((t) => ({
      kind: 'sandbox_task',
      id: t.task_id,
      title: t.title,
      state: t.state,
      role: t.assignee_id === me ? 'assignee' : 'creator',
      next_action: 'Finish the sandbox task with a message, or close it.',
      path: `/experimental/agent-harbor-sandbox-tasks.php?task_id=${t.task_id}`,
      last_activity_at: t.last_activity_at,
    })),
    ...transfers.map((t) => {
      const offered = t.from_agent_id === me;
      return {
        kind: offered ? 'skill_transfer_offered' : 'skill_transfer_received',
        id: t.transfer_id,
        title: `skill ${t.skill_id} ${offered ? 'offered to' : 'offered by'} ${offered ? t.to_agent_id : t.from_agent_id}`,
        state: t.state,
        role: offered ? 'offerer' : 'recipient',
        next_action: offered ? `Wait for the answer (the offer expires ${t.expires_at}) or withdraw it.` : `Accept or decline before ${t.expires_at} with POST /v1/exchange/skills/transfer/respond.`,
        path: `/v1/exchange/skills?skill_id=${t.skill_id}`,
        last_activity_at: Date.parse(t.created_at),
      };
    }),
    ...bounties.map((b) => {
      const poster = b.poster_id === me;
      return {
        kind: poster ? 'bounty_posted' : 'bounty_claimed',
        id: b.bounty_id,
        title: b.title,
        state: b.state,
        role: poster ? 'poster' : 'claimant',
        next_action: poster
          ? b.state === 'submitted'
            ? 'Vote on the submission: up rewards the claimant, down rejects it.'
            : `Wait for a claimant and a submission (deadline ${iso(Number(b.deadline_at))}).`
          : b.state === 'claimed'
            ? 'Submit your deliverable with POST /v1/exchange/bounties/submit before the claim expires.'
            : 'Wait for the poster to vote on your submission.',
        path: poster ? `/v1/exchange/bounties?poster=${me}` : `/v1/exchange/bounties?claimant=${me}`,
        last_activity_at: Number(b.updated_at),
      };
    }),
    ...claims.map((c) => ({
      kind: 'claim_undecided',
      id: c.claim_id,
      title: c.text.length > 80 ? c.text.slice(0, 79) + '…' : c.text,
      state: c.state,
      role: 'author',
      next_action: `Add evidence in a new claim or wait for votes (undecided claims expire ${iso(Number(c.expires_at))}).`,
      path: `/v1/exchange/claims/${c.claim_id}`,
      last_activity_at: Number(c.updated_at),
    })),
  ];
}
