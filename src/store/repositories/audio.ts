import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { AudioPartsTable, ConversationAudioTable } from './voice-tables.js';
import './voice-tables.js';

export type AudioPartRow = Selectable<AudioPartsTable>;
export type ConversationAudioRow = Selectable<ConversationAudioTable>;

/** Captured audio parts, the per-conversation artifact stamp and the audio-capture setting. */
export class AudioRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async conversationExists(userId: string, conversationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('conversations')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** epoch ms of the conversation's time 0 (segment times count from it). */
  async conversationStart(userId: string, conversationId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('conversations')
      .select(['started_at', 'created_at'])
      .where('user_id', '=', userId)
      .where('id', '=', conversationId)
      .executeTakeFirst();
    return row ? Number(row.started_at ?? row.created_at) : null;
  }

  async insertPart(row: AudioPartRow): Promise<void> {
    await this.db.insertInto('audio_parts').values(row).execute();
  }

  async growPart(userId: string, id: string, bytes: number, now: number): Promise<void> {
    await this.db
      .updateTable('audio_parts')
      .set({ bytes, updated_at: now })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** Records that the part's MP3 encoding now covers `bytes` bytes. */
  async markEncoded(userId: string, id: string, bytes: number): Promise<void> {
    await this.db
      .updateTable('audio_parts')
      .set({ encoded_bytes: bytes })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** The conversation's parts in time order. */
  async parts(userId: string, conversationId: string): Promise<AudioPartRow[]> {
    return this.db
      .selectFrom('audio_parts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .orderBy('started_at')
      .orderBy('id')
      .execute();
  }

  async part(userId: string, conversationId: string, id: string): Promise<AudioPartRow | undefined> {
    return this.db
      .selectFrom('audio_parts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async stamp(userId: string, conversationId: string): Promise<ConversationAudioRow | undefined> {
    return this.db
      .selectFrom('conversation_audio')
      .selectAll()
      .where('user_id', '=', userId)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
  }

  async saveStamp(row: ConversationAudioRow): Promise<void> {
    const { user_id: _user, conversation_id: _conversation, ...fields } = row;
    await this.db
      .insertInto('conversation_audio')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'conversation_id']).doUpdateSet(fields))
      .execute();
  }

  /**
   * Audio whose conversation no longer exists (deleted by a path without the delete hook, e.g. the
   * live stream dropping an empty conversation). Any user: the sweeper's view.
   */
  async orphans(limit: number): Promise<Array<{ user_id: string; conversation_id: string }>> {
    return this.db
      .selectFrom('audio_parts as a')
      .leftJoin('conversations as c', (join) =>
        join.onRef('c.id', '=', 'a.conversation_id').onRef('c.user_id', '=', 'a.user_id'),
      )
      .select(['a.user_id', 'a.conversation_id'])
      .where('c.id', 'is', null)
      .distinct()
      .limit(limit)
      .execute();
  }

  /** Removes the rows of a conversation's audio (the bytes are the store's); one transaction. */
  async deleteConversationAudio(userId: string, conversationId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const table of ['audio_parts', 'conversation_audio', 'speaker_samples'] as const) {
        await tx
          .deleteFrom(table)
          .where('user_id', '=', userId)
          .where('conversation_id', '=', conversationId)
          .execute();
      }
    });
  }

  async settings(userId: string): Promise<Record<string, unknown> | null> {
    const row = await this.db.selectFrom('users').select('settings').where('id', '=', userId).executeTakeFirst();
    return row ? parseSettings(row.settings) : null;
  }

  /**
   * Merges `patch` into the user's settings JSON and keeps only the `known` keys, so the document holds
   * the declared settings and nothing else (whatever an older version let in is dropped here).
   */
  async updateSettings(
    userId: string,
    patch: Record<string, unknown>,
    known: readonly string[],
    now: number,
  ): Promise<Record<string, unknown>> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('users').select('settings').where('id', '=', userId).executeTakeFirstOrThrow();
      const all = { ...parseSettings(row.settings), ...patch };
      const merged = Object.fromEntries(known.filter((key) => key in all).map((key) => [key, all[key]]));
      await tx
        .updateTable('users')
        .set({ settings: JSON.stringify(merged), updated_at: now })
        .where('id', '=', userId)
        .execute();
      return merged;
    });
  }
}

function parseSettings(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    // A damaged settings document reads as the defaults rather than failing every request.
    return {};
  }
}
