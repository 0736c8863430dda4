import type { CallContext } from '../../http/route.js';
import { IDEMPOTENCY_HEADER } from './idempotency-service.js';

export const IDEMPOTENCY_NOTE =
  'Send an Idempotency-Key header (8-128 visible ASCII characters, e.g. a UUID) to make retries safe: the same key with the same request replays the first result with header Idempotent-Replayed: true (kept 24 h); the same key with a different request answers idempotency_key_reused.';

/**
 * Runs a write under the caller's Idempotency-Key (if sent). Replays set `Idempotent-Replayed: true`
 * and never run `execute` again, so they are neither repeated nor counted against limits.
 */
export async function idempotent<T>(call: CallContext, body: unknown, execute: () => Promise<T>): Promise<T> {
  const service = call.app.services.idempotency;
  const key = service.parseKey(call.headers[IDEMPOTENCY_HEADER]);
  // Anonymous callers share no identity a stored result could safely be replayed to.
  if (call.caller.kind === 'anonymous') return execute();
  const caller = call.caller.kind === 'agent' ? `agent:${call.caller.agent.agentId}` : 'operator';
  const request = call.reply.request;
  const { result, replayed } = await service.run(key, { caller, method: request.method, path: request.url.split('?')[0]!, body }, execute);
  if (replayed) call.reply.header('idempotent-replayed', 'true');
  return result;
}
