import type { Logger } from 'pino';
import { type Config, ConfigError } from '../config.js';
import type { Clock } from '../context-types.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { ProcessingPipeline } from '../processing/pipeline.js';
import { codecUnavailable } from '../providers/audio/codecs.js';
import { type EventBus, userChannel } from '../providers/bus/index.js';
import { PocketsphinxProvider } from '../providers/stt/pocketsphinx.js';
import type { SttFailure } from '../providers/stt/port.js';
import { chooseSttProvider } from '../providers/stt/select.js';
import type { Store } from '../store/db.js';
import { FINALIZE_JOB, FinalizationRepository } from '../store/repositories/finalization.js';
import { LiveConversationsRepository } from '../store/repositories/live-conversations.js';
import { RecordingSessionsRepository } from '../store/repositories/recording-sessions.js';
import { type FinalizationDispatcher, InlineDispatcher, QueueDispatcher } from './dispatch.js';
import { memoryEvent } from './events.js';
import { Finalizer } from './finalization.js';
import { type Handoff, LifecycleService } from './lifecycle.js';
import type { ListenModule, SessionPluginFactory, TranscriptBatchHook } from './module.js';
import { DEFAULT_LINK_LIMITS } from './worker-link.js';

export interface ListenDeps {
  config: Config;
  store: Store;
  jobs: JobTable;
  /** The pipeline's runner (its extraction job is run through it). */
  runner: JobRunner;
  pipeline: ProcessingPipeline;
  conversations: ConversationsService;
  bus: EventBus;
  clock: Clock;
  log: Logger;
  workerId: string;
  /** Per-session plugins (audio capture, live speaker identification). */
  sessionPlugins: SessionPluginFactory[];
  /** Every persisted live transcript batch (the apps' transcript_processed webhooks, SPEC §4.10). */
  onTranscriptBatch: TranscriptBatchHook;
  /** A live stream's speech-to-text failed for good (the ops metrics count it). */
  onSttFailure: (failure: SttFailure) => void;
}

/** Wires the live stream (DESIGN §3 listen/): repositories, lifecycle, finalization and dispatch. */
export function createListenModule(deps: ListenDeps): ListenModule {
  const { config, clock, log } = deps;
  const timings = config.listen;
  const live = new LiveConversationsRepository(deps.store.db);
  const sessions = new RecordingSessionsRepository(deps.store.db);
  const finalization = new FinalizationRepository(deps.store.db);
  const mode = config.recordingSessionMode;
  // A recovery handoff has no socket of its own: memory_processing_started goes out on the bus, so
  // a client that resumed the recording session on any node hears it (docs/deployment.md).
  const onHandoff = async ({ userId, conversationId, envelope }: Handoff) => {
    const memory = await deps.conversations.get(userId, conversationId, false);
    await deps.bus.publish(userChannel(userId), memoryEvent('memory_processing_started', envelope, memory));
  };
  const lifecycle = new LifecycleService({ live, sessions, jobs: deps.jobs, clock, log, mode, timings, onHandoff });
  const finalizer = new Finalizer({
    ...deps,
    finalization,
    sessions,
    live,
    pipelineRunner: deps.runner,
    mode,
  });
  // Finalization jobs have their own runner: their lease is LISTEN_FINALIZATION_LEASE_SECONDS.
  const finalizationRunner = new JobRunner(deps.jobs, clock, log, {
    workerId: `${deps.workerId}:finalize`,
    leaseMs: timings.finalizationLeaseMs,
    pollMs: 1000,
    concurrency: 4,
  });
  finalizationRunner.register(FINALIZE_JOB, (job) => finalizer.run(job));
  if (config.dispatchMode === 'queue' && !config.redisUrl) {
    throw new ConfigError('LISTEN_FINALIZATION_DISPATCH_MODE=queue needs REDIS_URL');
  }
  const dispatcher: FinalizationDispatcher =
    config.dispatchMode === 'queue' && config.redisUrl
      ? new QueueDispatcher(config.redisUrl, deps.jobs, clock)
      : new InlineDispatcher(finalizationRunner, deps.jobs);
  let pocketsphinx: boolean | null = null;
  let sweepTimer: NodeJS.Timeout | null = null;

  const sweep = async () => {
    for (const jobId of await lifecycle.sweep()) await dispatcher.dispatch(jobId, false);
  };
  const module: ListenModule = {
    timings,
    mode,
    clock,
    log,
    bus: deps.bus,
    lifecycle,
    live,
    finalization,
    finalizer,
    finalizationRunner,
    dispatcher,
    conversations: deps.conversations,
    linkLimits: DEFAULT_LINK_LIMITS,
    chooseStt: () => chooseSttProvider(config.stt, () => (pocketsphinx ??= PocketsphinxProvider.available())),
    codecUnavailable,
    onTranscriptBatch: [deps.onTranscriptBatch],
    onSttFailure: deps.onSttFailure,
    sessionPlugins: deps.sessionPlugins,
    active: new Set(),
    start() {
      // Inline: polls the job table; queue: consumes the finalization queue (src/jobs/queue.ts).
      finalizationRunner.start();
      const run = () => sweep().catch((err) => log.warn({ err }, 'listen recovery sweep failed'));
      void run();
      sweepTimer = setInterval(run, timings.sweepMs);
      sweepTimer.unref();
    },
    async drain() {
      await Promise.all([...module.active].map((session) => session.shutdown(1001, 'server shutting down')));
    },
    async stop() {
      if (sweepTimer) clearInterval(sweepTimer);
      await finalizationRunner.stop();
      await dispatcher.close();
    },
  };
  return module;
}
