import type { CatalogEntry } from '../catalog/types.js';
import { AppError } from './errors.js';
import type { Caller } from './route.js';

export const OPS_READ_SCOPE = 'ops:read';

/** Decides whether a resolved caller may call an operation; null means allowed. */
export function authorize(entry: CatalogEntry, caller: Caller): AppError | null {
  if (entry.access === 'P') return null;
  if (caller.kind === 'anonymous') {
    return new AppError('auth_required', `${entry.method} ${entry.path} needs "Authorization: Bearer <api key>"; register at POST /v1/agents/register`);
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
  if (missing.length > 0) {
    return new AppError('scope_required', `missing scope ${missing.join(', ')}; ask for it with an operator request of category access_request`);
  }
  return null;
}

/** Extracts a Bearer credential; undefined when absent, null when present but malformed. */
export function bearerCredential(header: string | undefined): string | undefined | null {
  if (header === undefined || header === '') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}
