import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AppsService } from '../domain/apps/service.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import type { ConversationsRepository } from '../store/repositories/conversations.js';
import type { Outbox, OutboxTarget } from './outbox.js';

/** One live transcript segment as the listen stream hands it over. */
export interface LiveSegment {
  text: string;
  speaker?: string | null;
  speaker_id?: number | null;
  is_user?: boolean;
  start?: number;
  end?: number;
}

export interface WebhookDeps {
  apps: AppsService;
  outbox: Outbox;
  conversationsService: ConversationsService;
  conversations: ConversationsRepository;
  log: Logger;
}

/** `<webhook_url>` with the query values added (`?` or `&` as the URL needs; research/omi-rest.md §6.12). */
export function webhookUrl(base: string, query: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.toString();
}

/** Queues the app webhooks of SPEC §4.10 and §6.2 in the durable outbox. */
export class AppWebhooks {
  constructor(private readonly deps: WebhookDeps) {}

  /**
   * `transcript_processed` (SPEC §4.10): called by the listen stream for each new batch of segments.
   * Only writes outbox rows (one transaction for all apps), so it costs the listen path about a
   * millisecond; it never rejects, so a caller may await it inline.
   */
  async onTranscriptBatch(userId: string, sessionId: string, segments: readonly LiveSegment[]): Promise<void> {
    if (segments.length === 0) return;
    try {
      const apps = await this.deps.apps.webhookApps(userId, 'transcript_processed');
      if (apps.length === 0) return;
      const body = JSON.stringify({
        session_id: sessionId,
        segments: segments.map((s) => ({
          text: s.text,
          speaker: s.speaker ?? `SPEAKER_${String(s.speaker_id ?? 0).padStart(2, '0')}`,
          speaker_id: s.speaker_id ?? 0,
          is_user: s.is_user ?? false,
          start: s.start ?? 0,
          end: s.end ?? 0,
        })),
      });
      const targets: OutboxTarget[] = apps.flatMap((app) =>
        app.webhook_url
          ? [
              {
                appId: app.id,
                url: webhookUrl(app.webhook_url, { session_id: sessionId, uid: userId }),
                headers: {},
                idempotencyKey: randomUUID(),
              },
            ]
          : [],
      );
      await this.deps.outbox.add(userId, { kind: 'transcript_processed', body, targets });
    } catch (err) {
      this.deps.log.error({ err, userId, sessionId }, 'transcript_processed webhooks not queued');
    }
  }

  /**
   * `memory_creation` (SPEC §6.2, research/omi-rest.md §4.2): after a conversation's processing
   * completes, whatever created it, each enabled app with the trigger gets the conversation JSON.
   * Keyed by conversation revision, so a re-run extraction job queues nothing twice.
   */
  async onConversationProcessed(userId: string, conversationId: string): Promise<void> {
    const apps = await this.deps.apps.webhookApps(userId, 'memory_creation');
    if (apps.length === 0) return;
    const row = await this.deps.conversations.findById(userId, conversationId);
    if (!row || row.discarded === 1) return;
    const conversation = await this.deps.conversationsService.get(userId, conversationId, true);
    const body = JSON.stringify(conversation);
    const targets: OutboxTarget[] = apps.flatMap((app) =>
      app.webhook_url
        ? [
            {
              appId: app.id,
              url: webhookUrl(app.webhook_url, { uid: userId }),
              headers: {},
              idempotencyKey: `memory_creation:${app.id}:${conversationId}:${row.revision}`,
            },
          ]
        : [],
    );
    await this.deps.outbox.add(userId, { kind: 'memory_creation', body, targets });
  }
}
