import { randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/db.js';
import type { ConversationsTable } from '../../src/store/schema.js';

/** A completed, kept conversation of `userId` created at `createdAt` (fields override). */
export function conversation(
  userId: string,
  id: string,
  createdAt: number,
  fields: Partial<ConversationsTable> = {},
): ConversationsTable {
  return {
    id,
    user_id: userId,
    created_at: createdAt,
    updated_at: createdAt,
    started_at: createdAt,
    finished_at: createdAt + 60_000,
    status: 'completed',
    discarded: 0,
    starred: 0,
    folder_id: null,
    title: `Conversation ${id}`,
    overview: '',
    category: 'other',
    emoji: '🧠',
    language: 'en',
    source: 'phone',
    text_source: null,
    text_source_spec: null,
    text: null,
    geolocation: null,
    relevance: null,
    processing: null,
    app_id: null,
    client_session_id: null,
    revision: 0,
    ...fields,
  };
}

/** Stores a conversation of `userId` directly (rows that reference a conversation need one); its id. */
export async function addConversation(store: Store, userId: string, fields: Partial<ConversationsTable> = {}) {
  const id = randomUUID();
  await store.db
    .insertInto('conversations')
    .values(conversation(userId, id, 1000, fields))
    .execute();
  return id;
}
