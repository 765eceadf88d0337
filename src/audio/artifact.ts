import { createHash } from 'node:crypto';
import { Mp3Encoder } from '@breezystack/lamejs';

/**
 * The per-conversation audio artifact (SPEC §8, research/omi-listen.md §5): the captured parts in
 * time order as one MP3 (mono, 16 kHz, 48 kbps CBR); a gap under 90 s between parts is filled with
 * silence, a longer gap is collapsed.
 */

export const SAMPLE_RATE = 16_000;
export const BYTES_PER_SECOND = SAMPLE_RATE * 2;
export const MAX_FILLED_GAP_MS = 90_000;
const KBPS = 48;
/** lamejs encodes best in multiples of its 1152-sample frame. */
const BLOCK = 1152 * 32;

export interface PartRef {
  id: string;
  /** epoch ms of the first sample */
  startedAt: number;
  bytes: number;
  updatedAt: number;
}

export interface Span {
  file_id: string;
  /** seconds from the first part's start (wall clock) */
  wall_offset: number;
  /** seconds of artifact audio before this part */
  artifact_offset: number;
  /** seconds of this part */
  len: number;
}

export interface ArtifactPlan {
  /** what goes into the MP3, in order: a part's audio or a stretch of silence (ms) */
  pieces: Array<{ part: PartRef } | { silenceMs: number }>;
  spans: Span[];
  /** artifact length, ms (captured audio plus filled silence) */
  durationMs: number;
  capturedMs: number;
  /** first start to last end, ms (collapsed gaps included) */
  wallMs: number;
}

const partMs = (part: PartRef) => (part.bytes / BYTES_PER_SECOND) * 1000;
const round3 = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** Lays the parts out on the artifact's time line. */
export function planArtifact(parts: readonly PartRef[]): ArtifactPlan {
  const sorted = [...parts].filter((p) => p.bytes >= 2).sort((a, b) => a.startedAt - b.startedAt);
  const plan: ArtifactPlan = { pieces: [], spans: [], durationMs: 0, capturedMs: 0, wallMs: 0 };
  let end: number | null = null;
  for (const part of sorted) {
    const gap = end === null ? 0 : part.startedAt - end;
    // SPEC §8: a gap under 90 s becomes silence, a longer one is collapsed; overlaps play back to back.
    if (gap > 0 && gap <= MAX_FILLED_GAP_MS) {
      plan.pieces.push({ silenceMs: gap });
      plan.durationMs += gap;
    }
    const length = partMs(part);
    plan.spans.push({
      file_id: part.id,
      wall_offset: round3((part.startedAt - sorted[0].startedAt) / 1000),
      artifact_offset: round3(plan.durationMs / 1000),
      len: round3(length / 1000),
    });
    plan.pieces.push({ part });
    plan.durationMs += length;
    plan.capturedMs += length;
    end = Math.max(end ?? 0, part.startedAt + length);
  }
  if (sorted.length > 0 && end !== null) plan.wallMs = end - sorted[0].startedAt;
  return plan;
}

/**
 * Identifies the set of stored parts an artifact was built from: any new, grown or rewritten part
 * changes it. sha1 over the sorted [id, bytes, updated_at] list, first 12 hex characters (the
 * reference's length, research/omi-listen.md §5).
 */
export function fingerprint(parts: readonly PartRef[]): string {
  const items = [...parts].sort((a, b) => (a.id < b.id ? -1 : 1)).map((p) => [p.id, p.bytes, p.updatedAt]);
  return createHash('sha1').update(JSON.stringify(items)).digest('hex').slice(0, 12);
}

/** Streams PCM16 through one MP3 encoder; `add` may be called with any sample counts. */
export class Mp3Writer {
  private readonly encoder = new Mp3Encoder(1, SAMPLE_RATE, KBPS);
  private readonly chunks: Uint8Array[] = [];
  private pending = new Int16Array(BLOCK);
  private filled = 0;

  add(samples: Int16Array): void {
    let at = 0;
    while (at < samples.length) {
      const take = Math.min(BLOCK - this.filled, samples.length - at);
      this.pending.set(samples.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === BLOCK) this.encodePending();
    }
  }

  silence(ms: number): void {
    let remaining = Math.round((ms / 1000) * SAMPLE_RATE);
    const zeros = new Int16Array(Math.min(remaining, SAMPLE_RATE));
    while (remaining > 0) {
      const n = Math.min(remaining, zeros.length);
      this.add(zeros.subarray(0, n));
      remaining -= n;
    }
  }

  finish(): Buffer {
    if (this.filled > 0) this.encodePending();
    this.push(this.encoder.flush());
    return Buffer.concat(this.chunks);
  }

  private encodePending(): void {
    this.push(this.encoder.encodeBuffer(this.pending.subarray(0, this.filled)));
    this.pending = new Int16Array(BLOCK);
    this.filled = 0;
  }

  private push(chunk: Uint8Array): void {
    if (chunk.length > 0) this.chunks.push(Buffer.from(chunk));
  }
}

/** Reads a part's PCM (null when its bytes are gone). */
export type PartReader = (part: PartRef) => Promise<Buffer | null>;

/**
 * Encodes the plan; parts whose bytes are gone are left out without a hole (research/omi-listen.md
 * §5). Null when no part could be read.
 */
export async function encodeArtifact(plan: ArtifactPlan, read: PartReader): Promise<Buffer | null> {
  const writer = new Mp3Writer();
  let found = 0;
  for (const piece of plan.pieces) {
    if ('silenceMs' in piece) {
      writer.silence(piece.silenceMs);
      continue;
    }
    const pcm = await read(piece.part);
    if (!pcm) continue;
    found++;
    const even = pcm.length - (pcm.length % 2);
    const copy = new Int16Array(even / 2);
    for (let i = 0; i < copy.length; i++) copy[i] = pcm.readInt16LE(i * 2);
    writer.add(copy);
  }
  return found === 0 ? null : writer.finish();
}
