import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../context-types.js';
import { AppError, Detail } from '../errors.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { AudioPartRow, AudioRepository, ConversationAudioRow } from '../store/repositories/audio.js';
import { BYTES_PER_SECOND, fingerprint, type PartRef, type Span } from './artifact.js';
import { bufferToSamples } from './pcm.js';
import type { UrlSigner } from './signing.js';
import { URL_TTL_MS } from './signing.js';
import { type AudioObjectStore, audioKey } from './store.js';

export const BUILD_ARTIFACT_JOB = 'audio.conversation_mp3';
export const ENCODE_PART_JOB = 'audio.encode_part';
/** research/omi-listen.md §5: clients poll again after this while the artifact is being built. */
const POLL_AFTER_MS = 3000;

export interface AudioFileView {
  id: string;
  status: 'cached';
  signed_url: string;
  url: string;
  content_type: string;
  duration: number;
  started_at: string;
}

export interface ConversationAudioView {
  status: 'cached' | 'pending' | 'unavailable';
  signed_url: string | null;
  url: string | null;
  content_type: string | null;
  duration: number | null;
  captured_duration: number | null;
  wall_duration: number | null;
  fingerprint: string;
  spans: Span[];
  expires_at: string | null;
}

export interface AudioUrls {
  audio_files: AudioFileView[];
  conversation_audio: ConversationAudioView | null;
  poll_after_ms: number | null;
}

export interface AudioSettings {
  audio_capture: boolean;
}

/** The settings a user may store; nothing else is written to the settings document (docs/developer-api.md). */
const SETTING_KEYS: ReadonlyArray<keyof AudioSettings> = ['audio_capture'];

export interface AudioServiceDeps {
  repo: AudioRepository;
  store: AudioObjectStore;
  jobs: JobTable;
  signer: UrlSigner;
  clock: Clock;
  log: Logger;
  /** Asks the job runner to look for work now. */
  wake(): void;
}

export const partRef = (row: AudioPartRow): PartRef => ({
  id: row.id,
  startedAt: Number(row.started_at),
  bytes: Number(row.bytes),
  updatedAt: Number(row.updated_at),
});

const seconds = (ms: number) => Math.round(ms) / 1000;

/** Captured conversation audio (SPEC §4.11 /v1/sync/audio, §8): URLs, settings, spans, deletion. */
export class AudioService {
  constructor(private readonly deps: AudioServiceDeps) {}

  /** Audio capture is off unless the user turns it on (privacy first; docs/voices-and-audio.md). */
  async settings(userId: string): Promise<AudioSettings> {
    const settings = await this.deps.repo.settings(userId);
    return { audio_capture: settings?.audio_capture === true };
  }

  async updateSettings(userId: string, patch: Partial<AudioSettings>): Promise<AudioSettings> {
    const declared = Object.fromEntries(SETTING_KEYS.filter((key) => key in patch).map((key) => [key, patch[key]]));
    const merged = await this.deps.repo.updateSettings(userId, declared, SETTING_KEYS, this.deps.clock.now());
    return { audio_capture: merged.audio_capture === true };
  }

  /** `GET /v1/sync/audio/{id}/urls`: the parts and the conversation artifact, with signed URLs. */
  async urls(userId: string, conversationId: string, base: string): Promise<AudioUrls> {
    if (!(await this.deps.repo.conversationExists(userId, conversationId)))
      throw new AppError(404, Detail.conversationNotFound);
    const parts = await this.deps.repo.parts(userId, conversationId);
    if (parts.length === 0) return { audio_files: [], conversation_audio: null, poll_after_ms: null };
    const expiresAt = this.deps.clock.now() + URL_TTL_MS;
    const link = (file: string) => this.link(base, { userId, conversationId, file }, expiresAt);
    const audioFiles = parts.map((part) => {
      const url = link(`${part.id}.wav`);
      return {
        id: part.id,
        status: 'cached' as const,
        signed_url: url,
        url,
        content_type: 'audio/wav',
        duration: seconds((Number(part.bytes) / BYTES_PER_SECOND) * 1000),
        started_at: new Date(Number(part.started_at)).toISOString(),
      };
    });
    const current = fingerprint(parts.map(partRef));
    const artifact = await this.artifactView(userId, conversationId, current, link, expiresAt);
    return {
      audio_files: audioFiles,
      conversation_audio: artifact,
      poll_after_ms: artifact.status === 'pending' ? POLL_AFTER_MS : null,
    };
  }

