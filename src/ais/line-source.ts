/**
 * A feed source delivers raw NMEA lines (one sentence per line, tag blocks kept) to the pipeline.
 * Sources never decode; the feed manager runs each source's lines through its own AisDecoder
 * and into the fleet's AisSink.
 */
export interface LineSink {
  /** One line as received, without its line terminator; `receivedAt` is epoch ms. */
  (line: string, receivedAt: number): void;
}

export interface SourceStatus {
  /** Stable display name, e.g. `tcp:ais.example.org:5631`. */
  name: string;
  kind: 'tcp-client' | 'tcp-server' | 'udp' | 'file' | 'stdin' | 'demo';
  state: 'starting' | 'connected' | 'listening' | 'reconnecting' | 'finished' | 'stopped' | 'failed';
  lines: number;
  bytes: number;
  lastLineAt: number | null;
  /** Last connection or read error, if any. */
  lastError: string | null;
  reconnects: number;
  /** Lines dropped for exceeding the line length cap. */
  overlongLines?: number;
  /** Connected clients (TCP server). */
  clients?: number;
}

export interface FeedSource {
  readonly name: string;
  /** Starts delivering lines to `sink`; resolves once started (listening / connecting / reading). */
  start(sink: LineSink, control?: SourceControl): Promise<void>;
  /** Resolves when a finite source (file, stdin) has delivered its last line; never for network sources until stopped. */
  done(): Promise<void>;
  stop(): Promise<void>;
  status(): SourceStatus;
}

/** What the pipeline offers a source beyond the line sink. */
export interface SourceControl {
  /**
   * Backpressure: sources that can read faster than the store writes (file replay, stdin, demo
   * backfill) await this between chunks; it resolves at once unless a flush is due.
   */
  drain(): Promise<void>;
}
