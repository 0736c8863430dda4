/** The demo fleet as a live feed: AIVDM lines as the clock advances. */
import { MINUTE, type Clock } from '../platform/clock.js';
import type { FeedSource, LineSink, SourceStatus } from '../ais/line-source.js';
import { BACKFILL_RATES, LIVE_RATES, type DemoFleet } from './fleet.js';

/** After a longer pause (a suspended laptop, a stalled event loop) the gap is filled at backfill rates. */
const CATCH_UP_AFTER_MS = 5 * MINUTE;

export interface DemoFeedSourceOptions {
  name: string;
  clock: Clock;
  /** Creates the fleet, backfills, and returns the fleet to continue live from its cursor; stops early once `stopped()` is true. */
  prepare: (stopped: () => boolean) => Promise<DemoFleet>;
  /**
   * Let `start` resolve at once and backfill behind it (the serve command: the API answers during the
   * backfill, and /v1/status shows the source as starting). Default false: `start` resolves after it.
   */
  background?: boolean;
  /** Real-time period between emissions (default 1 s). */
  tickMs?: number;
}

export class DemoFeedSource implements FeedSource {
  readonly name: string;
  private fleet: DemoFleet | null = null;
  private sink: LineSink | null = null;
  private timer: NodeJS.Timeout | null = null;
  private state: SourceStatus['state'] = 'stopped';
  private lines = 0;
  private bytes = 0;
  private lastLineAt: number | null = null;
  private lastError: string | null = null;
  private finished: Promise<void>;
  private resolveFinished: () => void = () => {};
  private preparing: Promise<void> | null = null;

  constructor(private readonly options: DemoFeedSourceOptions) {
    this.name = options.name;
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  /** Backfills (awaited: history is in the store when this resolves), then emits live every tick. */
  async start(sink: LineSink): Promise<void> {
    this.state = 'starting';
    const prepared = this.options
      .prepare(() => this.state === 'stopped')
      .then(
        (fleet) => this.goLive(fleet, sink),
        (e: unknown) => {
          if (this.state === 'stopped') return;
          this.state = 'failed';
          this.lastError = (e as Error).message;
          throw e;
        },
      );
    if (!this.options.background) return prepared;
    this.preparing = prepared.catch(() => undefined);
  }

  private goLive(fleet: DemoFleet, sink: LineSink): void {
    if (this.state === 'stopped') return;
    this.fleet = fleet;
    this.sink = sink;
    this.state = 'connected';
    fleet.setRates(LIVE_RATES);
    this.timer = setInterval(() => this.tick(), this.options.tickMs ?? 1000);
    this.timer.unref();
  }

  /** Emits every report due up to the clock's now. */
  tick(): void {
    const { fleet, sink } = this;
    if (fleet === null || sink === null || this.state !== 'connected') return;
    const now = this.options.clock.now();
    const emit = (line: string) => {
      this.lines++;
      this.bytes += line.length + 2;
      this.lastLineAt = now;
      sink(line, now);
    };
    try {
      if (now - fleet.cursor > CATCH_UP_AFTER_MS) {
        fleet.setRates(BACKFILL_RATES);
        fleet.advanceTo(now - MINUTE, emit);
        fleet.setRates(LIVE_RATES);
      }
      fleet.advanceTo(now, emit);
    } catch (e) {
      this.lastError = (e as Error).message;
    }
  }

  done(): Promise<void> {
    return this.finished;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.state = 'stopped';
    // A backfill in progress notices the stop at its next progress step; wait so nothing writes after close.
    await this.preparing;
    this.resolveFinished();
  }

  status(): SourceStatus {
    return {
      name: this.name,
      kind: 'demo',
      state: this.state,
      lines: this.lines,
      bytes: this.bytes,
      lastLineAt: this.lastLineAt,
      lastError: this.lastError,
      reconnects: 0,
    };
  }
}
