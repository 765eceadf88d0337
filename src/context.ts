import type { Logger } from 'pino';
import { type AudioModule, createAudioModule } from './audio/module.js';
import type { Config } from './config.js';
import { type Clock, systemClock } from './context-types.js';
import { createDomainServices, type DomainServices } from './domain/create.js';
import { OpenAiEmbedder } from './domain/search/embeddings.js';
import { OidcVerifier } from './domain/users/oidc.js';
import { loadOrCreateSecret } from './domain/users/secret.js';
import { type AuthHooks, createAuthHooks } from './http/auth.js';
import { IdempotentCreates } from './http/idempotency.js';
import { enforceRateLimits } from './http/rate-limit.js';
import { ResponseCache } from './http/response-cache.js';
import { createIntegrations, type Integrations } from './integrations/create.js';
import { createJobsModule, newWorkerId } from './jobs/module.js';
import { JOBS_QUEUE, type JobQueue, WEBHOOKS_QUEUE } from './jobs/queue.js';
import type { JobRunner } from './jobs/runner.js';
import type { JobTable } from './jobs/table-queue.js';
import { createListenModule } from './listen/create.js';
import { FINALIZATION_QUEUE } from './listen/dispatch.js';
import type { ListenModule } from './listen/module.js';
import { createLogger } from './ops/logger.js';
import { createOpsModule, type OpsModule } from './ops/module.js';
import type { TextEngine } from './processing/engine.js';
import { createProcessingModule } from './processing/module.js';
import type { ProcessingPipeline } from './processing/pipeline.js';
import { createBus, type EventBus } from './providers/bus/index.js';
import { type ConnectionLimits, createConnectionLimits } from './providers/limits/connection-slots.js';
import { createRateLimiter, type RateLimiter } from './providers/limits/limiter.js';
import { createTextGenerator } from './providers/llm/index.js';
import { prepareDataDir } from './store/data-dir.js';
import type { Store } from './store/db.js';
import { createStoreModule, type Repositories } from './store/module.js';
import { FtsMaintenance } from './store/search/fts-maintenance.js';
import { createVoiceModule, type VoiceModule } from './voice/module.js';

/** Everything a request, job or CLI command needs, wired once (DESIGN §3: the one composition root). */
export interface AppContext extends DomainServices {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  secret: string;
  repos: Repositories;
  jobs: JobTable;
  runner: JobRunner;
  engine: TextEngine;
  pipeline: ProcessingPipeline;
  /** Developer-API rate limits (in-process, or Redis with REDIS_URL), applied once a dev key is authenticated. */
  rateLimits: RateLimiter;
  /** Cached developer-API list reads, valid while the user's data version is unchanged. */
  responseCache: ResponseCache;
  /** Idempotency-Key handling of creates (replay, refusal, records). */
  idempotency: IdempotentCreates;
  /** The live listen stream (SPEC §3, §4.11): lifecycle, finalization jobs. */
  listen: ListenModule;
  /** Speaker identification: people's voices, the user's profile, speaker samples (SPEC §6.1). */
  voice: VoiceModule;
  /** Captured conversation audio and its MP3 artifact (SPEC §4.11, §8). */
  audio: AudioModule;
  /** Readiness, database gauges and the draining flag (docs/deployment.md). */
  ops: OpsModule;
  auth: AuthHooks;
  /** Live events per user across processes (in-process, or Redis with REDIS_URL). */
  bus: EventBus;
  /** Apps, the integration API, notifications and webhooks. */
  integrations: Integrations;
  /** Per-user caps on notification streams and listen sockets (in-process, or Redis with REDIS_URL). */
  connections: ConnectionLimits;
  close(): Promise<void>;
}

/**
 * What routes see (DESIGN §3): services and HTTP mechanics, never the store, the job queue, the runner
 * or the bus. The type makes a route that reaches for them fail to compile.
 */
export type Services = Omit<
  AppContext,
  'store' | 'repos' | 'jobs' | 'runner' | 'pipeline' | 'engine' | 'bus' | 'close'
