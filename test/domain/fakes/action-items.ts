import type { Insertable } from 'kysely';
import type { ActionItemRow, ActionItemsRepository } from '../../../src/store/repositories/action-items.js';
import type { ActionItemsTable } from '../../../src/store/schema.js';
import { asPort, newestFirst, OwnedRows } from './port.js';

type Used = 'insertMany' | 'findById' | 'update' | 'delete' | 'dedupCandidates' | 'deleteUntouchedForConversation';

/** An extracted item the user has neither completed nor edited (edits move updated_at off created_at). */
const untouched = (row: ActionItemRow, conversationId: string) =>
  row.conversation_id === conversationId && row.completed === 0 && row.updated_at === row.created_at;

/** Action items in memory, keeping the repository's contract (the store tests check the SQL keeps it too). */
export class FakeActionItems extends OwnedRows<ActionItemRow> implements Pick<ActionItemsRepository, Used> {
  get port(): ActionItemsRepository {
    return asPort<ActionItemsRepository>(this);
  }

  async insertMany(rows: readonly Insertable<ActionItemsTable>[]): Promise<void> {
    for (const row of rows) this.rows.push({ conversation_id: null, completed_at: null, due_at: null, ...row });
  }

  /** Items created since `since` outside this conversation, and this conversation's touched items. */
  async dedupCandidates(userId: string, since: number, conversationId: string, limit = 200): Promise<ActionItemRow[]> {
    return this.rows
      .filter((r) => r.user_id === userId)
      .filter((r) => (r.conversation_id === conversationId ? !untouched(r, conversationId) : r.created_at >= since))
      .sort(newestFirst)
      .slice(0, limit);
  }

  async deleteUntouchedForConversation(userId: string, conversationId: string): Promise<void> {
    this.retain((r) => r.user_id !== userId || !untouched(r, conversationId));
  }
}
