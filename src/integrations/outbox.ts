import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Clock } from '../context-types.js';
import { PermanentJobError } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { BatchRow, DeliveryRow, OutboxRepository } from '../store/repositories/outbox.js';
import type { Database } from '../store/schema.js';

export const FANOUT_JOB = 'webhook.fanout';
export const DELIVER_JOB = 'webhook.deliver';
/**
 * DESIGN §7: a failed first attempt is retried after 1 s, then with the job table's exponential backoff
 * (1 s, 2 s, 4 s … capped at 60 s); the row is dead-lettered after its 8th attempt.
 */
export const DELIVERY_ATTEMPTS = 8;
const RETRY_AFTER_MS = 1000;

export type OutboxKind = 'transcript_processed' | 'memory_creation' | 'push';

/** One receiver of an outbox write. */
export interface OutboxTarget {
  appId: string | null;
  url: string;
  headers: Record<string, string>;
  /** Same key → same delivery: a retried caller never sends twice. */
  idempotencyKey: string;
}

interface StoredTarget {
  app_id: string | null;
  url: string;
  headers: Record<string, string>;
  idempotency_key: string;
}

/**
 * The durable outbox. `add` stores one batch row (the body once, the targets as a list) and one
 * fan-out job in a single transaction: a few statements whatever the number of apps, so the listen
 * path stays fast. The fan-out job expands the batch into one delivery row per target and makes every
 * first attempt at once; a row that fails gets its own retry job.
 */
export class Outbox {
  constructor(private readonly deps: { outbox: OutboxRepository; jobs: JobTable; clock: Clock; wake: () => void }) {}

  async add(
    userId: string,
    message: { kind: OutboxKind; body: string; targets: readonly OutboxTarget[] },
    alsoWrite?: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    const now = this.deps.clock.now();
    const targets: StoredTarget[] = message.targets.map((t) => ({
      app_id: t.appId,
      url: t.url,
      headers: t.headers,
      idempotency_key: t.idempotencyKey,
    }));
    const batch: BatchRow = {
      id: randomUUID(),
      user_id: userId,
      kind: message.kind,
      body: message.body,
      targets: JSON.stringify(targets),
      created_at: now,
    };
    await this.deps.outbox.transaction(async (tx) => {
      if (alsoWrite) await alsoWrite(tx);
      if (targets.length === 0) return;
      await this.deps.outbox.insertBatch(batch, tx);
      await this.deps.jobs.enqueue(
        this.job(FANOUT_JOB, userId, { batch_id: batch.id }, `${FANOUT_JOB}:${batch.id}`, 5),
        now,
        tx,
      );
    });
    if (targets.length > 0) this.deps.wake();
  }

  /**
   * Fan-out job, first step: the batch becomes one delivery row per target (idempotent: a re-run finds
   * the rows already there) and the rows still waiting for their first attempt are returned.
   */
  async expand(userId: string, batchId: string): Promise<DeliveryRow[]> {
    const now = this.deps.clock.now();
    return this.deps.outbox.transaction(async (tx) => {
      const batch = await this.deps.outbox.findBatch(userId, batchId, tx);
      if (batch) {
        await this.deps.outbox.insertMany(deliveryRows(batch, now), tx);
        await this.deps.outbox.deleteBatch(userId, batchId, tx);
      }
      return this.deps.outbox.pendingInBatch(userId, batchId, tx);
    });
  }

  /** A retry job for a row whose first attempt failed: due after RETRY_AFTER_MS, then the job table's backoff. */
  async scheduleRetry(userId: string, deliveryId: string): Promise<void> {
    const now = this.deps.clock.now();
    const job = this.job(
      DELIVER_JOB,
      userId,
      { delivery_id: deliveryId },
      `${DELIVER_JOB}:${deliveryId}`,
      DELIVERY_ATTEMPTS - 1,
    );
    await this.deps.jobs.enqueue({ ...job, runAt: now + RETRY_AFTER_MS }, now);
  }

  private job(kind: string, userId: string, payload: Record<string, string>, key: string, maxAttempts: number) {
    const now = this.deps.clock.now();
    return { id: randomUUID(), kind, userId, payload, idempotencyKey: key, maxAttempts, runAt: now };
  }
}

function deliveryRows(batch: BatchRow, now: number) {
  const targets = JSON.parse(batch.targets) as StoredTarget[];
  return targets.map((target) => ({
    id: randomUUID(),
    user_id: batch.user_id,
    app_id: target.app_id,
    batch_id: batch.id,
    kind: batch.kind,
    url: target.url,
    headers: JSON.stringify(target.headers),
    body: batch.body,
    status: 'pending',
    attempts: 0,
    idempotency_key: target.idempotency_key,
    created_at: now,
    updated_at: now,
  }));
}

/** Reads `field` (a string) from a job payload written by the outbox. */
export function outboxPayload(payload: string, field: 'batch_id' | 'delivery_id'): string {
  const parsed: unknown = JSON.parse(payload);
  const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'string') throw new PermanentJobError(`malformed outbox job payload (${field})`);
  return value;
}
