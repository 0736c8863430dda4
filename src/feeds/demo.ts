import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { AisSink } from '../fleet/types.js';
import type { Logger } from '../observability/logger.js';
import { createDemoFeed, type KnownVessels } from '../sim/start.js';
import type { FeedSource } from '../ais/line-source.js';

export interface DemoFeedDeps {
  /** BOSUN_DEMO_*: fleet size, seed, backfill days. */
  settings: Config['demo'];
  fleet: KnownVessels;
  logger: Logger;
  /** Where backfilled history goes directly (live lines go through the feed pipeline). */
  sink: AisSink;
  clock: Clock;
  /** The name its observations are labelled with (`demo-simulator`). */
  name: string;
}

/** The demo fleet simulator (src/sim/) as a feed of kind `demo`: backfill at start, then live AIVDM lines. */
export const demoFeedFactory = (deps: DemoFeedDeps): FeedSource => createDemoFeed({ ...deps, background: true });

/** What an unset BOSUN_FEEDS means: the demo fleet, labelled simulated everywhere it is served. */
export const defaultFeeds = (): string => 'demo';
