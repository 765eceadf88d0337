import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../context-types.js';
import { type EventBus, userChannel } from '../../providers/bus/index.js';
import { pushRequest } from '../../providers/push/index.js';
import type { NotificationRow, NotificationsRepository } from '../../store/repositories/notifications.js';
import type { Outbox } from '../apps/outbox.js';

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

export interface NotificationsDeps {
  notifications: NotificationsRepository;
  outbox: Outbox;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  pushWebhookUrl: string | null;
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
    const push = this.deps.pushWebhookUrl ? pushRequest(this.deps.pushWebhookUrl, { ...view, uid: userId }) : null;
    const targets = push
      ? [{ appId: null, url: push.url, headers: push.headers, idempotencyKey: `push:${row.id}` }]
      : [];
    await this.deps.outbox.add(userId, { kind: 'push', body: push?.body ?? '', targets }, (tx) =>
      this.deps.notifications.insert(row, tx),
    );
    // The live channel is best effort: the notification is already stored and readable.
    await this.deps.bus
      .publish(userChannel(userId), { type: 'notification', ...view })
      .catch((err) => this.deps.log.warn({ err, notificationId: row.id }, 'notification not published live'));
    return view;
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
