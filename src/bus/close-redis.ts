import type { Redis } from 'ioredis';

/** Time a connection is given to say goodbye at shutdown before it is cut. */
const REDIS_QUIT_TIMEOUT_MS = 1000;

/**
 * Closes a Redis connection at shutdown: a polite QUIT when it answers in time, then a hard
 * disconnect in every case, so a half-open or reconnecting connection can never hold shutdown.
 */
export async function closeRedis(connection: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, REDIS_QUIT_TIMEOUT_MS);
    timer.unref();
  });
  await Promise.race([connection.quit().catch(() => undefined), gaveUp]);
  clearTimeout(timer);
  connection.disconnect();
}
