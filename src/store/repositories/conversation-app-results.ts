import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { Db } from './shared.js';

/** One summarization app's result for one conversation (migration 0060). */
export interface ConversationAppResultsTable {
  conversation_id: string;
  user_id: string;
  app_id: string;
  /** completed | skipped | failed */
  status: string;
  /** The app's reply (empty unless completed). */
  content: string;
  /** Why a run was skipped or failed (llm_not_configured, empty_reply, the last error). */
  reason: string | null;
  /** The conversation revision the result was computed from. */
  revision: number;
  created_at: number;
}

declare module '../schema.js' {
  interface Database {
    conversation_app_results: ConversationAppResultsTable;
  }
}

export type ConversationAppResultRow = Selectable<ConversationAppResultsTable>;

export class ConversationAppResultsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the app's result for the conversation, replacing the one it had. */
  async upsert(row: Insertable<ConversationAppResultsTable>, tx: Db = this.db): Promise<void> {
    await tx
      .insertInto('conversation_app_results')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['conversation_id', 'app_id']).doUpdateSet({
          status: row.status,
          content: row.content,
          reason: row.reason ?? null,
          revision: row.revision,
          created_at: row.created_at,
        }),
      )
      .execute();
  }

  /** Drops results computed from revisions older than `revision` (a reprocess replaces them). */
  async deleteOlderThan(userId: string, conversationId: string, revision: number, tx: Db = this.db): Promise<void> {
    await tx
      .deleteFrom('conversation_app_results')
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .where('revision', '<', revision)
      .execute();
  }

  /**
   * Completed results of the conversations' current revisions, by conversation, in one query for a
   * whole page of conversations.
   */
  async completedFor(
    userId: string,
    conversationIds: readonly string[],
  ): Promise<Map<string, Array<{ app_id: string; content: string }>>> {
    const byConversation = new Map<string, Array<{ app_id: string; content: string }>>();
    if (conversationIds.length === 0) return byConversation;
    const rows = await this.db
      .selectFrom('conversation_app_results as r')
      .innerJoin('conversations as c', (join) =>
        join.onRef('c.id', '=', 'r.conversation_id').onRef('c.revision', '=', 'r.revision'),
      )
      .select(['r.conversation_id', 'r.app_id', 'r.content'])
      .where('r.user_id', '=', userId)
      .where('c.user_id', '=', userId)
      .where('r.conversation_id', 'in', [...conversationIds])
      .where('r.status', '=', 'completed')
      .orderBy('r.conversation_id')
      .orderBy('r.created_at')
      .orderBy('r.app_id')
      .execute();
    for (const row of rows) {
      const list = byConversation.get(row.conversation_id) ?? [];
      list.push({ app_id: row.app_id, content: row.content });
      byConversation.set(row.conversation_id, list);
    }
    return byConversation;
  }

  /** Every result of the conversation, whatever its status (operators and tests inspect skipped and failed runs). */
  async forConversation(userId: string, conversationId: string): Promise<ConversationAppResultRow[]> {
    return this.db
      .selectFrom('conversation_app_results')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .orderBy('app_id')
      .execute();
  }
}
