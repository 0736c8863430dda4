/** A payload that survives JSON: what a Redis channel can carry. */
export type BusPayload = unknown;
export type BusHandler = (payload: BusPayload) => void;

/**
 * Publish/subscribe between components and, with Redis, between processes. Delivery is
 * at-most-once and best effort: subscribers use messages as wake-ups or hints and read the
 * store for anything that must not be missed.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(topic: string, payload: BusPayload): Promise<void>;
  /** Returns the function that ends this subscription. */
  subscribe(topic: string, handler: BusHandler): () => void;
  /** Resolves once every subscription made so far receives messages (immediate in memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Topic-to-handlers registry shared by both backends; a failing handler never affects the others. */
export class Subscribers {
  private readonly byTopic = new Map<string, Set<BusHandler>>();

  constructor(private readonly onHandlerError: (topic: string, err: unknown) => void) {}

  add(topic: string, handler: BusHandler): { first: boolean; remove: () => { last: boolean } } {
    let handlers = this.byTopic.get(topic);
    const first = handlers === undefined;
    if (!handlers) {
      handlers = new Set();
      this.byTopic.set(topic, handlers);
    }
    const wrapped: BusHandler = (payload) => handler(payload);
    handlers.add(wrapped);
    let removed = false;
    return {
      first,
      remove: () => {
        if (removed) return { last: false };
        removed = true;
        handlers!.delete(wrapped);
        if (handlers!.size === 0 && this.byTopic.get(topic) === handlers) {
          this.byTopic.delete(topic);
          return { last: true };
        }
        return { last: false };
      },
    };
  }

  deliver(topic: string, payload: BusPayload): void {
    const handlers = this.byTopic.get(topic);
    if (!handlers) return;
    for (const handler of [...handlers]) {
      try {
        handler(payload);
      } catch (err) {
        this.onHandlerError(topic, err);
      }
    }
  }

  topics(): string[] {
    return [...this.byTopic.keys()];
  }

  clear(): void {
    this.byTopic.clear();
  }
}
