import type { Insertable, Transaction } from 'kysely';
import type { MemoriesRepository, MemoryPatch, MemoryRow } from '../../../src/store/repositories/memories.js';
import type { Database, MemoriesTable } from '../../../src/store/schema.js';
import { asPort, NO_TX, newestFirst } from './port.js';

type Used =
  | 'insertMany'
  | 'findById'
  | 'update'
  | 'delete'
  | 'transaction'
  | 'recentContents'
  | 'deleteUntouchedForConversation';

/** Memories in memory, keeping the repository's contract (the store tests check the SQL keeps it too). */
export class FakeMemories implements Pick<MemoriesRepository, Used> {
  readonly rows: MemoryRow[] = [];

  get port(): MemoriesRepository {
    return asPort<MemoriesRepository>(this);
  }

  async insertMany(rows: readonly Insertable<MemoriesTable>[]): Promise<void> {
    for (const row of rows) this.rows.push({ conversation_id: null, app_id: null, user_review: null, ...row });
  }

  async findById(userId: string, id: string): Promise<MemoryRow | undefined> {
    return this.rows.find((r) => r.user_id === userId && r.id === id);
  }

  async update(userId: string, id: string, patch: MemoryPatch): Promise<boolean> {
    const row = await this.findById(userId, id);
    if (row) Object.assign(row, patch);
    return row !== undefined;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const at = this.rows.findIndex((r) => r.user_id === userId && r.id === id);
    if (at >= 0) this.rows.splice(at, 1);
    return at >= 0;
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
    const kept = this.rows.filter(
      (r) => r.user_id !== userId || r.conversation_id !== conversationId || r.edited === 1 || r.user_review !== null,
    );
    this.rows.splice(0, this.rows.length, ...kept);
  }
}
