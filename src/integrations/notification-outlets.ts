import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { NotificationOutlets, NotificationView } from '../domain/notifications/service.js';
import { type EventBus, userChannel } from '../providers/bus/index.js';
import { pushRequest } from '../providers/push/index.js';
import type { Database } from '../store/schema.js';
import type { Outbox } from './outbox.js';

/** Notifications leave through the webhook outbox (push gateway) and the event bus (live channel). */
export class OutboxNotificationOutlets implements NotificationOutlets {
  constructor(
    private readonly outbox: Outbox,
    private readonly bus: EventBus,
    private readonly pushWebhookUrl: string | null,
    private readonly log: Logger,
  ) {}

  async storeAndQueuePush(
    userId: string,
    notification: NotificationView,
    store: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    const push = this.pushWebhookUrl ? pushRequest(this.pushWebhookUrl, { ...notification, uid: userId }) : null;
    const targets = push
      ? [{ appId: null, url: push.url, headers: push.headers, idempotencyKey: `push:${notification.id}` }]
      : [];
    await this.outbox.add(userId, { kind: 'push', body: push?.body ?? '', targets }, store);
  }

  async publishLive(userId: string, notification: NotificationView): Promise<void> {
    await this.bus.publish(userChannel(userId), { type: 'notification', ...notification });
  }

  async subscribeLive(userId: string, listener: (notification: Record<string, unknown>) => void): Promise<() => void> {
    const unsubscribe = this.bus.subscribe(userChannel(userId), ({ type, ...notification }) => {
      if (type === 'notification') listener(notification);
    });
    // With Redis the subscription goes live asynchronously; callers announce their stream only after it is.
    await this.bus.ready().catch((err) => this.log.warn({ err }, 'notification stream: bus not ready'));
    return unsubscribe;
  }
}
