import type { Logger } from 'pino';
import type { RateLimits } from '../../providers/limits/port.js';
import type { TextGenerator } from '../../providers/llm/index.js';
import type { AppRow } from '../../store/repositories/apps.js';
import { appConfigOf, PROACTIVE_SCOPES, parseList } from '../apps/model.js';
import type { AppsService } from '../apps/service.js';
import type { NotificationsService } from '../notifications/service.js';
import { type BatchSegment, type ContextSources, gatherContext } from './context.js';
import { effectiveScopes, MIN_REPLY_LENGTH, parseWebhookReply, renderPrompt } from './render.js';

/** SPEC §8: at most 1 proactive notification per user per app every 30 s (a fixed policy: never boosted). */
export const COOLDOWN_POLICY = 'proactive:cooldown';

export function defineProactivePolicy(limiter: RateLimits): void {
  limiter.define(COOLDOWN_POLICY, 1, 30, { boost: false });
}

export interface ProactiveDeps {
  apps: AppsService;
  notifications: NotificationsService;
  sources: ContextSources;
  /** Shared with every process through Redis when REDIS_URL is set. */
  limiter: RateLimits;
  /** null without LLM_BASE_URL: requests are skipped and recorded, never answered with made-up text. */
  generator: TextGenerator | null;
  log: Logger;
}

/**
 * Turns an app's webhook reply into a notification (SPEC §4.10): checks capability, grants and the
 * cooldown, renders the template with the granted variables only, asks the LLM, delivers the text.
 * Returns the outcome recorded on the delivery row.
 */
export class ProactiveNotifier {
  constructor(private readonly deps: ProactiveDeps) {}

  async handleReply(userId: string, app: AppRow, replyBody: string, batch: readonly BatchSegment[]): Promise<string> {
    const parsed = parseWebhookReply(replyBody);
    if (parsed.kind === 'none') return 'no_notification';
    if (parsed.kind === 'invalid') return parsed.reason;
    const config = appConfigOf(app);
    if (!config.capabilities.includes('proactive_notification')) return 'not_capable';
    const enablement = await this.deps.apps.enablement(userId, app.id);
    if (!enablement) return 'app_disabled';
    const generator = this.deps.generator;
    if (!generator) return 'llm_not_configured';
    // The cooldown starts when a generation starts, so a failing or terse LLM is not asked on every batch.
    if (!(await this.cooldownFree(userId, app.id))) return 'cooldown';
    const scopes = effectiveScopes(
      config.scopes,
      parseList(enablement.granted_scopes, PROACTIVE_SCOPES),
      parsed.request.params,
    );
    const values = await gatherContext(this.deps.sources, userId, app.id, scopes, batch);
    let text: string;
    try {
      text = (await generator.generateText(renderPrompt(parsed.request.prompt, values))).trim();
    } catch (err) {
      this.deps.log.warn({ err, appId: app.id }, 'proactive notification: LLM call failed');
      return 'llm_failed';
    }
    if (text.length < MIN_REPLY_LENGTH) return 'reply_too_short';
    await this.deps.notifications.deliver(userId, {
      appId: app.id,
      title: `${config.name} says`,
      message: text,
      source: 'proactive',
    });
    return 'notified';
  }

  /** Takes the user-app cooldown; false while it runs (or when the shared store cannot be reached). */
  private async cooldownFree(userId: string, appId: string): Promise<boolean> {
    try {
      return (await this.deps.limiter.hit(COOLDOWN_POLICY, `${appId}:${userId}`)).allowed;
    } catch (err) {
      this.deps.log.warn({ err, appId }, 'proactive notification: cooldown store unavailable');
      return false;
    }
  }
}
