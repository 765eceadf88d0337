import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Database, FoldersTable } from '../schema.js';
import { type Db, deleteOwned, updateOwned } from './shared.js';

export type FolderRow = Selectable<FoldersTable>;
export type FolderWithCount = FolderRow & { conversation_count: number };
export type FolderPatch = Omit<Updateable<FoldersTable>, 'id' | 'user_id' | 'created_at'>;

export class FoldersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * The user's folders in display order, each with the number of conversations the developer list
   * would show in it (completed, not discarded), counted in the same query.
   */
  async listWithCounts(userId: string): Promise<FolderWithCount[]> {
    return this.withCounts(userId).orderBy('f.position').orderBy('f.created_at').orderBy('f.id').execute();
  }

  async findWithCount(userId: string, id: string): Promise<FolderWithCount | undefined> {
    return this.withCounts(userId).where('f.id', '=', id).executeTakeFirst();
  }

  async exists(userId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('folders')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The position after the user's last folder (new folders go to the end). */
  async nextPosition(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('folders')
      .select((eb) => eb.fn.max('position').as('last'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async insert(row: Insertable<FoldersTable>, tx: Db = this.db): Promise<void> {
    await tx.insertInto('folders').values(row).execute();
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async update(userId: string, id: string, patch: FolderPatch): Promise<boolean> {
    return updateOwned(this.db.updateTable('folders').set(patch), userId, id);
  }

  /** Conversations in the folder keep existing and lose their folder (ON DELETE SET NULL). */
  async delete(userId: string, id: string): Promise<boolean> {
    return deleteOwned(this.db.deleteFrom('folders'), userId, id);
  }

  private withCounts(userId: string) {
    return this.db
      .selectFrom('folders as f')
      .leftJoin('conversations as c', (join) =>
        join
          .onRef('c.folder_id', '=', 'f.id')
          .onRef('c.user_id', '=', 'f.user_id')
          .on('c.status', '=', 'completed')
          .on('c.discarded', '=', 0),
      )
      .selectAll('f')
      .select((eb) => eb.fn.count<number>('c.id').as('conversation_count'))
      .where('f.user_id', '=', userId)
      .groupBy([
        'f.id',
        'f.user_id',
        'f.name',
        'f.description',
        'f.color',
        'f.icon',
        'f.position',
        'f.created_at',
        'f.updated_at',
      ]);
  }
}
