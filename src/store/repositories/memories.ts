import type { ExpressionBuilder, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { PreparedQuery } from '../prepared.js';
import type { Database, MemoriesTable } from '../schema.js';
import { newestFirstKeys } from './list-pages.js';
import { type Cursor, type Db, deleteOwned, pageAfter, updateOwned } from './shared.js';

export type MemoryRow = Selectable<MemoriesTable>;
export type MemoryPatch = Omit<Updateable<MemoriesTable>, 'id' | 'user_id'>;

/** An extracted memory of `conversationId` the user has not edited or reviewed: a re-extraction replaces it. */
const untouchedOf = (conversationId: string) => (eb: ExpressionBuilder<Database, 'memories'>) =>
  eb.and([eb('conversation_id', '=', conversationId), eb('edited', '=', 0), eb('user_review', 'is', null)]);

export interface MemoryListFilter {
  categories?: readonly string[];
  limit: number;
  offset: number;
}

export class MemoriesRepository {
  /** The plain page (no category filter): the developer list's common case, compiled once. */
  private readonly page: PreparedQuery<MemoryRow, 'userId' | 'limit' | 'offset'>;

  constructor(private readonly db: Kysely<Database>) {
    this.page = new PreparedQuery(db, ['userId', 'limit', 'offset'], (v) =>
      this.listQuery(v.userId, { limit: v.limit, offset: v.offset }),
    );
  }

  async insertMany(rows: readonly Insertable<MemoriesTable>[], tx: Db = this.db): Promise<void> {
    // Stay well under SQLite's bound-parameter limit (15 columns per row).
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insertInto('memories')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  /**
   * Most recent memory contents, for de-duplicating new extractions. `replacing`: a conversation whose
   * extracted memories are about to be replaced; those the user never touched are left out (they will
   * be deleted, and must not stop the new extraction from finding the same facts again).
   */
  async recentContents(userId: string, limit: number, replacing?: string): Promise<Array<{ content: string }>> {
    let query = this.db.selectFrom('memories').select('content').where('user_id', '=', userId);
    if (replacing !== undefined) query = query.where((eb) => eb.not(untouchedOf(replacing)(eb)));
    return query.orderBy('created_at', 'desc').limit(limit).execute();
  }

  /** The conversation's extracted memories the user has not edited or reviewed: what a re-extraction replaces. */
  async deleteUntouchedForConversation(userId: string, conversationId: string, tx: Db = this.db): Promise<void> {
    await tx.deleteFrom('memories').where('user_id', '=', userId).where(untouchedOf(conversationId)).execute();
  }

  /** Newest first; memories the user rejected (`user_review = 0`) are hidden. */
  async list(userId: string, filter: MemoryListFilter): Promise<MemoryRow[]> {
    if (!filter.categories || filter.categories.length === 0)
      return this.page.execute({ userId, limit: filter.limit, offset: filter.offset });
    return this.listQuery(userId, filter).execute();
  }

  /** A page's rows, fetched by the ids the covering indexes give (list-pages.ts). */
  private listQuery(userId: string, filter: MemoryListFilter) {
    return this.db
      .selectFrom(this.pageKeysQuery(userId, filter).as('p'))
      .crossJoin('memories as m')
      .whereRef('m.id', '=', 'p.id')
      .where('m.user_id', '=', userId)
      .selectAll('m')
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc');
  }

  /** The ids of a list page; exposed so tests can check its plan. */
  pageKeysQuery(userId: string, filter: MemoryListFilter) {
    const arm = (category: string | undefined) => {
      let query = this.db
        .selectFrom('memories')
        .select(['id', 'created_at'])
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('user_review', 'is', null), eb('user_review', '<>', 0)]));
      if (category !== undefined) query = query.where('category', '=', category);
      else if (filter.categories && filter.categories.length > 0)
        query = query.where('category', 'in', [...filter.categories]);
      return query;
    };
    return newestFirstKeys(filter.categories, arm, filter);
  }

  async findById(userId: string, id: string, tx: Db = this.db): Promise<MemoryRow | undefined> {
    return tx.selectFrom('memories').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  /** The user's memories among `ids`, in no particular order. */
  async findByIds(userId: string, ids: readonly string[]): Promise<MemoryRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('memories')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', 'in', [...ids])
      .execute();
  }

  async update(userId: string, id: string, patch: MemoryPatch, tx: Db = this.db): Promise<boolean> {
    return updateOwned(tx.updateTable('memories').set(patch), userId, id);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return deleteOwned(this.db.deleteFrom('memories'), userId, id);
  }

  /** Every memory (rejected ones too) after the cursor, oldest first. */
  async pageAfter(userId: string, after: Cursor | null, limit: number): Promise<MemoryRow[]> {
    return pageAfter(this.db.selectFrom('memories').selectAll().where('user_id', '=', userId), after, limit);
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
