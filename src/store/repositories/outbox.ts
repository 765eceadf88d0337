import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import type { WebhookBatchesTable, WebhookDeliveriesTable } from './apps-tables.js';
import type { Db } from './shared.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type BatchRow = Selectable<WebhookBatchesTable>;

export interface AttemptRecord {
  attempts: number;
  statusCode: number | null;
  error: string | null;
  at: number;
}

/** The durable outbox of outgoing calls (webhooks, push gateway): one row per call, attempts on it. */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertBatch(row: BatchRow, tx: Db = this.db): Promise<void> {
    await tx.insertInto('webhook_batches').values(row).execute();
  }

  async findBatch(userId: string, batchId: string, tx: Db = this.db): Promise<BatchRow | undefined> {
    return tx
      .selectFrom('webhook_batches')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', batchId)
      .executeTakeFirst();
  }

  async deleteBatch(userId: string, batchId: string, tx: Db = this.db): Promise<void> {
    await tx.deleteFrom('webhook_batches').where('user_id', '=', userId).where('id', '=', batchId).execute();
  }

  async insertMany(rows: readonly Insertable<WebhookDeliveriesTable>[], tx: Db = this.db): Promise<void> {
    if (rows.length > 0) {
      await tx
        .insertInto('webhook_deliveries')
        .values([...rows])
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
    }
  }

  async findById(userId: string, id: string): Promise<DeliveryRow | undefined> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The batch's deliveries still waiting for their first attempt (a re-run fan-out job resumes here). */
  async pendingInBatch(userId: string, batchId: string, tx: Db = this.db): Promise<DeliveryRow[]> {
    return tx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('user_id', '=', userId)
      .where('batch_id', '=', batchId)
      .where('status', '=', 'pending')
      .where('attempts', '=', 0)
      .orderBy('id')
      .execute();
  }

  async recordFailure(userId: string, id: string, attempt: AttemptRecord, final: boolean): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        attempts: attempt.attempts,
        last_status_code: attempt.statusCode,
        last_error: attempt.error?.slice(0, 200) ?? null,
        updated_at: attempt.at,
        ...(final ? { status: 'dead_letter', body: null } : {}),
      })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** Marks rows delivered (one statement for a whole batch) and drops their bodies. */
  async recordDeliveredMany(userId: string, ids: readonly string[], attempt: AttemptRecord): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: 'delivered',
        attempts: attempt.attempts,
        last_status_code: attempt.statusCode,
        last_error: null,
        body: null,
        updated_at: attempt.at,
        delivered_at: attempt.at,
      })
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .execute();
  }

  /** A delivery that will not be attempted (app disabled or gone, target refused). */
  async recordSkipped(userId: string, id: string, reason: string, at: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'skipped', outcome: reason, body: null, updated_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  async recordOutcomeMany(userId: string, ids: readonly string[], outcome: string, at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('webhook_deliveries')
      .set({ outcome, updated_at: at })
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .execute();
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
