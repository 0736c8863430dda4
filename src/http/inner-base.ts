import { randomBytes } from 'node:crypto';

/**
 * The base URL of the outer request, carried into the requests a tool call runs in process (MCP and
 * dispatch), so that every link those answers hold names the host the client called (docs/decisions/086).
 * The header is honoured only with this process's own random token: a client cannot set it.
 */
export const INNER_BASE_HEADER = 'x-bosun-inner-base';
const TOKEN = randomBytes(18).toString('base64url');

export function innerBaseHeaderValue(baseUrl: string): string {
  return `${TOKEN} ${baseUrl}`;
}

/** The outer base URL an in-process request carries, or null (a client request, or a wrong token). */
export function innerBaseOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null;
  const space = value.indexOf(' ');
  return space > 0 && value.slice(0, space) === TOKEN ? value.slice(space + 1) : null;
}
