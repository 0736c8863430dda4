import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Clock } from '../../platform/clock.js';
import { LineSplitter } from '../line-splitter.js';
import { recordedLineTime } from '../line-time.js';
import type { ReplayPace } from '../../platform/feed-spec.js';
import { BaseSource } from './base.js';

/** Waiting in replay; tests substitute one that moves a ManualClock instead of sleeping. */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
}

export const realSleeper: Sleeper = { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/**
 * Holds lines back so they are delivered at their recorded spacing divided by `speed`: the first
 * timed line sets the origin; untimed lines go out with the previous one; time running backwards
 * does not wait.
 */
export class ReplayPacer {
  private originRecorded: number | null = null;
  private originWall = 0;

  constructor(
    private readonly clock: Clock,
    private readonly sleeper: Sleeper,
    private readonly speed: number,
  ) {}

  /** Resolves when `line` is due, or returns null when it is due already (the common case). */
  wait(line: string): Promise<void> | null {
    const recorded = recordedLineTime(line);
    if (recorded === null) return null;
    if (this.originRecorded === null) {
      this.originRecorded = recorded;
      this.originWall = this.clock.now();
      return null;
    }
    const due = this.originWall + (recorded - this.originRecorded) / this.speed;
    const delay = due - this.clock.now();
    return delay >= 1 ? this.sleeper.sleep(delay) : null;
  }
}

export interface StreamSourceOptions {
  pace?: ReplayPace;
  sleeper?: Sleeper;
}

/** Lines from a finite byte stream: a file (plain or gzip) or standard input. */
export class StreamSource extends BaseSource {
  private stopping = false;
  private input: NodeJS.ReadableStream | null = null;
  private readonly pacer: ReplayPacer | null;

  private constructor(
    name: string,
    kind: 'file' | 'stdin',
    clock: Clock,
    private readonly openInput: () => Promise<NodeJS.ReadableStream>,
    options: StreamSourceOptions,
  ) {
    super(name, kind, clock);
    const pace = options.pace ?? { kind: 'fast' };
    this.pacer = pace.kind === 'recorded' ? new ReplayPacer(clock, options.sleeper ?? realSleeper, pace.speed) : null;
  }

  /** A file, gunzipped when it starts with the gzip magic bytes. */
  static file(name: string, path: string, clock: Clock, options: StreamSourceOptions = {}): StreamSource {
    return new StreamSource(name, 'file', clock, () => openMaybeGzip(path), options);
  }

  static stream(name: string, kind: 'file' | 'stdin', input: NodeJS.ReadableStream, clock: Clock, options: StreamSourceOptions = {}): StreamSource {
    return new StreamSource(name, kind, clock, async () => input, options);
  }

  protected async open(): Promise<void> {
    try {
      this.input = await this.openInput();
    } catch (e) {
      this.lastError = (e as Error).message;
      this.markDone('failed');
      throw new Error(`${this.name}: cannot read: ${(e as Error).message}`);
    }
    this.state = 'connected';
    void this.pump(this.input);
  }

  private async pump(input: NodeJS.ReadableStream): Promise<void> {
    const splitter = new LineSplitter();
    try {
      for await (const chunk of input) {
        if (this.stopping) break;
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : (chunk as Buffer);
        if (this.pacer) {
          this.bytes += buffer.length;
          const before = splitter.overlong;
          const lines = splitter.push(buffer);
          this.overlongDropped += splitter.overlong - before;
          await this.deliverPaced(lines);
        } else {
          this.receive(splitter, buffer);
        }
        await this.control.drain();
      }
      if (!this.stopping) await this.deliverPaced(splitter.end());
      this.markDone(this.stopping ? 'stopped' : 'finished');
    } catch (e) {
      this.lastError = (e as Error).message;
      this.markDone(this.stopping ? 'stopped' : 'failed');
    }
  }

  private async deliverPaced(lines: string[]): Promise<void> {
    if (!this.pacer) return this.deliver(lines);
    for (const line of lines) {
      if (this.stopping) return;
      const wait = this.pacer.wait(line);
      if (wait) await wait;
      this.deliver([line]);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const input = this.input as (NodeJS.ReadableStream & { destroy?: () => void }) | null;
    if (input && input !== process.stdin) input.destroy?.();
    if (input === process.stdin) process.stdin.pause();
    this.markDone('stopped');
  }
}

async function openMaybeGzip(path: string): Promise<NodeJS.ReadableStream> {
  const handle = await open(path, 'r');
  const magic = Buffer.alloc(2);
  try {
    await handle.read(magic, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) return raw;
  const gunzip = createGunzip({ chunkSize: 1 << 20 });
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}
