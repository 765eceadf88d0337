import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Clock } from '../context-types.js';
import { deliveryId } from '../jobs/queue.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import { bullmq, ioredis } from '../providers/redis/packages.js';

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

/**
 * queue: a BullMQ message carrying only the job id and its dispatch generation, consumed by the
 * finalization runner of a `keepsake worker` (src/jobs/queue.ts, which also sweeps for lost ones).
 * Its own fail-fast connection, so the session's worker link sees a Redis outage at once.
 */
export class QueueDispatcher implements FinalizationDispatcher {
  readonly mode = 'queue' as const;
  private readonly connection: Redis;
  private readonly queue: Queue;

  constructor(
    redisUrl: string,
    private readonly jobs: JobTable,
    private readonly clock: Clock,
  ) {
    // Fail fast while Redis is down: the worker link buffers and reconnects (SPEC §3.3).
    const [{ Redis }, { Queue }] = [ioredis(), bullmq()];
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: false });
    this.connection.on('error', () => undefined);
    this.queue = new Queue(FINALIZATION_QUEUE, { connection: this.connection });
    this.queue.on('error', () => undefined);
  }

  async dispatch(jobId: string, resend: boolean): Promise<void> {
    await this.ensureConnected();
    const now = this.clock.now();
    const generation = resend ? (await this.jobs.bumpGeneration(jobId, now))?.generation : await this.first(jobId, now);
    if (generation === undefined) return; // finished, or not runnable (blocked on a user key)
    await this.queue.add(
      'finalize',
      { job_id: jobId, dispatch_generation: generation },
      { jobId: deliveryId({ id: jobId, generation }), removeOnComplete: true, removeOnFail: 1000, attempts: 1 },
    );
  }

  /** The generation of a first dispatch: 0 → 1 (so the workers' sweep sees it as sent), else as is. */
  private async first(jobId: string, now: number): Promise<number | undefined> {
    const row = await this.jobs.findById(jobId);
    if (!row || (row.status !== 'queued' && row.status !== 'leased')) return undefined;
    if (row.dispatch_generation > 0) return row.dispatch_generation;
    const bumped = await this.jobs.bumpGeneration(jobId, now, 0);
    return bumped?.generation ?? (await this.jobs.findById(jobId))?.dispatch_generation;
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
