import { Mp3Encoder } from '@breezystack/lamejs';

/**
 * MP3 as a sequence of independent frames. The encoder runs with its bit reservoir off (lamejs
 * always does), so every frame decodes on its own: clips encoded separately, and repeated frames
 * of silence, can be joined frame by frame into one stream. Mono, 16 kHz, 48 kbps CBR
 * (research/omi-listen.md §5): 576 samples (36 ms) per frame.
 */

export const SAMPLE_RATE = 16_000;
export const FRAME_SAMPLES = 576;
export const FRAME_MS = (FRAME_SAMPLES / SAMPLE_RATE) * 1000;
const KBPS = 48;
/** The encoder's own delay is 1105 samples: dropping two frames lands within 3 ms of the first sample. */
const LEADING_FRAMES = 2;

/** MPEG audio frame lengths of a Layer III stream, read from the frame headers. */
export function splitFrames(mp3: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let at = 0;
  while (at + 4 <= mp3.length) {
    const length = frameLength(mp3, at);
    if (length === null || at + length > mp3.length) break;
    frames.push(mp3.subarray(at, at + length));
    at += length;
  }
  return frames;
}

const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0];
const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

function frameLength(mp3: Buffer, at: number): number | null {
  const header = mp3.readUInt32BE(at);
  if (header >>> 21 !== 0x7ff || ((header >>> 17) & 3) !== 1) return null; // sync, Layer III
  const version = (header >>> 19) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
  const rate = RATES[version]?.[(header >>> 10) & 3];
  const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[(header >>> 12) & 15];
  if (!rate || !kbps) return null;
  const padding = (header >>> 9) & 1;
  return Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
}

function encodeRaw(samples: Int16Array): Buffer {
  const encoder = new Mp3Encoder(1, SAMPLE_RATE, KBPS);
  const chunks: Uint8Array[] = [];
  const block = FRAME_SAMPLES * 64;
  for (let at = 0; at < samples.length; at += block)
    chunks.push(encoder.encodeBuffer(samples.subarray(at, at + block)));
  chunks.push(encoder.flush());
  return Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
}

/** A clip as whole frames: the encoder's lead-in dropped, round(n / 576) frames kept. */
export function encodeClip(samples: Int16Array): Buffer {
  const frames = splitFrames(encodeRaw(samples));
  const keep = Math.round(samples.length / FRAME_SAMPLES);
  return Buffer.concat(frames.slice(LEADING_FRAMES, LEADING_FRAMES + keep));
}

let silentFrame: Buffer | null = null;

/** `count` frames of silence (one encoded frame, repeated). */
export function silenceFrames(count: number): Buffer {
  if (!silentFrame) {
    const frames = splitFrames(encodeRaw(new Int16Array(FRAME_SAMPLES * 16)));
    silentFrame = Buffer.from(frames[8]);
  }
  const frame = silentFrame;
  return Buffer.concat(Array.from({ length: Math.max(0, count) }, () => frame));
}
