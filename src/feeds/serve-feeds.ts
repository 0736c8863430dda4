import type { AppContext } from '../app/context.js';
import type { Logger } from '../app/logger.js';
import type { Clock } from '../clock.js';
import { ConfigError } from '../config.js';
import type { AisSink } from '../fleet/types.js';
import { defaultFeeds } from './demo.js';
import { FeedManager } from './feed-manager.js';
import { createSource } from './sources/index.js';
import { FeedSpecError, parseFeedSpecs } from './spec.js';

/**
 * The feeds `bosun serve` runs in-process: BOSUN_FEEDS, or the default (the demo fleet when the
 * simulator is available, else none). Sources are created but not started; a source that cannot
 * start rejects `start()` with a FeedStartError naming it.
 */
export function configuredFeeds(feeds: string | null, deps: { ctx: AppContext; sink: AisSink; clock: Clock; logger: Logger }): FeedManager {
  const manager = new FeedManager({ sink: deps.sink, clock: deps.clock, logger: deps.logger });
  try {
    for (const spec of parseFeedSpecs(feeds ?? defaultFeeds())) {
      manager.add(createSource(spec, { clock: deps.clock, demo: { ctx: deps.ctx, sink: deps.sink } }));
    }
  } catch (e) {
    if (e instanceof FeedSpecError) throw new ConfigError(`invalid configuration:\n  BOSUN_FEEDS: ${e.message}`);
    throw e;
  }
  return manager;
}
