import { HARBOR_LIMITS } from '../kit/harbor-contract.js';
import { harborText } from '../kit/text-rules.js';
import type { Clock } from '../../platform/clock.js';
import { isoOrNull, iso, DAY } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { AgentPrincipal, AgentState, EffectiveState } from '../../access/principals.js';
import type { AuditService } from '../audit/audit-service.js';
import { redactIp } from '../audit/redact-ip.js';
import type { AgentRow, AgentsRepo, ScopeRow } from './agents-repo.js';
import { PrincipalCache } from './principal-cache.js';
import { AGENT_KEY_PREFIX, displayPrefix, hashSecret, isWellFormedSecret, newId, newSecret, sameHash } from '../../access/credentials.js';
import { DEFAULT_SCOPES, EVERY_AGENT_SCOPES, GRANTABLE_SCOPES, SCOPE_BY_NAME } from '../../access/scopes.js';

export const SANDBOX_DAYS = HARBOR_LIMITS.sandboxExpiryDays;
export const TRIAL_DAYS = HARBOR_LIMITS.trialDays;

export interface ScopeGrant {
  scope: string;
  granted_by: string;
  granted_at: string;
  expires_at: string | null;
}

export function effectiveState(row: AgentRow, now: number): EffectiveState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.state === 'sandbox' && row.sandbox_expires_at !== null && now >= row.sandbox_expires_at) return 'sandbox_expired';
  if (row.state === 'trial' && row.trial_expires_at !== null && now >= row.trial_expires_at) return 'trial_expired';
  return row.state as AgentState;
}

export const LIFECYCLE_TARGETS = ['trial', 'trusted', 'operator_approved'] as const;
export type LifecycleTarget = (typeof LIFECYCLE_TARGETS)[number];
const TRIAL_ENTRY: ReadonlySet<EffectiveState> = new Set(['registered', 'sandbox', 'sandbox_expired', 'trial_expired']);

/** The redacted network a registration came from; loopback (local development) records none. */
function registrationNetwork(ip: string | null): string | null {
  if (!ip || ip === '::1' || /^(::ffff:)?127\./.test(ip)) return null;
  return redactIp(ip);
}

/** Who grants the nine default scopes of a new sandbox; leaving the sandbox removes exactly these grants. */
export const AUTO_SANDBOX_GRANTOR = 'auto_sandbox';

const activeScopes = <T extends Pick<ScopeRow, 'expires_at'>>(rows: T[], now: number) => rows.filter((r) => r.expires_at === null || r.expires_at > now);

/**
 * Grants in force for an agent: unexpired, and the automatic sandbox grants only while the agent is in
 * the sandbox state (setLifecycle deletes them; this also covers rows moved by other means).
 */
const grantsInForce = <T extends Pick<ScopeRow, 'expires_at' | 'granted_by'>>(row: AgentRow, rows: T[], now: number) =>
  activeScopes(rows, now).filter((r) => row.state === 'sandbox' || r.granted_by !== AUTO_SANDBOX_GRANTOR);

/** The first instant after `now` at which the agent's state or grants change by time alone; Infinity when none. */
function nextChangeByTime(row: AgentRow, grants: Array<Pick<ScopeRow, 'expires_at'>>, now: number): number {
  let next = Infinity;
  for (const at of [row.sandbox_expires_at, row.trial_expires_at, ...grants.map((g) => g.expires_at)]) {
    if (at !== null && at > now && at < next) next = at;
  }
  return next;
}

