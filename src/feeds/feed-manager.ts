import { AisDecoder, type DecodedMessage, type DecoderStats } from '../ais/index.js';
import type { StatusReporter } from '../observability/status.js';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../platform/clock.js';
import { ConfigError } from '../platform/config.js';
import type { AisSink } from '../fleet/types.js';
import type { FeedSource, SourceStatus } from '../ais/line-source.js';
import { isoOrNull } from '../platform/clock.js';

/** Messages accepted between two `flush()` awaits of a source that reads as fast as it can. */
export const FLUSH_EVERY_MESSAGES = 4000;

export interface FeedManagerDeps {
  sink: AisSink;
  clock: Clock;
  logger?: Logger;
  flushEveryMessages?: number;
}

/** A source could not start (file missing, port in use): reported like a configuration error. */
export class FeedStartError extends ConfigError {}

/** One source's figures: its own status plus its decoder's counters. */
export interface FeedSourceReport extends SourceStatus {
  simulated: boolean;
  messages: number;
  /** Decoder rejections by reason (only reasons that occurred). */
  errors: Record<string, number>;
  /** Reception time of the last decoded message. */
  lastMessageAt: number | null;
  /** Observation time (tag block / trailer / reception) of the last decoded message. */
  lastObservedAt: number | null;
}

class Pipeline {
  readonly decoder: AisDecoder;
  private receivedAt = 0;
  messages = 0;
  lastMessageAt: number | null = null;
  lastObservedAt: number | null = null;
  sinceFlush = 0;
  private flushing: Promise<void> | null = null;

  constructor(
    readonly source: FeedSource,
    readonly simulated: boolean,
    private readonly sink: AisSink,
    private readonly flushEvery: number,
  ) {
    this.decoder = new AisDecoder({ keepSentences: false }, (message) => this.accept(message));
  }

  readonly onLine = (line: string, receivedAt: number): void => {
    this.receivedAt = receivedAt;
    this.decoder.feed(line, receivedAt);
  };

  private accept(message: DecodedMessage): void {
    const observedAt = message.meta.receivedAtMs ?? this.receivedAt;
    this.sink.acceptMessage(message, { observedAt, receivedAt: this.receivedAt, source: this.source.name, simulated: this.simulated });
    this.messages++;
    this.sinceFlush++;
    this.lastMessageAt = this.receivedAt;
    this.lastObservedAt = observedAt;
  }

  readonly drain = (): Promise<void> => {
    if (this.flushing) return this.flushing;
    if (this.sinceFlush < this.flushEvery) return Promise.resolve();
    this.sinceFlush = 0;
    this.flushing = this.sink.flush().finally(() => (this.flushing = null));
    return this.flushing;
  };

  report(): FeedSourceReport {
    const stats: DecoderStats = this.decoder.stats();
    const errors: Record<string, number> = {};
    for (const [reason, count] of Object.entries(stats.errors)) if (count > 0) errors[reason] = count;
    return {
      ...this.source.status(),
      simulated: this.simulated,
      messages: this.messages,
      errors,
      lastMessageAt: this.lastMessageAt,
      lastObservedAt: this.lastObservedAt,
    };
  }
}

/**
 * Runs feed sources: each source's lines go through its own AisDecoder into the AisSink, labelled
 * with the source's name. Finite sources can be awaited with `done()`.
 */
export class FeedManager {
  private readonly pipelines: Pipeline[] = [];
  private started = false;

  constructor(private readonly deps: FeedManagerDeps) {}

  add(source: FeedSource): this {
    if (this.started) throw new Error('add sources before start()');
    const simulated = source.status().kind === 'demo';
    this.pipelines.push(new Pipeline(source, simulated, this.deps.sink, this.deps.flushEveryMessages ?? FLUSH_EVERY_MESSAGES));
    return this;
  }

  get size(): number {
    return this.pipelines.length;
  }

  /** Starts every source; if one cannot start, the others are stopped and the error is thrown. */
  async start(): Promise<void> {
    this.started = true;
    try {
      for (const pipeline of this.pipelines) {
        await pipeline.source.start(pipeline.onLine, { drain: pipeline.drain });
        this.deps.logger?.info({ source: pipeline.source.name }, 'feed started');
      }
    } catch (e) {
      await this.stop();
      throw new FeedStartError((e as Error).message);
    }
  }

  /** Resolves when every source has ended (never while a network source runs), after a final flush. */
  async done(): Promise<void> {
    await Promise.all(this.pipelines.map((p) => p.source.done()));
    this.endDecoders();
    await this.deps.sink.flush();
  }

  /** Stops every source and flushes what was accepted. */
  async stop(): Promise<void> {
    await Promise.all(this.pipelines.map((p) => p.source.stop().catch(() => {})));
    this.endDecoders();
    await this.deps.sink.flush();
  }

  private endDecoders(): void {
    for (const pipeline of this.pipelines) pipeline.decoder.flush();
  }

  reports(): FeedSourceReport[] {
    return this.pipelines.map((p) => p.report());
  }

  /** The `feeds` component of /v1/status. */
  statusReporter(): StatusReporter {
    return { name: 'feeds', report: () => ({ sources: this.reports().map(reportToJson) }) };
  }
}

/** A source report as JSON (snake_case, ISO times), as /v1/status and `bosun ingest --json` print it. */
export function reportToJson(report: FeedSourceReport): Record<string, unknown> {
  return {
    name: report.name,
    kind: report.kind,
    state: report.state,
    simulated: report.simulated,
    lines: report.lines,
    bytes: report.bytes,
    messages: report.messages,
    errors: report.errors,
    overlong_lines: report.overlongLines ?? 0,
    reconnects: report.reconnects,
    ...(report.clients !== undefined ? { clients: report.clients } : {}),
    last_line_at: isoOrNull(report.lastLineAt),
    last_message_at: isoOrNull(report.lastMessageAt),
    last_observed_at: isoOrNull(report.lastObservedAt),
    last_error: report.lastError,
  };
}
