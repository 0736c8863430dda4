/**
 * Starting the demo fleet inside `bosun serve`:
 *
 *   const source = createDemoFeed({ settings: config.demo, fleet, logger, sink: fleet, clock, name: 'demo-simulator' });
 *   feedManager.add(source);   // kind `demo`: the feed pipeline labels its lines simulated
 *   await feedManager.start(); // source.start() backfills (progress bar on stderr), then goes live
 *
 * `createDemoFeed` has the shape of the feeds' `demoFeedFactory` hook (src/feeds/demo.ts).
 */
import { DAY, MINUTE, type Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { FleetService } from '../fleet/fleet-service.js';
import type { AisSink } from '../fleet/types.js';
import type { Logger } from '../observability/logger.js';
import { backfill, type BackfillProgress, type BackfillResult } from './backfill.js';
import { BACKFILL_RATES, DEMO_SOURCE, DemoFleet } from './fleet.js';
import { DemoFeedSource } from './live-source.js';
import { progressBar } from './progress.js';
import { seedFromText } from './random.js';

/** The vessels already in the fleet's state (to find where an earlier run's simulation stopped). */
export type KnownVessels = Pick<FleetService, 'vessels'>;

export interface DemoFeedOptions {
  /** BOSUN_DEMO_VESSELS, BOSUN_DEMO_SEED, BOSUN_DEMO_BACKFILL_DAYS. */
  settings: Config['demo'];
  fleet: KnownVessels;
  logger: Logger;
  /** Where backfilled history goes directly (live lines go through the feed pipeline). */
  sink: AisSink;
  clock: Clock;
  /** Feed name, `demo-simulator`. */
  name?: string;
  /** Backfill progress; default a progress bar on stderr. Null for none. */
  progress?: ((progress: BackfillProgress) => void) | null;
  /** Called once the backfill has run (or was not needed). */
  onBackfilled?: (result: BackfillResult | null) => void;
  /** Backfill behind a `start` that resolves at once (see DemoFeedSourceOptions.background). */
  background?: boolean;
}

class BackfillStopped extends Error {}

/** Below this gap since the newest simulated observation, live emission alone catches up. */
const MIN_BACKFILL_MS = 5 * MINUTE;

/** Observation time of the newest simulated position in the fleet's state, or null when there is none. */
export function newestSimulatedObservation(fleet: KnownVessels): number | null {
  let newest: number | null = null;
  for (const vessel of fleet.vessels()) {
    const fix = vessel.latest;
    if (fix?.simulated && (newest === null || fix.observedAt > newest)) newest = fix.observedAt;
  }
  return newest;
}

/**
 * The window to backfill at start: the configured days when the store has no simulated
 * positions yet, else from the newest simulated observation (a gap after downtime), capped at
 * the configured days. Null when nothing needs filling.
 */
export function backfillWindow(settings: Config['demo'], fleet: KnownVessels, now: number): { fromMs: number; toMs: number } | null {
  const days = settings.backfillDays;
  const earliest = now - days * DAY;
  const newest = newestSimulatedObservation(fleet);
  const fromMs = Math.floor(Math.max(earliest, newest ?? earliest) / 1000) * 1000;
  return now - fromMs >= MIN_BACKFILL_MS ? { fromMs, toMs: now } : null;
}

/** The demo fleet feed (backfill at start, then live). */
export function createDemoFeed(options: DemoFeedOptions): DemoFeedSource {
  const { settings: demo, fleet: knownVessels, logger, sink, clock } = options;
  const name = options.name ?? DEMO_SOURCE;
  return new DemoFeedSource({
    name,
    clock,
    background: options.background ?? false,
    prepare: async (stopped) => {
      const now = clock.now();
      const window = backfillWindow(demo, knownVessels, now);
      const fleet = new DemoFleet({ seed: seedFromText(demo.seed), vessels: demo.vessels, startMs: window?.fromMs ?? now, rates: BACKFILL_RATES });
      if (window === null) {
        options.onBackfilled?.(null);
        return fleet;
      }
      const bar = options.progress === undefined ? progressBar(process.stderr, 'demo fleet backfill') : null;
      const startedAt = performance.now();
      const result = await backfill({
        fleet,
        toMs: window.toMs,
        sink,
        clock,
        source: name,
        progress: (p) => {
          if (stopped()) throw new BackfillStopped('demo fleet backfill stopped');
          (options.progress ?? bar?.update)?.(p);
        },
      });
      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      bar?.finish(`${result.messages.toLocaleString('en-US')} messages from ${demo.vessels} simulated vessels in ${seconds} s`);
      logger.info({ source: name, from: new Date(result.fromMs).toISOString(), to: new Date(result.toMs).toISOString(), messages: result.messages, seconds: Number(seconds) }, 'demo fleet backfilled');
      options.onBackfilled?.(result);
      return fleet;
    },
  });
}
