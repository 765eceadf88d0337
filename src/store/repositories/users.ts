import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../schema.js';

export type UserRow = Selectable<UsersTable>;

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async findById(userId: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  }

  async update(userId: string, patch: Partial<Omit<UserRow, 'id' | 'created_at'>>): Promise<void> {
    await this.db.updateTable('users').set(patch).where('id', '=', userId).execute();
  }

  /** Whether any account exists (first start creates the owner). */
  async anyExists(): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }
}
