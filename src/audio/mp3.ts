import type { WasmMediaEncoder } from 'wasm-media-encoders';

/**
 * MP3 clips that can be joined frame by frame. Each part is encoded once, on its own, by LAME
 * (compiled to WebAssembly, ~7× faster than the pure-JS port), mono 16 kHz in and out (no
 * resampling), 48 kbps CBR (research/omi-listen.md §5): 576 samples (36 ms) per frame.
 *
 * LAME keeps a bit reservoir: a frame's data may start in the bytes of the frames before it. The
 * encoder's lead-in frames are cut away, so the first kept frame would read its first bytes from
 * whatever precedes it in the joined file. Each clip therefore starts with a carrier frame: a
 * frame that decodes to silence and holds, at its end, the reservoir bytes the first kept frame
 * points back to. A clip is then self-contained and decodes the same wherever it is placed.
 */

export const SAMPLE_RATE = 16_000;
export const FRAME_SAMPLES = 576;
export const FRAME_MS = (FRAME_SAMPLES / SAMPLE_RATE) * 1000;
const KBPS = 48;
/** The encoder's own delay is 1105 samples: dropping two frames lands within 3 ms of the first sample. */
const LEADING_FRAMES = 2;
/** An MPEG-2 Layer III frame header: sync, MPEG-2, Layer III, no CRC, 48 kbps, 16 kHz, mono. */
const HEADER = Buffer.from([0xff, 0xf3, 0x68, 0xc0]);

const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0];
const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0];
const RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

interface FrameLayout {
  length: number;
  /** header, CRC and side information: where the frame's own data area starts */
  dataStart: number;
  /** bytes of earlier data this frame's data begins with (the reservoir pointer) */
  reservoir: number;
}

/** Reads a Layer III frame header at `at`; null when there is no frame there. */
function layout(mp3: Buffer, at: number): FrameLayout | null {
  if (at + 4 > mp3.length) return null;
  const header = mp3.readUInt32BE(at);
  if (header >>> 21 !== 0x7ff || ((header >>> 17) & 3) !== 1) return null; // sync, Layer III
  const version = (header >>> 19) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
  const rate = RATES[version]?.[(header >>> 10) & 3];
  const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[(header >>> 12) & 15];
  if (!rate || !kbps) return null;
  const padding = (header >>> 9) & 1;
  const length = Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
  const mono = ((header >>> 6) & 3) === 3;
  const side = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
  const dataStart = 4 + (((header >>> 16) & 1) === 0 ? 2 : 0) + side;
  const first = at + dataStart - side;
  if (first + 2 > mp3.length) return null;
  // main_data_begin: 9 bits in MPEG-1, 8 bits in MPEG-2 and 2.5.
  const reservoir = version === 3 ? (mp3[first] << 1) | (mp3[first + 1] >> 7) : mp3[first];
  return { length, dataStart, reservoir };
}

/** The whole frames of a Layer III stream, in order. */
export function splitFrames(mp3: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let at = 0;
  for (let frame = layout(mp3, at); frame && at + frame.length <= mp3.length; frame = layout(mp3, at)) {
    frames.push(mp3.subarray(at, at + frame.length));
    at += frame.length;
  }
  return frames;
}

/** A frame that decodes to silence (no data of its own); its data area ends with `payload`. */
function carrierFrame(payload: Buffer): Buffer {
  const frame = Buffer.alloc(216); // 72 × 48 kbps / 16 kHz, no padding
  HEADER.copy(frame, 0);
  // The side information stays zero: data begins here, no bits for any granule.
  payload.copy(frame, frame.length - payload.length);
  return frame;
}
const CARRIER_ROOM = 216 - 4 - 9;

/** Carrier frames holding the `count` data bytes that precede `frames[index]`. */
function carriersFor(frames: Buffer[], index: number): Buffer[] {
  const target = frames[index] ? layout(frames[index], 0) : null;
  if (!target || target.reservoir === 0) return [];
  const before = frames.slice(0, index).map((f) => f.subarray(layout(f, 0)?.dataStart ?? f.length));
  const bytes = Buffer.concat(before).subarray(-target.reservoir);
  if (bytes.length < target.reservoir) throw new Error('MP3 frame points before the start of its stream');
  const carriers: Buffer[] = [];
  for (let end = bytes.length; end > 0; end -= CARRIER_ROOM)
    carriers.unshift(carrierFrame(bytes.subarray(Math.max(0, end - CARRIER_ROOM), end)));
  return carriers;
}

/** Whether a frame is a carrier or a silence frame of this module (zero side information). */
function isCarrier(frame: Buffer): boolean {
  return frame.length === 216 && frame.subarray(0, 4).equals(HEADER) && frame.subarray(4, 13).every((b) => b === 0);
}

/** Frames at the start of a clip that only carry data (they play as silence). */
export function leadingCarriers(clip: Buffer): number {
  let count = 0;
  for (const frame of splitFrames(clip)) {
    if (!isCarrier(frame)) break;
    count++;
  }
  return count;
}

let encoder: Promise<WasmMediaEncoder<'audio/mpeg'>> | null = null;

/** One encoder per process: encoding is synchronous once it is loaded, so calls never interleave. */
async function loadEncoder(): Promise<WasmMediaEncoder<'audio/mpeg'>> {
  // Imported with the first MP3 made, not when the server starts (docs/deployment.md).
  encoder ??= import('wasm-media-encoders').then(({ createMp3Encoder }) => createMp3Encoder());
  return encoder;
}

function encodeRaw(lame: WasmMediaEncoder<'audio/mpeg'>, samples: Int16Array): Buffer {
  lame.configure({ channels: 1, sampleRate: SAMPLE_RATE, outputSampleRate: SAMPLE_RATE, bitrate: KBPS });
  const chunks: Buffer[] = [];
  const block = FRAME_SAMPLES * 64;
  const floats = new Float32Array(block);
  for (let at = 0; at < samples.length; at += block) {
    const piece = samples.subarray(at, at + block);
    for (let i = 0; i < piece.length; i++) floats[i] = piece[i] / 32768;
    chunks.push(Buffer.from(lame.encode([floats.subarray(0, piece.length)]))); // copied: the encoder reuses it
  }
  chunks.push(Buffer.from(lame.finalize()));
  return Buffer.concat(chunks);
}

/**
 * A clip as whole frames: its carrier frames, then round(n / 576) frames of audio with the
 * encoder's lead-in dropped.
 */
export async function encodeClip(samples: Int16Array): Promise<Buffer> {
  const frames = splitFrames(encodeRaw(await loadEncoder(), samples));
  const keep = Math.round(samples.length / FRAME_SAMPLES);
  if (keep === 0 || frames.length <= LEADING_FRAMES) return Buffer.alloc(0);
  return Buffer.concat([
    ...carriersFor(frames, LEADING_FRAMES),
    ...frames.slice(LEADING_FRAMES, LEADING_FRAMES + keep),
  ]);
}

const SILENT_FRAME = carrierFrame(Buffer.alloc(0));

/** `count` frames of silence. */
export function silenceFrames(count: number): Buffer {
  return Buffer.concat(Array.from({ length: Math.max(0, count) }, () => SILENT_FRAME));
}
