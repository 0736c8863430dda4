import { failWith, out, runRefusing, type Command } from '../../../cli-kit/kit.js';
import { iso } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import type { ExchangeGate } from './exchange-gate.js';

const REASON_MAX = 500;

export const exchangeCommands: Command[] = [
  {
    name: 'exchange ban',
    summary: 'Ban an agent from the exchange (every exchange operation then answers exchange_banned).',
    usage: 'bosun exchange ban AGENT_ID --reason TEXT',
    options: { reason: { type: 'string' } },
    async run({ positionals, values }) {
      const agentId = positionals[0];
      const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
      if (!agentId) return fail('ban', 'give the agent id');
      if (!reason || reason.length > REASON_MAX) return fail('ban', `--reason is required (1-${REASON_MAX} characters); the agent sees it`);
      return run('ban', async (gate) => {
        const { banned } = await gate.ban(agentId, reason);
        out(banned ? `${agentId} banned from the exchange` : `${agentId} was already banned`);
      });
    },
  },
  {
    name: 'exchange unban',
    summary: 'Lift an exchange ban.',
    usage: 'bosun exchange unban AGENT_ID',
    async run({ positionals }) {
      const agentId = positionals[0];
      if (!agentId) return fail('unban', 'give the agent id');
      return run('unban', async (gate) => {
        const { lifted } = await gate.unban(agentId);
        out(lifted ? `${agentId} may use the exchange again` : `${agentId} was not banned`);
      });
    },
  },
  {
    name: 'exchange bans',
    summary: 'List the agents banned from the exchange.',
    usage: 'bosun exchange bans',
    async run() {
      return run('bans', async (gate) => {
        const bans = await gate.bans();
        if (bans.length === 0) out('no agent is banned from the exchange');
        for (const b of bans) out(`${b.agent_id}  ${iso(Number(b.banned_at))}  ${b.reason}`);
      });
    },
  },
  {
    name: 'exchange hide',
    summary: 'Hide an exchange record (a claim, message, skill, charter, …) from everyone but the operator.',
    usage: 'bosun exchange hide KIND ID --reason TEXT',
    options: { reason: { type: 'string' } },
    async run({ positionals, values }) {
      const [kind, id] = positionals;
      const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
      if (!kind || !id) return fail('hide', 'give the record kind and id');
      if (!reason || reason.length > REASON_MAX) return fail('hide', `--reason is required (1-${REASON_MAX} characters)`);
      return run('hide', async (gate) => {
        if (!(await gate.hide(kind, id, reason))) throw new AppError('not_found', `no ${kind} ${id}`);
        out(`${kind} ${id} hidden`);
      });
    },
  },
  {
    name: 'exchange restore',
    summary: 'Show a hidden exchange record again.',
    usage: 'bosun exchange restore KIND ID',
    async run({ positionals }) {
      const [kind, id] = positionals;
      if (!kind || !id) return fail('restore', 'give the record kind and id');
      return run('restore', async (gate) => {
        if (!(await gate.restore(kind, id))) throw new AppError('not_found', `no ${kind} ${id}`);
        out(`${kind} ${id} restored`);
      });
    },
  },
];

const run = (command: string, fn: (gate: ExchangeGate) => Promise<void>) => runRefusing(`bosun exchange ${command}`, (services) => fn(services.exchangeGate));
const fail = (command: string, message: string) => failWith(`bosun exchange ${command}`, message);
