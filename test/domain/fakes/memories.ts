import type { Insertable, Transaction } from 'kysely';
import type { MemoriesRepository, MemoryRow } from '../../../src/store/repositories/memories.js';
import type { Database, MemoriesTable } from '../../../src/store/schema.js';
import { asPort, NO_TX, newestFirst, OwnedRows } from './port.js';

type Used =
  | 'insertMany'
  | 'findById'
  | 'update'
  | 'delete'
  | 'transaction'
  | 'recentContents'
  | 'deleteUntouchedForConversation';

/** Memories in memory, keeping the repository's contract (the store tests check the SQL keeps it too). */
export class FakeMemories extends OwnedRows<MemoryRow> implements Pick<MemoriesRepository, Used> {
  get port(): MemoriesRepository {
    return asPort<MemoriesRepository>(this);
  }

  async insertMany(rows: readonly Insertable<MemoriesTable>[]): Promise<void> {
    for (const row of rows) this.rows.push({ conversation_id: null, app_id: null, user_review: null, ...row });
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return work(NO_TX);
  }

  async recentContents(userId: string, limit: number): Promise<Array<{ content: string }>> {
    return this.rows
      .filter((r) => r.user_id === userId)
      .sort(newestFirst)
      .slice(0, limit)
      .map((r) => ({ content: r.content }));
  }

  async deleteUntouchedForConversation(userId: string, conversationId: string): Promise<void> {
    this.retain(
      (r) => r.user_id !== userId || r.conversation_id !== conversationId || r.edited === 1 || r.user_review !== null,
    );
  }
}
