import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Agent keys: `bsk_` + 32 random bytes (base64url). Operator tokens: `bop_` + 32 random bytes. */
export const AGENT_KEY_PREFIX = 'bsk_';
export const OPERATOR_TOKEN_PREFIX = 'bop_';
const KEY_BODY = /^[A-Za-z0-9_-]{43}$/;

export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function isWellFormedSecret(secret: string, prefix: string): boolean {
  return secret.startsWith(prefix) && KEY_BODY.test(secret.slice(prefix.length));
}

/** SHA-256 is enough for 256-bit random secrets: there is nothing to brute-force. */
export function hashSecret(secret: string): string {
  // one-shot hash: no Hash object per call (keyed requests hash their key on every call)
  return hash('sha256', secret, 'hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What may be shown of a secret after it was issued: enough to recognise it, never to use it. */
export const displayPrefix = (secret: string): string => secret.slice(0, 12);

export function newId(prefix: string): string {
  return prefix + randomBytes(10).toString('hex');
}
