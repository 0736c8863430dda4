import { createHash } from 'node:crypto';
import { DAY, MINUTE, type Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { IdempotentRequest } from '../../http/idempotency.js';
import { jsonText, parseJson } from '../../store/dialect.js';
import type { IdempotencyRepo } from './idempotency-repo.js';

export const IDEMPOTENCY_RETENTION_MS = DAY;
/** 8-128 visible ASCII characters (no spaces), e.g. a UUID. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,128}$/;
/** A claim still pending after this long belongs to a request that died; the key may be used again. */
const STALE_CLAIM_MS = MINUTE;

export const IDEMPOTENCY_NOTE =
  'Send an Idempotency-Key header (8-128 visible ASCII characters, e.g. a UUID) to make retries safe: the same key with the same request replays the first result with header Idempotent-Replayed: true (kept 24 h); the same key with a different request answers idempotency_key_reused.';

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const fingerprintOf = (request: IdempotentRequest) =>
  createHash('sha256')
    .update(`${request.method.toUpperCase()} ${request.path}\n${canonicalJson(request.body)}`)
    .digest('hex');

/**
 * Idempotent writes: the first request with a key runs and its result is stored for 24 hours; the same
 * key with the same request (method, path, caller, body) replays that result without running again; the
 * same key with a different request is refused. Only successful results are stored: a refused request
 * leaves the key unused.
 */
export function createIdempotencyService(deps: { repo: IdempotencyRepo; clock: Clock }) {
  const { repo, clock } = deps;

  return {
    /** The header's key, undefined when absent; a malformed key is refused. */
    parseKey(header: string | string[] | undefined): string | undefined {
      if (header === undefined) return undefined;
      if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
        throw new AppError('idempotency_key_invalid', 'Idempotency-Key must be one header of 8-128 visible ASCII characters without spaces (a UUID works)', {
          field: 'header.idempotency-key',
        });
      }
      return header;
    },

    async run<T>(key: string | undefined, request: IdempotentRequest, execute: () => Promise<T>): Promise<{ result: T; replayed: boolean }> {
      if (key === undefined) return { result: await execute(), replayed: false };
      const fingerprint = fingerprintOf(request);
      const now = clock.now();
      const claim = { caller: request.caller, idem_key: key, fingerprint, state: 'pending', response: null, created_at: now, expires_at: now + IDEMPOTENCY_RETENTION_MS };
      if (!(await repo.claim(claim))) {
        const existing = await repo.find(request.caller, key);
        const reusable = !existing || existing.expires_at <= now || (existing.state === 'pending' && existing.created_at <= now - STALE_CLAIM_MS);
        if (!reusable) {
          if (existing.fingerprint !== fingerprint) {
            throw new AppError('idempotency_key_reused', 'this Idempotency-Key was already used for a different request; use a new key for a new request', {
              field: 'header.idempotency-key',
            });
          }
          if (existing.state === 'done') return { result: parseJson<T>(existing.response, undefined as T), replayed: true };
          throw new AppError('conflict', 'a request with this Idempotency-Key is still being processed; retry in a moment');
        }
        await repo.release(request.caller, key, existing?.created_at);
        if (!(await repo.claim(claim))) throw new AppError('conflict', 'a request with this Idempotency-Key is being processed; retry in a moment');
      }
      let result: T;
      try {
        result = await execute();
      } catch (err) {
        await repo.release(request.caller, key, now);
        throw err;
      }
      await repo.complete(request.caller, key, jsonText(result));
      return { result, replayed: false };
    },

    enforceRetention(): Promise<number> {
      return repo.deleteExpired(clock.now());
    },
  };
}
export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
