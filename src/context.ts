import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import { type AudioModule, createAudioModule } from './audio/module.js';
import type { Config } from './config.js';
import { type Clock, systemClock } from './context-types.js';
import { ActionItemsService } from './domain/action-items/service.js';
import { ConversationsService } from './domain/conversations/service.js';
import { ExportService } from './domain/export/service.js';
import { FoldersService } from './domain/folders/service.js';
import { GoalsService } from './domain/goals/service.js';
import { DevKeysService } from './domain/keys/service.js';
import { MemoriesService } from './domain/memories/service.js';
import { OpenAiEmbedder } from './domain/search/embeddings.js';
import { SearchService } from './domain/search/service.js';
import { OidcVerifier } from './domain/users/oidc.js';
import { loadOrCreateSecret } from './domain/users/secret.js';
import { UsersService } from './domain/users/service.js';
import { type AuthHooks, createAuthHooks } from './http/auth.js';
import { enforceRateLimits } from './http/rate-limit.js';
import { ResponseCache } from './http/response-cache.js';
import { createIntegrations, type Integrations } from './integrations/create.js';
import { JOBS_QUEUE, JobQueue, WEBHOOKS_QUEUE } from './jobs/queue.js';
import { JobRunner } from './jobs/runner.js';
import { JobTable } from './jobs/table-queue.js';
import { createListenModule } from './listen/create.js';
import { FINALIZATION_QUEUE } from './listen/dispatch.js';
import type { ListenModule } from './listen/module.js';
import { QueuedConversationProcessing } from './processing/conversation-processing.js';
import type { TextEngine } from './processing/engine.js';
import { createLlmEngine } from './processing/llm/index.js';
import { createLocalEngine } from './processing/local/index.js';
import {
  conversationJobPayload,
  EXTRACT_JOB,
  PROCESS_JOB,
  ProcessingPipeline,
  recordFallback,
} from './processing/pipeline.js';
import { createBus, type EventBus } from './providers/bus/index.js';
import { createRateLimiter, type RateLimiter } from './providers/limits/limiter.js';
import { openStore, type Store } from './store/db.js';
import { transactionRunner } from './store/group-commit.js';
import { migrateToLatest } from './store/migrate.js';
import { ActionItemsRepository } from './store/repositories/action-items.js';
import { ApiKeysRepository } from './store/repositories/api-keys.js';
import { ConversationAppResultsRepository } from './store/repositories/conversation-app-results.js';
import { ConversationsRepository } from './store/repositories/conversations.js';
import { DataVersionsRepository } from './store/repositories/data-versions.js';
import { FoldersRepository } from './store/repositories/folders.js';
import { GoalsRepository } from './store/repositories/goals.js';
import { MemoriesRepository } from './store/repositories/memories.js';
import { PeopleRepository } from './store/repositories/people.js';
import { SearchRepository } from './store/repositories/search.js';
import { UsersRepository } from './store/repositories/users.js';
import { FtsMaintenance } from './store/search/fts-maintenance.js';
import { createVoiceModule, type VoiceModule } from './voice/module.js';

/** Everything a request, job or CLI command needs, wired once (DESIGN §3). */
export interface AppContext {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  secret: string;
  repos: {
    users: UsersRepository;
    apiKeys: ApiKeysRepository;
    conversations: ConversationsRepository;
    actionItems: ActionItemsRepository;
    memories: MemoriesRepository;
    people: PeopleRepository;
    folders: FoldersRepository;
    goals: GoalsRepository;
    search: SearchRepository;
  };
  jobs: JobTable;
  runner: JobRunner;
  engine: TextEngine;
  pipeline: ProcessingPipeline;
  users: UsersService;
  keys: DevKeysService;
  conversations: ConversationsService;
  memories: MemoriesService;
  actionItems: ActionItemsService;
  folders: FoldersService;
  goals: GoalsService;
  search: SearchService;
  exporter: ExportService;
  /** Developer-API rate limits (in-process, or Redis with REDIS_URL); an afterDevKey hook applies them. */
  rateLimits: RateLimiter;
  /** Cached developer-API list reads, valid while the user's data version is unchanged (a preHandler hook, after validation). */
  responseCache: ResponseCache;
  /** The live listen stream (SPEC §3, §4.11): lifecycle, finalization jobs, hooks. */
  listen: ListenModule;
  /** Speaker identification: people's voices, the user's profile, speaker samples (SPEC §6.1). */
  voice: VoiceModule;
  /** Captured conversation audio and its MP3 artifact (SPEC §4.11, §8). */
  audio: AudioModule;
  auth: AuthHooks;
  /** Live events per user across processes (providers/bus: in-process, or Redis with REDIS_URL). */
  bus: EventBus;
  /** Apps, the integration API, notifications and webhooks. */
  integrations: Integrations;
  /** Closers run on shutdown, in reverse order of registration. */
  onClose: Array<() => Promise<void>>;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  store?: Store;
  engine?: TextEngine;
  /** Whether this process runs jobs in the background (serve with inline dispatch, worker). */
  runJobs?: boolean;
  /** Jobs this process runs at once. */
  concurrency?: number;
  /** PostgreSQL schema for test isolation. */
  pgSchema?: string;
}

