import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../dialect.js';

// Voices and audio (SPEC §4.11, §6.1, §8): voice embeddings of people and of the user, the speaker
// sample queue, captured audio parts per conversation and the per-conversation MP3 artifact stamp.
export async function up(db: Kysely<unknown>): Promise<void> {
  const binary = binaryType(dialectOf(db));
  await db.schema
    .createTable('voice_embeddings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (c) => c.references('people.id').onDelete('cascade'))
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('vector', binary, (c) => c.notNull())
    .addColumn('speech_ms', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('voice_embeddings_owner')
    .on('voice_embeddings')
    .columns(['user_id', 'engine', 'person_id'])
    .execute();

  await db.schema
    .createTable('speaker_samples')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (c) => c.references('people.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('segment_id', 'text', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('audio', binary)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .execute();
  await db.schema.createIndex('speaker_samples_due').on('speaker_samples').columns(['status', 'created_at']).execute();
  await db.schema
    .createIndex('speaker_samples_conversation')
    .on('speaker_samples')
    .columns(['user_id', 'conversation_id'])
    .execute();

  await db.schema
    .createTable('audio_parts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('encoded_bytes', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audio_parts_conversation')
    .on('audio_parts')
    .columns(['user_id', 'conversation_id', 'started_at'])
    .execute();

  await db.schema
    .createTable('conversation_audio')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('captured_ms', 'bigint', (c) => c.notNull())
    .addColumn('spans', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text')
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_audio_pk', ['user_id', 'conversation_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
