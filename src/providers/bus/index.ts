import type { Logger } from 'pino';
import { InProcessBus } from './in-process.js';
import { RedisBus } from './redis.js';

/**
 * The event bus: live events for a user reach every process that serves one of that user's
 * connections (listen sockets, notification streams). In-process by default; Redis pub/sub when
 * REDIS_URL is set (DESIGN §2), so several `keepsake serve` processes share it.
 *
 * Usage:
 *   const off = ctx.bus.subscribe(userChannel(uid), (event) => { if (event.type === 'notification') … });
 *   await ctx.bus.publish(userChannel(uid), { type: 'memory_created', … });
 *   off(); // when the socket closes
 *
 * Events on a user's channel (`userChannel(uid)`), each a JSON object with a `type`:
 * - `notification`: {type, id, app_id, title, message, created_at} — a stored notification
 *   (integration endpoint or proactive); listen sockets forward it as is.
 * Other features add their types (e.g. `memory_created` from the listen finalization).
 * Delivery is at most once and only to subscribers alive at publish time: anything that must not be
 * lost is stored first (notifications are, in the notifications table).
 */
export interface BusEvent {
  type: string;
  [field: string]: unknown;
}

export type BusHandler = (event: BusEvent) => void;

export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, event: BusEvent): Promise<void>;
  /** Returns the function that unsubscribes this handler. */
  subscribe(channel: string, handler: BusHandler): () => void;
  /** Resolves once every subscription made so far is live (Redis subscribes asynchronously). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The channel of one user's live events. */
export function userChannel(userId: string): string {
  return `user:${userId}`;
}

export function createBus(redisUrl: string | null, log: Logger): EventBus {
  return redisUrl ? new RedisBus(redisUrl, log) : new InProcessBus(log);
}
