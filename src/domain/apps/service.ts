import { randomUUID } from 'node:crypto';
import type { Clock } from '../../context-types.js';
import { AppError, Detail } from '../../errors.js';
import type { AppRow, AppsRepository, EnabledApp } from '../../store/repositories/apps.js';
import { generateKey, hashPresentedKey } from '../keys/dev-keys.js';
import {
  type AppConfig,
  type AppConfigInput,
  appConfigOf,
  parseAppConfig,
  type Trigger,
  type WebhookTargetCheck,
} from './model.js';
import { APP_KEY_PREFIX, APP_SECRET_PREFIX, sealSecret } from './secrets.js';
import { type AppKeyView, type AppView, toAppKeyView, toAppView } from './views.js';

export interface AppCreated {
  app_id: string;
  api_key: string;
  app_secret: string;
  app: AppView;
}

export interface AppKeyCreated extends AppKeyView {
  /** The raw `sk_` key, shown once. */
  secret: string;
}

// The listen path asks for a user's webhook apps on every transcript batch; enable/disable and app
// edits in this process invalidate at once, other processes within this time (delivery re-checks).
const TRIGGER_CACHE_MS = 5_000;
const TOUCH_INTERVAL_MS = 60_000;

export class AppsService {
  /** user id → trigger → the user's webhook apps and when they were read */
  private readonly triggerCache = new Map<string, Map<Trigger, { at: number; apps: EnabledApp[] }>>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly apps: AppsRepository,
    private readonly clock: Clock,
    private readonly serverSecret: string,
    /** Refuses webhook URLs that dispatch would never deliver to (private and loopback targets). */
    private readonly checkTarget: WebhookTargetCheck,
  ) {}

  async create(ownerId: string | null, input: AppConfigInput): Promise<AppCreated> {
    const config = parseAppConfig(input, this.checkTarget);
    const now = this.clock.now();
    const secret = generateKey(APP_SECRET_PREFIX);
    const key = generateKey(APP_KEY_PREFIX);
    const row: AppRow = {
      id: randomUUID(),
      owner_id: ownerId,
      ...columnsOf(config),
      secret_hash: secret.hashed,
      secret_sealed: sealSecret(this.serverSecret, secret.raw),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    const keyRow = {
      id: randomUUID(),
      app_id: row.id,
      hashed_key: key.hashed,
      label: key.prefix,
      created_by: ownerId,
      created_at: now,
      last_used_at: null,
    };
    await this.apps.insert(row, keyRow);
    return { app_id: row.id, api_key: key.raw, app_secret: secret.raw, app: toAppView(row, ownerId ?? '', null) };
  }

  async get(userId: string, appId: string): Promise<AppView> {
    const app = await this.live(appId);
    const enablement = await this.apps.findEnablement(userId, appId);
    return toAppView(app, userId, enablement ?? null);
  }

  async list(userId: string): Promise<AppView[]> {
    const rows = await this.apps.listVisibleTo(userId);
    return rows.map(({ granted_scopes, ...row }) =>
      toAppView(row, userId, granted_scopes === null ? null : { granted_scopes }),
    );
  }

  /** Owner-only edit; fields left out keep their value. */
  async update(userId: string, appId: string, patch: Partial<AppConfigInput>): Promise<AppView> {
    const app = await this.owned(userId, appId, 'You are not authorized to modify this app');
    const current = appConfigOf(app);
    const config = parseAppConfig(
      {
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        capabilities: patch.capabilities ?? current.capabilities,
        triggers_on: patch.triggers_on === undefined ? current.triggersOn : patch.triggers_on,
        webhook_url: patch.webhook_url === undefined ? current.webhookUrl : patch.webhook_url,
        actions: patch.actions ?? current.actions,
        scopes: patch.scopes ?? current.scopes,
        memory_prompt: patch.memory_prompt === undefined ? current.memoryPrompt : patch.memory_prompt,
      },
      this.checkTarget,
    );
    await this.apps.updateOwned(userId, appId, { ...columnsOf(config), updated_at: this.clock.now() });
    this.triggerCache.clear();
    return this.get(userId, appId);
  }

  /** Owner-only soft delete: keys stay, and every integration call then answers 404. */
  async delete(userId: string, appId: string): Promise<void> {
    await this.owned(userId, appId, 'You are not authorized to modify this app');
    await this.apps.updateOwned(userId, appId, { deleted_at: this.clock.now() });
    this.triggerCache.clear();
  }

  async createKey(userId: string, appId: string): Promise<AppKeyCreated> {
    await this.owned(userId, appId, Detail.appKeysForbidden);
    const key = generateKey(APP_KEY_PREFIX);
    const row = {
      id: randomUUID(),
      app_id: appId,
      hashed_key: key.hashed,
      label: key.prefix,
      created_by: userId,
      created_at: this.clock.now(),
      last_used_at: null,
    };
    await this.apps.insertKey(row);
    return { ...toAppKeyView(row), secret: key.raw };
  }

  async listKeys(userId: string, appId: string): Promise<AppKeyView[]> {
    await this.owned(userId, appId, Detail.appKeysForbidden);
    return (await this.apps.listKeys(appId)).map(toAppKeyView);
  }

  async revokeKey(userId: string, appId: string, keyId: string): Promise<void> {
    await this.owned(userId, appId, Detail.appKeysForbidden);
    if (!(await this.apps.deleteKey(appId, keyId))) throw new AppError(404, Detail.appKeyNotFound);
  }

  /** SPEC §4.10: enabling grants the proactive scopes the app requests now; later requests need a re-enable. */
  async enable(
    userId: string,
    appId: string,
  ): Promise<{ uid: string; app_id: string; enabled: true; granted_scopes: string[] }> {
    const app = await this.live(appId);
    const scopes = appConfigOf(app).scopes;
    await this.apps.enable(userId, appId, JSON.stringify(scopes), this.clock.now());
    this.triggerCache.delete(userId);
    return { uid: userId, app_id: appId, enabled: true, granted_scopes: scopes };
  }

  /** Takes effect at once: the next integration call is refused and pending deliveries are skipped. */
  async disable(userId: string, appId: string): Promise<{ uid: string; app_id: string; enabled: false }> {
    await this.live(appId);
    await this.apps.disable(userId, appId);
    this.triggerCache.delete(userId);
    return { uid: userId, app_id: appId, enabled: false };
  }

  /** The app, soft-deleted ones included (undefined when it never existed). */
  async find(appId: string): Promise<AppRow | undefined> {
    return this.apps.findById(appId);
  }

  /** Whether the user has the app enabled, with the scopes granted. */
  async enablement(userId: string, appId: string) {
    return this.apps.findEnablement(userId, appId);
  }

  /** The apps and whether this user has each enabled (one read: webhook deliveries check both every time). */
  async findManyForUser(
    userId: string,
    appIds: readonly string[],
  ): Promise<Map<string, { app: AppRow; enabled: boolean }>> {
    const rows = await this.apps.findManyWithEnablement(userId, appIds);
    return new Map(rows.map(({ granted_scopes, ...app }) => [app.id, { app, enabled: granted_scopes !== null }]));
  }

  /** Whether `presented` is one of this app's `sk_` keys (SPEC §5: the key must belong to the app). */
  async isAppKey(appId: string, presented: string): Promise<boolean> {
    // The reference strips an optional `sk_`: a key presented without it is the same key.
    const withPrefix = presented.startsWith(APP_KEY_PREFIX) ? presented : `${APP_KEY_PREFIX}${presented}`;
    const hashed = hashPresentedKey(withPrefix, APP_KEY_PREFIX);
    const key = hashed ? await this.apps.findKey(appId, hashed) : undefined;
    if (!key) return false;
    const now = this.clock.now();
    if (now - (this.touched.get(key.id) ?? 0) >= TOUCH_INTERVAL_MS) {
      this.touched.set(key.id, now);
      await this.apps.touchKey(appId, key.id, now);
    }
    return true;
  }

  /** DESIGN §7: the notification endpoint takes the app secret or any of the app's keys. */
  async isAppSecretOrKey(appId: string, presented: string): Promise<boolean> {
    const hashed = hashPresentedKey(presented, APP_SECRET_PREFIX);
    if (hashed) {
      const app = await this.apps.findById(appId);
      return app !== undefined && app.secret_hash === hashed;
    }
    return this.isAppKey(appId, presented);
  }

  /** The user's enabled apps with a webhook on this trigger (cached briefly: the listen path calls it). */
  async webhookApps(userId: string, trigger: Trigger): Promise<EnabledApp[]> {
    const now = this.clock.now();
    const cached = this.triggerCache.get(userId)?.get(trigger);
    if (cached && now - cached.at < TRIGGER_CACHE_MS) return cached.apps;
    const apps = await this.apps.enabledWithTrigger(userId, trigger);
    if (this.triggerCache.size > 10_000) this.triggerCache.clear();
    const perUser = this.triggerCache.get(userId) ?? new Map();
    perUser.set(trigger, { at: now, apps });
    this.triggerCache.set(userId, perUser);
    return apps;
  }

  /** The user's enabled apps that summarize conversations: the memories capability and a prompt. */
  async summarizationApps(userId: string): Promise<EnabledApp[]> {
    const apps = await this.apps.enabledWithMemoryPrompt(userId);
    return apps.filter((app) => isSummarizer(app));
  }

  private async live(appId: string): Promise<AppRow> {
    const app = await this.apps.findById(appId);
    if (!app || app.deleted_at !== null) throw new AppError(404, Detail.appNotFound);
    return app;
  }

  private async owned(userId: string, appId: string, forbidden: string): Promise<AppRow> {
    const app = await this.live(appId);
    if (app.owner_id !== userId) throw new AppError(403, forbidden);
    return app;
  }
}

/** Whether a stored app summarizes conversations (it may have lost the capability since). */
export function isSummarizer(app: AppRow): boolean {
  const config = appConfigOf(app);
  return config.capabilities.includes('memories') && config.memoryPrompt !== null;
}

/** The stored columns of a declaration. */
function columnsOf(config: AppConfig) {
  return {
    name: config.name,
    description: config.description,
    capabilities: JSON.stringify(config.capabilities),
    triggers_on: config.triggersOn,
    webhook_url: config.webhookUrl,
    actions: JSON.stringify(config.actions),
    proactive_scopes: JSON.stringify(config.scopes),
    memory_prompt: config.memoryPrompt,
  };
}
