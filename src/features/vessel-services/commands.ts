import { AppError } from '../../platform/errors.js';
import { iso } from '../../platform/clock.js';
import { CLI_ACTOR, firstArgument, limitOption, optionalText, out, printRows, withBosun, type Command } from '../../cli-kit/kit.js';
import type { VesselServiceGrantRow } from './vessel-services-repo.js';

const agentArg = (positionals: string[]): string => firstArgument(positionals, 'the agent id');

function printGrant(g: VesselServiceGrantRow) {
  const state = g.revoked_at !== null ? `revoked ${iso(Number(g.revoked_at))}` : `until ${iso(Number(g.expires_at))}`;
  out(`${g.grant_id}  ${g.agent_id}  ${g.vessel_ref}${g.vsl_id ? ` (${g.vsl_id})` : ''}  granted ${iso(Number(g.granted_at))}  ${state}`);
}

export const vesselServiceCommands: Command[] = [
  {
    name: 'services grant',
    summary: 'Grant an agent the vessel services (snapshot and history) for one vessel, for N days. Audited.',
    usage: 'bosun services grant <agent_id> --vessel IMO:…|MMSI:…|vsl_id --days N',
    options: { vessel: { type: 'string' }, days: { type: 'string' } },
    async run({ positionals, values }) {
      const agentId = agentArg(positionals);
      if (typeof values.vessel !== 'string') throw new AppError('invalid_request', 'give --vessel IMO:<7 digits>, MMSI:<9 digits> or a vsl_id');
      const vessel = values.vessel;
      const days = Number(values.days);
      const grant = await withBosun(async (b) => {
        if (!(await b.ctx.services.agents.standing(agentId))) throw new AppError('not_found', `no agent ${agentId}`);
        return b.ctx.services.vesselServices.grant(agentId, vessel, days, CLI_ACTOR);
      });
      printGrant(grant);
      return 0;
    },
  },
  {
    name: 'services revoke',
    summary: "Revoke an agent's vessel service grants: of one vessel with --vessel, else all. Audited.",
    usage: 'bosun services revoke <agent_id> [--vessel IMO:…|MMSI:…|vsl_id]',
    options: { vessel: { type: 'string' } },
    async run({ positionals, values }) {
      const agentId = agentArg(positionals);
      const vessel = optionalText(values.vessel);
      const revoked = await withBosun((b) => b.ctx.services.vesselServices.revoke(agentId, vessel, CLI_ACTOR));
      out(revoked ? `revoked ${revoked} grant(s)` : 'no active grant matched');
      return revoked ? 0 : 1;
    },
  },
  {
    name: 'services list',
    summary: 'List vessel service grants (newest first), optionally of one agent.',
    usage: 'bosun services list [--agent AGENT_ID] [--limit N]',
    options: { agent: { type: 'string' }, limit: { type: 'string', default: '50' } },
    async run({ values }) {
      const limit = limitOption(values.limit, 500);
      const rows = await withBosun((b) => b.ctx.services.vesselServices.list({ agentId: optionalText(values.agent), limit }));
      return printRows(rows, printGrant, 'no vessel service grants');
    },
  },
];
