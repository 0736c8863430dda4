import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HOUR, MINUTE, type Clock } from '../../clock.js';
import { hashSecret } from '../../access/credentials.js';
import type { AuditService } from '../audit/audit-service.js';
import type { OperatorService } from '../operator/operator-service.js';
import type { ConsoleSessionsRepo } from './console-sessions-repo.js';

/** Lifetimes and lockout of console sign-in (docs/decisions/054). */
export const CONSOLE_SESSION = {
  cookie: 'bosun_console',
  maxAgeMs: 12 * HOUR,
  idleMs: HOUR,
  /** Failed sign-ins from one network (/24, /48) within the window lock it out until the window passes. */
  lockoutFailures: 5,
  lockoutWindowMs: 15 * MINUTE,
} as const;

export interface ConsoleSession {
  csrf: string;
  expiresAt: number;
}

export type SignInResult = { ok: true; token: string; session: ConsoleSession } | { ok: false; reason: 'locked' | 'wrong_password' | 'no_password'; retryAfterSeconds?: number };

const token = () => randomBytes(32).toString('base64url');

/** Operator console sign-in: the operator password, sessions stored hashed, a CSRF token per session, lockout per network. */
export function createConsoleSessions(deps: { repo: ConsoleSessionsRepo; operator: OperatorService; audit: AuditService; clock: Clock }) {
  const { repo, operator, audit, clock } = deps;
  return {
    async signIn(password: string, ip: string): Promise<SignInResult> {
      const now = clock.now();
      // Failures older than the window (at its edge included) no longer count.
      const failures = await audit.countFromNetwork('operator.login_failed', ip, now - CONSOLE_SESSION.lockoutWindowMs + 1);
      if (failures >= CONSOLE_SESSION.lockoutFailures) {
        await audit.record({ actor: { kind: 'anonymous' }, action: 'console.login_locked', ip });
        return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil(CONSOLE_SESSION.lockoutWindowMs / 1000) };
      }
      if (!(await operator.hasPassword())) return { ok: false, reason: 'no_password' };
      if (!(await operator.checkPassword(password, ip))) return { ok: false, reason: 'wrong_password' };
      const secret = token();
      const session = { csrf: token(), expiresAt: now + CONSOLE_SESSION.maxAgeMs };
      await repo.insert({ token_hash: hashSecret(secret), csrf: session.csrf, created_at: now, last_seen_at: now, expires_at: session.expiresAt });
      return { ok: true, token: secret, session };
    },

    /**
     * The live session of a cookie token; undefined when unknown, expired or idle too long. The idle hour
     * starts again unless `renew` is false: a page's background polling (the console map's data) is not the
     * operator at work, and must not keep an unattended tab signed in.
     */
    async resume(secret: string | undefined, { renew = true }: { renew?: boolean } = {}): Promise<ConsoleSession | undefined> {
      if (!secret) return undefined;
      const now = clock.now();
      const row = await repo.find(hashSecret(secret));
      if (!row) return undefined;
      if (Number(row.expires_at) <= now || Number(row.last_seen_at) + CONSOLE_SESSION.idleMs <= now) {
        await repo.delete(row.token_hash);
        return undefined;
      }
      if (renew) await repo.touch(row.token_hash, now);
      return { csrf: row.csrf, expiresAt: Number(row.expires_at) };
    },

    async signOut(secret: string): Promise<void> {
      await repo.delete(hashSecret(secret));
      await audit.record({ actor: { kind: 'operator' }, action: 'console.logout' });
    },

    /** The form's CSRF token matches the session's (timing-safe). */
    csrfValid(session: ConsoleSession, submitted: string | null): boolean {
      if (!submitted) return false;
      const a = Buffer.from(session.csrf);
      const b = Buffer.from(submitted);
      return a.length === b.length && timingSafeEqual(a, b);
    },

    async deleteExpired(): Promise<number> {
      const now = clock.now();
      return repo.deleteExpired(now, now - CONSOLE_SESSION.idleMs);
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
