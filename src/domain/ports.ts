import type { Transaction } from 'kysely';
import type { ConversationRow } from '../store/repositories/conversations.js';
import type { Database, NewJob } from '../store/schema.js';

/** The durable work queue, written inside the caller's transaction (jobs/ implements it). */
export interface WorkQueue {
  enqueue(work: NewJob, now: number, tx?: Transaction<Database>): Promise<string>;
}

/** Where a processed conversation ended up. */
export interface ProcessingOutcome {
  status: string;
  discarded: boolean;
}

/** The conversation pipeline as the domain sees it (processing/ implements it over the job queue). */
export interface ConversationProcessing {
  /** Queues processing of this revision in the caller's transaction; the job row is the durable record. */
  enqueue(
    tx: Transaction<Database>,
    conversation: Pick<ConversationRow, 'id' | 'user_id'>,
    revision: number,
    options?: { forceKeep?: boolean },
  ): Promise<string>;
  /**
   * Runs the queued job in this request on the row the caller just wrote, unless a worker already
   * claimed it (then waits, bounded, for that worker); the outcome either way.
   */
  runNow(jobId: string, conversation: ConversationRow, options?: { forceKeep?: boolean }): Promise<ProcessingOutcome>;
  /** Tells the workers there is queued work. */
  wake(): void;
}

/**
 * Writes what a create answers in the transaction that stores what it created (http/idempotency.ts), so
 * a retry with the same Idempotency-Key replays it, even after a crash between the commit and the answer.
 * `final` is false when the answer still changes before it is sent (a conversation processed first).
 * It throws when the key is already taken, which rolls the create back.
 */
export type CreateReceipt = (tx: Transaction<Database>, answer: unknown, final?: boolean) => Promise<void>;
