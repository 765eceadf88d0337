import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { NotificationsTable } from './apps-tables.js';
import type { Db } from './shared.js';

export type NotificationRow = Selectable<NotificationsTable>;

export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<NotificationsTable>, tx: Db = this.db): Promise<void> {
    await tx.insertInto('notifications').values(row).execute();
  }

  /** The user's notifications, newest first. */
  async list(userId: string, limit: number, offset: number): Promise<NotificationRow[]> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** The last notifications one app sent the user (the "chat" of a proactive prompt), newest first. */
  async recentFromApp(userId: string, appId: string, limit: number): Promise<NotificationRow[]> {
    return this.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
