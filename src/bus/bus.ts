/** A payload that survives JSON: what a Redis channel can carry. */
export type BusPayload = unknown;
export type BusHandler = (payload: BusPayload) => void;
/**
 * Decides from the payload as published (before any copy; must not modify it) whether a
 * subscriber wants it, e.g. to skip its own process's events without the cost of a copy.
 */
export type BusFilter = (payload: BusPayload) => boolean;

/**
 * Publish/subscribe between components and, with Redis, between processes. Delivery is
 * at-most-once and best effort: subscribers use messages as wake-ups or hints and read the
 * store for anything that must not be missed.
 */
export interface Bus {
  readonly kind: 'memory' | 'redis';
  publish(topic: string, payload: BusPayload): Promise<void>;
  /** Returns the function that ends this subscription. Messages the filter rejects are not delivered. */
  subscribe(topic: string, handler: BusHandler, filter?: BusFilter): () => void;
  /** Resolves once every subscription made so far receives messages (immediate in memory). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Topic-to-handlers registry shared by both backends; a failing handler never affects the others. */
export class Subscribers {
  private readonly byTopic = new Map<string, Set<{ handler: BusHandler; filter: BusFilter | undefined }>>();

  constructor(private readonly onHandlerError: (topic: string, err: unknown) => void) {}

  add(topic: string, handler: BusHandler, filter?: BusFilter): { first: boolean; remove: () => { last: boolean } } {
    let handlers = this.byTopic.get(topic);
    const first = handlers === undefined;
    if (!handlers) {
      handlers = new Set();
      this.byTopic.set(topic, handlers);
    }
    const wrapped = { handler, filter };
    handlers.add(wrapped);
    let removed = false;
    return {
      first,
      remove: () => {
        if (removed) return { last: false };
        removed = true;
        handlers.delete(wrapped);
        if (handlers.size === 0 && this.byTopic.get(topic) === handlers) {
          this.byTopic.delete(topic);
          return { last: true };
        }
        return { last: false };
      },
    };
  }

  /** `copy` makes what handlers receive from the payload; it runs once, and only if some filter accepts. */
  deliver(topic: string, payload: BusPayload, copy: (payload: BusPayload) => BusPayload = (p) => p): void {
    const handlers = this.byTopic.get(topic);
    if (!handlers) return;
    let delivered: { payload: BusPayload } | undefined;
    for (const { handler, filter } of [...handlers]) {
      try {
        if (filter && !filter(payload)) continue;
        delivered ??= { payload: copy(payload) };
        handler(delivered.payload);
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
