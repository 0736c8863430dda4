import { isIPv4, isIPv6 } from 'node:net';
import { HOUR, MINUTE } from '../../platform/clock.js';
import { hashSecret } from '../../access/credentials.js';
import { redactIp } from '../audit/redact-ip.js';
import type { ConsoleSessionsRepo, SigninGuardRow } from './console-sessions-repo.js';

/** Console sign-in lockout (docs/decisions/106). */
export const SIGNIN_GUARD = {
  /** Failed sign-ins of one key within `windowMs` of its first that lock it. */
  failures: 5,
  windowMs: 15 * MINUTE,
  /** The lock after the threshold failure; each further failure doubles it, up to `maxLockMs`. */
  firstLockMs: MINUTE,
  maxLockMs: HOUR,
  /**
   * Compare-and-set rounds of one attempt: a round is lost only to another attempt's counted failure, and
   * the key locks after `failures` of those, so the rounds after that see the lock.
   */
  swapTries: 8,
} as const;

export interface GuardKey {
  hash: string;
  kind: 'address' | 'device';
  label: string;
}

export type GuardState = Pick<SigninGuardRow, 'failures' | 'first_failure_at' | 'locked_until' | 'updated_at'>;

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(ip: string): string[] {
  const toGroups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g.padStart(4, '0').toLowerCase()];
          const [a, b, c, d] = g.split('.').map(Number);
          return [((a! << 8) | b!).toString(16).padStart(4, '0'), ((c! << 8) | d!).toString(16).padStart(4, '0')];
        });
  const [head = '', tail] = ip.split('::');
  const left = toGroups(head);
  const right = tail === undefined ? [] : toGroups(tail);
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0000'), ...right];
}

/**
 * The client part of an address key: an IPv4 address whole (IPv4-mapped IPv6 included), an IPv6
 * address by its /64, the smallest block one host is usually given (a host rotating addresses inside its
 * /64 stays one key). Undefined when `ip` is not an address.
 */
export function clientOfAddress(ip: string): string | undefined {
  const zoneless = ip.split('%')[0]!;
  const v4 = zoneless.toLowerCase().startsWith('::ffff:') && isIPv4(zoneless.slice(7)) ? zoneless.slice(7) : zoneless;
  if (isIPv4(v4)) return v4;
  if (isIPv6(zoneless)) return ipv6Groups(zoneless).slice(0, 4).join(':') + '::/64';
  return undefined;
}

/** The console account is the operator; keys name it so that a second account would not share them. */
export function addressKey(ip: string): GuardKey {
  const client = clientOfAddress(ip) ?? `unknown:${ip}`;
  return { hash: hashSecret(`console:operator:address:${client}`), kind: 'address', label: redactIp(ip) ?? 'unknown' };
}

export function deviceKey(deviceTokenHash: string): GuardKey {
  return { hash: hashSecret(`console:operator:device:${deviceTokenHash}`), kind: 'device', label: `browser ${deviceTokenHash.slice(0, 8)}` };
}

/** Milliseconds the key stays locked at `now` (0 when it is not locked). */
export const lockRemainingMs = (state: GuardState | undefined, now: number): number => (state?.locked_until != null && state.locked_until > now ? state.locked_until - now : 0);

/**
 * The state after one more failed sign-in at `now`. A streak starts over when its first failure is a
 * window old without a lock, or a window has passed since its lock ended; otherwise the threshold failure
 * locks for `firstLockMs` and each later one for twice the previous lock, at most `maxLockMs`.
 */
export function afterFailure(state: GuardState | undefined, now: number): GuardState {
  const stale = !state || state.failures === 0 || (state.locked_until === null ? now - state.first_failure_at >= SIGNIN_GUARD.windowMs : now - state.locked_until >= SIGNIN_GUARD.windowMs);
  const failures = stale ? 1 : state.failures + 1;
  const over = failures - SIGNIN_GUARD.failures;
  return {
    failures,
    first_failure_at: stale ? now : state.first_failure_at,
    locked_until: over >= 0 ? now + Math.min(SIGNIN_GUARD.maxLockMs, SIGNIN_GUARD.firstLockMs * 2 ** over) : stale ? null : state.locked_until,
    updated_at: now,
  };
}

export type Admission = { admitted: true; state: GuardState } | { admitted: false; retryAfterMs: number };

/**
 * The store-backed guard: `admit` counts an attempt as a failure before the password is checked (so
 * concurrent guesses cannot all slip in under the threshold), `clear` forgets the key after a success.
 */
export function createSigninGuard(repo: ConsoleSessionsRepo) {
  return {
    async admit(key: GuardKey, now: number): Promise<Admission> {
      await repo.ensureGuard({ key_hash: key.hash, kind: key.kind, label: key.label }, now);
      for (let attempt = 0; attempt < SIGNIN_GUARD.swapTries; attempt++) {
        const seen = await repo.findGuard(key.hash);
        if (!seen) {
          await repo.ensureGuard({ key_hash: key.hash, kind: key.kind, label: key.label }, now);
          continue;
        }
        const remaining = lockRemainingMs(seen, now);
        if (remaining > 0) return { admitted: false, retryAfterMs: remaining };
        const next = afterFailure(seen, now);
        if (await repo.swapGuard(seen, next)) return { admitted: true, state: next };
      }
      return { admitted: false, retryAfterMs: Math.max(lockRemainingMs(await repo.findGuard(key.hash), now), 1000) };
    },
    clear: (key: GuardKey) => repo.deleteGuard(key.hash),
  };
}
