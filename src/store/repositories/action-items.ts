import {
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type RawBuilder,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { ActionItemsTable, Database } from '../schema.js';
import { type Cursor, type Db, deleteOwned, groupBy, pageAfter, updateOwned } from './shared.js';

export type ActionItemRow = Selectable<ActionItemsTable>;
export type ActionItemPatch = Omit<Updateable<ActionItemsTable>, 'id' | 'user_id'>;

/**
 * An extracted item of `conversationId` the user has not completed or edited (an edit moves `updated_at`
 * off `created_at`): a re-extraction replaces it.
 */
const untouchedOf = (conversationId: string) => (eb: ExpressionBuilder<Database, 'action_items'>) =>
  eb.and([
    eb('conversation_id', '=', conversationId),
    eb('completed', '=', 0),
    eb('updated_at', '=', eb.ref('created_at')),
  ]);

export interface ActionItemListFilter {
  completed?: boolean;
  conversationId?: string;
  /** created_at bounds, inclusive (epoch ms) */
  startDate?: number;
  endDate?: number;
  /** due_at bounds, inclusive (epoch ms): items without a due date are left out when either is set */
  dueStartDate?: number;
  dueEndDate?: number;
  limit: number;
  offset: number;
}

/**
 * research/omi-rest.md §2.3 ordering: open items first, then completed; within each, items with a due
 * date first (soonest first), then undated; ties newest first. `(due_at IS NULL)` is written as the
 * action_items_page index writes it, so the index gives this order. `prefix`: the table's alias and a dot.
 */
function inListOrder<Q extends { orderBy(expression: RawBuilder<unknown>): Q }>(query: Q, prefix: string): Q {
  const column = (name: string) => sql.ref(`${prefix}${name}`);
  return query
    .orderBy(sql`${column('completed')}`)
    .orderBy(sql`(${column('due_at')} IS NULL)`)
    .orderBy(sql`${column('due_at')}`)
    .orderBy(sql`${column('created_at')} desc`)
    .orderBy(sql`${column('id')} desc`);
}

export class ActionItemsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertMany(rows: readonly Insertable<ActionItemsTable>[], tx: Db = this.db): Promise<void> {
    if (rows.length > 0)
      await tx
        .insertInto('action_items')
        .values([...rows])
        .execute();
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Items of several conversations in one query, grouped by conversation id, oldest first. */
  async forConversations(userId: string, conversationIds: readonly string[]): Promise<Map<string, ActionItemRow[]>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('action_items')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', 'in', [...conversationIds])
      // Leading with conversation_id keeps SQLite on the (user, conversation) index instead of scanning
      // every item of the user in created_at order.
      .orderBy('conversation_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return groupBy(rows, (row) => row.conversation_id ?? '');
  }

  /**
   * What a new extraction for `conversationId` is de-duplicated against: the user's items created since
   * `since` (SPEC §8) in other conversations or by hand, and the items of this conversation the user
   * completed or edited, whenever made (a re-extraction keeps those and replaces the rest).
   */
  async dedupCandidates(userId: string, since: number, conversationId: string, limit = 200): Promise<ActionItemRow[]> {
    // Two index walks, merged here: as one OR the newest-first walk went on through every older item
    // of the user looking for the second kind, so each extraction cost grew with the user's history.
    const [recent, kept] = await Promise.all([
      this.db
        .selectFrom('action_items')
        .selectAll()
        .where('user_id', '=', userId)
        .where('created_at', '>=', since)
        .where((eb) => eb.or([eb('conversation_id', 'is', null), eb('conversation_id', '!=', conversationId)]))
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute(),
      this.db
        .selectFrom('action_items')
        .selectAll()
        .where('user_id', '=', userId)
        .where('conversation_id', '=', conversationId)
        .where((eb) => eb.not(untouchedOf(conversationId)(eb)))
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute(),
    ]);
    return [...recent, ...kept].sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1)).slice(0, limit);
  }

  /** The conversation's extracted items a re-extraction replaces (see untouchedOf). */
  async deleteUntouchedForConversation(userId: string, conversationId: string, tx: Db = this.db): Promise<void> {
    await tx.deleteFrom('action_items').where('user_id', '=', userId).where(untouchedOf(conversationId)).execute();
  }

  /** A page in list order (inListOrder): its keys from the covering index, then its rows by id. */
  async list(userId: string, filter: ActionItemListFilter): Promise<ActionItemRow[]> {
    const page = this.db
      .selectFrom(this.pageKeysQuery(userId, filter).as('p'))
      // The page's keys first (a cross join keeps SQLite to that order), each row then found by its id.
      .crossJoin('action_items as a')
      .whereRef('a.id', '=', 'p.id')
      .where('a.user_id', '=', userId)
      .selectAll('a');
    return inListOrder(page, 'a.').execute();
  }

  /** The ids of a page, walked in list order on the covering action_items_page index; exposed for plan tests. */
  pageKeysQuery(userId: string, filter: ActionItemListFilter) {
    let query = this.db
      .selectFrom('action_items')
      .select(['id', 'completed', 'due_at', 'created_at'])
      .where('user_id', '=', userId);
    if (filter.completed !== undefined) query = query.where('completed', '=', filter.completed ? 1 : 0);
    if (filter.conversationId !== undefined) query = query.where('conversation_id', '=', filter.conversationId);
    // `+created_at`: the dates are checked along the ordered walk, not used to pick the (user, created_at)
    // index, whose range would then be sorted whole before the offset is skipped.
    const createdAt = sql<number>`+${sql.ref('created_at')}`;
    if (filter.startDate !== undefined) query = query.where(createdAt, '>=', filter.startDate);
    if (filter.endDate !== undefined) query = query.where(createdAt, '<=', filter.endDate);
    const dueAt = sql<number>`+${sql.ref('due_at')}`;
    if (filter.dueStartDate !== undefined) query = query.where(dueAt, '>=', filter.dueStartDate);
    if (filter.dueEndDate !== undefined) query = query.where(dueAt, '<=', filter.dueEndDate);
    return inListOrder(query, '').limit(filter.limit).offset(filter.offset);
  }

  async findById(userId: string, id: string, tx: Db = this.db): Promise<ActionItemRow | undefined> {
    return tx
      .selectFrom('action_items')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async update(userId: string, id: string, patch: ActionItemPatch, tx: Db = this.db): Promise<boolean> {
    return updateOwned(tx.updateTable('action_items').set(patch), userId, id);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return deleteOwned(this.db.deleteFrom('action_items'), userId, id);
  }

  /** Every item after the cursor, oldest first (export). */
  async pageAfter(userId: string, after: Cursor | null, limit: number): Promise<ActionItemRow[]> {
    return pageAfter(this.db.selectFrom('action_items').selectAll().where('user_id', '=', userId), after, limit);
  }
}
