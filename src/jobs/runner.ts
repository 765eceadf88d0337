import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
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

/**
 * Claims jobs from the job table and runs their handlers. Used in-process (inline dispatch, the
 * default) and by `keepsake worker`. Leases are extended while a handler runs, so only a crashed
 * worker lets a lease expire and another worker re-claim the job.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private polling = false;

  constructor(
    private readonly table: JobTable,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: RunnerOptions,
  ) {}

  register(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Look for work now (called after an enqueue so inline jobs start without waiting for the poll). */
  wake(): void {
    if (this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Runs jobs until none is runnable (tests and one-shot CLI use). */
  async drain(): Promise<number> {
    let count = 0;
    while (await this.runOne()) count++;
    await Promise.allSettled([...this.inFlight]);
    return count;
  }

  /** Claims and runs one job; false when nothing was runnable. */
  async runOne(jobId?: string): Promise<boolean> {
    const now = this.clock.now();
    const kinds = [...this.handlers.keys()];
    const job = jobId
      ? await this.table.claimById(jobId, this.options.workerId, this.options.leaseMs, now)
      : await this.table.claimNext(this.options.workerId, this.options.leaseMs, now, kinds);
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delay);
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

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
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
      this.log.warn({ err, jobId: job.id, kind: job.kind, attempt: job.attempts, outcome }, 'job failed');
    } finally {
      clearInterval(heartbeat);
    }
  }
}
