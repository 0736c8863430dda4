import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Clock } from '../../platform/clock.js';
import { LineSplitter } from '../line-splitter.js';
import type { SourceStatus } from '../../ais/line-source.js';
import { BaseSource } from './base.js';

/** Accepts NMEA clients (receivers pushing to us, e.g. AIS dispatcher or a plotter's output). */
export class TcpServerSource extends BaseSource {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(
    name: string,
    clock: Clock,
    private readonly host: string,
    private readonly port: number,
  ) {
    super(name, 'tcp-server', clock);
  }

  protected async open(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((e: Error) => {
      this.lastError = e.message;
      this.markDone('failed');
      throw new Error(`${this.name}: cannot listen: ${e.message}`);
    });
    server.on('error', (e) => (this.lastError = e.message));
    this.state = 'listening';
  }

  /** The bound address (useful with port 0). */
  address(): AddressInfo {
    return this.server!.address() as AddressInfo;
  }

  private accept(socket: Socket): void {
    const splitter = new LineSplitter();
    this.sockets.add(socket);
    socket.setKeepAlive(true, 30_000);
    socket.on('data', (chunk: Buffer) => {
      this.receive(splitter, chunk);
      socket.pause();
      this.control.drain().then(
        () => socket.resume(),
        () => socket.resume(),
      );
    });
    socket.on('error', (e) => (this.lastError = e.message));
    socket.on('close', () => this.sockets.delete(socket));
  }

  override status(): SourceStatus {
    return { ...super.status(), clients: this.sockets.size };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    this.markDone('stopped');
  }
}
