import type { LimitPolicy } from '../limits/policies.js';

/**
 * RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers style): every window of every policy that
 * counted the call, e.g. `1200;w=60, 6;w=60, 60;w=86400`. RateLimit-Limit/-Remaining/-Reset describe
 * the window closest to running out.
 */
export function rateLimitPolicyHeader(policies: readonly LimitPolicy[]): string {
  return policies.flatMap((p) => p.windows.map((w) => `${w.limit};w=${w.windowMs / 1000}`)).join(', ');
}
