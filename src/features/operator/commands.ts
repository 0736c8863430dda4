import { AppError } from '../../platform/errors.js';
import { err, firstArgument, out, printRows, readSecret, withBosun, type Command } from '../../cli-kit/kit.js';
import { iso } from '../../platform/clock.js';
import { cliIo } from '../../cli-kit/io.js';

export const operatorCommands: Command[] = [
  {
    name: 'operator set-password',
    summary: 'Set the operator password (prompted, or read from standard input).',
    usage: 'bosun operator set-password\n\nPrompts twice on a terminal; otherwise reads the password from standard input (at least 12 characters).',
    async run() {
      const password = await readSecret('operator password: ');
      if (cliIo().stdin.isTTY) {
        const again = await readSecret('repeat password: ');
        if (again !== password) {
          err('passwords differ; nothing changed');
          return 1;
        }
      }
      await withBosun((b) => b.ctx.services.operator.setPassword(password));
      out('operator password set');
      return 0;
    },
  },
  {
    name: 'operator token',
    summary: 'Issue an operator token for the CLI and automation (printed once).',
    usage: 'bosun operator token [--label NAME]',
    options: { label: { type: 'string', default: 'cli' } },
    async run({ values }) {
      const { token, prefix } = await withBosun((b) => b.ctx.services.operator.issueToken(String(values.label)));
      err(`operator token ${prefix}… issued; it is shown only now. Use it as "Authorization: Bearer <token>".`);
      out(token);
      return 0;
    },
  },
  {
    name: 'operator tokens',
    summary: 'List operator tokens (prefixes only).',
    usage: 'bosun operator tokens',
    async run() {
      const rows = await withBosun((b) => b.ctx.services.operator.listTokens());
      for (const r of rows) out(`${r.token_prefix}…  ${r.label}  created ${iso(r.created_at)}${r.revoked_at ? '  REVOKED' : ''}`);
      return 0;
    },
  },
  {
    name: 'operator revoke-token',
    summary: 'Revoke an operator token by its prefix.',
    usage: 'bosun operator revoke-token <prefix>',
    async run({ positionals }) {
      const prefix = firstArgument(positionals, 'the token prefix (see bosun operator tokens)');
      const ok = await withBosun((b) => b.ctx.services.operator.revokeToken(prefix));
      out(ok ? 'revoked' : 'no active token with that prefix');
      return ok ? 0 : 1;
    },
  },
  {
    name: 'operator console-locks',
    summary: 'List console sign-in locks and failure streaks (per client address or known browser).',
    usage: 'bosun operator console-locks\n\nAddresses are shown redacted, as in the audit log; clear them with bosun operator unlock-console.',
    async run() {
      const locks = await withBosun((b) => b.ctx.services.consoleSessions.locks());
      const printLock = (l: (typeof locks)[number]) =>
        out(`${l.kind} ${l.label}  ${l.failures} failed  ${l.locked_until ? `LOCKED until ${l.locked_until}` : 'not locked'}  last failure ${l.last_failure_at}`);
      return printRows(locks, printLock, 'no console sign-in failures on record');
    },
  },
  {
    name: 'operator unlock-console',
    summary: 'Clear the console sign-in lock of one client address, or of every address and browser.',
    usage: 'bosun operator unlock-console --address <ip>\nbosun operator unlock-console --all\n\nAn IPv6 address clears its /64. Audited.',
    options: { address: { type: 'string' }, all: { type: 'boolean' } },
    async run({ values }) {
      const address = values.address === undefined ? undefined : String(values.address);
      if ((address === undefined) === !values.all) throw new AppError('invalid_request', 'give either --address <ip> or --all');
      const cleared = await withBosun((b) => b.ctx.services.consoleSessions.unlock(address === undefined ? { all: true } : { address }));
      out(cleared === 0 ? 'nothing to clear' : `cleared ${cleared} lock${cleared === 1 ? '' : 's'}`);
      return 0;
    },
  },
];
