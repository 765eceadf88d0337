import type { Kysely, Selectable } from 'kysely';
import type { Database, JobsTable } from '../schema.js';
import './listen-tables.js';
import type { FinalizationFanoutsTable } from './listen-tables.js';

export type FanoutRow = Selectable<FinalizationFanoutsTable>;

export const FINALIZE_JOB = 'listen.finalize';

export interface FanoutClaim {
  fanoutKey: string;
  jobId: string;
  conversationId: string;
  revision: number;
}

/** 'claimed': first run; 'resumed': a crashed run left it leased; 'done': side effects already happened. */
export type FanoutClaimResult = 'claimed' | 'resumed' | 'done';

/**
 * Finalization jobs (SPEC §3.2) are rows of the shared job table of kind listen.finalize; this
 * repository adds the queries only they need and the persistent fanout claims.
 */
export class FinalizationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Claims the fanout step with its persistent key before any side effect (SPEC §3.2). */
  async claimFanout(userId: string, claim: FanoutClaim, now: number): Promise<FanoutClaimResult> {
    const inserted = await this.db
      .insertInto('finalization_fanouts')
      .values({
        fanout_key: claim.fanoutKey,
        user_id: userId,
        job_id: claim.jobId,
        conversation_id: claim.conversationId,
        revision: claim.revision,
        status: 'leased',
        attempts: 1,
        claimed_at: now,
        completed_at: null,
      })
      .onConflict((oc) => oc.column('fanout_key').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return 'claimed';
    const existing = await this.fanout(userId, claim.fanoutKey);
    if (!existing) throw new Error('fanout claim belongs to another user');
    if (existing.status === 'completed') return 'done';
    await this.db
      .updateTable('finalization_fanouts')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), claimed_at: now }))
      .where('user_id', '=', userId)
      .where('fanout_key', '=', claim.fanoutKey)
      .execute();
    return 'resumed';
  }

  /** Recorded only after the side effects returned (SPEC §3.2: fanout_status=completed). */
  async completeFanout(userId: string, fanoutKey: string, now: number): Promise<void> {
    await this.db
      .updateTable('finalization_fanouts')
      .set({ status: 'completed', completed_at: now })
      .where('user_id', '=', userId)
      .where('fanout_key', '=', fanoutKey)
      .execute();
  }

  async fanout(userId: string, fanoutKey: string): Promise<FanoutRow | undefined> {
    return this.db
      .selectFrom('finalization_fanouts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('fanout_key', '=', fanoutKey)
      .executeTakeFirst();
  }

  async fanoutsFor(userId: string, conversationId: string): Promise<FanoutRow[]> {
    return this.db
      .selectFrom('finalization_fanouts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .orderBy('claimed_at')
      .execute();
  }

  async jobsFor(userId: string, conversationId: string): Promise<Selectable<JobsTable>[]> {
    return this.db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', FINALIZE_JOB)
      .where('idempotency_key', 'like', `listen-finalization:${userId}:${conversationId}:%`)
      .orderBy('created_at')
      .execute();
  }

  /** SPEC §3.2: a live request with a validated user key moves this user's blocked jobs to queued. */
  async unblockByok(userId: string, now: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', run_at: now, updated_at: now })
      .where('user_id', '=', userId)
      .where('kind', '=', FINALIZE_JOB)
      .where('status', '=', 'blocked_byok')
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }
}
