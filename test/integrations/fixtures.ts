import type { AppConfigInput } from '../../src/domain/apps/model.js';
import type { TestApp, TestUser } from '../helpers/app.js';
import { createUser } from '../helpers/app.js';

export interface TestAppRecord {
  appId: string;
  key: string;
  secret: string;
  owner: TestUser;
  /** Authorization header with the app's first sk_ key. */
  bearer: { authorization: string };
}

/** A third-party app created by a fresh owner through the service (the REST tests create theirs over HTTP). */
export async function createApp(t: TestApp, config: Partial<AppConfigInput> = {}): Promise<TestAppRecord> {
  const owner = await createUser(t.ctx, { name: 'App Owner' });
  const created = await t.ctx.integrations.apps.create(owner.uid, { name: 'Helper', ...config });
  return {
    appId: created.app_id,
    key: created.api_key,
    secret: created.app_secret,
    owner,
    bearer: { authorization: `Bearer ${created.api_key}` },
  };
}

export const ALL_ACTIONS = [
  'create_conversation',
  'create_memories',
  'read_conversations',
  'read_memories',
  'read_tasks',
];

/** An app with every import action, enabled by `user`. */
export async function enabledApp(
  t: TestApp,
  user: TestUser,
  config: Partial<AppConfigInput> = {},
): Promise<TestAppRecord> {
  const app = await createApp(t, { capabilities: ['external_integration'], actions: ALL_ACTIONS, ...config });
  await t.ctx.integrations.apps.enable(user.uid, app.appId);
  return app;
}

/** The outbox rows of a user, oldest first (what the durable outbox recorded). */
export async function deliveries(t: TestApp, userId: string) {
  return t.ctx.store.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Runs queued webhook jobs (fan-out, deliveries) until none is runnable. */
export async function drainWebhooks(t: TestApp): Promise<number> {
  return t.ctx.integrations.webhookRunner.drain();
}
