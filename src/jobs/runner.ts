import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { DeliveryOutcome, JobQueue } from './queue.js';
import type { JobRow, JobTable } from './table-queue.js';

export type JobHandler = (job: JobRow) => Promise<void>;

/** Thrown by a handler for a failure that retrying cannot fix; the job goes straight to dead_letter. */
export class PermanentJobError extends Error {}

export interface RunnerOptions {
  workerId: string;
  leaseMs: number;
  pollMs: number;
  concurrency: number;
}

/** Queue dispatch for one runner: the transport, its queue's name and how often to sweep. */
export interface QueueBinding {
  queue: JobQueue;
  name: string;
  sweepMs: number;
}

/**
 * Claims jobs from the job table and runs their handlers. Used in-process (inline dispatch, the
 * default) and by `keepsake worker`. Leases are extended while a handler runs, so only a crashed
 * worker lets a lease expire and another worker re-claim the job.
 *
 * With a queue bound (queue dispatch), `wake` sends BullMQ deliveries instead of polling, and only
 * a started runner (`keepsake worker`) runs jobs: it consumes its queue and sweeps for lost ones.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private polling = false;
  private bound: QueueBinding | null = null;
  private consuming: (() => Promise<void>) | null = null;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;

  constructor(
    private readonly table: JobTable,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: RunnerOptions,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Switches this runner to queue dispatch (before start). */
  bindQueue(binding: QueueBinding): void {
    this.bound = binding;
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.bound) {
      const { queue, name } = this.bound;
      this.consuming = queue.consume(name, this.options.concurrency, (id, generation) => this.deliver(id, generation));
    }
    this.schedule(0);
  }

  /**
   * Look for work now (called after an enqueue so jobs start without waiting for the poll). With
   * queue dispatch it sends the new jobs' deliveries, from whichever process enqueued them.
   */
  wake(): void {
    if (this.bound) {
      void this.pump();
      return;
    }
    if (this.running) this.schedule(0);
  }

  /** Sends the never-dispatched due jobs; concurrent wakes coalesce into one more pass. */
  pump(): Promise<void> {
    if (!this.bound) return Promise.resolve();
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    const { queue, name } = this.bound;
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        await queue.pump(name, this.kinds, this.clock.now());
      } while (this.pumpAgain);
    })()
      .catch((err) => this.log.warn({ err, queue: name }, 'job dispatch failed; the sweep will resend'))
      .finally(() => {
        this.pumping = null;
      });
    return this.pumping;
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const consuming = this.consuming;
    this.consuming = null;
    // BullMQ's close waits for the deliveries in progress, which are the jobs in flight.
    if (consuming) await consuming();
    await Promise.allSettled([...this.inFlight]);
    await this.pumping;
  }

  /** Runs jobs until none is runnable (tests and one-shot CLI use). */
  async drain(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count++;
    await Promise.allSettled([...this.inFlight]);
    return count;
  }

  /**
   * Claims and runs one job; false when nothing was runnable. A process that only dispatches (an
   * API node with queue dispatch) never runs the job: it sends it to the workers and returns false.
   */
  async runOne(jobId?: string, handler?: JobHandler): Promise<boolean> {
    if (this.bound && !this.consuming) {
      await this.pump();
      return false;
    }
    const now = this.clock.now();
    const kinds = [...this.handlers.keys()];
    const job = jobId
      ? await this.table.claimById(jobId, this.options.workerId, this.options.leaseMs, now)
      : await this.table.claimNext(this.options.workerId, this.options.leaseMs, now, kinds);
    if (!job) return false;
    await this.execute(job, handler);
    return true;
  }

  /** One queue delivery: runs the job when the delivery's generation is still the job's current one. */
  private async deliver(jobId: string, generation: number): Promise<DeliveryOutcome> {
    const row = await this.table.findById(jobId);
    if (!row || row.dispatch_generation !== generation) return 'dropped';
    return (await this.runOne(jobId)) ? 'done' : 'dropped';
  }

  /** Queue dispatch: the periodic sweep that re-sends lost deliveries; inline: the table poll. */
  private async sweep(): Promise<void> {
    if (!this.bound || !this.running) return;
    const { queue, name, sweepMs } = this.bound;
    try {
      await this.pump();
      const resent = await queue.sweep(name, this.kinds, this.clock.now(), sweepMs);
      if (resent > 0) this.log.info({ queue: name, resent }, 'job sweep re-sent lost deliveries');
    } catch (err) {
      this.log.warn({ err, queue: name }, 'job sweep failed');
    } finally {
      if (this.running) this.schedule(sweepMs);
    }
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void (this.bound ? this.sweep() : this.poll()), delay);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    if (!this.running || this.polling) return;
    this.polling = true;
    try {
      while (this.running && this.inFlight.size < this.options.concurrency) {
        const job = await this.table.claimNext(this.options.workerId, this.options.leaseMs, this.clock.now(), [
          ...this.handlers.keys(),
        ]);
        if (!job) break;
        const run = this.execute(job).finally(() => {
          this.inFlight.delete(run);
          this.wake();
        });
        this.inFlight.add(run);
      }
    } catch (err) {
      this.log.error({ err }, 'job poll failed');
    } finally {
      this.polling = false;
      if (this.running) this.schedule(this.options.pollMs);
    }
  }

  /** Runs a claimed job with its kind's handler, or with `override` (a caller holding the job's data). */
  private async execute(job: JobRow, override?: JobHandler): Promise<void> {
    const handler = override ?? this.handlers.get(job.kind);
    const heartbeat = setInterval(
      () => {
        this.table
          .extendLease(job.id, this.options.workerId, this.options.leaseMs, this.clock.now())
          .catch((err) => this.log.warn({ err, jobId: job.id }, 'lease extension failed'));
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      if (!handler) throw new PermanentJobError(`no handler for job kind ${job.kind}`);
      await handler(job);
      await this.table.complete(job.id, this.options.workerId, this.clock.now());
    } catch (err) {
      const retryable = !(err instanceof PermanentJobError);
      const reason = err instanceof Error ? err.name : 'Error';
      const outcome = await this.table.fail(job, this.options.workerId, reason, retryable, this.clock.now());
      if (outcome === 'queued' && this.bound) await this.retryLater(job.id);
      this.log.warn({ err, jobId: job.id, kind: job.kind, attempt: job.attempts, outcome }, 'job failed');
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Queue dispatch of a retry: a new generation, delivered once its backoff has passed. */
  private async retryLater(jobId: string): Promise<void> {
    if (!this.bound) return;
    const { queue, name } = this.bound;
    await queue
      .redispatch(name, jobId, this.clock.now())
      .catch((err) => this.log.warn({ err, jobId }, 'retry dispatch failed; the sweep will resend'));
  }
}
