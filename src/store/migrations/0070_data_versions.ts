import { type Kysely, sql } from 'kysely';
import { dataVersionFunctionDdl, dataVersionTriggerDdl, dialectOf } from '../dialect.js';

/**
 * One counter per user, bumped by database triggers on every table a cached developer-API read is built
 * from (the conversation and memory lists, their searches, action items, folders). A cached response is
 * served only while its user's counter is unchanged (http/response-cache.ts).
 */
const VERSIONED_TABLES = [
  'conversations',
  'action_items',
  'conversation_events',
  'conversation_app_results',
  'folders',
  'memories',
] as const;

// Search documents change when segments are appended to a completed conversation.
const SEARCH_DOCUMENTS = { sqlite: 'conversation_search_docs', postgres: 'conversation_search' } as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('user_data_versions')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  const statements = [
    ...dataVersionFunctionDdl(dialect),
    ...[...VERSIONED_TABLES, SEARCH_DOCUMENTS[dialect]].flatMap((table) => dataVersionTriggerDdl(dialect, table)),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
