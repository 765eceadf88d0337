import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import type { NotificationRow, NotificationsRepository } from '../../store/repositories/notifications.js';
import type { Database } from '../../store/schema.js';

export interface NotificationView {
  id: string;
  app_id: string | null;
  title: string;
  message: string;
  source: string;
  created_at: string;
}

export interface NewNotification {
  appId: string | null;
  title: string;
  message: string;
  /** integration | proactive */
  source: string;
}

/** Where a stored notification goes next: the push gateway (queued durably) and the live channel. */
export interface NotificationOutlets {
  /** Runs `store` in the transaction that queues the push-gateway call, when a gateway is configured. */
  storeAndQueuePush(
    userId: string,
    notification: NotificationView,
    store: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<void>;
  /** Publishes to the user's live channel (SSE streams, listen sockets, any process). */
  publishLive(userId: string, notification: NotificationView): Promise<void>;
  /** Listens to the user's live notifications; resolves, with the way to stop, once the listener is live. */
  subscribeLive(userId: string, listener: (notification: Record<string, unknown>) => void): Promise<() => void>;
}

export interface NotificationsDeps {
  notifications: NotificationsRepository;
  outlets: NotificationOutlets;
  clock: Clock;
  log: Logger;
}

/**
 * Delivery of a notification (DESIGN §5): stored (readable at GET /v1/notifications), its push-gateway
 * call queued in the same transaction, then published live to the user's channel (SSE streams and
 * listen sockets on any process).
 */
export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  async deliver(userId: string, input: NewNotification): Promise<NotificationView> {
    const row: NotificationRow = {
      id: randomUUID(),
      user_id: userId,
      app_id: input.appId,
      title: input.title,
      message: input.message,
      source: input.source,
      created_at: this.deps.clock.now(),
    };
    const view = toNotificationView(row);
    await this.deps.outlets.storeAndQueuePush(userId, view, (tx) => this.deps.notifications.insert(row, tx));
    // The live channel is best effort: the notification is already stored and readable.
    await this.deps.outlets
      .publishLive(userId, view)
      .catch((err) => this.deps.log.warn({ err, notificationId: row.id }, 'notification not published live'));
    return view;
  }

  /** Live notifications of the user from any process, from the moment this resolves. */
  subscribe(userId: string, listener: (notification: Record<string, unknown>) => void): Promise<() => void> {
    return this.deps.outlets.subscribeLive(userId, listener);
  }

  async list(userId: string, limit: number, offset: number): Promise<NotificationView[]> {
    return (await this.deps.notifications.list(userId, limit, offset)).map(toNotificationView);
  }
}

export function toNotificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    app_id: row.app_id,
    title: row.title,
    message: row.message,
    source: row.source,
    created_at: new Date(row.created_at).toISOString(),
  };
}
