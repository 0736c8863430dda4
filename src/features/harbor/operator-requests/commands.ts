import { AppError } from '../../../platform/errors.js';
import { CLI_ACTOR, firstArgument, optionalText, out, printRows, withBosun, type Command } from '../../../cli-kit/kit.js';
import type { OperatorRequestRow } from './operator-requests-repo.js';

const requestId = (positionals: string[]): string => firstArgument(positionals, 'the request id');

function requiredText(value: string | boolean | undefined, option: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new AppError('invalid_request', `give --${option} TEXT`);
  return value;
}

async function printRequests(rows: OperatorRequestRow[]): Promise<0> {
  // the service module loads the store layer: imported when a command prints, not when the CLI starts
  const { operatorView } = await import('./operator-requests-service.js');
  return printRows(rows, (row) => printRequest(operatorView(row)), 'no operator requests');
}

function printRequest(view: ReturnType<typeof import('./operator-requests-service.js').operatorView>) {
  out(`${view.id}  ${view.state}  ${view.category}  ${view.agent_id}  ${view.created_at}`);
  out(`  subject: ${view.subject}`);
  if (view.requested_scopes.length) out(`  requested scopes: ${view.requested_scopes.join(', ')}`);
  if (view.granted_scopes.length) out(`  granted scopes: ${view.granted_scopes.join(', ')}`);
  if (view.public_response) out(`  public response: ${view.public_response}`);
  if (view.internal_note) out(`  internal note: ${view.internal_note}`);
}

export const operatorRequestCommands: Command[] = [
  {
    name: 'harbor requests list',
    summary: 'List operator requests from agents (newest first), optionally by state.',
    usage: 'bosun harbor requests list [--state open|answered|approved|rejected|closed] [--limit N]',
    options: { state: { type: 'string' }, limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const rows = await withBosun((b) => b.ctx.services.operatorRequests.listForOperator({ state: optionalText(values.state), limit: Number(values.limit) }));
      return printRequests(rows);
    },
  },
  {
    name: 'harbor requests show',
    summary: 'Show one operator request with its body and internal note.',
    usage: 'bosun harbor requests show <id>',
    async run({ positionals }) {
      const row = await withBosun((b) => b.ctx.services.operatorRequests.findForOperator(requestId(positionals)));
      await printRequests([row]);
      out(`  body: ${row.body}`);
      return 0;
    },
  },
  {
    name: 'harbor requests respond',
    summary: 'Reply to an operator request (the agent sees --public; --note stays internal). The request becomes answered.',
    usage: 'bosun harbor requests respond <id> --public TEXT [--note TEXT]',
    options: { public: { type: 'string' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = requestId(positionals);
      const input = { publicResponse: requiredText(values.public, 'public'), internalNote: optionalText(values.note) };
      const row = await withBosun((b) => b.ctx.services.operatorRequests.respond(id, input, CLI_ACTOR));
      await printRequests([row]);
      return 0;
    },
  },
  {
    name: 'harbor requests approve',
    summary: 'Approve an operator request; for access_request this grants the requested scopes (fixed durations such as snapshot:read 7 days apply).',
    usage: 'bosun harbor requests approve <id> [--days N] [--public TEXT] [--note TEXT]',
    options: { days: { type: 'string' }, public: { type: 'string' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = requestId(positionals);
      const days = values.days === undefined ? undefined : Number(values.days);
      if (days !== undefined && (!Number.isInteger(days) || days < 1)) throw new AppError('invalid_request', '--days must be a whole number of days, at least 1');
      const input = { days, publicResponse: optionalText(values.public), internalNote: optionalText(values.note) };
      const { row } = await withBosun((b) => b.ctx.services.operatorRequests.approve(id, input, CLI_ACTOR));
      await printRequests([row]);
      return 0;
    },
  },
  {
    name: 'harbor requests reject',
    summary: 'Reject an operator request with a public explanation.',
    usage: 'bosun harbor requests reject <id> --public TEXT [--note TEXT]',
    options: { public: { type: 'string' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = requestId(positionals);
      const input = { publicResponse: requiredText(values.public, 'public'), internalNote: optionalText(values.note) };
      const row = await withBosun((b) => b.ctx.services.operatorRequests.reject(id, input, CLI_ACTOR));
      await printRequests([row]);
      return 0;
    },
  },
  {
    name: 'harbor requests close',
    summary: 'Close an operator request without a decision (e.g. resolved or withdrawn).',
    usage: 'bosun harbor requests close <id> [--public TEXT] [--note TEXT]',
    options: { public: { type: 'string' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = requestId(positionals);
      const input = { publicResponse: optionalText(values.public), internalNote: optionalText(values.note) };
      const row = await withBosun((b) => b.ctx.services.operatorRequests.close(id, input, CLI_ACTOR));
      await printRequests([row]);
      return 0;
    },
  },
];
