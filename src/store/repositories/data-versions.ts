import type { CompiledQuery, Kysely } from 'kysely';
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
  private readonly currentQuery: CompiledQuery<{ version: number | string }>;

  constructor(private readonly db: Kysely<Database>) {
    this.currentQuery = db.selectFrom('user_data_versions').select('version').where('user_id', '=', '').compile();
  }

  /** The user's data version; 0 before their first versioned write. */
  async current(userId: string): Promise<number> {
    const result = await this.db.executeQuery<{ version: number | string }>({
      ...this.currentQuery,
      parameters: [userId],
    });
    const row = result.rows[0];
    return row ? Number(row.version) : 0;
  }
}
