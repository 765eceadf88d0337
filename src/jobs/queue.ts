import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { bullmq, ioredis } from '../providers/redis/packages.js';
import type { DispatchTicket, JobTable } from './table-queue.js';

/** The queues of the context's runners (the finalization runner's is FINALIZATION_QUEUE in listen/). */
export const JOBS_QUEUE = 'keepsake-jobs';
export const WEBHOOKS_QUEUE = 'keepsake-webhooks';

/** What a delivery came to: run, or dropped (stale generation, claimed elsewhere, malformed). */
export type DeliveryOutcome = 'done' | 'dropped';
export type DeliveryHandler = (jobId: string, generation: number) => Promise<DeliveryOutcome>;

// BullMQ job states in which a delivery is still on its way to (or inside) a worker.
const IN_FLIGHT = new Set(['waiting', 'waiting-children', 'delayed', 'active', 'prioritized']);

/** The BullMQ id of one delivery: a job is sent at most once per dispatch generation. */
export const deliveryId = (ticket: { id: string; generation: number }) => `${ticket.id}-${ticket.generation}`;

/**
 * Queue dispatch (LISTEN_FINALIZATION_DISPATCH_MODE=queue, DESIGN §2): the job table stays the
 * source of truth; a BullMQ message per job carries only its id and dispatch generation. One
 * instance per process; each runner uses its own named queue, so webhook deliveries never wait
 * behind conversation processing.
 */
export class JobQueue {
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Array<{ worker: Worker; connection: Redis }> = [];

  constructor(
    private readonly redisUrl: string,
    private readonly table: JobTable,
    private readonly log: Logger,
  ) {
    const { Redis } = ioredis();
    this.connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    this.connection.on('error', (err) => log.warn({ err }, 'job queue connection error'));
  }

  /** Sends deliveries; a job's run_at in the future becomes a BullMQ delay. */
  async send(name: string, tickets: readonly DispatchTicket[], now: number): Promise<void> {
    if (tickets.length === 0) return;
    await this.queue(name).addBulk(
      tickets.map((ticket) => ({
        name: 'run',
        data: { job_id: ticket.id, dispatch_generation: ticket.generation },
        opts: {
          jobId: deliveryId(ticket),
          delay: Math.max(0, ticket.runAt - now),
          removeOnComplete: true,
          removeOnFail: 1000,
          attempts: 1,
        },
      })),
    );
  }

  /** Dispatches the due jobs of these kinds that were never sent; returns how many. */
  async pump(name: string, kinds: readonly string[], now: number): Promise<number> {
    let sent = 0;
    for (;;) {
      const tickets = await this.table.takeUndispatched(kinds, now, 200);
      await this.send(name, tickets, now);
      sent += tickets.length;
      if (tickets.length < 200) return sent;
    }
  }

  /** A new generation for one job (a retry after backoff) and its delivery. */
  async redispatch(name: string, jobId: string, now: number): Promise<void> {
    const ticket = await this.table.bumpGeneration(jobId, now);
    if (ticket) await this.send(name, [ticket], now);
  }

  /**
   * Re-sends runnable jobs whose delivery was lost: never sent, dropped with Redis, or held by a
   * worker that died (expired lease). A job whose current delivery is still queued is left alone,
   * so a long backlog is never re-sent over and over.
   */
  async sweep(name: string, kinds: readonly string[], now: number, staleMs: number): Promise<number> {
    let resent = 0;
    for (const row of await this.table.dispatchCandidates(kinds, now, now - staleMs, 200)) {
      if (row.status === 'queued' && row.generation > 0) {
        const state = await this.queue(name).getJobState(deliveryId(row));
        if (IN_FLIGHT.has(state)) continue;
      }
      const ticket = await this.table.bumpGeneration(row.id, now, row.generation);
      if (!ticket) continue; // another sweep got there first
      await this.send(name, [ticket], now);
      resent++;
    }
    return resent;
  }

  /** Consumes one named queue in this process (`keepsake worker`); returns its closer. */
  consume(name: string, concurrency: number, handler: DeliveryHandler): () => Promise<void> {
    const { Redis } = ioredis();
    const { Worker } = bullmq();
    const connection = new Redis(this.redisUrl, { maxRetriesPerRequest: null });
    connection.on('error', (err) => this.log.warn({ err, queue: name }, 'job queue worker connection error'));
    const worker = new Worker(
      name,
      async (delivery) => {
        const { job_id: jobId, dispatch_generation: generation } = delivery.data as Record<string, unknown>;
        if (typeof jobId !== 'string' || typeof generation !== 'number') return { status: 'dropped' };
        return { status: await handler(jobId, generation) };
      },
      { connection, concurrency },
    );
    worker.on('error', (err) => this.log.warn({ err, queue: name }, 'job queue worker error'));
    const entry = { worker, connection };
    this.workers.push(entry);
    return async () => {
      const at = this.workers.indexOf(entry);
      if (at < 0) return;
      this.workers.splice(at, 1);
      await worker.close();
      connection.disconnect();
    };
  }

  /** Waiting plus delayed deliveries of one queue (metrics). */
  async depth(name: string): Promise<number> {
    return this.queue(name).count();
  }

  async probe(): Promise<void> {
    await this.connection.ping();
  }

  async close(): Promise<void> {
    for (const { worker, connection } of this.workers.splice(0)) {
      await worker.close();
      connection.disconnect();
    }
    for (const queue of this.queues.values()) await queue.close();
    this.queues.clear();
    this.connection.disconnect();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      const { Queue } = bullmq();
      queue = new Queue(name, { connection: this.connection });
      queue.on('error', (err) => this.log.warn({ err, queue: name }, 'job queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }
}
