import type { Redis } from 'ioredis';

/** Time a connection (and its pending calls) is given at shutdown before it is cut. */
const REDIS_QUIT_TIMEOUT_MS = 1000;

/** Waits for `work` to settle, but never longer than `ms` (an unref'd timer: it holds no process open). */
export async function settleWithin(work: Promise<unknown>, ms = REDIS_QUIT_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    gaveUp,
  ]);
  clearTimeout(timer);
}

/**
 * Closes a Redis connection at shutdown: a polite QUIT when it answers in time, then a hard
 * disconnect in every case, so a half-open or reconnecting connection can never hold shutdown.
 */
export async function closeRedis(connection: Redis): Promise<void> {
  await settleWithin(connection.quit());
  connection.disconnect();
}
