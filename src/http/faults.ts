import type { FastifyRequest } from 'fastify';
import { DEPENDENCY_RETRY_AFTER_SECONDS, type DependencyUnavailableError } from '../platform/dependency.js';
import { AppError } from '../platform/errors.js';

/** The answer to a request that met an unavailable store or Redis: 503, retryable, with Retry-After. */
export function dependencyUnavailable(err: DependencyUnavailableError): AppError {
  const what = err.dependency === 'store' ? 'the database' : 'Redis';
  return new AppError('dependency_unavailable', `${what} is unavailable right now; retry in ${DEPENDENCY_RETRY_AFTER_SECONDS} s`, {
    headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
  });
}

/** Quality flags a request earned before its handler ran (e.g. limits counted locally during a Redis outage). */
const requestFlags = new WeakMap<FastifyRequest, string[]>();

export function addQualityFlag(req: FastifyRequest, flag: string): void {
  const flags = requestFlags.get(req) ?? [];
  if (!flags.includes(flag)) flags.push(flag);
  requestFlags.set(req, flags);
}

export function withRequestFlags(req: FastifyRequest, flags: string[] | undefined): string[] | undefined {
  const extra = requestFlags.get(req);
  if (!extra) return flags;
  return [...(flags ?? []), ...extra.filter((f) => !flags?.includes(f))];
}
