import type { Kysely } from 'kysely';
import { PreparedQuery } from '../prepared.js';
import type { Database } from '../schema.js';

declare module '../schema.js' {
  interface Database {
    user_data_versions: { user_id: string; version: number };
  }
}

/**
 * Per-user data versions, bumped by triggers (migration 0070) whenever a row a cached read depends on
 * changes. Reading one is the hot path of every cached request, so its query is compiled once.
 */
export class DataVersionsRepository {
  private readonly currentQuery: PreparedQuery<{ version: number | string }, 'userId'>;

  constructor(db: Kysely<Database>) {
    this.currentQuery = new PreparedQuery(db, ['userId'], (v) =>
      db.selectFrom('user_data_versions').select('version').where('user_id', '=', v.userId),
    );
  }

  /** The user's data version; 0 before their first versioned write. */
  async current(userId: string): Promise<number> {
    const [row] = await this.currentQuery.execute({ userId });
    return row ? Number(row.version) : 0;
  }
}
