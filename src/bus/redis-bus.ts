import type { Redis } from 'ioredis';
import { closeRedis, settleWithin } from './close-redis.js';
import { Subscribers, type Bus, type BusFilter, type BusHandler, type BusPayload } from './bus.js';

/**
 * Redis pub/sub across processes. Publishing uses the shared connection; subscribing needs a
 * connection of its own (a subscribed Redis connection accepts no other commands). Channels are
 * `<prefix>bus:<topic>`, so test runs and deployments sharing a Redis stay apart.
 */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly subscriber: Redis;
  private readonly subscribers: Subscribers;
  private pending: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly publisher: Redis,
    private readonly prefix: string,
    onError: (topic: string, err: unknown) => void = () => {},
  ) {
    this.subscribers = new Subscribers(onError);
    // The subscriber connects now, queues (re)subscriptions until connected and has no command
    // timeout, whatever the publisher's settings (docs/decisions/012).
    this.subscriber = publisher.duplicate({ lazyConnect: false, enableOfflineQueue: true, enableReadyCheck: false, commandTimeout: undefined });
    this.subscriber.on('error', (err) => onError('(connection)', err));
    this.subscriber.on('message', (channel: string, message: string) => {
      if (!channel.startsWith(this.channelPrefix)) return;
      let payload: BusPayload;
      try {
        payload = JSON.parse(message);
      } catch (err) {
        onError(channel, err);
        return;
      }
      this.subscribers.deliver(channel.slice(this.channelPrefix.length), payload);
    });
  }

  private get channelPrefix(): string {
    return this.prefix + 'bus:';
  }

  async publish(topic: string, payload: BusPayload): Promise<void> {
    if (this.closed) return;
    await this.publisher.publish(this.channelPrefix + topic, JSON.stringify(payload ?? null));
  }

  subscribe(topic: string, handler: BusHandler, filter?: BusFilter): () => void {
    const { first, remove } = this.subscribers.add(topic, handler, filter);
    if (first) this.track(this.subscriber.subscribe(this.channelPrefix + topic));
    return () => {
      if (remove().last && !this.closed) this.track(this.subscriber.unsubscribe(this.channelPrefix + topic));
    };
  }

  async ready(): Promise<void> {
    let current: Promise<unknown>;
    do {
      current = this.pending;
      await current;
    } while (current !== this.pending);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subscribers.clear();
    // Closing first: subscribe calls still waiting on a reconnecting connection then fail instead of holding shutdown.
    await closeRedis(this.subscriber);
    await settleWithin(this.pending);
  }

  private track(operation: Promise<unknown>): void {
    const previous = this.pending;
    this.pending = Promise.all([previous, operation.catch(() => {})]);
  }
}
