import type { Clock } from '../../platform/clock.js';
import { LineSplitter } from '../line-splitter.js';
import type { FeedSource, LineSink, SourceControl, SourceStatus } from '../../ais/line-source.js';

const NO_BACKPRESSURE: SourceControl = { drain: () => Promise.resolve() };

/** Status bookkeeping and line delivery shared by every source. */
export abstract class BaseSource implements FeedSource {
  protected state: SourceStatus['state'] = 'starting';
  protected lines = 0;
  protected bytes = 0;
  protected lastLineAt: number | null = null;
  protected lastError: string | null = null;
  protected reconnects = 0;
  protected overlongDropped = 0;
  protected sink: LineSink = () => {};
  protected control: SourceControl = NO_BACKPRESSURE;
  private finish!: () => void;
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(
    readonly name: string,
    protected readonly kind: SourceStatus['kind'],
    protected readonly clock: Clock,
  ) {}

  async start(sink: LineSink, control?: SourceControl): Promise<void> {
    this.sink = sink;
    if (control) this.control = control;
    await this.open();
  }

  protected abstract open(): Promise<void>;

  done(): Promise<void> {
    return this.finished;
  }

  abstract stop(): Promise<void>;

  private ended = false;

  /** The first call decides the final state (a finished file stays finished when stopped later). */
  protected markDone(state: 'finished' | 'stopped' | 'failed'): void {
    if (this.ended) return;
    this.ended = true;
    this.state = state;
    this.finish();
  }

  /** Splits a received chunk with `splitter` and delivers its complete lines. */
  protected receive(splitter: LineSplitter, chunk: Buffer): void {
    this.bytes += chunk.length;
    const before = splitter.overlong;
    const lines = splitter.push(chunk);
    this.overlongDropped += splitter.overlong - before;
    this.deliver(lines);
  }

  protected deliver(lines: readonly string[]): void {
    if (lines.length === 0) return;
    const now = this.clock.now();
    for (const line of lines) this.sink(line, now);
    this.lines += lines.length;
    this.lastLineAt = now;
  }

  status(): SourceStatus {
    return {
      name: this.name,
      kind: this.kind,
      state: this.state,
      lines: this.lines,
      bytes: this.bytes,
      lastLineAt: this.lastLineAt,
      lastError: this.lastError,
      reconnects: this.reconnects,
      overlongLines: this.overlongDropped,
    };
  }
}
