import type { AppContext } from '../app/context.js';
import type { Clock } from '../clock.js';
import type { AisSink } from '../fleet/types.js';
import type { FeedSource } from './types.js';

export interface DemoFeedDeps {
  ctx: AppContext;
  /** Where backfilled history goes directly (live lines go through the feed pipeline). */
  sink: AisSink;
  clock: Clock;
  /** The name its observations are labelled with (`demo-simulator`). */
  name: string;
}

/**
 * Hook for the demo fleet simulator (src/sim/): a factory returning a FeedSource of kind `demo`
 * (backfill, then live AIVDM lines). Null until the simulator is wired here; while it is null the
 * `demo` feed is refused at start and an unset BOSUN_FEEDS means no feeds.
 */
export const demoFeedFactory: ((deps: DemoFeedDeps) => FeedSource) | null = null;

/** What an unset BOSUN_FEEDS means. */
export const defaultFeeds = (): string => (demoFeedFactory ? 'demo' : 'none');
