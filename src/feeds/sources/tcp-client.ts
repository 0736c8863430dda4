import { connect, type Socket } from 'node:net';
import type { Clock } from '../../platform/clock.js';
import { LineSplitter } from '../line-splitter.js';
import { BaseSource } from './base.js';

export interface TcpClientOptions {
  host: string;
  port: number;
  /** First reconnect delay; doubles per failed attempt up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A connection silent for this long is considered dead and replaced. */
  idleTimeoutMs?: number;
  /** Told of each lost or refused connection: the error, the delay before the next attempt, and how many attempts failed in a row. */
  onRetry?: (retry: { error: string; delayMs: number; failedAttempts: number }) => void;
}

/** Connects to a receiver's or aggregator's NMEA TCP port and keeps reconnecting. */
export class TcpClientSource extends BaseSource {
  private socket: Socket | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failedAttempts = 0;
  private stopping = false;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly idleTimeoutMs: number;

  constructor(
    name: string,
    clock: Clock,
    private readonly options: TcpClientOptions,
  ) {
    super(name, 'tcp-client', clock);
    this.initialBackoffMs = options.initialBackoffMs ?? 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  }

  protected async open(): Promise<void> {
    this.connect();
  }

  /** Delay before the next attempt after `failedAttempts` consecutive failures. */
  backoffMs(failedAttempts: number): number {
    return Math.min(this.maxBackoffMs, this.initialBackoffMs * 2 ** Math.max(0, failedAttempts - 1));
  }

  private connect(): void {
    const splitter = new LineSplitter();
    const socket = connect({ host: this.options.host, port: this.options.port });
    this.socket = socket;
    socket.setKeepAlive(true, 30_000);
    socket.setTimeout(this.idleTimeoutMs);
    socket.on('connect', () => {
      this.state = 'connected';
      this.failedAttempts = 0;
    });
    socket.on('data', (chunk: Buffer) => {
      this.receive(splitter, chunk);
      const drained = this.control.drain();
      socket.pause();
      drained.then(
        () => socket.resume(),
        () => socket.resume(),
      );
    });
    socket.on('timeout', () => {
      this.lastError = `no data for ${Math.round(this.idleTimeoutMs / 1000)} s`;
      socket.destroy();
    });
    socket.on('error', (e) => {
      this.lastError = e.message;
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopping) return;
      this.failedAttempts++;
      this.reconnects++;
      this.state = 'reconnecting';
      const delayMs = this.backoffMs(this.failedAttempts);
      this.options.onRetry?.({ error: this.lastError ?? 'connection closed', delayMs, failedAttempts: this.failedAttempts });
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.stopping) this.connect();
      }, delayMs);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
    this.markDone('stopped');
  }
}