const LEASE_MS = 60_000;

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const store =
    options.store ??
    openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgSchema: options.pgSchema,
      poolSize: config.ops.databasePoolSize,
    });
  await migrateToLatest(store);
  const secret = loadOrCreateSecret(config.secret, config.dataDir);

  const repos = {
    users: new UsersRepository(store.db),
    apiKeys: new ApiKeysRepository(store.db),
    conversations: new ConversationsRepository(store.db, transactionRunner(store.db, store.dialect)),
    actionItems: new ActionItemsRepository(store.db),
    memories: new MemoriesRepository(store.db),
    people: new PeopleRepository(store.db),
    folders: new FoldersRepository(store.db),
    goals: new GoalsRepository(store.db),
    search: new SearchRepository(store.db, store.dialect, clock),
  };
  const jobs = new JobTable(store.db, store.dialect);
  const runner = new JobRunner(jobs, clock, log, {
    workerId: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
    leaseMs: LEASE_MS,
    pollMs: 1000,
    concurrency: options.concurrency ?? 4,
  });
  const engine = options.engine ?? createEngine(config, log);
  const pipeline = new ProcessingPipeline({ ...repos, jobs, engine, clock, log, wakeWorkers: () => runner.wake() });
  runner.register(PROCESS_JOB, async (job) => {
    const { conversationId, revision, forceKeep } = conversationJobPayload(job.payload);
    await pipeline.runProcessJob(job.user_id, conversationId, revision, forceKeep);
  });
  runner.register(EXTRACT_JOB, async (job) => {
    const { conversationId, revision } = conversationJobPayload(job.payload);
    await pipeline.runExtractJob(job.user_id, conversationId, revision);
  });

  const users = new UsersService(
    repos.users,
    clock,
    secret,
    config.oidc ? new OidcVerifier(config.oidc.issuer, config.oidc.audience) : null,
  );
  const keys = new DevKeysService(repos.apiKeys, clock);
  const conversations = new ConversationsService({
    ...repos,
    processing: new QueuedConversationProcessing({ jobs, runner, pipeline, conversations: repos.conversations, clock }),
    clock,
    appResults: new ConversationAppResultsRepository(store.db),
  });

  const rateLimits = createRateLimiter(config, clock, log);
  const embedder = config.embeddings ? new OpenAiEmbedder(config.embeddings) : null;
  const devApi = {
    memories: new MemoriesService(repos.memories, clock),
    actionItems: new ActionItemsService(repos.actionItems, clock),
    folders: new FoldersService(repos.folders, repos.conversations, conversations, clock),
    goals: new GoalsService(repos.goals, clock),
    search: new SearchService(repos.search, conversations, embedder, clock, log),
    exporter: new ExportService({ ...repos, conversationRows: repos.conversations, conversations, clock }),
    rateLimits,
    responseCache: new ResponseCache(new DataVersionsRepository(store.db), config.responseCacheBytes),
  };

  const bus = createBus(config.redisUrl, log);
  const integrations = createIntegrations({
    ...{ config, log, clock, store, secret, repos, jobs, runner, engine, pipeline, conversations, bus },
    rateLimiter: rateLimits,
    workerId: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
  });

  // Queue dispatch: every runner sends and (in `keepsake worker`) consumes BullMQ deliveries.
  const jobQueue = config.dispatchMode === 'queue' && config.redisUrl ? new JobQueue(config.redisUrl, jobs, log) : null;
  const onClose: Array<() => Promise<void>> = [
    () => store.close(),
    async () => jobQueue?.close(),
    () => runner.stop(),
    () => rateLimits.close(),
  ];
  const listen = createListenModule({
    config,
    store,
    jobs,
    runner,
    pipeline,
    conversations,
    bus,
    clock,
    log,
    workerId: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
  });
  // SPEC §4.10: every persisted live transcript batch feeds the apps' transcript_processed webhooks.
  listen.onTranscriptBatch.push((userId, sessionId, segments) =>
    integrations.webhooks.onTranscriptBatch(userId, sessionId, segments),
  );
  // SPEC §6.1, §8: voices and captured audio plug into every live session and into deletes.
  const audio = createAudioModule({ config, db: store.db, jobs, runner, secret, clock, log });
  const voice = createVoiceModule({
    config,
    db: store.db,
    people: repos.people,
    clock,
    log,
    readSpan: (userId, conversationId, startMs, endMs) =>
      audio.service.readSpan(userId, conversationId, startMs, endMs),
  });
  listen.sessionPlugins.push(audio.capture, voice.speakerId);
  conversations.afterDelete.push((userId, id) => audio.service.deleteConversationAudio(userId, id));
  if (jobQueue) bindQueues(jobQueue, config, [runner, listen.finalizationRunner, integrations.webhookRunner]);
  onClose.push(() => voice.stop());
  onClose.push(async () => audio.stop());
  onClose.push(() => bus.close());
  onClose.push(() => listen.stop());
  onClose.push(() => integrations.close());
  const ctx: AppContext = {
    config,
    log,
    clock,
    store,
    secret,
    repos,
    jobs,
    runner,
    engine,
    pipeline,
    users,
    keys,
    conversations,
    ...devApi,
    listen,
    voice,
    audio,
    auth: createAuthHooks(keys, users),
    bus,
    integrations,
    onClose,
    async close() {
      for (const closer of [...onClose].reverse()) await closer();
    },
  };
  ctx.auth.afterDevKey.push((request, reply) => enforceRateLimits(rateLimits, request, reply));
  for (const policy of rateLimits.unknownOverrides())
    log.warn({ policy }, 'RATE_LIMITS names an unknown policy; it has no effect');
  if (options.runJobs) runner.start();
  if (options.runJobs) listen.start();
  if (options.runJobs) voice.start();
  if (options.runJobs) audio.start();
  if (options.runJobs) integrations.webhookRunner.start();
  if (options.runJobs && store.dialect === 'sqlite') {
    const maintenance = new FtsMaintenance(store.db, log);
    onClose.push(() => maintenance.stop());
    maintenance.start();
  }
  return ctx;
}

/** Each runner gets its own BullMQ queue, so one kind of work never queues behind another. */
function bindQueues(queue: JobQueue, config: Config, [main, finalization, webhooks]: JobRunner[]): void {
  const sweepMs = config.listen.sweepMs;
  main.bindQueue({ queue, name: JOBS_QUEUE, sweepMs });
  finalization.bindQueue({ queue, name: FINALIZATION_QUEUE, sweepMs });
  webhooks.bindQueue({ queue, name: WEBHOOKS_QUEUE, sweepMs });
}

/** The server's logger: no credentials, no query strings (they can carry tokens and user text). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] }),
      },
    },
    destination,
  );
}

/** The local engine, or the LLM engine over it when LLM_BASE_URL is set (DESIGN §6). */
function createEngine(config: Config, log: Logger): TextEngine {
  const local = createLocalEngine();
  if (!config.llm) return local;
  return createLlmEngine({
    baseUrl: config.llm.baseUrl,
    apiKey: config.llm.apiKey ?? undefined,
    model: config.llm.model,
    fallback: local,
    onFallback: recordFallback,
    logger: log,
  });
}
