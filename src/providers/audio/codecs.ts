import { AacFrameDecoder, aacDecoderInstalled } from './aac.js';
import { Lc3FrameDecoder, lc3Tools } from './lc3.js';
import { OpusFrameDecoder } from './opus.js';

/**
 * Audio codecs of the listen stream (SPEC §4.11, research/omi-listen.md §1.6). Every decoder turns
 * incoming frames into 16 kHz mono PCM16 little-endian, the one format the STT port accepts.
 */

export type CodecName = 'pcm16' | 'pcm8' | 'opus' | 'aac' | 'lc3';

export const TARGET_RATE = 16_000;
const RATES: Record<CodecName, readonly number[]> = {
  pcm16: [8000, 16000, 44100, 48000],
  pcm8: [8000, 16000, 44100, 48000],
  opus: [8000, 12000, 16000, 24000, 48000],
  // ffmpeg resamples whatever the ADTS headers say; the declared rate is only checked for sense.
  aac: [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000],
  lc3: [8000, 16000, 24000, 32000, 48000],
};

export interface AudioFormat {
  codec: CodecName;
  sampleRate: number;
}

/** A close reason (≤ 123 bytes, the WebSocket limit) when the format is not accepted, else the format. */
export function validateAudioFormat(codec: string, sampleRate: number): AudioFormat | { reason: string } {
  const value = codec.trim().toLowerCase();
  // research/omi-listen.md §1.6: bare lc3 names no frame duration; the reference refuses it so.
  if (value === 'lc3')
    return { reason: 'lc3 streaming requires the lc3_fs1030 codec (bare lc3 has no frame duration)' };
  const name = ALIASES[value];
  if (!name) return { reason: `unsupported codec ${codec.slice(0, 40)}` };
  const allowed = RATES[name];
  if (!Number.isInteger(sampleRate) || !allowed.includes(sampleRate)) {
    return {
      reason: `unsupported sample_rate ${String(sampleRate).slice(0, 20)} for ${name}; use ${allowed.join(', ')}`,
    };
  }
  return { codec: name, sampleRate };
}

/** Wire names: `linear16` is what the desktop clients send for PCM16; lc3_fs1030 is 10 ms LC3 frames. */
const ALIASES: Record<string, CodecName> = {
  pcm16: 'pcm16',
  pcm: 'pcm16',
  linear16: 'pcm16',
  pcm8: 'pcm8',
  opus: 'opus',
  opus_fs320: 'opus',
  aac: 'aac',
  lc3_fs1030: 'lc3',
};

/**
 * Why a codec cannot be decoded on this machine (its Debian package is missing), or null. The
 * reasons are the reference's for LC3; AAC names itself instead of `unsupported_audio_format`.
 */
export function codecUnavailable(codec: CodecName): string | null {
  if (codec === 'lc3') return lc3Tools() ? null : 'LC3 codec is not available';
  if (codec === 'aac') return aacDecoderInstalled() ? null : 'AAC codec is not available';
  return null;
}

/** Turns a stream of frames into 16 kHz PCM16; stateful (odd bytes and resampler phase carry over). */
export interface AudioDecoder {
  /** The PCM of this frame; empty for decoders in another process, which deliver it to `onOutput`. */
  decode(frame: Buffer): Buffer;
  /** Waits for the PCM of frames already given (decoders in another process). */
  finish?(): Promise<void>;
  /** Releases native or WASM memory, or the decoding process; the decoder is unusable afterwards. */
  free?(): void;
}

/**
 * Any codec's decoder. Opus needs an asynchronous start (its WASM module); AAC and LC3 decode in
 * another process and hand their 16 kHz PCM16 to `onOutput` as it comes.
 */
