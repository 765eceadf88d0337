import { Readable } from 'node:stream';
import type { Clock } from '../context-types.js';
import { AppError, Detail } from '../errors.js';
import { pcm16ToWav } from '../providers/audio/wav.js';
import type { AudioRepository } from '../store/repositories/audio.js';
import { SAMPLE_RATE } from './artifact.js';
import type { UrlSigner } from './signing.js';
import type { AudioObjectStore } from './store.js';

/** One audio file behind a signed URL: its type, size and a reader of a byte range. */
export interface AudioFile {
  contentType: string;
  size: number;
  /** bytes start..end inclusive; resolves once the store has answered */
  read(start: number, end: number): Promise<Readable>;
}

const ARTIFACT = /^conversation-[0-9a-f]{12}\.mp3$/;
const PART = /^([A-Za-z0-9-]{1,64})\.wav$/;
const WAV_HEADER = 44;

export interface SignedFileQuery {
  uid: string;
  expires: number;
  signature: string;
}

/** Opens the files that `/v1/sync/audio/{id}/urls` links to, after checking the URL's signature. */
export class AudioFiles {
  constructor(
    private readonly repo: AudioRepository,
    private readonly store: AudioObjectStore,
    private readonly signer: UrlSigner,
    private readonly clock: Clock,
  ) {}

  async open(conversationId: string, file: string, query: SignedFileQuery): Promise<AudioFile> {
    const ref = { userId: query.uid, conversationId, file };
    if (!this.signer.verify(ref, query, this.clock.now())) throw new AppError(403, Detail.audioUrlInvalid);
    const found = ARTIFACT.test(file)
      ? await this.artifact(query.uid, conversationId, file)
      : await this.part(query.uid, conversationId, file);
    if (!found) throw new AppError(404, Detail.audioNotFound);
    return found;
  }

  private async artifact(userId: string, conversationId: string, file: string): Promise<AudioFile | null> {
    const stamp = await this.repo.stamp(userId, conversationId);
    const key = stamp?.storage_key;
    if (!key?.endsWith(`/${file}`)) return null;
    const size = await this.store.size(key);
    if (size === null) return null;
    return { contentType: 'audio/mpeg', size, read: (start, end) => this.store.stream(key, start, end) };
  }

  /** A part is raw PCM on disk; it is served as WAV with the header made on the fly. */
  private async part(userId: string, conversationId: string, file: string): Promise<AudioFile | null> {
    const id = PART.exec(file)?.[1];
    const part = id ? await this.repo.part(userId, conversationId, id) : undefined;
    if (!part) return null;
    const stored = await this.store.size(part.storage_key);
    if (stored === null) return null;
    const length = Math.min(stored, Number(part.bytes));
    const pcmLength = length - (length % 2);
    const header = pcm16ToWav(Buffer.alloc(0), SAMPLE_RATE);
    header.writeUInt32LE(36 + pcmLength, 4);
    header.writeUInt32LE(pcmLength, 40);
    const store = this.store;
    return {
      contentType: 'audio/wav',
      size: WAV_HEADER + pcmLength,
      async read(start, end) {
        const body =
          end >= WAV_HEADER
            ? await store.stream(part.storage_key, Math.max(0, start - WAV_HEADER), end - WAV_HEADER)
            : null;
        return Readable.from(
          (async function* () {
            if (start < WAV_HEADER) yield header.subarray(start, Math.min(end + 1, WAV_HEADER));
            if (body) yield* body;
          })(),
        );
      },
    };
  }
}

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | null;

/**
 * One `bytes=` range of RFC 9110 (`a-b`, `a-`, `-n`); null means serve the whole file (no header,
 * or a form not supported here such as several ranges).
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
