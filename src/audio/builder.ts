import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import type { AudioRepository } from '../store/repositories/audio.js';
import { encodeArtifact, fingerprint, planArtifact } from './artifact.js';
import { partRef } from './service.js';
import { type AudioObjectStore, audioKey } from './store.js';

export interface ArtifactBuilderDeps {
  repo: AudioRepository;
  store: AudioObjectStore;
  clock: Clock;
  log: Logger;
}

/**
 * Builds a conversation's MP3 for one fingerprint (the job behind a `pending` artifact,
 * research/omi-listen.md §5). A job whose fingerprint is no longer current is superseded: the next
 * URL request queues the current one. The file name carries the fingerprint, so a slow stale build
 * can never overwrite the current artifact.
 */
export class ArtifactBuilder {
  constructor(private readonly deps: ArtifactBuilderDeps) {}

  async build(userId: string, conversationId: string, expected: string): Promise<'built' | 'superseded' | 'unavailable'> {
    const { repo, store } = this.deps;
    const parts = (await repo.parts(userId, conversationId)).map((row) => ({ ...partRef(row), key: row.storage_key }));
    if (parts.length === 0 || fingerprint(parts) !== expected) return 'superseded';
    const plan = planArtifact(parts);
    const keys = new Map(parts.map((p) => [p.id, p]));
    const mp3 = await encodeArtifact(plan, async (ref) => {
      const part = keys.get(ref.id);
      const data = part ? await store.get(part.key) : null;
      return data ? data.subarray(0, ref.bytes) : null;
    });
    const base = { user_id: userId, conversation_id: conversationId, fingerprint: expected, built_at: this.deps.clock.now() };
    if (!mp3) {
      await repo.saveStamp({ ...base, ...EMPTY, status: 'unavailable', reason: 'audio_missing' });
      return 'unavailable';
    }
    const key = audioKey(userId, conversationId, `conversation-${expected}.mp3`);
    await store.put(key, mp3);
    // Parts may have grown while encoding: stamp only what is still current.
    if (fingerprint((await repo.parts(userId, conversationId)).map(partRef)) !== expected) {
      await store.delete(key);
      return 'superseded';
    }
    const previous = await repo.stamp(userId, conversationId);
    await repo.saveStamp({
      ...base,
      status: 'cached',
      reason: null,
      duration_ms: Math.round(plan.durationMs),
      captured_ms: Math.round(plan.capturedMs),
      spans: JSON.stringify(plan.spans),
      storage_key: key,
      bytes: mp3.length,
    });
    if (previous?.storage_key && previous.storage_key !== key) await store.delete(previous.storage_key);
    return 'built';
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
}

const EMPTY = { duration_ms: 0, captured_ms: 0, spans: '[]', storage_key: null, bytes: 0 };