export async function openDecoder(format: AudioFormat, onOutput?: (pcm: Buffer) => void): Promise<AudioDecoder> {
  if (format.codec === 'opus') return OpusFrameDecoder.open();
  if (format.codec !== 'aac' && format.codec !== 'lc3') return createDecoder(format);
  if (!onOutput) throw new Error(`${format.codec} decodes in another process: pass onOutput`);
  // The process's PCM arrives in pipe-sized pieces: the PCM decoder joins split samples and resamples.
  const pcm = createDecoder({ codec: 'pcm16', sampleRate: format.codec === 'aac' ? TARGET_RATE : format.sampleRate });
  const deliver = (chunk: Buffer) => {
    const out = pcm.decode(chunk);
    if (out.length > 0) onOutput(out);
  };
  if (format.codec === 'aac') return new AacFrameDecoder(deliver);
  const tools = lc3Tools();
  if (!tools) throw new Error('LC3 codec is not available');
  return new Lc3FrameDecoder(format.sampleRate, tools.headerSize, deliver);
}

/** The PCM decoders, which start synchronously; use openDecoder for Opus. */
export function createDecoder(format: AudioFormat): AudioDecoder {
  if (format.codec === 'opus' || format.codec === 'aac' || format.codec === 'lc3')
    throw new Error(`${format.codec} decoders start asynchronously: use openDecoder`);
  const resampler = format.sampleRate === TARGET_RATE ? null : new Resampler(format.sampleRate, TARGET_RATE);
  let carry: Buffer | null = null;
  return {
    decode(frame) {
      // 16 kHz PCM16 frames of even length are already the target format: no copy.
      if (format.codec === 'pcm16' && !resampler && !carry && frame.length % 2 === 0) return frame;
      let samples: Int16Array;
      if (format.codec === 'pcm8') {
        samples = pcm8ToSamples(frame);
      } else {
        const bytes: Buffer = carry ? Buffer.concat([carry, frame]) : frame;
        const even = bytes.length - (bytes.length % 2);
        carry = even < bytes.length ? Buffer.from(bytes.subarray(even)) : null;
        samples = pcm16ToSamples(bytes.subarray(0, even));
      }
      const out = resampler ? resampler.process(samples) : samples;
      return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    },
  };
}

// research/omi-listen.md §7.1: current upstream treats pcm8 as unsigned 8-bit samples (bias 128).
function pcm8ToSamples(frame: Buffer): Int16Array {
  const out = new Int16Array(frame.length);
  for (let i = 0; i < frame.length; i++) out[i] = (frame[i] - 128) << 8;
  return out;
}

function pcm16ToSamples(bytes: Buffer): Int16Array {
  const out = new Int16Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2);
  return out;
}

/**
 * Streaming linear-interpolation resampler. When downsampling, each output sample averages the
 * input samples it spans (a box filter), which keeps aliasing low enough for speech recognition.
 */
export class Resampler {
  private readonly step: number;
  private position = 0;
  private previous = 0;

  constructor(from: number, to: number) {
    this.step = from / to;
  }

  process(input: Int16Array): Int16Array {
    const out: number[] = [];
    // position is measured in input samples, relative to input[0]; -1 is the previous frame's last sample.
    while (this.position < input.length - 1 || (this.position < input.length && this.step >= 1)) {
      out.push(this.step > 1 ? this.average(input, this.position) : this.interpolate(input, this.position));
      this.position += this.step;
    }
    this.position -= input.length;
    if (input.length > 0) this.previous = input[input.length - 1];
    return Int16Array.from(out);
  }

  private sampleAt(input: Int16Array, index: number): number {
    return index < 0 ? this.previous : input[Math.min(index, input.length - 1)];
  }

  private interpolate(input: Int16Array, position: number): number {
    const base = Math.floor(position);
    const fraction = position - base;
    const a = this.sampleAt(input, base);
    const b = this.sampleAt(input, base + 1);
    return Math.round(a + (b - a) * fraction);
  }

  private average(input: Int16Array, position: number): number {
    const start = Math.max(-1, Math.floor(position));
    const end = Math.min(input.length - 1, Math.floor(position + this.step) - 1);
    let sum = 0;
    let count = 0;
    for (let i = start; i <= Math.max(start, end); i++) {
      sum += this.sampleAt(input, i);
      count++;
    }
    return Math.round(sum / count);
  }
}
