import type { Transaction } from 'kysely';
import type { Database } from '../../../src/store/schema.js';

/**
 * Services take repository classes, whose private members no fake can match structurally. A fake
 * implements the Pick<> of the methods the rules use (so their signatures are checked) and is handed to
 * the service through this one cast.
 */
export function asPort<T>(fake: Partial<T>): T {
  return fake as unknown as T;
}

/**
 * What a fake passes where a repository passes its open transaction: fakes ignore it. A cast, since a
 * Kysely Transaction cannot be built without a database.
 */
export const NO_TX = {} as unknown as Transaction<Database>;

/** Newest first by (created_at, id), as the repositories order. */
export const newestFirst = <R extends { created_at: number; id: string }>(a: R, b: R): number =>
  b.created_at - a.created_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Rows of many users, read and changed only through their owner's id (as every repository does). */
export class OwnedRows<R extends { id: string; user_id: string }> {
  readonly rows: R[] = [];

  async findById(userId: string, id: string): Promise<R | undefined> {
    return this.rows.find((r) => r.user_id === userId && r.id === id);
  }

  async update(userId: string, id: string, patch: Partial<R>): Promise<boolean> {
    const row = await this.findById(userId, id);
    if (row) Object.assign(row, patch);
    return row !== undefined;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const at = this.rows.findIndex((r) => r.user_id === userId && r.id === id);
    if (at >= 0) this.rows.splice(at, 1);
    return at >= 0;
  }

  /** Keeps only the rows `keep` accepts. */
  protected retain(keep: (row: R) => boolean): void {
    const kept = this.rows.filter(keep);
    this.rows.splice(0, this.rows.length, ...kept);
  }
}
