import type { Kysely } from 'kysely';
import { dialectOf, doubleType } from '../dialect.js';

// Core aggregates: users, keys, conversations with segments/items/events, memories, folders,
// people, goals and the job table. Later features add their own numbered migration files.
export async function up(db: Kysely<unknown>): Promise<void> {
  const real = doubleType(dialectOf(db));

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('hashed_key', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('folders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('color', 'text', (c) => c.notNull().defaultTo('#6b7280'))
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo('📁'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_user').on('folders').columns(['user_id', 'position']).execute();

  await db.schema
    .createTable('people')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('people_user').on('people').columns(['user_id', 'name']).execute();

  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('discarded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('starred', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('folder_id', 'text', (c) => c.references('folders.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('overview', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo('other'))
    .addColumn('emoji', 'text', (c) => c.notNull().defaultTo('🧠'))
    .addColumn('language', 'text')
    .addColumn('source', 'text')
    .addColumn('text_source', 'text')
    .addColumn('text_source_spec', 'text')
    .addColumn('text', 'text')
    .addColumn('geolocation', 'text')
    .addColumn('relevance', 'text')
    .addColumn('processing', 'text')
    .addColumn('app_id', 'text')
    .addColumn('client_session_id', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // SPEC §4.1: one index per list filter, each ending in created_at so a page is an index range scan.
  await db.schema
    .createIndex('conversations_list')
    .on('conversations')
    .columns(['user_id', 'status', 'discarded', 'created_at'])
    .execute();
  await db.schema
    .createIndex('conversations_category')
    .on('conversations')
    .columns(['user_id', 'category', 'created_at'])
    .execute();
  await db.schema
    .createIndex('conversations_folder')
    .on('conversations')
    .columns(['user_id', 'folder_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('conversations_starred')
    .on('conversations')
    .columns(['user_id', 'starred', 'created_at'])
    .execute();
  await db.schema
    .createIndex('conversations_client_session')
    .on('conversations')
    .columns(['user_id', 'client_session_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('transcript_segments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('speaker', 'text', (c) => c.notNull())
    .addColumn('speaker_id', 'integer', (c) => c.notNull())
    .addColumn('is_user', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('person_id', 'text')
    .addColumn('start_sec', real, (c) => c.notNull())
    .addColumn('end_sec', real, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('segments_conversation')
    .on('transcript_segments')
    .columns(['conversation_id', 'seq'])
    .execute();

  await db.schema
    .createTable('action_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.references('conversations.id').onDelete('cascade'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completed_at', 'bigint')
    .addColumn('due_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('action_items_user').on('action_items').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('action_items_conversation')
    .on('action_items')
    .columns(['user_id', 'conversation_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('action_items_open')
    .on('action_items')
    .columns(['user_id', 'completed', 'created_at'])
    .execute();

  await db.schema
    .createTable('conversation_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('events_conversation')
    .on('conversation_events')
    .columns(['conversation_id', 'seq'])
    .execute();

  await db.schema
    .createTable('memories')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.references('conversations.id').onDelete('set null'))
    .addColumn('app_id', 'text')
    .addColumn('manually_added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_review', 'integer')
    .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memories_user').on('memories').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createIndex('memories_category')
    .on('memories')
    .columns(['user_id', 'category', 'created_at'])
    .execute();
  await db.schema.createIndex('memories_conversation').on('memories').columns(['conversation_id']).execute();

  await db.schema
    .createTable('goals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('goal_type', 'text', (c) => c.notNull())
    .addColumn('target_value', real, (c) => c.notNull())
    .addColumn('current_value', real, (c) => c.notNull())
    .addColumn('min_value', real, (c) => c.notNull())
    .addColumn('max_value', real, (c) => c.notNull())
    .addColumn('unit', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('goals_user').on('goals').columns(['user_id', 'is_active', 'created_at']).execute();

  await db.schema
    .createTable('goal_progress')
    .addColumn('goal_id', 'text', (c) => c.notNull().references('goals.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('value', real, (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('goal_progress_pk', ['goal_id', 'day'])
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('dispatch_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_claim').on('jobs').columns(['status', 'run_at']).execute();
  await db.schema.createIndex('jobs_user').on('jobs').columns(['user_id', 'kind', 'status']).execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
