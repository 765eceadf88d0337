import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../context-types.js';
import { defineIntegrationPolicies, IntegrationGates } from '../domain/apps/gates.js';
import { APP_MEMORIES_JOB, IntegrationService } from '../domain/apps/integration.js';
import { AppsService } from '../domain/apps/service.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import { AppNotifications, defineNotificationPolicy } from '../domain/notifications/app-notifications.js';
import { NotificationsService } from '../domain/notifications/service.js';
import { defineProactivePolicy, ProactiveNotifier } from '../domain/proactive/service.js';
import { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { TextEngine } from '../processing/engine.js';
import type { EventBus } from '../providers/bus/index.js';
import type { RateLimits } from '../providers/limits/port.js';
import { createTextGenerator } from '../providers/llm/index.js';
import { WebhookHttpClient } from '../providers/webhook/http-client.js';
import { nonPublicUrlReason } from '../providers/webhook/ssrf.js';
import type { Store } from '../store/db.js';
import type { Repositories } from '../store/module.js';
import { AppImportsRepository } from '../store/repositories/app-imports.js';
import { AppsRepository } from '../store/repositories/apps.js';
import { NotificationsRepository } from '../store/repositories/notifications.js';
import { OutboxRepository } from '../store/repositories/outbox.js';
import { DeliveryAttempts } from './attempt.js';
import { WebhookDelivery } from './delivery.js';
import { importPayload, runMemoryImport } from './memory-import.js';
import { OutboxNotificationOutlets } from './notification-outlets.js';
import { DELIVER_JOB, FANOUT_JOB, Outbox, outboxPayload } from './outbox.js';
import { SUMMARIZE_JOB, SummarizationApps } from './summarization.js';
import { AppWebhooks } from './webhooks.js';

export interface IntegrationsDeps {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  secret: string;
  repos: Pick<Repositories, 'users' | 'conversations' | 'actionItems' | 'memories' | 'appResults' | 'search'>;
  jobs: JobTable;
  /** The main job runner: the memory-import job (engine work) runs there. */
  runner: JobRunner;
  engine: TextEngine;
  conversations: ConversationsService;
  bus: EventBus;
  /** The shared limiter (in-process, or Redis with REDIS_URL): integration limits, notification counts, cooldowns. */
  rateLimiter: RateLimits;
  workerId: string;
}

/** Apps, the integration API, notifications and webhooks, wired for the context. */
export interface Integrations {
  apps: AppsService;
  gates: IntegrationGates;
  integration: IntegrationService;
  notifications: NotificationsService;
  appNotifications: AppNotifications;
  webhooks: AppWebhooks;
  /** Runs webhook deliveries apart from the main runner, so slow apps never hold up conversation processing. */
  webhookRunner: JobRunner;
  /** The pipeline's after-processing port: app triggers and webhooks of a stored extraction. */
  onConversationProcessed(userId: string, conversationId: string): Promise<void>;
  close(): Promise<void>;
}

// Webhook jobs run apart from processing jobs, up to this many at once per process.
const WEBHOOK_CONCURRENCY = 32;
// Outgoing calls in flight per process, over all apps.
const MAX_CALLS_IN_FLIGHT = 64;
// One app may hold this many of them; its further calls fail fast and retry with backoff.
const PER_APP_CONCURRENCY = 8;

export function createIntegrations(deps: IntegrationsDeps): Integrations {
  const { config, log, clock, store, jobs, runner } = deps;
  const notificationsRepo = new NotificationsRepository(store.db);
  const imports = new AppImportsRepository(store.db);
  const webhookRunner = new JobRunner(jobs, clock, log, {
    workerId: `${deps.workerId}:webhooks`,
    leaseMs: 60_000,
    pollMs: 1000,
    concurrency: WEBHOOK_CONCURRENCY,
  });
  // A save refuses what dispatch would: private and loopback literals and names (docs/apps.md).
  const checkTarget = (url: URL) => (config.allowPrivateWebhooks ? null : nonPublicUrlReason(url));
  const apps = new AppsService(new AppsRepository(store.db), clock, deps.secret, checkTarget);
  const outboxRepo = new OutboxRepository(store.db);
  const outbox = new Outbox({ outbox: outboxRepo, jobs, clock, wake: () => webhookRunner.wake() });
  const pushWebhookUrl = config.pushWebhookUrl;
  const notifications = new NotificationsService({
    notifications: notificationsRepo,
    outlets: new OutboxNotificationOutlets(outbox, deps.bus, pushWebhookUrl, log),
    clock,
    log,
  });
  const sources = { ...deps.repos, notifications: notificationsRepo };
  const generator = createTextGenerator(config.llm);
  const proactive = new ProactiveNotifier({ apps, notifications, sources, limiter: deps.rateLimiter, generator, log });
  const http = registerDelivery(deps, { apps, outbox, outboxRepo, proactive, webhookRunner });

  const importDeps = { imports, memories: deps.repos.memories, users: deps.repos.users, engine: deps.engine, clock };
  runner.register(APP_MEMORIES_JOB, (job) => runMemoryImport(importDeps, job.user_id, importPayload(job.payload)));
  defineIntegrationPolicies(deps.rateLimiter);
  defineNotificationPolicy(deps.rateLimiter);
  defineProactivePolicy(deps.rateLimiter);

  const webhooks = new AppWebhooks({
    apps,
    outbox,
    conversationsService: deps.conversations,
    conversations: deps.repos.conversations,
    log,
  });
  const summarization = new SummarizationApps({
    ...{ apps, conversations: deps.repos.conversations, conversationsService: deps.conversations },
    ...{ results: deps.repos.appResults, jobs, clock, generator },
    wakeWorkers: () => runner.wake(),
  });
  runner.register(SUMMARIZE_JOB, (job) => summarization.run(job));
  const integration = new IntegrationService({
    ...deps.repos,
    conversationsService: deps.conversations,
    imports,
    jobs,
    clock,
    wakeWorkers: () => runner.wake(),
  });
  return {
    apps,
    gates: new IntegrationGates(apps, deps.rateLimiter, log),
    integration,
    notifications,
    appNotifications: new AppNotifications({ apps, notifications, limiter: deps.rateLimiter, clock }),
    webhooks,
    webhookRunner,
    // SPEC §1: every processed conversation fires the memory_creation webhooks and summarization apps.
    async onConversationProcessed(userId, conversationId) {
      await webhooks.onConversationProcessed(userId, conversationId);
      await summarization.onConversationProcessed(userId, conversationId);
    },
    async close() {
      await webhookRunner.stop();
      http.close();
    },
  };
}

/** The delivery side of the outbox: its HTTP client and the fan-out and retry jobs on the webhook runner. */
function registerDelivery(
  deps: IntegrationsDeps,
  parts: {
    apps: AppsService;
    outbox: Outbox;
    outboxRepo: OutboxRepository;
    proactive: ProactiveNotifier;
    webhookRunner: JobRunner;
  },
): WebhookHttpClient {
  const { config, clock, log } = deps;
  const { outbox, proactive, webhookRunner } = parts;
  const http = new WebhookHttpClient(config.allowPrivateWebhooks, MAX_CALLS_IN_FLIGHT);
  const attempts = new DeliveryAttempts({
    apps: parts.apps,
    http,
    clock,
    serverSecret: deps.secret,
    pushSecret: config.pushWebhookSecret,
    timeoutMs: config.webhookTimeoutMs,
    perAppConcurrency: PER_APP_CONCURRENCY,
  });
  const delivery = new WebhookDelivery({
    outbox: parts.outboxRepo,
    queue: outbox,
    attempts,
    clock,
    log,
    afterDelivery: async (row, app, reply) =>
      row.kind === 'transcript_processed' ? proactive.handleReply(row.user_id, app, reply, batchOf(row.body)) : null,
  });
  webhookRunner.register(FANOUT_JOB, async (job) => {
    const rows = await outbox.expand(job.user_id, outboxPayload(job.payload, 'batch_id'));
    await delivery.deliverBatch(job.user_id, rows);
  });
  webhookRunner.register(DELIVER_JOB, (job) => delivery.retry(job, outboxPayload(job.payload, 'delivery_id')));
  return http;
}

/** The segments of a transcript_processed body (for the user_context variable). */
function batchOf(body: string | null): Array<{ text: string; speaker?: string; is_user?: boolean }> {
  if (body === null) return [];
  const parsed = JSON.parse(body) as { segments?: unknown };
  return Array.isArray(parsed.segments)
    ? parsed.segments.filter((s): s is { text: string } => typeof s?.text === 'string')
    : [];
}
