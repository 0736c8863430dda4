import { isoOrNull, type Clock } from '../platform/clock.js';
import type { Logger } from '../observability/logger.js';
import type { StatusReporter } from '../observability/status.js';
import type { LeaseRepo } from '../store/leases.js';

/** The lease naming the one process that runs the feeds, the demo fleet and its backfill (docs/decisions/100). */
export const FEEDS_LEASE = 'feeds';

/** Feeds this process runs while it holds the lease. */
export interface RunningFeeds {
  stop(): Promise<void>;
}

export interface FeedOwnerDeps {
  leases: Pick<LeaseRepo, 'claim' | 'release' | 'holder'>;
  /** This process, as a lease holder. */
  owner: string;
  clock: Clock;
  /** How long a claim or renewal holds; renewed every third of it (`tick`). */
  leaseMs: number;
  /** Builds and starts this process's feeds (called when the lease is taken). */
  start: () => Promise<RunningFeeds>;
  logger?: Logger;
}

export interface FeedOwnerStatus {
  holdsLease: boolean;
  /** When this process took the lease it holds, else null. */
  since: number | null;
  /** Until when the last successful claim or renewal holds, else null. */
  heldUntil: number | null;
  lastTickAt: number | null;
  /** Takeovers by this process (lease taken while feeds were not running here). */
  acquisitions: number;
  /** Times this process stopped its feeds because the lease went to another or could not be renewed in time. */
  losses: number;
}

/**
 * Runs this process's feeds only while it holds the store lease FEEDS_LEASE: `tick` (every leaseMs/3)
 * renews it, or takes it once the holder's lease has lapsed (a holder that died), and starts or stops
 * the feeds to match. A renewal that fails (store unreachable) keeps the feeds running only until the
 * last held lease runs out: past it another process may have taken over, so they stop.
 */
export function createFeedOwner(deps: FeedOwnerDeps) {
  let running: RunningFeeds | null = null;
  let since: number | null = null;
  let heldUntil: number | null = null;
  let lastTickAt: number | null = null;
  let acquisitions = 0;
  let losses = 0;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };

  async function stopFeeds(reason: string): Promise<void> {
    const feeds = running;
    running = null;
    since = null;
    heldUntil = null;
    losses++;
    deps.logger?.warn({ reason }, 'feed lease lost: feeds stopped in this process');
    await feeds?.stop();
  }

  async function tick(): Promise<boolean> {
    if (closed) return false;
    const now = deps.clock.now();
    lastTickAt = now;
    let held: boolean;
    try {
      held = await deps.leases.claim(FEEDS_LEASE, deps.owner, now, deps.leaseMs);
    } catch (err) {
      if (running && heldUntil !== null && deps.clock.now() >= heldUntil) await stopFeeds('lease not renewed before it ran out');
      throw err;
    }
    if (held) {
      heldUntil = now + deps.leaseMs;
      if (!running) {
        try {
          running = await deps.start();
        } catch (err) {
          heldUntil = null;
          await deps.leases.release(FEEDS_LEASE, deps.owner, deps.clock.now()).catch(() => {});
          throw err;
        }
        since = now;
        acquisitions++;
        deps.logger?.info({ owner: deps.owner }, 'feed lease taken: feeds run in this process');
      }
      return true;
    }
    if (running) await stopFeeds('another process holds the lease');
    return false;
  }

  function status(): FeedOwnerStatus {
    return { holdsLease: running !== null, since, heldUntil, lastTickAt, acquisitions, losses };
  }

  return {
    /** Renews or takes the lease and starts or stops the feeds to match; true while this process holds it. */
    tick: () => serial(tick),
    /** Stops the feeds and gives the lease up (process stop): another process takes over at its next tick. */
    stop: () =>
      serial(async () => {
        closed = true;
        if (!running) return;
        const feeds = running;
        running = null;
        since = null;
        heldUntil = null;
        await feeds.stop();
        await deps.leases.release(FEEDS_LEASE, deps.owner, deps.clock.now());
      }),
    status,
    holds: (): boolean => running !== null,
    /** The `feed_owner` component of /v1/status. */
    statusReporter: (): StatusReporter => ({
      name: 'feed_owner',
      report: () => {
        const s = status();
        return {
          owner: deps.owner,
          holds_lease: s.holdsLease,
          since: isoOrNull(s.since),
          held_until: isoOrNull(s.heldUntil),
          last_tick_at: isoOrNull(s.lastTickAt),
          acquisitions: s.acquisitions,
          losses: s.losses,
        };
      },
    }),
  };
}
export type FeedOwner = ReturnType<typeof createFeedOwner>;
