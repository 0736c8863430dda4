import { LIFECYCLE_TARGETS, type LifecycleTarget } from './agents-service.js';
import { AppError } from '../../platform/errors.js';
import { CLI_ACTOR, err, firstArgument, out, withBosun, type Command } from '../../cli-kit/kit.js';
import { iso } from '../../platform/clock.js';

export const agentCommands: Command[] = [
  {
    name: 'agents list',
    summary: 'List agents (newest first).',
    usage: 'bosun agents list [--limit N] [--state STATE]',
    options: { limit: { type: 'string', default: '50' }, state: { type: 'string' } },
    async run({ values }) {
      const rows = await withBosun((b) => b.ctx.services.agents.list({ limit: Number(values.limit), state: values.state as string | undefined }));
      for (const r of rows) out(`${r.agent_id}  ${r.state}${r.revoked_at ? ' (revoked)' : ''}  ${r.name}  ${r.key_prefix}…  ${iso(r.created_at)}`);
      return 0;
    },
  },
  {
    name: 'agents show',
    summary: 'Show one agent: state, key prefix and its scopes (who granted each, until when).',
    usage: 'bosun agents show <agent_id> [--json]',
    options: { json: { type: 'boolean' } },
    async run({ positionals, values }) {
      const id = firstArgument(positionals, 'the agent id');
      const agent = await withBosun((b) => b.ctx.services.agents.describe(id));
      if (values.json) {
        out(JSON.stringify(agent, null, 2));
        return 0;
      }
      out(`${agent.agent_id}  ${agent.name}  ${agent.state}  key ${agent.key_prefix}…  registered ${agent.created_at}`);
      if (agent.sandbox_expires_at) out(`  sandbox until ${agent.sandbox_expires_at}`);
      if (agent.trial_expires_at) out(`  trial until ${agent.trial_expires_at}`);
      out(`  scopes: ${agent.scopes.join(', ')}`);
      for (const g of agent.scope_grants) out(`    ${g.scope}  granted by ${g.granted_by} at ${g.granted_at}${g.expires_at ? `, until ${g.expires_at}` : ''}`);
      return 0;
    },
  },
  {
    name: 'agents rotate-key',
    summary: "Replace an agent's API key; the old key stops working at once. Prints the new key once.",
    usage: 'bosun agents rotate-key <agent_id>',
    async run({ positionals }) {
      const id = firstArgument(positionals, 'the agent id');
      const { apiKey } = await withBosun((b) => b.ctx.services.agents.rotateKey(id, CLI_ACTOR));
      err(`new key for ${id}; shown only now`);
      out(apiKey);
      return 0;
    },
  },
  {
    name: 'agents revoke',
    summary: 'Revoke an agent: its key stops working.',
    usage: 'bosun agents revoke <agent_id> [--reason TEXT]',
    options: { reason: { type: 'string', default: 'revoked by operator' } },
    async run({ positionals, values }) {
      const id = firstArgument(positionals, 'the agent id');
      await withBosun((b) => b.ctx.services.agents.revoke(id, CLI_ACTOR, String(values.reason)));
      out(`revoked ${id}`);
      return 0;
    },
  },
  {
    name: 'agents grant',
    summary: 'Grant a scope to one or more agents (optionally for N days), e.g. vessels:live for live vessel data.',
    usage: 'bosun agents grant <agent_id> [<agent_id>…] <scope> [--days N]',
    options: { days: { type: 'string' } },
    async run({ positionals, values }) {
      const scope = positionals.at(-1);
      const ids = positionals.slice(0, -1);
      if (!scope || ids.length === 0) throw new AppError('invalid_request', 'give the agent id(s) and the scope');
      const days = values.days === undefined ? undefined : Number(values.days);
      await withBosun(async (b) => {
        for (const id of ids) {
          const grant = await b.ctx.services.agents.grantScope(id, scope, CLI_ACTOR, days);
          out(`granted ${grant.scope} to ${id}${grant.expires_at ? ` until ${grant.expires_at}` : ''}`);
        }
      });
      return 0;
    },
  },
  {
    name: 'agents lifecycle',
    summary: 'Move an agent to a 7-day trial, or to trusted / operator_approved; this ends its sandbox and its automatic sandbox scopes (operator grants stay).',
    usage: 'bosun agents lifecycle <agent_id> trial|trusted|operator_approved',
    async run({ positionals }) {
      const [id, target] = positionals;
      if (!id || !LIFECYCLE_TARGETS.includes(target as LifecycleTarget)) {
        throw new AppError('invalid_request', `give the agent id and one of ${LIFECYCLE_TARGETS.join(', ')}`);
      }
      const moved = await withBosun((b) => b.ctx.services.agents.setLifecycle(id, target as LifecycleTarget, CLI_ACTOR));
      out(`${id}: ${moved.from} → ${moved.to}${moved.trial_expires_at ? ` until ${moved.trial_expires_at}` : ''}`);
      return 0;
    },
  },
  {
    name: 'agents revoke-scope',
    summary: 'Remove a scope from an agent.',
    usage: 'bosun agents revoke-scope <agent_id> <scope>',
    async run({ positionals }) {
      const [id, scope] = positionals;
      if (!id || !scope) throw new AppError('invalid_request', 'give the agent id and the scope');
      const removed = await withBosun((b) => b.ctx.services.agents.revokeScope(id, scope, CLI_ACTOR));
      out(removed ? `removed ${scope} from ${id}` : `${id} did not hold ${scope}`);
      return 0;
    },
  },
];