  /** The user's stored audio for a span of conversation time (speaker samples), or null. */
  async readSpan(userId: string, conversationId: string, startMs: number, endMs: number): Promise<Int16Array | null> {
    const origin = await this.deps.repo.conversationStart(userId, conversationId);
    if (origin === null || endMs <= startMs) return null;
    const [from, to] = [origin + startMs, origin + endMs];
    const pieces: Buffer[] = [];
    for (const part of await this.deps.repo.parts(userId, conversationId)) {
      const begin = Number(part.started_at);
      const length = Number(part.bytes);
      const a = Math.max(0, Math.floor(((from - begin) / 1000) * BYTES_PER_SECOND));
      const b = Math.min(length, Math.ceil(((to - begin) / 1000) * BYTES_PER_SECOND));
      if (b - a < 2) continue;
      const data = await this.deps.store.get(part.storage_key);
      if (data) pieces.push(data.subarray(a - (a % 2), Math.min(b, data.length)));
    }
    return pieces.length === 0 ? null : bufferToSamples(Buffer.concat(pieces));
  }

  /** Deletes the audio of conversations that are gone; returns how many conversations it cleaned. */
  async sweepOrphans(): Promise<number> {
    const orphans = await this.deps.repo.orphans(100);
    for (const { user_id: userId, conversation_id: conversationId } of orphans)
      await this.deleteConversationAudio(userId, conversationId);
    return orphans.length;
  }

  /**
   * Deleting a conversation deletes its audio: bytes first, then the rows (parts, artifact, pending
   * samples). When the store fails (a bucket that is down), the rows stay, so the orphan sweep
   * finds the conversation again and retries within a minute; the delete itself still succeeds.
   */
  async deleteConversationAudio(userId: string, conversationId: string): Promise<void> {
    try {
      await this.deps.store.deletePrefix(audioKey(userId, conversationId));
    } catch (err) {
      this.deps.log.warn({ err, userId, conversationId }, 'conversation audio not deleted yet; the sweep retries');
      return;
    }
    await this.deps.repo.deleteConversationAudio(userId, conversationId);
  }

  private async artifactView(
    userId: string,
    conversationId: string,
    current: string,
    link: (file: string) => string,
    expiresAt: number,
  ): Promise<ConversationAudioView> {
    const stamp = await this.deps.repo.stamp(userId, conversationId);
    if (stamp?.fingerprint === current && stamp.status === 'cached' && stamp.storage_key) {
      if ((await this.deps.store.size(stamp.storage_key)) !== null) return cachedView(stamp, link, expiresAt);
    }
    if (stamp?.fingerprint === current && stamp.status === 'unavailable') return emptyView('unavailable', current);
    await this.enqueueBuild(userId, conversationId, current);
    return emptyView('pending', current);
  }

  /** A closed part is encoded in the background, so building the artifact later only joins frames. */
  async queuePartEncoding(userId: string, conversationId: string, partId: string, bytes: number): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.jobs.enqueue(
      {
        id: randomUUID(),
        kind: ENCODE_PART_JOB,
        userId,
        payload: { conversationId, partId },
        idempotencyKey: `aep:${userId}:${partId}:${bytes}`,
        maxAttempts: 3,
        runAt: now,
      },
      now,
    );
    this.deps.wake();
  }

  private async enqueueBuild(userId: string, conversationId: string, current: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.jobs.enqueue(
      {
        id: randomUUID(),
        kind: BUILD_ARTIFACT_JOB,
        userId,
        payload: { conversationId, fingerprint: current },
        idempotencyKey: `amc:${userId}:${conversationId}:${current}`,
        maxAttempts: 3,
        runAt: now,
      },
      now,
    );
    this.deps.wake();
  }

  private link(base: string, ref: { userId: string; conversationId: string; file: string }, expiresAt: number) {
    const query = this.deps.signer.sign(ref, expiresAt);
    const params = new URLSearchParams({
      uid: query.uid,
      expires: String(query.expires),
      signature: query.signature,
    });
    const path = `/v1/sync/audio/${encodeURIComponent(ref.conversationId)}/files/${encodeURIComponent(ref.file)}`;
    return `${base}${path}?${params}`;
  }
}

function cachedView(
  stamp: ConversationAudioRow,
  link: (file: string) => string,
  expiresAt: number,
): ConversationAudioView {
  const file = stamp.storage_key?.split('/').pop() ?? '';
  const url = link(file);
  return {
    status: 'cached',
    signed_url: url,
    url,
    content_type: 'audio/mpeg',
    duration: seconds(Number(stamp.duration_ms)),
    captured_duration: seconds(Number(stamp.captured_ms)),
    wall_duration: seconds(wallMs(stamp)),
    fingerprint: stamp.fingerprint,
    spans: JSON.parse(stamp.spans) as Span[],
    expires_at: new Date(expiresAt).toISOString(),
  };
}

/** The wall-clock span is kept in the spans: last part's wall offset plus its length. */
function wallMs(stamp: ConversationAudioRow): number {
  const spans = JSON.parse(stamp.spans) as Span[];
  return spans.reduce((max, s) => Math.max(max, (s.wall_offset + s.len) * 1000), 0);
}

function emptyView(status: 'pending' | 'unavailable', current: string): ConversationAudioView {
  return {
    status,
    signed_url: null,
    url: null,
    content_type: null,
    duration: null,
    captured_duration: null,
    wall_duration: null,
    fingerprint: current,
    spans: [],
    expires_at: null,
  };
}
