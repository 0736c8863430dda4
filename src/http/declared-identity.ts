import { Type } from '@sinclair/typebox';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The self-declared X-Agent-Name / X-Agent-Vendor labels of a call, echoed as received (control
 * characters removed, 100 characters at most) and always with identity_verified: false (core 5.3):
 * they are labels, never authentication.
 */
export const DeclaredIdentity = Type.Object(
  {
    agent_name: Type.Union([Type.String(), Type.Null()], { description: 'X-Agent-Name as sent (self-declared), null when absent.' }),
    agent_vendor: Type.Union([Type.String(), Type.Null()], { description: 'X-Agent-Vendor as sent (self-declared), null when absent.' }),
    identity_verified: Type.Literal(false, { description: 'Always false: X-Agent-* labels never authenticate (core-interface 5.3).' }),
  },
  { description: 'The self-declared X-Agent-* labels of this call, unverified.' },
);

export function cleanLabel(value: string | string[] | undefined): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return null;
  return (
    text
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, 100) || null
  );
}

export function declaredIdentity(headers: IncomingHttpHeaders) {
  return { agent_name: cleanLabel(headers['x-agent-name']), agent_vendor: cleanLabel(headers['x-agent-vendor']), identity_verified: false as const };
}
