import type { Clock } from '../../../platform/clock.js';
import type { Caller, EffectiveState } from '../../../access/principals.js';
import { AppError } from '../../../platform/errors.js';
import type { AgentsService } from '../../agents/agents-service.js';
import type { AuditService } from '../../audit/audit-service.js';
import type { ExchangeBan, ExchangeGateRepo } from './exchange-gate-repo.js';

export interface ExchangeMember {
  agentId: string;
  state: EffectiveState;
  scopes: ReadonlySet<string>;
}

/** How the operator hides and restores one kind of exchange record (claims, messages, skills, …); each feature registers its kinds. */
export interface ModeratedKind {
  /** Hides the record from every listing, stream and read except the operator's; false when no such record exists. */
  hide(id: string, reason: string): Promise<boolean>;
  /** Shows a hidden record again; false when no such record exists. */
  restore(id: string): Promise<boolean>;
}

/** Who moderates: the CLI (default) or the operator console; the audit log records it. */
export type ModerationActor = { kind: 'cli' | 'operator' };
const CLI: ModerationActor = { kind: 'cli' };

/**
 * The rules every exchange operation shares (docs/exchange.md): who is a member (an agent the
 * operator has not banned), which agents are linked, and the operator's moderation (bans, hiding
 * records of any registered kind), each audited.
 */
export function createExchangeGate(deps: { repo: ExchangeGateRepo; agents: AgentsService; audit: AuditService; clock: Clock }) {
  const { repo, agents, audit, clock } = deps;
  const kinds = new Map<string, ModeratedKind>();
  const banListeners: Array<(agentId: string) => Promise<void>> = [];

  function moderatedKind(kind: string): ModeratedKind {
    const found = kinds.get(kind);
    if (!found) throw new AppError('invalid_request', `unknown exchange record kind "${kind}"; known: ${[...kinds.keys()].sort().join(', ') || 'none'}`, { field: 'kind' });
    return found;
  }

  return {
    /** The calling agent as an exchange member: auth_required for anonymous callers, agent_key_required for the operator, exchange_banned for banned agents. */
    async member(caller: Caller): Promise<ExchangeMember> {
      if (caller.kind === 'anonymous') throw new AppError('auth_required', 'the exchange needs an agent API key');
      if (caller.kind !== 'agent') throw new AppError('agent_key_required', 'exchange operations act as an agent; use an agent API key');
      const ban = await repo.findBan(caller.agent.agentId);
      if (ban) throw new AppError('exchange_banned', `the operator banned this agent from the exchange: ${ban.reason}`);
      return { agentId: caller.agent.agentId, state: caller.agent.state, scopes: caller.agent.scopes };
    },

    async isBanned(agentId: string): Promise<boolean> {
      return (await repo.findBan(agentId)) !== undefined;
    },

    /** Registered from the same redacted network within 24 hours of each other (the harbor's rule, agents.linked). */
    async linked(a: string, b: string): Promise<boolean> {
      return a === b || agents.linked(a, b);
    },

    /** Refuses with exchange_linked_agent_forbidden when the two agents are linked. */
    async assertNotLinked(actorId: string, otherId: string, what: string): Promise<void> {
      if (actorId !== otherId && (await this.linked(actorId, otherId))) {
        throw new AppError('exchange_linked_agent_forbidden', `you and the other agent registered from the same network within 24 hours; linked agents cannot ${what}`);
      }
    },

    async ban(agentId: string, reason: string, actor: ModerationActor = CLI): Promise<{ banned: boolean }> {
      if (!(await agents.standing(agentId))) throw new AppError('not_found', `no agent ${agentId}`);
      const banned = await repo.insertBan({ agent_id: agentId, reason, banned_at: clock.now() });
      if (banned) {
        await audit.record({ actor, action: 'exchange.ban', target: agentId, details: { reason } });
        for (const listener of banListeners) await listener(agentId);
      }
      return { banned };
    },

    async unban(agentId: string, actor: ModerationActor = CLI): Promise<{ lifted: boolean }> {
      const lifted = await repo.deleteBan(agentId);
      if (lifted) await audit.record({ actor, action: 'exchange.unban', target: agentId });
      return { lifted };
    },

    async bans(): Promise<ExchangeBan[]> {
      return repo.listBans();
    },

    /** Called once per record kind at composition; a kind registered twice is a wiring error. */
    registerKind(kind: string, handler: ModeratedKind): void {
      if (kinds.has(kind)) throw new Error(`exchange record kind ${kind} registered twice`);
      kinds.set(kind, handler);
    },

    /** Called after a ban took effect (the message streams close the agent's open streams); registered at composition. */
    onBan(listener: (agentId: string) => Promise<void>): void {
      banListeners.push(listener);
    },

    kinds(): string[] {
      return [...kinds.keys()].sort();
    },

    async hide(kind: string, id: string, reason: string, actor: ModerationActor = CLI): Promise<boolean> {
      const hidden = await moderatedKind(kind).hide(id, reason);
      if (hidden) await audit.record({ actor, action: 'exchange.hide', target: `${kind}:${id}`, details: { reason } });
      return hidden;
    },

    async restore(kind: string, id: string, actor: ModerationActor = CLI): Promise<boolean> {
      const restored = await moderatedKind(kind).restore(id);
      if (restored) await audit.record({ actor, action: 'exchange.restore', target: `${kind}:${id}` });
      return restored;
    },
  };
}

export type ExchangeGate = ReturnType<typeof createExchangeGate>;
