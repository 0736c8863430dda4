/**
 * A backing dependency (the PostgreSQL store, Redis) cannot be reached right now. Requests that
 * meet it answer 503 `dependency_unavailable` with Retry-After; the process stays up and recovers by
 * itself once the dependency is back (docs/decisions/012-faults-and-hostile-input.md).
 */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: 'store' | 'redis',
    options: { cause?: unknown } = {},
  ) {
    super(`${dependency === 'store' ? 'the database' : 'Redis'} is unavailable`, options);
    this.name = 'DependencyUnavailableError';
  }
}

/** Seconds a client is asked to wait before retrying a call refused for an unavailable dependency. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;
