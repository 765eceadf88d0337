import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { SpeakerSamplesTable, VoiceEmbeddingsTable } from './voice-tables.js';
import './voice-tables.js';
import { updatedAny } from './shared.js';

export type VoiceEmbeddingRow = Selectable<VoiceEmbeddingsTable>;
export type SpeakerSampleRow = Selectable<SpeakerSamplesTable>;

/** A stored vector with whose voice it is (person null: the user's own profile). */
export interface KnownVoice {
  personId: string | null;
  personName: string | null;
  vector: Float32Array;
}

export function vectorToBuffer(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i], i * 4);
  return out;
}

export function bufferToVector(buffer: Buffer | Uint8Array): Float32Array {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const out = new Float32Array(Math.floor(bytes.length / 4));
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** Keeps a person's (or the profile's) newest vectors; older ones are dropped. */
const MAX_VECTORS_PER_VOICE = 10;

/** Voice embeddings and the speaker-sample queue; every query is scoped to the user. */
export class VoiceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The user's profile and people's vectors made by `engine` (the candidates of a live match). */
  async knownVoices(userId: string, engine: string): Promise<KnownVoice[]> {
    const rows = await this.db
      .selectFrom('voice_embeddings as v')
      .leftJoin('people as p', (join) => join.onRef('p.id', '=', 'v.person_id').onRef('p.user_id', '=', 'v.user_id'))
      .select(['v.person_id', 'p.name', 'v.vector'])
      .where('v.user_id', '=', userId)
      .where('v.engine', '=', engine)
      .limit(5000)
      .execute();
    return rows
      .filter((row) => row.person_id === null || row.name !== null)
      .map((row) => ({ personId: row.person_id, personName: row.name, vector: bufferToVector(row.vector) }));
  }

  /** Adds a vector and trims that voice to its newest MAX_VECTORS_PER_VOICE; one transaction. */
  async addEmbedding(row: VoiceEmbeddingRow): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('voice_embeddings').values(row).execute();
      let owner = tx
        .selectFrom('voice_embeddings')
        .select('id')
        .where('user_id', '=', row.user_id)
        .where('engine', '=', row.engine);
      owner =
        row.person_id === null ? owner.where('person_id', 'is', null) : owner.where('person_id', '=', row.person_id);
      const stale = await owner
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(MAX_VECTORS_PER_VOICE)
        .limit(1000)
        .execute();
      if (stale.length > 0)
        await tx
          .deleteFrom('voice_embeddings')
          .where('user_id', '=', row.user_id)
          .where(
            'id',
            'in',
            stale.map((s) => s.id),
          )
          .execute();
    });
  }

  /** Replaces the user's own profile with one vector (an upload). */
  async replaceProfile(row: VoiceEmbeddingRow): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('voice_embeddings')
        .where('user_id', '=', row.user_id)
        .where('person_id', 'is', null)
        .execute();
      await tx.insertInto('voice_embeddings').values(row).execute();
    });
  }

  async profileSummary(
    userId: string,
  ): Promise<{ vectors: number; speechMs: number; engines: string[]; updatedAt: number | null }> {
    const rows = await this.db
      .selectFrom('voice_embeddings')
      .select(['engine', 'speech_ms', 'created_at'])
      .where('user_id', '=', userId)
      .where('person_id', 'is', null)
      .execute();
    return {
      vectors: rows.length,
      speechMs: rows.reduce((sum, r) => sum + Number(r.speech_ms), 0),
      engines: [...new Set(rows.map((r) => r.engine))],
      updatedAt: rows.length === 0 ? null : Math.max(...rows.map((r) => Number(r.created_at))),
    };
  }

  async deleteProfile(userId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('voice_embeddings')
      .where('user_id', '=', userId)
      .where('person_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many vectors each of the user's people has. */
  async vectorCounts(userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('voice_embeddings')
      .select((eb) => ['person_id', eb.fn.countAll<number>().as('n')])
      .where('user_id', '=', userId)
      .where('person_id', 'is not', null)
      .groupBy('person_id')
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) if (row.person_id) counts.set(row.person_id, Number(row.n));
    return counts;
  }

  async insertSample(row: SpeakerSampleRow): Promise<void> {
    await this.db.insertInto('speaker_samples').values(row).execute();
  }

  /** Pending samples created at or before `olderThan`, oldest first (any user: the poller's view). */
  async dueSamples(olderThan: number, limit: number): Promise<Array<Pick<SpeakerSampleRow, 'id' | 'user_id'>>> {
    return this.db
      .selectFrom('speaker_samples')
      .select(['id', 'user_id'])
      .where('status', '=', 'pending')
      .where('created_at', '<=', olderThan)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Compare-and-swap pending → processing; false when another worker took it. */
  async claimSample(userId: string, id: string, now: number): Promise<SpeakerSampleRow | undefined> {
    const claimed = await updatedAny(
      this.db
        .updateTable('speaker_samples')
        .set({ status: 'processing', processed_at: now })
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('status', '=', 'pending'),
    );
    return claimed ? this.sample(userId, id) : undefined;
  }

  /** Records the outcome; the audio clip is dropped either way (it was only kept for this). */
  async finishSample(userId: string, id: string, status: 'done' | 'skipped', reason: string | null, now: number) {
    await this.db
      .updateTable('speaker_samples')
      .set({ status, reason, audio: null, processed_at: now })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  /** Claims left in processing by a crashed worker go back to pending. */
  async releaseStaleClaims(before: number): Promise<void> {
    await this.db
      .updateTable('speaker_samples')
      .set({ status: 'pending' })
      .where('status', '=', 'processing')
      .where('processed_at', '<', before)
      .execute();
  }

  async sample(userId: string, id: string): Promise<SpeakerSampleRow | undefined> {
    return this.db
      .selectFrom('speaker_samples')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A transcript segment of the user (the target of POST /assign_speaker). */
  async segment(userId: string, segmentId: string) {
    return this.db
      .selectFrom('transcript_segments')
      .select(['id', 'conversation_id', 'start_sec', 'end_sec', 'is_user', 'person_id'])
      .where('user_id', '=', userId)
      .where('id', '=', segmentId)
      .executeTakeFirst();
  }

  /** Labels segments with a person, or as the user's own (person null, is_user 1). */
  async labelSegments(userId: string, segmentIds: readonly string[], personId: string | null): Promise<void> {
    if (segmentIds.length === 0) return;
    await this.db
      .updateTable('transcript_segments')
      .set({ person_id: personId, is_user: personId === null ? 1 : 0 })
      .where('user_id', '=', userId)
      .where('id', 'in', [...segmentIds])
      .execute();
  }
}
