import type { Logger } from 'pino';
import type { BusEvent, BusHandler, EventBus } from './index.js';

/** The bus of a single process (the default): handlers run after the publisher's current step. */
export class InProcessBus implements EventBus {
  readonly kind = 'memory';
  private readonly channels = new Map<string, Set<BusHandler>>();

  constructor(private readonly log: Logger) {}

  async publish(channel: string, event: BusEvent): Promise<void> {
    const handlers = this.channels.get(channel);
    if (!handlers) return;
    // A copy of the event per publish, as a remote bus would deliver: subscribers cannot alter each other's view.
    const wire = JSON.stringify(event);
    for (const handler of [...handlers]) dispatch(handler, wire, this.log, channel);
  }

  subscribe(channel: string, handler: BusHandler): () => void {
    const handlers = this.channels.get(channel) ?? new Set<BusHandler>();
    handlers.add(handler);
    this.channels.set(channel, handlers);
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
    };
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.channels.clear();
  }
}

/** Runs one handler; a failing subscriber is logged and never affects the publisher or other subscribers. */
export function dispatch(handler: BusHandler, wire: string, log: Logger, channel: string): void {
  try {
    handler(JSON.parse(wire) as BusEvent);
  } catch (err) {
    log.error({ err, channel }, 'bus subscriber failed');
  }
}
