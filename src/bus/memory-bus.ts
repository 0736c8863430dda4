import { Subscribers, type Bus, type BusHandler, type BusPayload } from './bus.js';

/** One process: handlers run synchronously inside publish, with a JSON copy like Redis would deliver. */
export class MemoryBus implements Bus {
  readonly kind = 'memory' as const;
  private readonly subscribers: Subscribers;
  private closed = false;

  constructor(onHandlerError: (topic: string, err: unknown) => void = () => {}) {
    this.subscribers = new Subscribers(onHandlerError);
  }

  async publish(topic: string, payload: BusPayload): Promise<void> {
    if (this.closed) return;
    this.subscribers.deliver(topic, JSON.parse(JSON.stringify(payload ?? null)));
  }

  subscribe(topic: string, handler: BusHandler): () => void {
    const { remove } = this.subscribers.add(topic, handler);
    return () => void remove();
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    this.subscribers.clear();
  }
}
