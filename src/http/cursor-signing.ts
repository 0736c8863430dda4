import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque pagination cursors (docs/decisions/010): `base64url(payload).base64url(tag)`, the tag the first
 * 16 bytes of HMAC-SHA256 over the payload with the cursor secret. The secret is BOSUN_CURSOR_SECRET or,
 * without it, a secret generated once per store and kept in its service_secrets table, so every process
 * on the same store accepts the cursors of the others. A changed or forged cursor fails verification
 * and answers cursor_invalid.
 *
 * The keys live in this module so the cursor helpers keep their plain signatures: an app registers its
 * key at start (the newest signs; every registered one verifies) and removes it when it closes.
 */
const TAG_BYTES = 16;
const keys: Buffer[] = [];
let fallback: Buffer | null = null;

/** Registers the secret of a starting app; returns the function that removes it again. */
export function useCursorSecret(secret: string): () => void {
  const key = createHmac('sha256', 'bosun cursor key').update(secret, 'utf8').digest();
  keys.push(key);
  return () => {
    const at = keys.indexOf(key);
    if (at >= 0) keys.splice(at, 1);
  };
}

/** A new random secret (for a store that has none yet). */
export const newCursorSecret = () => randomBytes(32).toString('base64url');

function signingKeys(): Buffer[] {
  if (keys.length > 0) return keys;
  // library use without an app (a CLI helper, a unit test): a process-local key
  fallback ??= randomBytes(32);
  return [fallback];
}

const tag = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload, 'utf8').digest().subarray(0, TAG_BYTES);

export function sealCursor(payload: string): string {
  const active = signingKeys();
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${tag(active[active.length - 1]!, payload).toString('base64url')}`;
}

/** The payload of a cursor this service issued, or null for anything else (changed, forged, malformed). */
export function openCursor(cursor: string): string | null {
  const match = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!match) return null;
  const payload = Buffer.from(match[1]!, 'base64url').toString('utf8');
  if (Buffer.from(payload, 'utf8').toString('base64url') !== match[1]) return null;
  const given = Buffer.from(match[2]!, 'base64url');
  if (given.length !== TAG_BYTES) return null;
  return signingKeys().some((key) => timingSafeEqual(tag(key, payload), given)) ? payload : null;
}
