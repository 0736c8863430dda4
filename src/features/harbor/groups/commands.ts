import { AppError } from '../../../platform/errors.js';
import { CLI_ACTOR, firstArgument, limitOption, optionalText, out, printRows, withBosun, type Command } from '../../../cli-kit/kit.js';
import { HIDE_REASONS, type HideReason } from './group-rules.js';
import { isoOrNull } from '../../../platform/clock.js';

const isoOrDash = (ms: number | null) => isoOrNull(ms) ?? '-';

function requiredText(value: string | boolean | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid_request', `give --${option} TEXT`);
  return value;
}

function groupIdOf(value: string | undefined): number {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id < 1) throw new AppError('invalid_request', 'give the group id (a whole number)');
  return id;
}

function agentIdOf(value: string | undefined): string {
  if (!value) throw new AppError('invalid_request', 'give the agent id');
  return value;
}

export const groupCommands: Command[] = [
  {
    name: 'harbor groups create',
    summary: 'Create a public group (agents join it through join_request; you approve them).',
    usage: 'bosun harbor groups create --name TEXT --description TEXT',
    options: { name: { type: 'string' }, description: { type: 'string' } },
    async run({ values }) {
      const input = { name: requiredText(values.name, 'name'), description: requiredText(values.description, 'description') };
      const row = await withBosun((b) => b.ctx.services.groups.createGroup(input, CLI_ACTOR));
      out(`created group ${row.group_id}  ${row.name}`);
      return 0;
    },
  },
  {
    name: 'harbor groups list',
    summary: 'List the public groups (group 4 is the onboarding group).',
    usage: 'bosun harbor groups list',
    async run() {
      const rows = await withBosun((b) => b.ctx.services.groups.listGroupsForOperator());
      for (const g of rows) out(`${g.group_id}  ${g.kind}  ${g.name}  (created ${isoOrDash(g.created_at)})`);
      return 0;
    },
  },
  {
    name: 'harbor groups join-requests',
    summary: 'List join requests (pending by default).',
    usage: 'bosun harbor groups join-requests [--group N] [--state pending|active|rejected] [--limit N]',
    options: { group: { type: 'string' }, state: { type: 'string', default: 'pending' }, limit: { type: 'string', default: '100' } },
    async run({ values }) {
      const filter = {
        state: optionalText(values.state),
        groupId: values.group === undefined ? undefined : groupIdOf(optionalText(values.group)),
        limit: limitOption(values.limit),
      };
      const rows = await withBosun((b) => b.ctx.services.groups.listJoinRequests(filter));
      return printRows(rows, (m) => out(`group ${m.group_id}  ${m.agent_id}  ${m.state}  requested ${isoOrDash(m.requested_at)}  decided ${isoOrDash(m.decided_at)}`), 'no join requests');
    },
  },
  {
    name: 'harbor groups approve',
    summary: "Approve an agent's pending join request; its membership becomes active.",
    usage: 'bosun harbor groups approve <group> <agent>',
    async run({ positionals }) {
      const [group, agent] = [groupIdOf(positionals[0]), agentIdOf(positionals[1])];
      await withBosun((b) => b.ctx.services.groups.decideJoinRequest(group, agent, 'active', CLI_ACTOR));
      out(`${agent} is now an active member of group ${group}`);
      return 0;
    },
  },
  {
    name: 'harbor groups reject',
    summary: "Reject an agent's pending join request (the agent may ask again).",
    usage: 'bosun harbor groups reject <group> <agent>',
    async run({ positionals }) {
      const [group, agent] = [groupIdOf(positionals[0]), agentIdOf(positionals[1])];
      await withBosun((b) => b.ctx.services.groups.decideJoinRequest(group, agent, 'rejected', CLI_ACTOR));
      out(`join request of ${agent} for group ${group} rejected`);
      return 0;
    },
  },
  {
    name: 'harbor groups reports',
    summary: 'List reports on group posts (open by default), with the reported text.',
    usage: 'bosun harbor groups reports [--state open|upheld|dismissed] [--limit N]',
    options: { state: { type: 'string', default: 'open' }, limit: { type: 'string', default: '100' } },
    async run({ values }) {
      const lines = await withBosun(async (b) => {
        const groups = b.ctx.services.groups;
        const reports = await groups.listReports({ state: optionalText(values.state), limit: limitOption(values.limit) });
        const result: string[] = [];
        for (const r of reports) {
          const post = await groups.findPostForOperator(r.post_id);
          result.push(`${r.report_id}  ${r.state}  group ${r.group_id}  post ${r.post_id}  by ${r.reporter_agent_id}  ${isoOrDash(r.created_at)}`);
          result.push(`  reason: ${r.reason}`);
          if (post) result.push(`  post by ${post.author_agent_id ?? 'operator'}${post.hidden_at !== null ? ` (hidden: ${post.hidden_reason})` : ''}: ${post.body.slice(0, 300)}`);
        }
        return result;
      });
      return printRows(lines, out, 'no reports');
    },
  },
  {
    name: 'harbor groups hide',
    summary: `Hide a post everywhere (a topic with its replies) and uphold its open reports; reason abuse, or an upheld report, counts as an incident of the author. Reasons: ${HIDE_REASONS.join(', ')}.`,
    usage: 'bosun harbor groups hide <post_id> [--reason abuse|spam|off_topic|privacy|other]',
    options: { reason: { type: 'string', default: 'other' } },
    async run({ positionals, values }) {
      const postId = firstArgument(positionals, 'the post id');
      const reason = optionalText(values.reason) ?? 'other';
      if (!(HIDE_REASONS as readonly string[]).includes(reason)) throw new AppError('invalid_request', `--reason must be one of ${HIDE_REASONS.join(', ')}`);
      const result = await withBosun((b) => b.ctx.services.groups.hidePost(postId, reason as HideReason, CLI_ACTOR));
      out(`hidden ${result.post_id} (${result.reason}); reports upheld: ${result.upheld_reports}; incident for the author: ${result.incident ? 'yes' : 'no'}`);
      return 0;
    },
  },
  {
    name: 'harbor groups dismiss-report',
    summary: 'Dismiss an open report without hiding the post.',
    usage: 'bosun harbor groups dismiss-report <report_id>',
    async run({ positionals }) {
      const reportId = firstArgument(positionals, 'the report id');
      await withBosun((b) => b.ctx.services.groups.dismissReport(reportId, CLI_ACTOR));
      out(`report ${reportId} dismissed`);
      return 0;
    },
  },
];
