import { CLI_ACTOR, out, printRows, withBosun, type Command } from '../../../cli-kit/kit.js';
import { AppError } from '../../../platform/errors.js';
import { iso } from '../../../platform/clock.js';

export const trialCommands: Command[] = [
  {
    name: 'harbor trials grant',
    summary: 'Grant an agent the vessel snapshot trial: scope snapshot:read plus one vessel, for 7 days (replaces an earlier trial vessel).',
    usage: 'bosun harbor trials grant <agent_id> <IMO:nnnnnnn|MMSI:nnnnnnnnn|vsl_id>',
    async run({ positionals }) {
      const [agentId, vessel] = positionals;
      if (!agentId || !vessel) throw new AppError('invalid_request', 'give the agent id and the vessel');
      const { row } = await withBosun((b) => b.ctx.services.trials.grant(agentId, vessel, CLI_ACTOR));
      out(`${agentId}: snapshot trial for ${row.vessel_ref} until ${iso(row.expires_at)}`);
      return 0;
    },
  },
  {
    name: 'harbor trials list',
    summary: 'List snapshot trials, newest first.',
    usage: 'bosun harbor trials list [--limit N]',
    options: { limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const rows = await withBosun((b) => b.ctx.services.trials.list(Number(values.limit)));
      return printRows(rows, (r) => out(`${r.agent_id}  ${r.vessel_ref}  ${r.revoked_at !== null ? 'revoked' : 'until ' + iso(r.expires_at)}`), 'no snapshot trials');
    },
  },
  {
    name: 'harbor trials revoke',
    summary: "End an agent's snapshot trial now (also removes snapshot:read).",
    usage: 'bosun harbor trials revoke <agent_id>',
    async run({ positionals }) {
      const [agentId] = positionals;
      if (!agentId) throw new AppError('invalid_request', 'give the agent id');
      const revoked = await withBosun((b) => b.ctx.services.trials.revoke(agentId, CLI_ACTOR));
      out(revoked ? `${agentId}: trial revoked` : `${agentId} had no active trial`);
      return 0;
    },
  },
];
