import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { type EmbeddingColumns, refreshedEmbedding } from '../search/tables.js';

/** One conversation's embedding for one model (migration 0090). */
export interface ConversationEmbeddingsTable extends EmbeddingColumns {
  conversation_id: string;
}

declare module '../schema.js' {
  interface Database {
    conversation_embeddings: ConversationEmbeddingsTable;
  }
}

/** What of a conversation is embedded. */
export interface EmbeddableConversation {
  id: string;
  title: string;
  overview: string;
  text: string | null;
  updated_at: number;
}

const when = sql<number>`coalesce(c.started_at, c.created_at)`;

/** Stored conversation embeddings of completed, kept conversations; every query takes the owner first. */
export class ConversationEmbeddingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Conversations with no embedding for `model`, or one older than their last change; newest first. */
  async stale(userId: string, model: string, limit: number): Promise<EmbeddableConversation[]> {
    return this.db
      .selectFrom('conversations as c')
      .leftJoin('conversation_embeddings as e', (join) =>
        join.onRef('e.conversation_id', '=', 'c.id').on('e.model', '=', model),
      )
      .select(['c.id', 'c.title', 'c.overview', 'c.text', 'c.updated_at'])
      .where('c.user_id', '=', userId)
      .where('c.status', '=', 'completed')
      .where('c.discarded', '=', 0)
      .where((eb) => eb.or([eb('e.conversation_id', 'is', null), eb('e.created_at', '<', eb.ref('c.updated_at'))]))
      .orderBy(when, 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit)
      .execute();
  }

  async save(rows: readonly ConversationEmbeddingsTable[]): Promise<void> {
    for (const row of rows) {
      await this.db
        .insertInto('conversation_embeddings')
        .values(row)
        .onConflict((oc) => oc.column('conversation_id').doUpdateSet(refreshedEmbedding(row)))
        .execute();
    }
  }

  /** The user's embeddings for `model` of completed, kept conversations in the span, with what was embedded. */
  async vectors(
    userId: string,
    model: string,
    span: { from: number; to: number } | null,
  ): Promise<Array<EmbeddableConversation & { vector: Buffer; content_hash: string }>> {
    let query = this.db
      .selectFrom('conversation_embeddings as e')
      .innerJoin('conversations as c', 'c.id', 'e.conversation_id')
      .select(['c.id', 'c.title', 'c.overview', 'c.text', 'c.updated_at', 'e.vector', 'e.content_hash'])
      .where('e.user_id', '=', userId)
      .where('c.user_id', '=', userId)
      .where('e.model', '=', model)
      .where('c.status', '=', 'completed')
      .where('c.discarded', '=', 0);
    if (span) query = query.where(when, '>=', span.from).where(when, '<=', span.to);
    return query.execute();
  }
}
