import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ioredis } from '../redis/packages.js';
import { dispatch } from './in-process.js';
import type { BusEvent, BusHandler, EventBus } from './index.js';

const PREFIX = 'keepsake:bus:';

/** Redis pub/sub: one connection publishes, a second one (subscriber mode) listens for this process. */
export class RedisBus implements EventBus {
  readonly kind = 'redis';
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new Map<string, Set<BusHandler>>();

  constructor(
    url: string,
    private readonly log: Logger,
  ) {
    const { Redis } = ioredis();
    this.publisher = new Redis(url, { maxRetriesPerRequest: 2 });
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => log.warn({ err }, 'redis bus connection error'));
    }
    this.subscriber.on('message', (prefixed: string, wire: string) => {
      const channel = prefixed.slice(PREFIX.length);
      for (const handler of [...(this.channels.get(channel) ?? [])]) dispatch(handler, wire, log, channel);
    });
  }

  async publish(channel: string, event: BusEvent): Promise<void> {
    await this.publisher.publish(PREFIX + channel, JSON.stringify(event));
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
      this.subscriber
        .subscribe(PREFIX + channel)
        .catch((err) => this.log.error({ err, channel }, 'redis subscribe failed'));
    }
    handlers.add(handler);
    const own = handlers;
    return () => {
      own.delete(handler);
      if (own.size > 0 || this.channels.get(channel) !== own) return;
      this.channels.delete(channel);
      this.subscriber
        .unsubscribe(PREFIX + channel)
        .catch((err) => this.log.warn({ err, channel }, 'redis unsubscribe failed'));
    };
  }

  /** Resolves once the subscriber connection listens on every channel subscribed so far. */
  async ready(): Promise<void> {
    await this.subscriber.ping();
  }

  async close(): Promise<void> {
    this.channels.clear();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
