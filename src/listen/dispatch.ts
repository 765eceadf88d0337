import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { FinalizationRepository } from '../store/repositories/finalization.js';

export const FINALIZATION_QUEUE = 'keepsake-listen-finalization';

/** How a queued finalization job reaches a worker (SPEC §9 LISTEN_FINALIZATION_DISPATCH_MODE). */
export interface FinalizationDispatcher {
  readonly mode: 'inline' | 'queue';
  /** Announces a job; `resend` asks for a new dispatch generation (older deliveries become stale). */
  dispatch(jobId: string, resend: boolean): Promise<void>;
  /** Succeeds when the transport is reachable (the worker link's reconnect probe). */
  probe(): Promise<void>;
  /** Whether the job reached a terminal state (a pending request can be dropped). */
  isDone(jobId: string): Promise<boolean>;
  close(): Promise<void>;
}

async function jobDone(jobs: JobTable, jobId: string): Promise<boolean> {
  const row = await jobs.findById(jobId);
  return !row || row.status === 'completed' || row.status === 'dead_letter';
}

/** inline: the in-process finalization runner polls the job table; dispatch only wakes it. */
export class InlineDispatcher implements FinalizationDispatcher {
  readonly mode = 'inline' as const;
  constructor(
    private readonly runner: JobRunner,
    private readonly jobs: JobTable,
  ) {}
  async dispatch(): Promise<void> {
    this.runner.wake();
  }
  async probe(): Promise<void> {}
  isDone(jobId: string): Promise<boolean> {
    return jobDone(this.jobs, jobId);
  }
  async close(): Promise<void> {}
}

/** queue: a BullMQ message carrying only the job id and its dispatch generation. */
export class QueueDispatcher implements FinalizationDispatcher {
  readonly mode = 'queue' as const;
  private readonly connection: Redis;
  private readonly queue: Queue;

  constructor(
    redisUrl: string,
    private readonly jobs: JobTable,
    private readonly finalization: FinalizationRepository,
    private readonly clock: Clock,
  ) {
    // Fail fast while Redis is down: the worker link buffers and reconnects (SPEC §3.3).
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: false });
    this.connection.on('error', () => undefined);
    this.queue = new Queue(FINALIZATION_QUEUE, { connection: this.connection });
    this.queue.on('error', () => undefined);
  }

  async dispatch(jobId: string, resend: boolean): Promise<void> {
    await this.ensureConnected();
    const generation = resend
      ? await this.finalization.bumpGeneration(jobId, this.clock.now())
      : ((await this.jobs.findById(jobId))?.dispatch_generation ?? 0);
    await this.queue.add(
      'finalize',
      { job_id: jobId, dispatch_generation: generation },
      { jobId: `${jobId}-${generation}`, removeOnComplete: true, removeOnFail: 1000, attempts: 1 },
    );
  }

  async probe(): Promise<void> {
    await this.ensureConnected();
    await this.connection.ping();
  }

  isDone(jobId: string): Promise<boolean> {
    return jobDone(this.jobs, jobId);
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }

  /** ioredis reconnects by itself; a dispatch waits briefly for it, then counts as a failure. */
  private async ensureConnected(): Promise<void> {
    if (this.connection.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.connection.off('ready', onReady);
        reject(new Error(`redis is ${this.connection.status}`));
      }, 1000);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.connection.once('ready', onReady);
    });
  }
}

export interface QueueConsumerDeps {
  redisUrl: string;
  jobs: JobTable;
  finalization: FinalizationRepository;
  runner: JobRunner;
  dispatcher: FinalizationDispatcher;
  clock: Clock;
  log: Logger;
  reconcileMs: number;
}

/**
 * `keepsake worker` side of queue dispatch: runs a delivery only when its generation is the job's
 * current one, and reconciles jobs whose delivery was lost (crash, Redis outage, retry backoff).
 */
export function startQueueConsumer(deps: QueueConsumerDeps, concurrency: number): () => Promise<void> {
  const connection = new Redis(deps.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (err) => deps.log.warn({ err }, 'finalization queue connection error'));
  const worker = new Worker(
    FINALIZATION_QUEUE,
    async (delivery) => {
      const { job_id: jobId, dispatch_generation: generation } = delivery.data as {
        job_id?: unknown;
        dispatch_generation?: unknown;
      };
      if (typeof jobId !== 'string' || typeof generation !== 'number')
        return { status: 'dropped', reason: 'invalid_payload' };
      const row = await deps.jobs.findById(jobId);
      if (!row || row.dispatch_generation !== generation) return { status: 'dropped', reason: 'stale_generation' };
      return { status: (await deps.runner.runOne(jobId)) ? 'done' : 'dropped' };
    },
    { connection, concurrency },
  );
  worker.on('error', (err) => deps.log.warn({ err }, 'finalization queue worker error'));
  const reconcile = setInterval(() => {
    reconcileOnce(deps).catch((err) => deps.log.warn({ err }, 'finalization reconcile failed'));
  }, deps.reconcileMs);
  reconcile.unref();
  return async () => {
    clearInterval(reconcile);
    await worker.close();
    connection.disconnect();
  };
}

/** Re-dispatches runnable finalization jobs nobody touched for a while, with a new generation. */
export async function reconcileOnce(
  deps: Pick<QueueConsumerDeps, 'finalization' | 'dispatcher' | 'clock' | 'reconcileMs'>,
): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.finalization.dueForDispatch(now, now - deps.reconcileMs, 100);
  for (const job of due) await deps.dispatcher.dispatch(job.id, true);
  return due.length;
}
