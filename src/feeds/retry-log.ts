import type { Logger } from '../observability/logger.js';
import type { SourceDeps } from './sources/index.js';

/** Each lost or refused feed connection, in the log with its cause and the delay before the next attempt. */
export function feedRetryLog(logger: Logger): NonNullable<SourceDeps['onRetry']> {
  return (source, retry) =>
    logger.warn({ source, err: retry.error, retry_in_ms: retry.delayMs, failed_attempts: retry.failedAttempts }, `feed ${source}: ${retry.error}; retrying in ${formatDelay(retry.delayMs)}`);
}

const formatDelay = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);
