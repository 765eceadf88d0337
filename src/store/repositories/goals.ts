import { type Insertable, type Kysely, type Selectable, sql, type Transaction, type Updateable } from 'kysely';
import type { Database, GoalProgressTable, GoalsTable } from '../schema.js';
import { type Cursor, type Db, deleteOwned, groupBy, pageAfter, updateOwned } from './shared.js';

export type GoalRow = Selectable<GoalsTable>;
export type GoalProgressRow = Selectable<GoalProgressTable>;
export type GoalPatch = Omit<Updateable<GoalsTable>, 'id' | 'user_id' | 'created_at'>;

export class GoalsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Active goals oldest first, or every goal newest first (research/omi-rest.md §2.4). */
  async list(userId: string, includeInactive: boolean, limit: number): Promise<GoalRow[]> {
    const query = this.db.selectFrom('goals').selectAll().where('user_id', '=', userId);
    if (includeInactive) return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return query.where('is_active', '=', 1).orderBy('created_at').orderBy('id').limit(limit).execute();
  }

  async findById(userId: string, id: string, tx: Db = this.db): Promise<GoalRow | undefined> {
    return tx.selectFrom('goals').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  }

  async findByGoalId(userId: string, goalId: string): Promise<GoalRow | undefined> {
    return this.db
      .selectFrom('goals')
      .selectAll()
      .where('user_id', '=', userId)
      .where('goal_id', '=', goalId)
      .executeTakeFirst();
  }

  /** Inserts a goal that is not active (paused, completed or archived from the start). */
  async insert(
    goal: Insertable<GoalsTable>,
    alsoInTransaction?: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    if (!alsoInTransaction) {
      await this.db.insertInto('goals').values(goal).execute();
      return;
    }
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('goals').values(goal).execute();
      await alsoInTransaction(tx);
    });
  }

  /**
   * Inserts an active goal and archives the oldest active ones beyond `maxActive`, in one transaction.
   * The user's row is locked first so two concurrent creates cannot both keep 3 others.
   */
  async insertActive(
    goal: Insertable<GoalsTable>,
    maxActive: number,
    now: number,
    alsoInTransaction?: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await lockUser(tx, goal.user_id);
      await tx.insertInto('goals').values(goal).execute();
      await archiveBeyond(tx, goal.user_id, goal.id, maxActive, now);
      await alsoInTransaction?.(tx);
    });
  }

  /** Sets a goal's status; becoming active archives the oldest active ones beyond `maxActive`. */
  async setStatus(userId: string, id: string, status: string, maxActive: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await lockUser(tx, userId);
      const active = status === 'active';
      const patch = { status, is_active: active ? 1 : 0, ended_at: active ? null : now, updated_at: now };
      await updateOwned(tx.updateTable('goals').set(patch), userId, id);
      if (active) await archiveBeyond(tx, userId, id, maxActive, now);
    });
  }

  async update(userId: string, id: string, patch: GoalPatch, tx: Db = this.db): Promise<boolean> {
    return updateOwned(tx.updateTable('goals').set(patch), userId, id);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return deleteOwned(this.db.deleteFrom('goals'), userId, id);
  }

  /** Sets the current value and the day's history point (a later update the same day replaces it). */
  async recordProgress(userId: string, id: string, value: number, day: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const updated = await this.update(userId, id, { current_value: value, updated_at: now }, tx);
      if (!updated) return false;
      await tx
        .insertInto('goal_progress')
        .values({ goal_id: id, user_id: userId, day, value, recorded_at: now })
        .onConflict((oc) => oc.columns(['goal_id', 'day']).doUpdateSet({ value, recorded_at: now }))
        .execute();
      return true;
    });
  }

  /** Daily points on or after `sinceDay` (YYYY-MM-DD), newest first. */
  async history(userId: string, id: string, sinceDay: string): Promise<GoalProgressRow[]> {
    return this.db
      .selectFrom('goal_progress')
      .selectAll()
      .where('user_id', '=', userId)
      .where('goal_id', '=', id)
      .where('day', '>=', sinceDay)
      .orderBy('day', 'desc')
      .execute();
  }

  /** Every goal after the (created_at, id) cursor, oldest first, with all its points (export). */
  async pageAfter(userId: string, after: Cursor | null, limit: number): Promise<GoalRow[]> {
    return pageAfter(this.db.selectFrom('goals').selectAll().where('user_id', '=', userId), after, limit);
  }

  async historyFor(userId: string, goalIds: readonly string[]): Promise<Map<string, GoalProgressRow[]>> {
    if (goalIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('goal_progress')
      .selectAll()
      .where('user_id', '=', userId)
      .where('goal_id', 'in', [...goalIds])
      .orderBy('goal_id')
      .orderBy('day')
      .execute();
    return groupBy(rows, (row) => row.goal_id);
  }
}

// A no-op update takes the user's row lock on PostgreSQL; SQLite serializes writers anyway.
async function lockUser(tx: Db, userId: string): Promise<void> {
  await tx.updateTable('users').set({ updated_at: sql`updated_at` }).where('id', '=', userId).execute();
}

/** SPEC §8: `keepId` and the newest other active goals up to `maxActive` stay active; older ones are archived. */
async function archiveBeyond(tx: Db, userId: string, keepId: string, maxActive: number, now: number): Promise<void> {
  const keep = tx
    .selectFrom('goals')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_active', '=', 1)
    .where('id', '<>', keepId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(maxActive - 1);
  await tx
    .updateTable('goals')
    .set({ is_active: 0, status: 'archived', ended_at: now, updated_at: now })
    .where('user_id', '=', userId)
    .where('is_active', '=', 1)
    .where('id', '<>', keepId)
    .where('id', 'not in', (eb) => eb.selectFrom(keep.as('keep')).select('keep.id'))
    .execute();
}
