import { type Kysely, sql } from 'kysely';

// Covering indexes for the list pages (issue 18): each holds the order (created_at, id, or the action
// items' order) and every filter column after it, so a page at any offset, with any filters, is found by
// walking one index (several ranges merged for a category list) without reading a skipped row; the
// page's own rows are fetched by id afterwards. Each replaces an index that is a prefix of it.
const CONVERSATION_FILTERS = ['category', 'starred', 'folder_id'];

/**
 * The developer and web lists always ask for completed, kept conversations: their indexes lead with the
 * owner, status and discarded, then at most one filter column, the newest-first order, the other filters.
 */
function listIndex(filter: string | null): string[] {
  const rest = CONVERSATION_FILTERS.filter((column) => column !== filter);
  return ['user_id', 'status', 'discarded', ...(filter ? [filter] : []), 'created_at', 'id', ...rest];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const name of ['conversations_list', 'conversations_category', 'conversations_folder', 'conversations_starred'])
    await db.schema.dropIndex(name).execute();
  const conversationIndexes: Array<[string, string[]]> = [
    ['conversations_list', listIndex(null)],
    ['conversations_category', listIndex('category')],
    ['conversations_folder', listIndex('folder_id')],
    ['conversations_starred', listIndex('starred')],
    // Several statuses, or discarded ones too (the integration reads).
    ['conversations_page', ['user_id', 'created_at', 'id', 'status', 'discarded', ...CONVERSATION_FILTERS]],
  ];
  for (const [name, columns] of conversationIndexes)
    await db.schema.createIndex(name).on('conversations').columns(columns).execute();

  await db.schema.dropIndex('memories_category').execute();
  await db.schema
    .createIndex('memories_category')
    .on('memories')
    .columns(['user_id', 'category', 'created_at', 'id', 'user_review'])
    .execute();

  // research/omi-rest.md §2.3 order: open first, dated before undated, soonest due, then newest.
  await sql`CREATE INDEX action_items_page ON action_items
    (user_id, completed, (due_at IS NULL), due_at, created_at DESC, id DESC, conversation_id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