>;

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

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const log = options.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  const clock = options.clock ?? systemClock;
  prepareDataDir(config.dataDir, log);
  const { store, repos } = await createStoreModule(
    {
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: config.ops.databasePoolSize,
      store: options.store,
      pgSchema: options.pgSchema,
    },
    clock,
  );
  const secret = loadOrCreateSecret(config.secret, config.dataDir);
  const { jobs, runner, queue } = createJobsModule({
    config,
    store,
    clock,
    log,
    concurrency: options.concurrency ?? 4,
  });
  const base = { config, log, clock, store, secret, jobs, runner };

  const audio = createAudioModule({ ...base, db: store.db });
  const readSpan = audio.service.readSpan.bind(audio.service);
  const voice = createVoiceModule({ ...base, db: store.db, people: repos.people, readSpan });
  // Integrations are built on the services the pipeline serves; the port is called only once both exist.
  const afterProcessing = (userId: string, id: string) => integrations.onConversationProcessed(userId, id);
  const processingModule = await createProcessingModule({
    ...base,
    repos,
    engine: options.engine,
    afterProcessing,
  });
  const { engine, pipeline, processing } = processingModule;
  const services = createDomainServices({
    ...{ repos, processing, clock, log, secret, voices: voice.repo },
    oidc: config.oidc ? new OidcVerifier(config.oidc.issuer, config.oidc.audience) : null,
    embedder: config.embeddings ? new OpenAiEmbedder(config.embeddings) : null,
    generator: createTextGenerator(config.llm),
    onConversationDeleted: (userId, id) => audio.service.deleteConversationAudio(userId, id),
  });
  const rateLimits = createRateLimiter(config, clock, log);
  const bus = createBus(config.redisUrl, log);
  const connections = createConnectionLimits(config, log);
  const { conversations } = services;
  const integrations = createIntegrations({
    ...base,
    ...{ repos, engine, conversations, bus, rateLimiter: rateLimits, workerId: newWorkerId() },
  });
  const ops = createOpsModule({
    ...{ db: store.db, redisUrl: config.redisUrl, clock, log },
    probeQueue: config.dispatchMode === 'queue' ? () => listen.dispatcher.probe() : null,
  });
  const listen = createListenModule({
    ...{ ...base, pipeline, conversations, bus, workerId: newWorkerId() },
    sessionPlugins: [audio.capture, voice.speakerId],
    onTranscriptBatch: (userId, sessionId, segments) =>
      integrations.webhooks.onTranscriptBatch(userId, sessionId, segments),
    onSttFailure: ({ provider, outcome }) => ops.sttFailures.inc({ provider, outcome }),
  });
  if (queue) bindQueues(queue, config, [runner, listen.finalizationRunner, integrations.webhookRunner]);
  const maintenance = options.runJobs && store.dialect === 'sqlite' ? new FtsMaintenance(store.db, log) : null;
  // Closed in reverse order: what uses the store stops before the store closes.
  const closers: Array<() => Promise<void>> = [
    () => store.close(),
    async () => queue?.close(),
    () => processingModule.stop(),
    () => runner.stop(),
    () => rateLimits.close(),
    () => voice.stop(),
    async () => audio.stop(),
    () => bus.close(),
    () => connections.close(),
    () => listen.stop(),
    () => integrations.close(),
    async () => maintenance?.stop(),
  ];
  for (const policy of rateLimits.unknownOverrides())
    log.warn({ policy }, 'RATE_LIMITS names an unknown policy; it has no effect');
  const parts = [processingModule, runner, listen, voice, audio, integrations.webhookRunner];
  if (options.runJobs) for (const part of parts) part.start();
  maintenance?.start();
  return {
    ...{ ...base, ...services, repos, engine, pipeline, rateLimits, listen, voice, audio, ops, bus, integrations },
    connections,
    responseCache: new ResponseCache(repos.dataVersions, config.responseCacheBytes),
    idempotency: new IdempotentCreates(repos.idempotencyKeys, clock, log),
    auth: createAuthHooks(services.keys, services.users, (request, reply) =>
      enforceRateLimits(rateLimits, request, reply),
    ),
    async close() {
      for (const closer of [...closers].reverse()) await closer();
    },
  };
}

/** Each runner gets its own BullMQ queue, so one kind of work never queues behind another. */
function bindQueues(queue: JobQueue, config: Config, [main, finalization, webhooks]: JobRunner[]): void {
  const sweepMs = config.listen.sweepMs;
  main.bindQueue({ queue, name: JOBS_QUEUE, sweepMs });
  finalization.bindQueue({ queue, name: FINALIZATION_QUEUE, sweepMs });
  webhooks.bindQueue({ queue, name: WEBHOOKS_QUEUE, sweepMs });
}
