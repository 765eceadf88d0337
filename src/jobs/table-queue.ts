import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import type { DialectName } from '../store/db.js';
import type { Database, JobsTable, NewJob } from '../store/schema.js';

export type { NewJob };

export type JobRow = Selectable<JobsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** What a claim sets: the job leased to `workerId` until now + leaseMs, one attempt more. */
const leasedTo = (workerId: string, leaseMs: number, now: number) => (eb: ExpressionBuilder<Database, 'jobs'>) => ({
  status: 'leased',
  lease_owner: workerId,
  lease_until: now + leaseMs,
  attempts: eb('attempts', '+', 1),
  updated_at: now,
});

/** What a queue delivery carries (job id + dispatch generation) and when the job may run. */
export interface DispatchTicket {
  id: string;
  generation: number;
  runAt: number;
}

/**
 * The durable job table (DESIGN §2): at-least-once delivery with leases. A claim takes a queued job
 * or one whose lease expired; failures go back to queued with backoff until the last attempt, then
 * to dead_letter. The same SQL runs on SQLite and PostgreSQL (SKIP LOCKED on PostgreSQL).
 */
export class JobTable {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** Inserts the job unless one with the same idempotency key exists; returns the stored job's id. */
  async enqueue(job: NewJob, now: number, tx: Db = this.db): Promise<string> {
    const inserted = await tx
      .insertInto('jobs')
      .values({
        id: job.id,
        kind: job.kind,
        user_id: job.userId,
        payload: JSON.stringify(job.payload),
        status: job.status ?? 'queued',
        attempts: 0,
        max_attempts: job.maxAttempts,
        run_at: job.runAt,
        lease_owner: null,
        lease_until: null,
        last_error: null,
        idempotency_key: job.idempotencyKey,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return inserted.id;
    // The idempotency key was taken: the job already exists.
    const stored = await tx
      .selectFrom('jobs')
      .select('id')
      .where('idempotency_key', '=', job.idempotencyKey)
      .executeTakeFirstOrThrow();
    return stored.id;
  }

  /**
   * Claims the oldest due queued job, or else a job whose lease expired. Two index range scans rather
   * than one OR: with thousands of queued jobs, the OR plus ORDER BY sorted every due row on each claim.
   */
  async claimNext(
    workerId: string,
    leaseMs: number,
    now: number,
    kinds?: readonly string[],
  ): Promise<JobRow | undefined> {
    for (const branch of ['queued', 'expired'] as const) {
      const claimed = await this.db
        .updateTable('jobs')
        .set(leasedTo(workerId, leaseMs, now))
        .where('id', '=', (eb) => eb.selectFrom(this.claimCandidate(branch, now, kinds).as('next')).select('next.id'))
        .returningAll()
        .executeTakeFirst();
      if (claimed) return claimed;
    }
    return undefined;
  }

  private claimCandidate(branch: 'queued' | 'expired', now: number, kinds?: readonly string[]) {
    let candidate =
      branch === 'queued'
        ? this.db
            .selectFrom('jobs')
            .select('id')
            .where('status', '=', 'queued')
            .where('run_at', '<=', now)
            .orderBy('run_at')
        : this.db
            .selectFrom('jobs')
            .select('id')
            .where('status', '=', 'leased')
            .where('lease_until', '<', now)
            .orderBy('lease_until');
    candidate = candidate.limit(1);
    if (kinds && kinds.length > 0) candidate = candidate.where('kind', 'in', [...kinds]);
    if (this.dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
    return candidate;
  }

  /** Claims one specific job (queue dispatch names the job); undefined when another worker holds it. */
  async claimById(jobId: string, workerId: string, leaseMs: number, now: number): Promise<JobRow | undefined> {
    return this.db
      .updateTable('jobs')
      .set(leasedTo(workerId, leaseMs, now))
      .where('id', '=', jobId)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'leased'), eb('lease_until', '<', now)]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
  }

  async extendLease(jobId: string, workerId: string, leaseMs: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_until: now + leaseMs, updated_at: now })
      .where('id', '=', jobId)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'leased')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Marks the job done if this worker still holds the lease (a stale worker cannot complete it). */
  async complete(jobId: string, workerId: string, now: number, tx: Db = this.db): Promise<boolean> {
    const result = await tx
      .updateTable('jobs')
      .set({ status: 'completed', lease_until: null, updated_at: now })
      .where('id', '=', jobId)
      .where('lease_owner', '=', workerId)
      .where('status', '=', 'leased')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Back to queued with exponential backoff, or dead_letter after the last attempt. */
  async fail(
    job: JobRow,
    workerId: string,
    reason: string,
    retryable: boolean,
    now: number,
  ): Promise<'queued' | 'dead_letter'> {
    const final = !retryable || job.attempts >= job.max_attempts;
    const backoff = Math.min(60_000, 1000 * 2 ** Math.max(0, job.attempts - 1));
    const status = final ? 'dead_letter' : 'queued';
    await this.db
      .updateTable('jobs')
      .set({
        status,
        run_at: final ? job.run_at : now + backoff,
        lease_owner: null,
        lease_until: null,
        last_error: reason.slice(0, 200),
        updated_at: now,
      })
      .where('id', '=', job.id)
      .where('lease_owner', '=', workerId)
      .execute();
    return status;
  }

  /**
   * Queue dispatch (DESIGN §2): takes due queued jobs of these kinds that were never dispatched
   * (generation 0) and moves them to generation 1; only the caller whose update matched sends them.
   */
  async takeUndispatched(kinds: readonly string[], now: number, limit: number): Promise<DispatchTicket[]> {
    let candidate = this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('run_at', '<=', now)
      .where('dispatch_generation', '=', 0)
      .where('kind', 'in', [...kinds])
      .orderBy('run_at')
      .limit(limit);
    if (this.dialect === 'postgres') candidate = candidate.forUpdate().skipLocked();
    return this.db
      .updateTable('jobs')
      .set({ dispatch_generation: 1 })
      .where('id', 'in', candidate)
      .where('dispatch_generation', '=', 0)
      .returning(['id', 'dispatch_generation as generation', 'run_at as runAt'])
      .execute();
  }

  /**
   * Jobs of these kinds runnable now that nothing touched since `staleBefore` (a lost dispatch, an
   * expired lease of a dead worker): the queue sweep checks each against the transport.
   */
  async dispatchCandidates(
    kinds: readonly string[],
    now: number,
    staleBefore: number,
    limit: number,
  ): Promise<Array<DispatchTicket & { status: string }>> {
    return this.db
      .selectFrom('jobs')
      .select(['id', 'status', 'dispatch_generation as generation', 'run_at as runAt'])
      .where('kind', 'in', [...kinds])
      .where('updated_at', '<=', staleBefore)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'leased'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(limit)
      .execute();
  }

  /**
   * A new dispatch generation (older deliveries become stale). With `expected`, only when the job is
   * still at that generation, so two sweeps never both re-send it; undefined when another one did.
   */
  async bumpGeneration(jobId: string, now: number, expected?: number): Promise<DispatchTicket | undefined> {
    let update = this.db
      .updateTable('jobs')
      .set((eb) => ({ dispatch_generation: eb('dispatch_generation', '+', 1), updated_at: now }))
      .where('id', '=', jobId)
      .where('status', 'in', ['queued', 'leased']);
    if (expected !== undefined) update = update.where('dispatch_generation', '=', expected);
    return update.returning(['id', 'dispatch_generation as generation', 'run_at as runAt']).executeTakeFirst();
  }

  async findById(jobId: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
  }

  async findByKey(idempotencyKey: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  }

  /** Jobs that a worker could run now (queued and due, or with an expired lease). */
  async countRunnable(now: number): Promise<number> {
    const row = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'leased'), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }
}
