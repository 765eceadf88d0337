import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../dialect.js';

// Embeddings of conversations for the ask endpoint's retrieval, computed when an embedding provider is configured.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversation_embeddings')
    .addColumn('conversation_id', 'text', (c) => c.primaryKey().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('dims', 'integer', (c) => c.notNull())
    .addColumn('vector', binaryType(dialectOf(db)), (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('conversation_embeddings_user')
    .on('conversation_embeddings')
    .columns(['user_id', 'model'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
