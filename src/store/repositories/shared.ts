import {
  type DeleteQueryBuilder,
  type DeleteResult,
  type Kysely,
  type SelectQueryBuilder,
  sql,
  type Transaction,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { Database } from '../schema.js';

export type Db = Kysely<Database> | Transaction<Database>;

/** The tables whose rows have their own id and belong to one user. */
type OwnedTable = {
  [T in keyof Database]: Database[T] extends { id: string; user_id: string } ? T : never;
}[keyof Database];

/** A keyset position in (created_at, id) order, for paging through everything (export). */
export interface Cursor {
  createdAt: number;
  id: string;
}

/** Runs `update` on the user's row `id` only; false when the user has no such row. */
export async function updateOwned<TB extends OwnedTable>(
  update: UpdateQueryBuilder<Database, TB, TB, UpdateResult>,
  userId: string,
  id: string,
): Promise<boolean> {
  return updatedAny(update.where(sql.ref('user_id'), '=', userId).where(sql.ref('id'), '=', id));
}

/** Runs `remove` on the user's row `id` only; false when the user has no such row. */
export async function deleteOwned<TB extends OwnedTable>(
  remove: DeleteQueryBuilder<Database, TB, DeleteResult>,
  userId: string,
  id: string,
): Promise<boolean> {
  return deletedAny(remove.where(sql.ref('user_id'), '=', userId).where(sql.ref('id'), '=', id));
}

/** Runs `update`; whether it changed a row. */
export async function updatedAny(update: { executeTakeFirst(): Promise<UpdateResult> }): Promise<boolean> {
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Runs `remove`; whether it deleted a row. */
export async function deletedAny(remove: { executeTakeFirst(): Promise<DeleteResult> }): Promise<boolean> {
  const result = await remove.executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The page of `query` after `after` in (created_at, id) order, oldest first. `alias`: the table's alias
 * in `query`, when it has one. The query keeps its own filters (the owner's id among them).
 */
export function pageAfter<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  after: Cursor | null,
  limit: number,
  alias?: string,
): Promise<O[]> {
  const createdAt = sql.ref(alias ? `${alias}.created_at` : 'created_at');
  const id = sql.ref(alias ? `${alias}.id` : 'id');
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb(createdAt, '>', after.createdAt),
        eb.and([eb(createdAt, '=', after.createdAt), eb(id, '>', after.id)]),
      ]),
    );
  }
  return query.orderBy(createdAt).orderBy(id).limit(limit).execute();
}

/** Rows grouped by `key`, each group in the order the rows came. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) {
    const list = grouped.get(key(row));
    if (list) list.push(row);
    else grouped.set(key(row), [row]);
  }
  return grouped;
}
