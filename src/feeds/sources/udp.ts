import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../platform/clock.js';
import { LineSplitter } from '../line-splitter.js';
import { BaseSource } from './base.js';

/** Receives NMEA datagrams (one or more lines each), as receivers and AIS dispatchers send them. */
export class UdpSource extends BaseSource {
  private socket: Socket | null = null;
  private readonly splitter = new LineSplitter();

  constructor(
    name: string,
    clock: Clock,
    private readonly host: string,
    private readonly port: number,
  ) {
    super(name, 'udp', clock);
  }

  protected async open(): Promise<void> {
    const socket = createSocket({ type: this.host.includes(':') ? 'udp6' : 'udp4', reuseAddr: true });
    this.socket = socket;
    socket.on('message', (datagram: Buffer) => {
      this.receive(this.splitter, datagram);
      // A datagram ends its last line even without a terminator.
      this.deliver(this.splitter.end());
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.port, this.host, () => {
        socket.off('error', reject);
        resolve();
      });
    }).catch((e: Error) => {
      this.lastError = e.message;
      this.markDone('failed');
      throw new Error(`${this.name}: cannot bind: ${e.message}`);
    });
    socket.on('error', (e) => (this.lastError = e.message));
    this.state = 'listening';
  }

  address(): AddressInfo {
    return this.socket!.address();
  }

  async stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
    this.markDone('stopped');
  }
}
