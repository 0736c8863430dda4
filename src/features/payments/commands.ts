import { err, firstArgument, optionalText, out, printRows, withBosun, type Command } from '../../cli-kit/kit.js';
import { AppError } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';

export const paymentCommands: Command[] = [
  {
    name: 'payments list',
    summary: 'List payment intents (newest first), e.g. those waiting in manual_review.',
    usage: 'bosun payments list [--state manual_review] [--limit N]',
    options: { state: { type: 'string' }, limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const { proofFlags } = await import('./payments-service.js');
      const rows = await withBosun((b) => b.ctx.services.payments.listForOperator({ state: optionalText(values.state), limit: Number(values.limit) }));
      const printIntent = (row: (typeof rows)[number]) => {
        out(`${row.payment_id}  ${row.state}  ${row.purpose}  ${row.amount ?? 'pay_what_you_want'} via ${row.rail_id}  agent ${row.agent_id}  ${iso(row.created_at)}`);
        if (row.proof) out(`  proof: ${row.proof}`);
        const flags = proofFlags(row);
        if (flags.length) out(`  WARNING: ${flags.join(', ')}: the proof names another amount than the intent; confirming needs --accept-mismatch`);
      };
      return printRows(rows, printIntent, 'no payment intents');
    },
  },
  {
    name: 'payments review',
    summary:
      'Decide a proof in manual_review after checking it yourself: --confirm records it, --reject refuses it. A proof flagged amount_mismatch is confirmed only with --accept-mismatch. Nothing is delivered automatically.',
    usage: 'bosun payments review <payment_id> (--confirm [--accept-mismatch] | --reject) [--note TEXT]',
    options: { confirm: { type: 'boolean' }, reject: { type: 'boolean' }, 'accept-mismatch': { type: 'boolean' }, note: { type: 'string' } },
    async run({ positionals, values }) {
      const id = firstArgument(positionals, 'the payment id');
      if (Boolean(values.confirm) === Boolean(values.reject)) throw new AppError('invalid_request', 'give exactly one of --confirm or --reject');
      const row = await withBosun((b) =>
        b.ctx.services.payments.review(id, values.confirm ? 'confirm' : 'reject', typeof values.note === 'string' ? values.note : null, {
          acceptMismatch: Boolean(values['accept-mismatch']),
        }),
      );
      if (row.flags.length && row.state !== 'rejected') err(`warning: confirmed despite ${row.flags.join(', ')} (--accept-mismatch)`);
      out(`${row.payment_id} is now ${row.state}`);
      return 0;
    },
  },
];
