import type { Kysely } from 'kysely';

// Live listen stream (SPEC §2.5, §3.2): durable recording sessions and the fanout claims of
// finalization jobs. The jobs themselves live in the shared `jobs` table (kind listen.finalize).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recording_sessions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('schema_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lifecycle_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('lifecycle_phase', 'text', (c) => c.notNull())
    .addColumn('lifecycle_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('recording_sessions_pk', ['user_id', 'id'])
    .execute();
  await db.schema
    .createIndex('recording_sessions_live')
    .on('recording_sessions')
    .columns(['lifecycle_phase', 'lease_expires_at'])
    .execute();
  await db.schema
    .createIndex('recording_sessions_conversation')
    .on('recording_sessions')
    .columns(['user_id', 'conversation_id'])
    .execute();

  await db.schema
    .createTable('finalization_fanouts')
    .addColumn('fanout_key', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('finalization_fanouts_user')
    .on('finalization_fanouts')
    .columns(['user_id', 'conversation_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
