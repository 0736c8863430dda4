import type { Logger } from '../observability/logger.js';
import type { Clock } from '../platform/clock.js';
import { ConfigError, type Config } from '../platform/config.js';
import type { AisSink } from '../fleet/types.js';
import type { KnownVessels } from '../sim/start.js';
import { defaultFeeds } from './demo.js';
import { FeedManager } from './feed-manager.js';
import { feedRetryLog } from './retry-log.js';
import { createSource } from './sources/index.js';
import { FeedSpecError, parseFeedSpecs } from '../platform/feed-spec.js';

/**
 * The feeds `bosun serve` runs in-process: BOSUN_FEEDS, or the default (the demo fleet when the
 * simulator is available, else none). Sources are created but not started; a source that cannot
 * start rejects `start()` with a FeedStartError naming it.
 */
export function configuredFeeds(feeds: string | null, deps: { demo: Config['demo']; fleet: KnownVessels; sink: AisSink; clock: Clock; logger: Logger }): FeedManager {
  const manager = new FeedManager({ sink: deps.sink, clock: deps.clock, logger: deps.logger });
  try {
    for (const spec of parseFeedSpecs(feeds ?? defaultFeeds())) {
      manager.add(createSource(spec, { clock: deps.clock, onRetry: feedRetryLog(deps.logger), demo: { settings: deps.demo, fleet: deps.fleet, logger: deps.logger, sink: deps.sink } }));
    }
  } catch (e) {
    if (e instanceof FeedSpecError) throw new ConfigError(`invalid configuration:\n  BOSUN_FEEDS: ${e.message}`);
    throw e;
  }
  return manager;
}
