import { createHash } from 'node:crypto';
import { FRAME_MS, leadingCarriers, silenceFrames, splitFrames } from './mp3.js';

/**
 * The per-conversation audio artifact (SPEC §8, research/omi-listen.md §5): the captured parts in
 * time order as one MP3 (mono, 16 kHz, 48 kbps CBR); a gap under 90 s between parts is filled with
 * silence, a longer gap is collapsed. Each part is encoded once and cached (builder.ts), so a
 * rebuild only joins frames (mp3.ts: every clip is self-contained).
 */

export const SAMPLE_RATE = 16_000;
export const BYTES_PER_SECOND = SAMPLE_RATE * 2;
export const MAX_FILLED_GAP_MS = 90_000;

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

/** A part's audio as MP3 frames (mp3.ts encodeClip), or null when its bytes are gone. */
export type EncodedReader = (part: PartRef) => Promise<Buffer | null>;

export interface Assembled {
  mp3: Buffer;
  /** offsets and lengths as they are in the MP3 (whole frames) */
  spans: Span[];
  durationMs: number;
  capturedMs: number;
}

/**
 * Joins the encoded parts and the frames of silence between them. Parts whose bytes are gone are
 * left out without a hole (research/omi-listen.md §5); null when no part could be read.
 */
export async function assembleArtifact(plan: ArtifactPlan, read: EncodedReader): Promise<Assembled | null> {
  const chunks: Buffer[] = [];
  const spans: Span[] = [];
  const wallOffsets = new Map(plan.spans.map((s) => [s.file_id, s.wall_offset]));
  let frames = 0;
  let captured = 0;
  let silenceMs = 0;
  for (const piece of plan.pieces) {
    if ('silenceMs' in piece) {
      silenceMs += piece.silenceMs;
      continue;
    }
    const encoded = await read(piece.part);
    if (!encoded) {
      silenceMs = 0;
      continue;
    }
    // A clip's carrier frames play as silence: they take the place of that much of the gap.
    const carriers = leadingCarriers(encoded);
    if (chunks.length > 0 && silenceMs > 0) {
      const count = Math.max(0, Math.round(silenceMs / FRAME_MS) - carriers);
      chunks.push(silenceFrames(count));
      frames += count;
    }
    silenceMs = 0;
    const count = splitFrames(encoded).length;
    spans.push({
      file_id: piece.part.id,
      wall_offset: wallOffsets.get(piece.part.id) ?? 0,
      artifact_offset: round3((frames * FRAME_MS) / 1000),
      len: round3((count * FRAME_MS) / 1000),
    });
    chunks.push(encoded);
    frames += count;
    captured += (count - carriers) * FRAME_MS;
  }
  if (chunks.length === 0) return null;
  return { mp3: Buffer.concat(chunks), spans, durationMs: frames * FRAME_MS, capturedMs: captured };
}
