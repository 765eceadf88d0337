import type { Clock } from '../../context-types.js';
import { AppError, Detail } from '../../errors.js';
import type { RateLimits } from '../../providers/limits/port.js';
import { appConfigOf } from '../apps/model.js';
import type { AppsService } from '../apps/service.js';
import type { NotificationsService } from './service.js';

/** research/omi-rest.md §3.8 (the corrected variant): 10 per user per app per UTC clock hour; fixed, never boosted. */
export const NOTIFICATIONS_PER_HOUR = 10;
const HOUR_MS = 3_600_000;
const POLICY = 'notification:app';

export function defineNotificationPolicy(limiter: RateLimits): void {
  limiter.define(POLICY, NOTIFICATIONS_PER_HOUR, 3600, { boost: false });
}

export interface SentNotification {
  status: 'Ok';
  headers: Record<string, string>;
}

/** The notification endpoint of an app (SPEC §4.9, §7.3): exact text, pushed to one user. */
export class AppNotifications {
  constructor(
    private readonly deps: {
      apps: AppsService;
      notifications: NotificationsService;
      limiter: RateLimits;
      clock: Clock;
    },
  ) {}

  async send(appId: string, uid: string, message: string, credential: string | null): Promise<SentNotification> {
    // SPEC §7.3: 401 for a missing or wrong credential, 404 for an unknown app or a user without the app.
    if (!credential) throw new AppError(401, Detail.missingBearer);
    if (!(await this.deps.apps.isAppSecretOrKey(appId, credential))) throw new AppError(401, Detail.invalidAppKey);
    const app = await this.deps.apps.find(appId);
    if (!app || app.deleted_at !== null) throw new AppError(404, Detail.appNotFound);
    if (!(await this.deps.apps.enablement(uid, appId))) throw new AppError(404, Detail.appNotInstalled);
    const now = this.deps.clock.now();
    const hourEnd = (Math.floor(now / HOUR_MS) + 1) * HOUR_MS;
    // The UTC clock hour is part of the counter's name, so every hour starts a fresh window.
    const hour = new Date(now).toISOString().slice(0, 13);
    const decision = await this.deps.limiter.hit(POLICY, `${appId}:${uid}:${hour}`);
    const reset = String(Math.max(1, Math.ceil((hourEnd - now) / 1000)));
    const headers = {
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': reset,
    };
    if (!decision.allowed) {
      throw new AppError(429, Detail.notificationRateLimited, { ...headers, 'retry-after': reset });
    }
    await this.deps.notifications.deliver(uid, {
      appId,
      title: `${appConfigOf(app).name} says`,
      message,
      source: 'integration',
    });
    return { status: 'Ok', headers };
  }
}
