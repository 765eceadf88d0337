import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { ConversationsTable, Database, TranscriptSegmentsTable } from '../schema.js';
import { type Db, deletedAny, updatedAny } from './shared.js';

export type LiveConversationRow = Selectable<ConversationsTable>;

/**
 * The live stream's queries on conversations and their segments: everything that must run inside
 * the stream's own transactions (create with the binding, fenced appends, the processing handoff).
 */
export class LiveConversationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async find(userId: string, id: string, tx: Db = this.db): Promise<LiveConversationRow | undefined> {
    return tx
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The legacy pointer: the conversation whose client_session_id is this recording session id. */
  async findByRecordingId(
    userId: string,
    recordingSessionId: string,
    tx: Db = this.db,
  ): Promise<LiveConversationRow | undefined> {
    return tx
      .selectFrom('conversations')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_session_id', '=', recordingSessionId)
      .executeTakeFirst();
  }

  async create(row: Insertable<ConversationsTable>, tx: Db = this.db): Promise<void> {
    await tx.insertInto('conversations').values(row).execute();
  }

  async segmentCount(
    userId: string,
    conversationId: string,
    tx: Db = this.db,
  ): Promise<{ count: number; nextSeq: number }> {
    const row = await tx
      .selectFrom('transcript_segments')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('seq').as('max_seq')])
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirstOrThrow();
    const maxSeq = row.max_seq === null ? -1 : Number(row.max_seq);
    return { count: Number(row.n), nextSeq: maxSeq + 1 };
  }

  /**
   * Appends a batch to a conversation that is still in_progress and moves its finished_at (the
   * silence clock). False when the conversation is no longer writable (the write is fenced).
   */
  async appendBatch(
    userId: string,
    conversationId: string,
    segments: readonly Insertable<TranscriptSegmentsTable>[],
    times: { finishedAt: number; startedAt?: number },
  ): Promise<boolean> {
    return this.transaction(async (tx) => {
      const updated = await tx
        .updateTable('conversations')
        .set({
          finished_at: times.finishedAt,
          updated_at: times.finishedAt,
          ...(times.startedAt !== undefined ? { started_at: times.startedAt } : {}),
        })
        .where('user_id', '=', userId)
        .where('id', '=', conversationId)
        .where('status', '=', 'in_progress')
        .where('discarded', '=', 0)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      if (segments.length > 0)
        await tx
          .insertInto('transcript_segments')
          .values([...segments])
          .execute();
      return true;
    });
  }

  /** Compare-and-swap in_progress → processing with the new finalization revision. */
  async markProcessing(userId: string, id: string, revision: number, now: number, tx: Db): Promise<boolean> {
    return updatedAny(
      tx
        .updateTable('conversations')
        .set({ status: 'processing', revision, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'in_progress'),
    );
  }

  /** Deletes the conversation only while it is in_progress and has no segments. */
  async deleteIfEmpty(userId: string, id: string, tx: Db): Promise<boolean> {
    const { count } = await this.segmentCount(userId, id, tx);
    if (count > 0) return false;
    return deletedAny(
      tx
        .deleteFrom('conversations')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'in_progress'),
    );
  }

  /** research/omi-listen.md §2.6: a dead-lettered finalization closes its conversation as failed and discarded. */
  async markFailed(userId: string, id: string, revision: number, now: number): Promise<boolean> {
    return updatedAny(
      this.db
        .updateTable('conversations')
        .set({ status: 'failed', discarded: 1, updated_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('revision', '=', revision)
        .where('status', '=', 'processing'),
    );
  }

  /** SPEC §4.11 speaker_assigned: labels segments of one conversation with a person (or the user). */
  /** Whether the person is one of the user's own known people. */
  async isUsersPerson(userId: string, personId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('people')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '=', personId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async assignSpeaker(
    userId: string,
    conversationId: string,
    segmentIds: readonly string[],
    personId: string | null,
    isUser: boolean,
  ): Promise<void> {
    if (segmentIds.length === 0) return;
    await this.db
      .updateTable('transcript_segments')
      .set({ person_id: personId, is_user: isUser ? 1 : 0 })
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .where('id', 'in', [...segmentIds])
      .execute();
  }
}
