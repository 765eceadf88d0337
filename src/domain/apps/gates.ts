import type { Logger } from 'pino';
import { AppError, Detail, rateLimitHeaders } from '../../errors.js';
import type { RateLimits } from '../../providers/limits/port.js';
import type { AppRow } from '../../store/repositories/apps.js';
import { type AppAction, appAllows, appConfigOf } from './model.js';
import type { AppsService } from './service.js';

export interface Gate {
  action: AppAction;
  /** 403 text for a key that is not one of this app's keys (it differs per route, research/omi-rest.md §3.1). */
  badKey: string;
  /** 403 text when the app did not select the action. */
  cannot: string;
  /** Per app and user limit (research/omi-rest.md §3.1), when the route has one. */
  policy?: string;
}

export const GATES = {
  createConversation: {
    action: 'create_conversation',
    badKey: Detail.invalidIntegrationKey,
    cannot: Detail.appCannotCreateConversations,
    policy: 'integration:conversations',
  },
  createMemories: {
    action: 'create_memories',
    badKey: Detail.invalidIntegrationKeyNoSpace,
    cannot: Detail.appCannotCreateMemories,
    policy: 'integration:memories',
  },
  readMemories: {
    action: 'read_memories',
    badKey: Detail.invalidIntegrationKeyNoSpace,
    cannot: Detail.appCannotReadMemories,
  },
  readConversations: {
    action: 'read_conversations',
    badKey: Detail.invalidAppKey,
    cannot: Detail.appCannotReadConversations,
  },
  readTasks: {
    action: 'read_tasks',
    badKey: Detail.invalidAppKey,
    cannot: Detail.appCannotReadTasks,
  },
} as const satisfies Record<string, Gate>;

/** research/omi-rest.md §3.1: `integration:conversations` 10/h and `integration:memories` 60/h; RATE_LIMIT_BOOST applies. */
export function defineIntegrationPolicies(limiter: RateLimits): void {
  limiter.define('integration:conversations', 10, 3600);
  limiter.define('integration:memories', 60, 3600);
}

export interface Admission {
  app: AppRow;
  /** X-RateLimit-* of the route's policy (empty when it has none). */
  headers: Record<string, string>;
}

/**
 * The integration API's gates, in the reference's order (SPEC §5, research/omi-rest.md §3.1): bearer (401)
 * → key of this app (403) → rate limit (429) → app exists (404) → user enabled the app (403) → action (403).
 */
export class IntegrationGates {
  constructor(
    private readonly apps: AppsService,
    private readonly limiter: RateLimits,
    private readonly log: Logger,
  ) {}

  /** Gates 1–2, run before the request is validated (as the reference does): bearer, then a key of this app. */
  async checkKey(appId: string, credential: string | null, gate: Gate): Promise<void> {
    if (!credential) throw new AppError(401, Detail.missingBearer);
    if (!(await this.apps.isAppKey(appId, credential))) throw new AppError(403, gate.badKey);
  }

  /** Gates 3–6 for a request whose key was checked: rate limit, app, enablement, action. */
  async admit(appId: string, uid: string, gate: Gate): Promise<Admission> {
    const headers = gate.policy ? await this.limit(gate.policy, `${appId}:${uid}`) : {};
    const app = await this.apps.find(appId);
    if (!app || app.deleted_at !== null) throw new AppError(404, Detail.appNotFound);
    if (!(await this.apps.enablement(uid, appId))) throw new AppError(403, Detail.appNotEnabled);
    if (!appAllows(appConfigOf(app), gate.action)) throw new AppError(403, gate.cannot);
    return { app, headers };
  }

  /** SPEC §7.2: 429 with Retry-After (clients back off from 1 s, doubling). Fails open, as the reference does. */
  private async limit(policy: string, subject: string): Promise<Record<string, string>> {
    let decision: Awaited<ReturnType<RateLimits['hit']>>;
    try {
      decision = await this.limiter.hit(policy, subject);
    } catch (err) {
      this.log.warn({ err, policy }, 'integration rate limiter unavailable; request allowed');
      return {};
    }
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new AppError(429, Detail.rateLimited(decision.resetSeconds), {
        ...headers,
        'retry-after': String(decision.resetSeconds),
      });
    }
    return headers;
  }
}
