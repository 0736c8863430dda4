import type { Clock } from '../../platform/clock.js';
import { DAY } from '../../platform/clock.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import type { Trx } from '../../store/transaction.js';
import type { AuditRepo } from './audit-repo.js';
import { redactIp } from './redact-ip.js';

export const AUDIT_RETENTION_DAYS = 90;

export interface AuditEvent {
  actor: { kind: 'operator' | 'agent' | 'anonymous' | 'system' | 'cli'; id?: string | null };
  action: string;
  target?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

export function createAuditService(deps: { repo: AuditRepo; clock: Clock }) {
  return {
    /** With `trx`, the entry is part of that transaction: it exists only if the audited write commits. */
    async record(event: AuditEvent, trx?: Trx): Promise<void> {
      await deps.repo.insert(
        {
          ts: deps.clock.now(),
          actor_kind: event.actor.kind,
          actor_id: event.actor.id ?? null,
          action: event.action,
          target: event.target ?? null,
          ip: redactIp(event.ip),
          details: jsonText(event.details ?? {}),
        },
        trx,
      );
    },
    async list(filter: { since?: number; action?: string; limit: number }) {
      const rows = await deps.repo.list(filter);
      return rows.map((r) => ({ ...r, details: parseJson<Record<string, unknown>>(r.details, {}) }));
    },
    /** Retention job: audit rows older than 90 days are deleted. */
    async enforceRetention(): Promise<number> {
      return deps.repo.deleteOlderThan(deps.clock.now() - AUDIT_RETENTION_DAYS * DAY);
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
