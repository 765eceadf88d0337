import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import { PermanentJobError } from '../jobs/runner.js';
import type { JobRow } from '../jobs/table-queue.js';
import type { AppRow } from '../store/repositories/apps.js';
import type { DeliveryRow, OutboxRepository } from '../store/repositories/outbox.js';
import type { AttemptResult, DeliveryAttempts, Target } from './attempt.js';
import type { Outbox } from './outbox.js';

/** What follows a delivered call (the proactive notification step of transcript_processed); returns the outcome. */
export type AfterDelivery = (delivery: DeliveryRow, app: AppRow, replyBody: string) => Promise<string | null>;

export interface DeliveryDeps {
  outbox: OutboxRepository;
  queue: Outbox;
  attempts: DeliveryAttempts;
  clock: Clock;
  log: Logger;
  afterDelivery: AfterDelivery;
}

class DeliveryFailed extends Error {
  override readonly name = 'DeliveryFailed';
}

interface Delivered {
  row: DeliveryRow;
  app: AppRow | null;
  status: number;
  reply: string;
}

/**
 * Sends outbox rows and records what happened. The first attempt of a batch's rows runs in the
 * fan-out job, all rows at once (a slow app delays only itself); a failed row gets its own retry job
 * with exponential backoff and is dead-lettered after its last attempt (DESIGN §7).
 */
export class WebhookDelivery {
  constructor(private readonly deps: DeliveryDeps) {}

  /** First attempt of the batch's pending rows, concurrently; few writes whatever the batch size. */
  async deliverBatch(userId: string, rows: readonly DeliveryRow[]): Promise<void> {
    if (rows.length === 0) return;
    const targets = await this.deps.attempts.targets(userId, rows);
    const delivered: Delivered[] = [];
    await Promise.all(
      rows.map(async (row) => {
        const target = targets.get(row.id) ?? { ok: false as const, skip: 'app_deleted' as const };
        const result = await this.tryTarget(row, target);
        if (result?.kind === 'delivered') delivered.push({ row, app: target.ok ? target.app : null, ...result });
        else if (result) await this.recordFailure(row, result, 1, false, true);
      }),
    );
    await this.recordDelivered(userId, delivered, 1);
    await this.follow(delivered);
  }

  /** Retry job of one row; throws on failure so the job table backs off (or dead-letters the last attempt). */
  async retry(job: JobRow, deliveryId: string): Promise<void> {
    const row = await this.deps.outbox.findById(job.user_id, deliveryId);
    if (row?.status !== 'pending') return;
    const target = (await this.deps.attempts.targets(job.user_id, [row])).get(row.id) ?? {
      ok: false,
      skip: 'app_deleted',
    };
    const result = await this.tryTarget(row, target);
    if (!result) return;
    const attempts = row.attempts + 1;
    if (result.kind !== 'delivered') {
      await this.recordFailure(row, result, attempts, job.attempts >= job.max_attempts, false);
      if (result.kind === 'refused') throw new PermanentJobError(result.error);
      throw new DeliveryFailed(result.error);
    }
    const done = { row, app: target.ok ? target.app : null, ...result };
    await this.recordDelivered(job.user_id, [done], attempts);
    await this.follow([done]);
  }

  /** The attempt, or null when the row is skipped (app disabled or deleted: recorded here). */
  private async tryTarget(row: DeliveryRow, target: Target): Promise<AttemptResult | null> {
    if (!target.ok && 'skip' in target) {
      await this.deps.outbox.recordSkipped(row.user_id, row.id, target.skip, this.deps.clock.now());
      return null;
    }
    if (!target.ok) return { kind: 'refused', error: target.broken };
    return this.deps.attempts.attempt(row, target.secret);
  }

  private async recordFailure(
    row: DeliveryRow,
    result: Exclude<AttemptResult, { kind: 'delivered' }>,
    attempts: number,
    last: boolean,
    scheduleRetry: boolean,
  ): Promise<void> {
    const final = last || result.kind === 'refused';
    const statusCode = result.kind === 'failed' ? result.status : null;
    const at = this.deps.clock.now();
    // The retry is queued before the failure is recorded: a crash in between re-sends, never loses the row.
    if (scheduleRetry && !final) await this.deps.queue.scheduleRetry(row.user_id, row.id);
    await this.deps.outbox.recordFailure(row.user_id, row.id, { attempts, statusCode, error: result.error, at }, final);
    this.deps.log.warn(
      { deliveryId: row.id, appId: row.app_id, kind: row.kind, attempts, statusCode, error: result.error, final },
      'webhook delivery failed',
    );
  }

  private async recordDelivered(userId: string, delivered: readonly Delivered[], attempts: number): Promise<void> {
    const byStatus = new Map<number, string[]>();
    for (const d of delivered) byStatus.set(d.status, [...(byStatus.get(d.status) ?? []), d.row.id]);
    const at = this.deps.clock.now();
    for (const [statusCode, ids] of byStatus)
      await this.deps.outbox.recordDeliveredMany(userId, ids, { attempts, statusCode, error: null, at });
  }

  /** Runs the follow-up of each delivered app call and records its outcome (grouped). */
  private async follow(delivered: readonly Delivered[]): Promise<void> {
    const byOutcome = new Map<string, string[]>();
    await Promise.all(
      delivered.map(async (d) => {
        if (!d.app) return;
        const outcome = await this.deps.afterDelivery(d.row, d.app, d.reply).catch((err: unknown) => {
          this.deps.log.error({ err, deliveryId: d.row.id }, 'webhook follow-up failed');
          return 'follow_up_failed';
        });
        if (outcome) byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), d.row.id]);
      }),
    );
    if (delivered.length === 0) return;
    const userId = delivered[0].row.user_id;
    for (const [outcome, ids] of byOutcome)
      await this.deps.outbox.recordOutcomeMany(userId, ids, outcome, this.deps.clock.now());
  }
}
