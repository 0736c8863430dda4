import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { DAY, HOUR, iso, type Clock } from '../../platform/clock.js';
import { hashSecret } from '../../access/credentials.js';
import { AppError } from '../../platform/errors.js';
import type { AuditService } from '../audit/audit-service.js';
import type { OperatorService } from '../operator/operator-service.js';
import type { ConsoleSessionsRepo } from './console-sessions-repo.js';
import { addressKey, createSigninGuard, deviceKey, lockRemainingMs, SIGNIN_GUARD, type GuardKey } from './console-signin-guard.js';

/** Lifetimes of console sessions (docs/decisions/054) and of device cookies (docs/decisions/106). */
export const CONSOLE_SESSION = {
  cookie: 'bosun_console',
  maxAgeMs: 12 * HOUR,
  idleMs: HOUR,
  /** A browser's device cookie: its failed sign-ins count under its own key, not its address's. */
  deviceCookie: 'bosun_console_device',
  deviceMaxAgeMs: 90 * DAY,
} as const;

/** Who is signing in: the client address (`req.ip`) and the device cookie it presents, if any. */
export interface SignInClient {
  ip: string;
  deviceToken?: string;
}

/** A lock or a failure streak on one key, as the operator is shown it (`bosun operator console-locks`). */
export interface ConsoleLock {
  kind: 'address' | 'device';
  label: string;
  failures: number;
  locked_until: string | null;
  last_failure_at: string;
}

export interface ConsoleSession {
  csrf: string;
  expiresAt: number;
}

export type SignInResult =
  | { ok: true; token: string; session: ConsoleSession; deviceToken: string }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  /** `lockedForSeconds`: this failure locked the key. */
  | { ok: false; reason: 'wrong_password'; lockedForSeconds?: number }
  | { ok: false; reason: 'no_password' };

const token = () => randomBytes(32).toString('base64url');

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * Operator console sign-in: the operator password, sessions stored hashed, a CSRF token per session,
 * lockout with backoff per client address or per known browser (device cookie, docs/decisions/106).
 */
export function createConsoleSessions(deps: { repo: ConsoleSessionsRepo; operator: OperatorService; audit: AuditService; clock: Clock }) {
  const { repo, operator, audit, clock } = deps;
  const guard = createSigninGuard(repo);

  /** The live device row of a presented device cookie (an unknown or expired cookie counts as none). */
  const knownDevice = async (deviceToken: string | undefined, now: number) => {
    if (!deviceToken) return undefined;
    const row = await repo.findDevice(hashSecret(deviceToken));
    return row && row.expires_at > now ? row : undefined;
  };

  return {
    async signIn(password: string, client: SignInClient): Promise<SignInResult> {
      const now = clock.now();
      if (!(await operator.hasPassword())) return { ok: false, reason: 'no_password' };
      const device = await knownDevice(client.deviceToken, now);
      const key: GuardKey = device ? deviceKey(device.token_hash) : addressKey(client.ip);
      const admission = await guard.admit(key, now);
      if (!admission.admitted) {
        await audit.record({ actor: { kind: 'anonymous' }, action: 'console.login_locked', ip: client.ip, details: { key: key.kind, retry_after_s: seconds(admission.retryAfterMs) } });
        return { ok: false, reason: 'locked', retryAfterSeconds: seconds(admission.retryAfterMs) };
      }
      if (!(await operator.checkPassword(password, client.ip))) {
        const lockedMs = lockRemainingMs(admission.state, now);
        if (lockedMs === 0) return { ok: false, reason: 'wrong_password' };
        await audit.record({ actor: { kind: 'anonymous' }, action: 'console.lockout', ip: client.ip, details: { key: key.kind, failures: admission.state.failures, locked_for_s: seconds(lockedMs) } });
        return { ok: false, reason: 'wrong_password', lockedForSeconds: seconds(lockedMs) };
      }
      await guard.clear(key);
      const deviceToken = device ? client.deviceToken! : token();
      await repo.saveDevice({
        token_hash: device?.token_hash ?? hashSecret(deviceToken),
        created_at: device?.created_at ?? now,
        last_signin_at: now,
        expires_at: now + CONSOLE_SESSION.deviceMaxAgeMs,
      });
      const secret = token();
      const session = { csrf: token(), expiresAt: now + CONSOLE_SESSION.maxAgeMs };
      await repo.insert({ token_hash: hashSecret(secret), csrf: session.csrf, created_at: now, last_seen_at: now, expires_at: session.expiresAt });
      return { ok: true, token: secret, session, deviceToken };
    },

    /** Keys with failures that still count, locked or not, newest first. */
    async locks(): Promise<ConsoleLock[]> {
      const now = clock.now();
      return (await repo.listGuards()).map((r) => ({
        kind: r.kind,
        label: r.label,
        failures: r.failures,
        locked_until: lockRemainingMs(r, now) > 0 ? iso(r.locked_until!) : null,
        last_failure_at: iso(r.updated_at),
      }));
    },

    /** Clears the lock and failures of one client address (`{ address }`) or of every key (`{ all: true }`); audited. */
    async unlock(which: { address: string } | { all: true }): Promise<number> {
      let cleared: number;
      if ('all' in which) cleared = await repo.deleteAllGuards();
      else {
        if (isIP(which.address.split('%')[0]!) === 0) throw new AppError('invalid_request', `not an IP address: ${which.address}`, { field: 'address' });
        cleared = await guard.clear(addressKey(which.address));
      }
      await audit.record({ actor: { kind: 'cli' }, action: 'console.unlock', ip: 'address' in which ? which.address : null, details: { all: 'all' in which, cleared } });
      return cleared;
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

    /** Hourly: dead sessions, expired device cookies, and guard rows past any lock or streak. */
    async deleteExpired(): Promise<number> {
      const now = clock.now();
      const sessions = await repo.deleteExpired(now, now - CONSOLE_SESSION.idleMs);
      await repo.deleteExpiredDevices(now);
      await repo.deleteGuardsBefore(now - SIGNIN_GUARD.maxLockMs - SIGNIN_GUARD.windowMs);
      return sessions;
    },
  };
}

export type ConsoleSessions = ReturnType<typeof createConsoleSessions>;
