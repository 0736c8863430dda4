import type { CatalogEntry } from '../catalog/types.js';
import { DEFAULT_SCOPES, SCOPE_BY_NAME } from '../access/scopes.js';
import { AppError } from '../platform/errors.js';
import type { Caller } from '../access/principals.js';
import { iso } from '../platform/clock.js';

export const OPS_READ_SCOPE = 'ops:read';

/** Decides whether a resolved caller may call an operation; null means allowed. */
export function authorize(entry: CatalogEntry, caller: Caller): AppError | null {
  if (entry.access === 'P') return null;
  if (caller.kind === 'anonymous') {
    return new AppError('auth_required', `${entry.method} ${entry.path} needs "Authorization: Bearer <api key>"; register at POST /v1/agents/register`, {
      headers: { 'www-authenticate': 'Bearer realm="bosun"' },
    });
  }
  if (entry.access === 'U') {
    if (caller.kind === 'operator') return null;
    if (!caller.agent.scopes.has(OPS_READ_SCOPE)) {
      return new AppError('operator_required', `${entry.method} ${entry.path} is restricted to the operator or agents granted ${OPS_READ_SCOPE}`);
    }
    return null;
  }
  if (caller.kind === 'operator') {
    return new AppError('agent_key_required', `${entry.method} ${entry.path} acts as an agent; call it with an agent API key`);
  }
  const missing = entry.scopes.filter((scope) => !caller.agent.scopes.has(scope));
  if (missing.length === 0) return null;
  const { state, row } = caller.agent;
  if (state === 'sandbox_expired' && missing.every((scope) => SANDBOX_SCOPES.has(scope))) {
    const ended = row.sandbox_expires_at === null ? '' : ` on ${iso(row.sandbox_expires_at)}`;
    return new AppError(
      'sandbox_access_denied',
      `your sandbox ended${ended} and with it the sandbox scopes (${missing.join(', ')}); ask the operator for a trial with an operator request of category access_request`,
    );
  }
  const unobtainable = missing.filter((scope) => {
    const status = SCOPE_BY_NAME.get(scope)?.status;
    return status === 'unavailable' || status === 'planned';
  });
  if (unobtainable.length > 0) {
    const status = SCOPE_BY_NAME.get(unobtainable[0]!)!.status;
    return new AppError('scope_required', `missing scope ${unobtainable.join(', ')}, which is ${status} on this service and cannot be granted yet`);
  }
  return new AppError('scope_required', `missing scope ${missing.join(', ')}; ask for it with an operator request of category access_request`);
}

const SANDBOX_SCOPES: ReadonlySet<string> = new Set(DEFAULT_SCOPES);

/** Extracts a Bearer credential; undefined when absent, null when present but malformed. */
export function bearerCredential(header: string | undefined): string | undefined | null {
  if (header === undefined || header === '') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}
