import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { AudioPartRow, AudioRepository } from '../store/repositories/audio.js';
import { assembleArtifact, fingerprint, planArtifact } from './artifact.js';
import type { ClipEncoder } from './encoder-pool.js';
import { bufferToSamples } from './pcm.js';
import { partRef } from './service.js';
import { type AudioObjectStore, audioKey } from './store.js';

export interface ArtifactBuilderDeps {
  repo: AudioRepository;
  store: AudioObjectStore;
  clock: Clock;
  log: Logger;
  /** MP3 encoding of one clip (encoder-pool.ts: on worker threads). */
  encode: ClipEncoder;
}

/** Parts encoded at once during a build (bounds the PCM held in memory). */
const ENCODE_LANES = 4;

const EMPTY = { duration_ms: 0, captured_ms: 0, spans: '[]', storage_key: null, bytes: 0 };

/** Where a part's MP3 encoding of its first `bytes` bytes is kept. */
const encodedKey = (part: AudioPartRow, bytes: number) => `${part.storage_key}.${bytes}.mp3`;

/**
 * Builds a conversation's MP3 for one fingerprint (the job behind a `pending` artifact,
 * research/omi-listen.md §5). Parts are encoded once (when they close, or here) and cached; the
 * build joins their frames. A job whose fingerprint is no longer current is superseded: the next
 * URL request queues the current one. The file name carries the fingerprint, so a slow stale build
 * can never overwrite the current artifact.
 */
export class ArtifactBuilder {
  constructor(private readonly deps: ArtifactBuilderDeps) {}

  async build(
    userId: string,
    conversationId: string,
    expected: string,
  ): Promise<'built' | 'superseded' | 'unavailable'> {
    const { repo, store } = this.deps;
    const rows = await repo.parts(userId, conversationId);
    if (rows.length === 0 || fingerprint(rows.map(partRef)) !== expected) return 'superseded';
    const clips = await this.encodeAll(userId, rows);
    const plan = planArtifact(rows.map(partRef));
    const assembled = await assembleArtifact(plan, async (ref) => clips.get(ref.id) ?? null);
    const base = {
      user_id: userId,
      conversation_id: conversationId,
      fingerprint: expected,
      built_at: this.deps.clock.now(),
    };
    if (!assembled) {
      await repo.saveStamp({ ...base, ...EMPTY, status: 'unavailable', reason: 'audio_missing' });
      return 'unavailable';
    }
    const key = audioKey(userId, conversationId, `conversation-${expected}.mp3`);
    await store.put(key, assembled.mp3);
    // Parts may have grown while building: stamp only what is still current.
    if (fingerprint((await repo.parts(userId, conversationId)).map(partRef)) !== expected) {
      await store.delete(key);
      return 'superseded';
    }
    const previous = await repo.stamp(userId, conversationId);
    await repo.saveStamp({
      ...base,
      status: 'cached',
      reason: null,
      duration_ms: Math.round(assembled.durationMs),
      captured_ms: Math.round(assembled.capturedMs),
      spans: JSON.stringify(assembled.spans),
      storage_key: key,
      bytes: assembled.mp3.length,
    });
    if (previous?.storage_key && previous.storage_key !== key) await store.delete(previous.storage_key);
    return 'built';
  }

  /** Encodes one part ahead of any build (run when the live capture closes a part). */
  async encodePart(userId: string, conversationId: string, partId: string): Promise<void> {
    const row = await this.deps.repo.part(userId, conversationId, partId);
    if (row) await this.encoded(userId, row);
  }

  /** A build that failed for good leaves an `unavailable` stamp for its fingerprint (no endless pending). */
  async markFailed(userId: string, conversationId: string, expected: string, err: unknown): Promise<void> {
    this.deps.log.warn({ err, userId, conversationId }, 'conversation audio build failed');
    await this.deps.repo.saveStamp({
      user_id: userId,
      conversation_id: conversationId,
      fingerprint: expected,
      built_at: this.deps.clock.now(),
      ...EMPTY,
      status: 'unavailable',
      reason: 'build_failed',
    });
  }

  /** Every part's frames, parts not yet encoded encoded a few at a time on the pool's threads. */
  private async encodeAll(userId: string, rows: AudioPartRow[]): Promise<Map<string, Buffer | null>> {
    const clips = new Map<string, Buffer | null>();
    let next = 0;
    const lane = async () => {
      for (let row = rows[next++]; row; row = rows[next++]) clips.set(row.id, await this.encoded(userId, row));
    };
    await Promise.all(Array.from({ length: Math.min(ENCODE_LANES, rows.length) }, lane));
    return clips;
  }

  /** The part's frames: the cached encoding when it covers the part's bytes, else encoded now and cached. */
  private async encoded(userId: string, row: AudioPartRow): Promise<Buffer | null> {
    const { repo, store } = this.deps;
    const bytes = Number(row.bytes);
    const previous = row.encoded_bytes === null ? null : Number(row.encoded_bytes);
    if (previous === bytes) {
      const cached = await store.get(encodedKey(row, bytes));
      if (cached) return cached;
    }
    const pcm = await store.get(row.storage_key);
    if (!pcm) return null;
    const mp3 = await this.deps.encode(bufferToSamples(pcm.subarray(0, bytes)));
    await store.put(encodedKey(row, bytes), mp3);
    await repo.markEncoded(userId, row.id, bytes);
    if (previous !== null && previous !== bytes) await store.delete(encodedKey(row, previous));
    return mp3;
  }
}
