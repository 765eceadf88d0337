import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import type { AppMemoryImportsTable } from './apps-tables.js';
import type { Db } from './shared.js';

export type MemoryImportRow = Selectable<AppMemoryImportsTable>;

/** Text an app sent to extract memories from, kept until the extraction job has run. */
export class AppImportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<AppMemoryImportsTable>, tx: Db = this.db): Promise<void> {
    await tx.insertInto('app_memory_imports').values(row).execute();
  }

  async findById(userId: string, id: string): Promise<MemoryImportRow | undefined> {
    return this.db
      .selectFrom('app_memory_imports')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Marks the import done and drops its text (it is no longer needed). */
  async complete(userId: string, id: string, at: number, tx: Db = this.db): Promise<void> {
    await tx
      .updateTable('app_memory_imports')
      .set({ status: 'completed', text: null, updated_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  transaction<T>(work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