export function createAgentsService(deps: { repo: AgentsRepo; clock: Clock; audit: AuditService; autoSandbox: () => boolean }) {
  const { repo, clock, audit } = deps;
  const principals = new PrincipalCache<AgentPrincipal>();

  async function requireAgent(agentId: string): Promise<AgentRow> {
    const row = await repo.findById(agentId);
    if (!row) throw new AppError('not_found', `no agent ${agentId}`);
    return row;
  }

  return {
    async register(raw: { name: string; vendor?: string; description?: string }, ip: string | null) {
      // The harbor text rules: names are one line without invisible formatting (display spoofing).
      const input = {
        name: harborText(raw.name, { field: 'body.name', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 2, maxChars: 64 }),
        vendor: raw.vendor === undefined ? undefined : harborText(raw.vendor, { field: 'body.vendor', code: 'invalid_request', multiline: false, name: true, trim: true, minChars: 1, maxChars: 64 }),
        description:
          raw.description === undefined ? undefined : harborText(raw.description, { field: 'body.description', code: 'invalid_request', multiline: true, trim: true, required: false, maxChars: 1000 }),
      };
      const now = clock.now();
      const apiKey = newSecret(AGENT_KEY_PREFIX);
      const sandbox = deps.autoSandbox();
      const sandboxEnds = sandbox ? now + SANDBOX_DAYS * DAY : null;
      const row: AgentRow = {
        agent_id: newId('agt_'),
        name: input.name,
        vendor: input.vendor ?? null,
        description: input.description ?? null,
        state: sandbox ? 'sandbox' : 'registered',
        key_hash: hashSecret(apiKey),
        key_prefix: displayPrefix(apiKey),
        created_at: now,
        sandbox_expires_at: sandboxEnds,
        trial_expires_at: null,
        revoked_at: null,
        key_rotated_at: null,
        registration_ip: registrationNetwork(ip),
      };
      const scopes: ScopeRow[] = sandbox ? DEFAULT_SCOPES.map((scope) => ({ agent_id: row.agent_id, scope, granted_by: AUTO_SANDBOX_GRANTOR, granted_at: now, expires_at: sandboxEnds })) : [];
      await repo.insert(row, scopes);
      await audit.record({ actor: { kind: 'anonymous' }, action: 'agent.register', target: row.agent_id, ip, details: { sandbox } });
      // What the key can use: the grants plus the operator-request scopes every agent holds (as GET /v1/agents/me shows).
      return { row, apiKey, scopes: [...new Set([...scopes.map((s) => s.scope), ...EVERY_AGENT_SCOPES])] };
    },

    /** Resolves a Bearer agent key; undefined when unknown or revoked. */
    async authenticate(apiKey: string): Promise<AgentPrincipal | undefined> {
      if (!isWellFormedSecret(apiKey, AGENT_KEY_PREFIX)) return undefined;
      const hash = hashSecret(apiKey);
      // read first: whatever is read after it is at least as new as this version
      const version = repo.accessVersionNow() ?? (await repo.accessVersion());
      const now = clock.now();
      const cached = principals.get(hash, version, now);
      if (cached) return cached;
      const row = await repo.findByKeyHash(hash);
      if (!row || !sameHash(row.key_hash, hash) || row.revoked_at !== null) return undefined;
      const grants = await repo.scopeGrantsOf(row.agent_id);
      const scopes = [...new Set([...grantsInForce(row, grants, now).map((s) => s.scope), ...EVERY_AGENT_SCOPES])].sort();
      const principal: AgentPrincipal = { agentId: row.agent_id, name: row.name, state: effectiveState(row, now), scopes: new Set(scopes), row };
      principals.set(hash, version, principal, nextChangeByTime(row, grants, now));
      return principal;
    },

    /**
     * The principal of a key resolved before at the current access version, without a promise; undefined
     * when resolving it needs the store (then `authenticate`).
     */
    cachedPrincipal(apiKey: string): AgentPrincipal | undefined {
      if (!isWellFormedSecret(apiKey, AGENT_KEY_PREFIX)) return undefined;
      const version = repo.accessVersionNow();
      return version === undefined ? undefined : principals.get(hashSecret(apiKey), version, clock.now());
    },

    async describe(agentId: string) {
      const row = await requireAgent(agentId);
      const now = clock.now();
      const grants = grantsInForce(row, await repo.scopesOf(agentId), now);
      return {
        agent_id: row.agent_id,
        name: row.name,
        vendor: row.vendor,
        description: row.description,
        state: effectiveState(row, now),
        created_at: iso(row.created_at),
        sandbox_expires_at: row.state === 'sandbox' ? isoOrNull(row.sandbox_expires_at) : null,
        trial_expires_at: isoOrNull(row.trial_expires_at),
        key_prefix: row.key_prefix,
        key_rotated_at: isoOrNull(row.key_rotated_at),
        scopes: [...new Set([...grants.map((g) => g.scope), ...EVERY_AGENT_SCOPES])].sort(),
        scope_grants: grants.map((g): ScopeGrant => ({
          scope: g.scope,
          granted_by: g.granted_by,
          granted_at: iso(g.granted_at),
          expires_at: isoOrNull(g.expires_at),
        })),
      };
    },

    async rotateKey(agentId: string, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const row = await requireAgent(agentId);
      if (row.revoked_at !== null) throw new AppError('conflict', `agent ${agentId} is revoked`);
      const apiKey = newSecret(AGENT_KEY_PREFIX);
      const now = clock.now();
      await repo.update(agentId, { key_hash: hashSecret(apiKey), key_prefix: displayPrefix(apiKey), key_rotated_at: now });
      await audit.record({ actor, action: 'agent.key_rotate', target: agentId });
      return { agentId, apiKey };
    },

    async revoke(agentId: string, actor: { kind: 'operator' | 'cli'; id?: string }, reason: string) {
      const row = await requireAgent(agentId);
      if (row.revoked_at !== null) return;
      await repo.update(agentId, { revoked_at: clock.now() });
      await audit.record({ actor, action: 'agent.revoke', target: agentId, details: { reason } });
    },

    async grantScope(agentId: string, scope: string, actor: { kind: 'operator' | 'cli'; id?: string }, days?: number) {
      await requireAgent(agentId);
      if (!GRANTABLE_SCOPES.has(scope)) throw new AppError('invalid_request', `scope ${scope} cannot be granted`, { field: 'scope' });
      const fixedDays = SCOPE_BY_NAME.get(scope)?.grantDays;
      const effectiveDays = fixedDays ?? days;
      const now = clock.now();
      const expiresAt = effectiveDays ? now + effectiveDays * DAY : null;
      await repo.upsertScope({ agent_id: agentId, scope, granted_by: 'operator', granted_at: now, expires_at: expiresAt });
      await audit.record({ actor, action: 'agent.scope_grant', target: agentId, details: { scope, expires_at: expiresAt } });
      return { scope, expires_at: isoOrNull(expiresAt) };
    },

    async revokeScope(agentId: string, scope: string, actor: { kind: 'operator' | 'cli'; id?: string }) {
      await requireAgent(agentId);
      const removed = await repo.deleteScope(agentId, scope);
      await audit.record({ actor, action: 'agent.scope_revoke', target: agentId, details: { scope, removed } });
      return removed > 0;
    },

    /**
     * The operator moves an agent along the lifecycle of harbor-interface part 3: into a 7-day
     * trial (again after one ended), or to trusted / operator_approved. Leaving the sandbox ends it:
     * the automatic sandbox grants are removed and sandbox_expires_at is cleared, so every later state
     * holds only what the operator assigns explicitly (operator grants stay).
     */
    async setLifecycle(agentId: string, target: LifecycleTarget, actor: { kind: 'operator' | 'cli'; id?: string }) {
      const row = await requireAgent(agentId);
      const now = clock.now();
      const from = effectiveState(row, now);
      if (from === 'revoked') throw new AppError('conflict', `agent ${agentId} is revoked`);
      if (target === 'trial' && !TRIAL_ENTRY.has(from)) throw new AppError('conflict', `an agent in state ${from} cannot enter a trial`);
      const patch: Partial<AgentRow> = target === 'trial' ? { state: 'trial', trial_expires_at: now + TRIAL_DAYS * DAY, sandbox_expires_at: null } : { state: target, sandbox_expires_at: null };
      const removed = await repo.transaction(async (trx) => {
        await repo.update(agentId, patch, trx);
        return repo.deleteScopesGrantedBy(agentId, AUTO_SANDBOX_GRANTOR, trx);
      });
      await audit.record({ actor, action: 'agent.lifecycle', target: agentId, details: { from, to: target, sandbox_grants_removed: removed } });
      return { agentId, from, to: target, trial_expires_at: target === 'trial' ? isoOrNull(now + TRIAL_DAYS * DAY) : null };
    },

    /** Lifecycle state and registration origin (redacted network, time), e.g. to tell linked agents apart. */
    async standing(agentId: string): Promise<{ state: EffectiveState; registrationNetwork: string | null; registeredAt: number } | undefined> {
      const row = await repo.findById(agentId);
      if (!row) return undefined;
      return { state: effectiveState(row, clock.now()), registrationNetwork: row.registration_ip, registeredAt: row.created_at };
    },

    /**
     * Linked agents: registered from the same redacted network within 24 hours of each other. The
     * harbor's help requests and the exchange refuse interactions between them (docs/harbor-help.md).
     */
    async linked(a: string, b: string): Promise<boolean> {
      const [x, y] = await Promise.all([this.standing(a), this.standing(b)]);
      if (!x || !y || x.registrationNetwork === null || x.registrationNetwork !== y.registrationNetwork) return false;
      return Math.abs(x.registeredAt - y.registeredAt) < LINKED_AGENTS_WINDOW_MS;
    },

    list: (filter: { limit: number; state?: string }) => repo.list(filter),
    count: () => repo.count(),
  };
}
/** Agents registered from one network within this window are linked. */
export const LINKED_AGENTS_WINDOW_MS = DAY;

export type AgentsService = ReturnType<typeof createAgentsService>;
