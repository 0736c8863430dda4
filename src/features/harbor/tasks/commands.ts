import { AppError } from '../../../platform/errors.js';
import { CLI_ACTOR, limitOption, optionalText, out, printRows, withBosun, type Command } from '../../../cli-kit/kit.js';
import type { ProductionTaskRow } from './production-tasks-repo.js';
import { operatorTaskView, PRODUCTION_TASK_STATES, TASK_ACTION_SCOPES, type ProductionMessageView } from './production-tasks-service.js';

const TASK_SCOPES = [...new Set(['harbor:task:read', ...Object.values(TASK_ACTION_SCOPES)])];

function positional(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (!value) throw new AppError('invalid_request', `give the ${what}`);
  return value;
}

function requiredText(value: string | boolean | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid_request', `give --${option} TEXT`);
  return value;
}

function printTask(row: ProductionTaskRow) {
  const view = operatorTaskView(row);
  out(`${view.task_id}  ${view.state}  assignee ${view.assignee_agent_id ?? '-'}  by ${view.created_by}  ${view.created_at}`);
  out(`  title: ${view.title}`);
  if (view.vessel) out(`  vessel: ${view.vessel}`);
  if (view.result) out(`  result: ${view.result}`);
}

function printMessages(messages: ProductionMessageView[], count: number) {
  out(`  messages (${count}):`);
  for (const m of messages) out(`    ${m.created_at}  ${m.author}: ${m.body}`);
}

/** Tells the operator which task scopes the assignee still needs to act on its task. */
async function scopeHint(agentId: string | null, describe: (id: string) => Promise<{ scopes: string[] }>) {
  if (!agentId) return;
  const { scopes } = await describe(agentId);
  const missing = TASK_SCOPES.filter((s) => !scopes.includes(s));
  if (missing.length) out(`  note: ${agentId} lacks ${missing.join(', ')}; grant them with bosun agents grant`);
}

export const taskCommands: Command[] = [
  {
    name: 'harbor tasks create',
    summary: 'Create a production task (closed canary), optionally about one vessel, and assign it to an agent.',
    usage: 'bosun harbor tasks create --title TEXT --description TEXT [--vessel IMO:n|MMSI:n] [--assign <agent_id>]',
    options: { title: { type: 'string' }, description: { type: 'string' }, vessel: { type: 'string' }, assign: { type: 'string' } },
    async run({ values }) {
      const input = {
        title: requiredText(values.title, 'title'),
        description: requiredText(values.description, 'description'),
        vessel: optionalText(values.vessel),
        assignee: optionalText(values.assign),
      };
      await withBosun(async (b) => {
        const row = await b.ctx.services.harborTasks.createByOperator(input, CLI_ACTOR);
        printTask(row);
        await scopeHint(row.assignee_id, (id) => b.ctx.services.agents.describe(id));
      });
      return 0;
    },
  },
  {
    name: 'harbor tasks list',
    summary: 'List production tasks (newest first), optionally by state.',
    usage: `bosun harbor tasks list [--state ${PRODUCTION_TASK_STATES.join('|')}] [--limit N]`,
    options: { state: { type: 'string' }, limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const limit = limitOption(values.limit);
      const rows = await withBosun((b) => b.ctx.services.harborTasks.listForOperator({ state: optionalText(values.state), limit }));
      return printRows(rows, printTask, 'no tasks');
    },
  },
  {
    name: 'harbor tasks show',
    summary: 'Show one production task with its description and messages.',
    usage: 'bosun harbor tasks show <id>',
    async run({ positionals }) {
      const { row, messages, messageCount } = await withBosun((b) => b.ctx.services.harborTasks.showForOperator(positional(positionals, 0, 'task id')));
      printTask(row);
      out(`  description: ${row.description}`);
      printMessages(messages, messageCount);
      return 0;
    },
  },
  {
    name: 'harbor tasks assign',
    summary: 'Assign (or reassign) a live task to an agent; the agent must accept it, a previous assignee loses access.',
    usage: 'bosun harbor tasks assign <id> <agent_id>',
    async run({ positionals }) {
      const id = positional(positionals, 0, 'task id');
      const agentId = positional(positionals, 1, 'agent id');
      await withBosun(async (b) => {
        printTask(await b.ctx.services.harborTasks.assign(id, agentId, CLI_ACTOR));
        await scopeHint(agentId, (a) => b.ctx.services.agents.describe(a));
      });
      return 0;
    },
  },
  {
    name: 'harbor tasks cancel',
    summary: 'Cancel a live production task.',
    usage: 'bosun harbor tasks cancel <id>',
    async run({ positionals }) {
      const row = await withBosun((b) => b.ctx.services.harborTasks.cancel(positional(positionals, 0, 'task id'), CLI_ACTOR));
      printTask(row);
      return 0;
    },
  },
  {
    name: 'harbor tasks message',
    summary: 'Post an operator message on a live production task (its creator and assignee read it).',
    usage: 'bosun harbor tasks message <id> --body TEXT',
    options: { body: { type: 'string' } },
    async run({ positionals, values }) {
      const id = positional(positionals, 0, 'task id');
      const body = requiredText(values.body, 'body');
      const { row, messages, messageCount } = await withBosun((b) => b.ctx.services.harborTasks.messageByOperator(id, body, CLI_ACTOR));
      printTask(row);
      printMessages(messages, messageCount);
      return 0;
    },
  },
];
