import { AppError } from '../../platform/errors.js';
import { CLI_ACTOR, firstArgument, limitOption, optionalText, out, printRows, withBosun, type Command } from '../../cli-kit/kit.js';
import { operatorTicketView, type OperatorStep } from './feedback-service.js';

const ticketId = (positionals: string[]): string => firstArgument(positionals, 'the ticket id');

function printTicket(view: ReturnType<typeof operatorTicketView>, full = false) {
  out(`${view.ticket_id}  ${view.state}  ${view.kind}  ${view.subject.kind}:${view.subject.ref}  ${view.agent_id}  ${view.created_at}`);
  out(`  title: ${view.title}`);
  for (const c of view.changes) out(`  change: ${c.field} = ${JSON.stringify(c.value)}`);
  if (full) {
    out(`  body: ${view.body}`);
    for (const e of view.evidence) out(`  evidence: ${e}`);
    for (const o of view.overrides) out(`  override: ${o.field} = ${JSON.stringify(o.value)} applied ${o.applied_at}${o.reverted_at ? `, reverted ${o.reverted_at}` : ''}`);
  }
  if (view.public_response) out(`  public response: ${view.public_response}`);
  if (view.internal_note) out(`  internal note: ${view.internal_note}`);
}

const STEP_HELP: Record<OperatorStep, string> = {
  triage: 'Mark a ticket as seen (open → triaged).',
  accept: 'Accept a ticket (open or triaged → accepted); a correction is served only once applied.',
  reject: 'Reject a ticket with a public explanation (open, triaged or accepted → rejected).',
  apply: 'Apply an accepted correction: its values are served as overrides, flagged operator_corrected (accepted → applied).',
  revert: 'Revert an applied correction: the observed values are served again (applied → reverted).',
  close: 'Close a ticket without further action (open, triaged or accepted → closed).',
};

function stepCommand(step: OperatorStep): Command {
  const needsPublic = step === 'reject';
  return {
    name: `feedback ${step}`,
    summary: `${STEP_HELP[step]} The author sees --public; --note stays internal. Audited; the author gets a workspace event.`,
    usage: `bosun feedback ${step} <ticket_id> ${needsPublic ? '--public TEXT' : '[--public TEXT]'} [--note TEXT]`,
    options: { public: { type: 'string' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = ticketId(positionals);
      const publicResponse = optionalText(values.public);
      if (needsPublic && (publicResponse === undefined || publicResponse.trim() === '')) throw new AppError('invalid_request', 'give --public TEXT: the author is told why');
      const view = await withBosun((b) => b.ctx.services.feedback.step(id, step, { publicResponse, internalNote: optionalText(values.note) }, CLI_ACTOR));
      printTicket(view, true);
      return 0;
    },
  };
}

export const feedbackCommands: Command[] = [
  {
    name: 'feedback list',
    summary: 'List feedback tickets (newest first), optionally by state and kind.',
    usage: 'bosun feedback list [--state open|triaged|accepted|rejected|applied|reverted|closed] [--kind correction|request_data|propose_metric] [--limit N]',
    options: { state: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const limit = limitOption(values.limit, 500);
      const rows = await withBosun((b) => b.ctx.services.feedback.listForOperator({ state: optionalText(values.state), kind: optionalText(values.kind), limit }));
      return printRows(rows, (row) => printTicket(operatorTicketView(row)), 'no feedback tickets');
    },
  },
  {
    name: 'feedback show',
    summary: 'Show one feedback ticket with its body, evidence, overrides and internal note.',
    usage: 'bosun feedback show <ticket_id>',
    async run({ positionals }) {
      const id = ticketId(positionals);
      printTicket(await withBosun((b) => b.ctx.services.feedback.findForOperator(id)), true);
      return 0;
    },
  },
  ...(['triage', 'accept', 'reject', 'apply', 'revert', 'close'] as const).map(stepCommand),
];
