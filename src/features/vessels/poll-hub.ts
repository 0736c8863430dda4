import type { Bus } from '../../bus/bus.js';

/**
 * What many open long polls share, so that a storm of them costs little per poll and does not starve
 * other requests (issue 8 item 5; docs/decisions/012):
 * - one bus subscription for all waiting polls, instead of one per poll;
 * - wake-ups delivered in batches, one batch per turn of the event loop, so that requests arriving
 *   meanwhile (a ping, a lookup) are served between batches rather than after every poll has run;
 * - identical reads made by polls woken together (same cursor, filters and limit) run once and are
 *   shared (`shared`).
 */
export interface PollWaiter {
  /** Whether a published event concerns this poll (cheap, in memory). */
  matches(payload: unknown): boolean;
  wake(): void;
}

/** Polls woken per turn of the event loop. */
export const WAKE_BATCH = 64;

export interface PollHub {
  /** Registers a waiting poll; the returned function removes it. */
  add(waiter: PollWaiter): () => void;
  /** Resolves once the hub's subscription receives messages. */
  ready(): Promise<void>;
  /** Runs `read` once for every caller asking with the same key while the first call is under way. */
  shared<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** Polls currently registered (for tests and status). */
  size(): number;
  /** Counts events received: a read shared under a key with this number began after the last event. */
  generation(): number;
}

export function createPollHub(bus: Bus, topic: string): PollHub {
  const waiters = new Set<PollWaiter>();
  let unsubscribe: (() => void) | null = null;
  const queue: PollWaiter[] = [];
  let draining = false;
  const inFlight = new Map<string, Promise<unknown>>();

  const drain = () => {
    const batch = queue.splice(0, WAKE_BATCH);
    for (const waiter of batch) if (waiters.has(waiter)) waiter.wake();
    if (queue.length > 0) setImmediate(drain);
    else draining = false;
  };

  let events = 0;
  const onEvent = (payload: unknown) => {
    events++;
    for (const waiter of waiters) if (waiter.matches(payload)) queue.push(waiter);
    if (queue.length > 0 && !draining) {
      draining = true;
      setImmediate(drain);
    }
  };

  return {
    add(waiter) {
      waiters.add(waiter);
      unsubscribe ??= bus.subscribe(topic, onEvent);
      return () => {
        waiters.delete(waiter);
        if (waiters.size === 0 && unsubscribe) {
          unsubscribe();
          unsubscribe = null;
        }
      };
    },
    ready: () => bus.ready(),
    shared<T>(key: string, read: () => Promise<T>): Promise<T> {
      const pending = inFlight.get(key);
      if (pending) return pending as Promise<T>;
      const started = read().finally(() => inFlight.delete(key));
      inFlight.set(key, started);
      return started;
    },
    size: () => waiters.size,
    generation: () => events,
  };
}
