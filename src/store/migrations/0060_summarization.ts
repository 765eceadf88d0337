import type { Kysely } from 'kysely';

// Summarization apps (SPEC §1 "triggers enabled summarization apps"): an app with the `memories`
// capability may carry a prompt; each processed conversation stores one result per such app.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('apps').addColumn('memory_prompt', 'text').execute();

  await db.schema
    .createTable('conversation_app_results')
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'text')
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_app_results_pk', ['conversation_id', 'app_id'])
    .execute();
  await db.schema
    .createIndex('conversation_app_results_user')
    .on('conversation_app_results')
    .columns(['user_id', 'conversation_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
