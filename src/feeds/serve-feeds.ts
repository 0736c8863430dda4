import type { AppContext } from '../app/context.js';
import type { Logger } from '../app/logger.js';
import type { Clock } from '../clock.js';
import type { AisSink } from '../fleet/types.js';
import { defaultFeeds } from './demo.js';
import { FeedManager } from './feed-manager.js';
import { createSource } from './sources/index.js';
import { parseFeedSpecs } from './spec.js';

/**
 * The feeds `bosun serve` runs in-process: BOSUN_FEEDS, or the default (the demo fleet when the
 * simulator is available, else none). Sources are created but not started.
 */
export function configuredFeeds(feeds: string | null, deps: { ctx: AppContext; sink: AisSink; clock: Clock; logger: Logger }): FeedManager {
  const manager = new FeedManager({ sink: deps.sink, clock: deps.clock, logger: deps.logger });
  for (const spec of parseFeedSpecs(feeds ?? defaultFeeds())) {
    manager.add(createSource(spec, { clock: deps.clock, demo: { ctx: deps.ctx, sink: deps.sink } }));
  }
  return manager;
}
