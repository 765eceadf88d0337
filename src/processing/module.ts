import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../context-types.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { Repositories } from '../store/module.js';
import { QueuedConversationProcessing } from './conversation-processing.js';
import type { TextEngine } from './engine.js';
import { EnginePool } from './local/engine-pool.js';
import { createLocalEngine } from './local/index.js';
import { PooledEngine } from './local/pooled-engine.js';
import {
  type AfterProcessingHook,
  conversationJobPayload,
  EXTRACT_JOB,
  PROCESS_JOB,
  ProcessingPipeline,
  recordFallback,
} from './pipeline.js';

export interface ProcessingModule {
  engine: TextEngine;
  pipeline: ProcessingPipeline;
  /** The domain's ConversationProcessing port. */
  processing: QueuedConversationProcessing;
  /** Starts the engine's worker threads ahead of the first conversation (a serving process). */
  start(): void;
  stop(): Promise<void>;
}

/** The pipeline of SPEC §1 with its engine, and its two job kinds registered on the main runner. */
export async function createProcessingModule(deps: {
  config: Config;
  repos: Repositories;
  jobs: JobTable;
  runner: JobRunner;
  clock: Clock;
  log: Logger;
  engine?: TextEngine;
  afterProcessing: AfterProcessingHook;
}): Promise<ProcessingModule> {
  const { repos, jobs, runner, clock, log } = deps;
  // ENGINE_WORKERS=0: the local engine runs on the main thread.
  const pool = deps.engine || deps.config.engineWorkers === 0 ? null : new EnginePool(deps.config.engineWorkers);
  const engine = deps.engine ?? (await createEngine(deps.config, log, pool));
  const pipeline = new ProcessingPipeline({
    ...{ ...repos, jobs, engine, clock, log },
    wakeWorkers: () => runner.wake(),
    afterProcessing: deps.afterProcessing,
  });
  runner.register(PROCESS_JOB, async (job) => {
    const { conversationId, revision, forceKeep } = conversationJobPayload(job.payload);
    await pipeline.runProcessJob(job.user_id, conversationId, revision, forceKeep);
  });
  runner.register(EXTRACT_JOB, async (job) => {
    const { conversationId, revision } = conversationJobPayload(job.payload);
    await pipeline.runExtractJob(job.user_id, conversationId, revision);
  });
  const processing = new QueuedConversationProcessing({
    jobs,
    runner,
    pipeline,
    conversations: repos.conversations,
    clock,
  });
  // The threads start with the first engine task (PooledEngine runs steps in-process until one is
  // ready), so a server that processes nothing never pays for loading the engine in each of them.
  return { engine, pipeline, processing, start: () => {}, stop: async () => pool?.close() };
}

/** The local engine (on the pool's threads when there is one), or the LLM engine over it when LLM_BASE_URL is set (DESIGN §6). */
async function createEngine(config: Config, log: Logger, pool: EnginePool | null): Promise<TextEngine> {
  const local = pool ? new PooledEngine(pool) : createLocalEngine();
  if (!config.llm) return local;
  // Imported only with a model configured: the SDK and the answer schemas are start-up time otherwise.
  const { createLlmEngine } = await import('./llm/index.js');
  return createLlmEngine({
    baseUrl: config.llm.baseUrl,
    apiKey: config.llm.apiKey ?? undefined,
    model: config.llm.model,
    fallback: local,
    onFallback: recordFallback,
    logger: log,
  });
}
