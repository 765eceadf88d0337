import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';
import { POSTGRES_SEARCH_DDL } from '../search/postgres.js';
import { SQLITE_SEARCH_DDL } from '../search/sqlite.js';

// Full-text search over memories and conversations (SQLite FTS5 or PostgreSQL tsvector), plus the
// indexes the developer lists page through.
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES_SEARCH_DDL : SQLITE_SEARCH_DDL;
  for (const statement of statements) await sql.raw(statement).execute(db);

  // Newest-first memory pages with a deterministic tie-break; category and user_review ride along so a
  // filtered or deep page skips rows inside the index instead of reading each one from the table.
  await db.schema
    .createIndex('memories_user_recent')
    .on('memories')
    .columns(['user_id', 'created_at', 'id', 'category', 'user_review'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
