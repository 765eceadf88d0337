import type { Insertable, Kysely } from 'kysely';
import type {
  ActionItemsTable,
  ConversationEventsTable,
  ConversationsTable,
  Database,
  FoldersTable,
  GoalProgressTable,
  GoalsTable,
  MemoriesTable,
  TranscriptSegmentsTable,
} from '../schema.js';
import type { ConversationsRepository } from './conversations.js';

/** The tables `keepsake import` writes, each keyed by a text `id` and owned through `user_id`. */
export type ImportedTable = 'conversations' | 'memories' | 'action_items' | 'goals' | 'folders';

export type IdOwner = 'this_user' | 'other_user' | 'free';

/**
 * Writes of `keepsake import` (docs/cli.md): rows restored as they were exported, with their ids and
 * times, never reprocessed. A conversation is written with its transcript and events in one transaction,
 * so an interrupted import leaves whole conversations only and a rerun skips what is there.
 */
export class ImportsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** The conversation writes every other path uses (segment batches within the parameter limits). */
    private readonly conversations: ConversationsRepository,
  ) {}

  /** Whether `id` is free, already this user's (imported before) or another user's. */
  async owner(table: ImportedTable, userId: string, id: string): Promise<IdOwner> {
    const row = await this.db.selectFrom(table).select('user_id').where('id', '=', id).executeTakeFirst();
    if (!row) return 'free';
    return row.user_id === userId ? 'this_user' : 'other_user';
  }

  async conversation(
    row: Insertable<ConversationsTable>,
    segments: readonly Insertable<TranscriptSegmentsTable>[],
    events: readonly Insertable<ConversationEventsTable>[],
  ): Promise<void> {
    await this.conversations.transaction(async (tx) => {
      await this.conversations.insert(row, segments, tx);
      await this.conversations.replaceEvents(row.user_id, row.id, events, tx);
    });
  }

  async memory(row: Insertable<MemoriesTable>): Promise<void> {
    await this.db.insertInto('memories').values(row).execute();
  }

  async actionItem(row: Insertable<ActionItemsTable>): Promise<void> {
    await this.db.insertInto('action_items').values(row).execute();
  }

  async folder(row: Insertable<FoldersTable>): Promise<void> {
    await this.db.insertInto('folders').values(row).execute();
  }

  async goal(row: Insertable<GoalsTable>, history: readonly Insertable<GoalProgressTable>[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('goals').values(row).execute();
      if (history.length > 0)
        await tx
          .insertInto('goal_progress')
          .values([...history])
          .execute();
    });
  }
}
