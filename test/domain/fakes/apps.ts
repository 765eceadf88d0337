import type { AppsService } from '../../../src/domain/apps/service.js';
import type {
  NewNotification,
  NotificationsService,
  NotificationView,
} from '../../../src/domain/notifications/service.js';
import type { TextGenerator } from '../../../src/providers/llm/index.js';
import type { AppRow, EnablementRow } from '../../../src/store/repositories/apps.js';
import { asPort } from './port.js';

/** A stored app declaring `capabilities` and `actions` (JSON lists, as the table holds them). */
export function appRow(
  id: string,
  declared: { capabilities?: string[]; actions?: string[]; scopes?: string[] },
): AppRow {
  return {
    id,
    owner_id: null,
    name: `App ${id}`,
    description: '',
    capabilities: JSON.stringify(declared.capabilities ?? []),
    triggers_on: null,
    webhook_url: null,
    actions: JSON.stringify(declared.actions ?? []),
    proactive_scopes: JSON.stringify(declared.scopes ?? []),
    memory_prompt: null,
    secret_hash: '',
    secret_sealed: '',
    created_at: 0,
    updated_at: 0,
    deleted_at: null,
  };
}

/** Apps, their keys and who enabled them: what the integration gates and the proactive notifier ask. */
export class FakeApps implements Pick<AppsService, 'find' | 'enablement' | 'isAppKey'> {
  readonly apps = new Map<string, AppRow>();
  readonly keys = new Map<string, string>();
  readonly enablements: EnablementRow[] = [];
  /** How many times each app was looked up (the gates' order shows in it). */
  lookups = 0;

  get port(): AppsService {
    return asPort<AppsService>(this);
  }

  add(app: AppRow, key = `sk_${app.id}`): AppRow {
    this.apps.set(app.id, app);
    this.keys.set(app.id, key);
    return app;
  }

  grant(userId: string, appId: string, scopes: string[] = []): void {
    this.enablements.push({ user_id: userId, app_id: appId, granted_scopes: JSON.stringify(scopes), enabled_at: 0 });
  }

  async find(appId: string): Promise<AppRow | undefined> {
    this.lookups++;
    return this.apps.get(appId);
  }

  async enablement(userId: string, appId: string): Promise<EnablementRow | undefined> {
    return this.enablements.find((e) => e.user_id === userId && e.app_id === appId);
  }

  async isAppKey(appId: string, presented: string): Promise<boolean> {
    return this.keys.get(appId) === presented;
  }
}

/** Notifications delivered, in order. */
export class FakeNotifications implements Pick<NotificationsService, 'deliver'> {
  readonly delivered: Array<NewNotification & { userId: string }> = [];

  get port(): NotificationsService {
    return asPort<NotificationsService>(this);
  }

  async deliver(userId: string, input: NewNotification): Promise<NotificationView> {
    this.delivered.push({ userId, ...input });
    return {
      id: String(this.delivered.length),
      app_id: input.appId,
      title: input.title,
      message: input.message,
      source: input.source,
      created_at: new Date(0).toISOString(),
    };
  }
}

/** An LLM that answers every prompt with `reply` (or fails), recording the prompts. */
export class FakeGenerator implements TextGenerator {
  readonly model = 'fake';
  readonly prompts: string[] = [];
  /** What every prompt is answered with from now on (an Error: the call fails). */
  reply: string | Error = 'Drink a glass of water now.';

  async generateText(prompt: string): Promise<string> {
    this.prompts.push(prompt);
    if (this.reply instanceof Error) throw this.reply;
    return this.reply;
  }
}
