import { Subscribers, type Bus, type BusFilter, type BusHandler, type BusPayload } from './bus.js';

const jsonCopy = (payload: BusPayload): BusPayload => JSON.parse(JSON.stringify(payload));

/**
 * One process: handlers run synchronously inside publish, with a JSON copy like Redis would deliver
 * (made once per message, and not at all when every subscriber's filter declines it).
 */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly subscribers: Subscribers;
  private closed = false;

  constructor(onHandlerError: (topic: string, err: unknown) => void = () => {}) {
    this.subscribers = new Subscribers(onHandlerError);
  }

  async publish(topic: string, payload: BusPayload): Promise<void> {
    if (this.closed) return;
    this.subscribers.deliver(topic, payload ?? null, jsonCopy);
  }

  subscribe(topic: string, handler: BusHandler, filter?: BusFilter): () => void {
    const { remove } = this.subscribers.add(topic, handler, filter);
    return () => void remove();
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
  }
}
