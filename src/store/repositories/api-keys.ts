import type { Kysely, Selectable } from 'kysely';
import { PreparedQuery } from '../prepared.js';
import type { ApiKeysTable, Database } from '../schema.js';
import { deleteOwned } from './shared.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export class ApiKeysRepository {
  /** Every developer request authenticates through this lookup, so it is compiled once. */
  private readonly byHash: PreparedQuery<ApiKeyRow, 'hash'>;

  constructor(private readonly db: Kysely<Database>) {
    this.byHash = new PreparedQuery(db, ['hash'], (v) =>
      db.selectFrom('api_keys').selectAll().where('hashed_key', '=', v.hash),
    );
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  async listForUser(userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async findById(userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', keyId)
      .executeTakeFirst();
  }

  /** The one lookup not scoped by user: authentication resolves the user from the key's hash. */
  async findByHash(hashedKey: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.byHash.execute({ hash: hashedKey });
    return row;
  }

  async touch(userId: string, keyId: string, at: number): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', keyId)
      .execute();
  }

  async delete(userId: string, keyId: string): Promise<boolean> {
    return deleteOwned(this.db.deleteFrom('api_keys'), userId, keyId);
  }
}
