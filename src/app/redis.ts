import { Redis } from 'ioredis';
import type { Clock } from '../platform/clock.js';
import { ConfigError, type Config } from '../platform/config.js';
import type { Logger } from '../observability/logger.js';

/**
 * A Redis call not answered within this time fails (and the caller falls back or answers 503). Each caller
 * applies it with `withinDeadline`, not the client's own `commandTimeout`, whose timer fails an answer
 * already waiting in the socket when one turn of this process's event loop is longer than the timeout.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Connecting at start gives up after this long (an unreachable host, a black-holed port). */
export const REDIS_CONNECT_TIMEOUT_MS = 3000;

/** A ConfigError, so `bosun serve` prints the message and exits 1 as for any other bad setting. */
export class RedisStartError extends ConfigError {}

/**
 * Connects to Redis at start or fails fast with a clear message (like a wrong DATABASE_URL): no
 * reconnect loop before the first connection. Once connected, a lost connection is retried in the
 * background with backoff; meanwhile commands fail at once (no offline queue) or, where the
 * connection hangs, after REDIS_COMMAND_TIMEOUT_MS as their callers apply it, and each use decides what
 * that means (docs/decisions/012).
 */
export async function connectRedis(config: NonNullable<Config['redis']>, logger: Logger): Promise<Redis> {
  let connected = false;
  const redis = new Redis(config.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => (connected ? Math.min(100 * times, 2000) : null),
  });
  let lastError: Error | null = null;
  redis.on('error', (err: Error) => {
    lastError = err;
    if (connected) logger.warn({ err: err.message }, 'redis error');
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    const why = (lastError as Error | null)?.message ?? (err as Error).message;
    throw new RedisStartError(`cannot connect to Redis at ${redact(config.url)}: ${why} (check REDIS_URL)`);
  }
  connected = true;
  return redis;
}

/** Logs the limiter's fallback to local counters at most once a minute (an outage fails every call). */
export function redisFallbackLog(logger: Logger, clock: Clock): (err: unknown) => void {
  let lastAt = -Infinity;
  return (err) => {
    const now = clock.now();
    if (now - lastAt < 60_000) return;
    lastAt = now;
    logger.warn({ err: (err as Error).message }, 'redis unavailable: rate limits counted by this process alone until it is back');
  };
}

/**
 * The connection the bus publishes on, apart from the shared one so that publishes never queue behind
 * limiter calls; like it, no offline queue: an outage drops publishes, which are best effort.
 */
export async function connectBusPublisher(redis: Redis): Promise<Redis> {
  const publisher = redis.duplicate({ lazyConnect: true });
  publisher.on('error', () => {});
  await publisher.connect();
  return publisher;
}

const redact = (url: string) => url.replace(/\/\/([^:@/]*)(:[^@/]*)?@/, '//$1:***@');
