import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogEntry } from '../catalog/types.js';
import { AppError } from '../platform/errors.js';
import { addQualityFlag } from './faults.js';

/**
 * A stale Authorization header on a public (P) operation (docs/decisions/010): the call is answered as
 * anonymous instead of 401, with the quality flag credential_ignored and a WWW-Authenticate hint, so a
 * revoked or mistyped key does not break public documents. The refusal is still audited. K and U
 * operations keep answering 401 auth_invalid.
 */
export const CREDENTIAL_IGNORED_FLAG = 'credential_ignored';

export function bearerChallenge(error: 'invalid_token' | null, description?: string): string {
  const parts = ['Bearer realm="bosun"'];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${description.replace(/["\\]/g, '')}"`);
  return parts.join(', ');
}

/** True (and the reply carries the hint) when an invalid credential is ignored for this public operation. */
export function ignoreInvalidCredential(entry: CatalogEntry, err: unknown, req: FastifyRequest, reply: FastifyReply): boolean {
  if (entry.access !== 'P' || !(err instanceof AppError) || err.code !== 'auth_invalid') return false;
  addQualityFlag(req, CREDENTIAL_IGNORED_FLAG);
  reply.header('www-authenticate', bearerChallenge('invalid_token', `${err.message}; answered as anonymous`));
  return true;
}
