import { Resampler } from '../providers/audio/codecs.js';
import { bufferToSamples } from './pcm.js';

/** Reading WAV uploads (voice profiles) and PCM buffers, always ending as 16 kHz mono PCM16. */

export class WavError extends Error {}

const TARGET_RATE = 16_000;

interface WavFormat {
  sampleRate: number;
  channels: number;
  data: Buffer;
}

/** Finds the fmt and data chunks; a streamed WAV (sizes 0 or 0xFFFFFFFF) runs its data to the end. */
function readChunks(wav: Buffer): WavFormat {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE')
    throw new WavError('not a RIFF/WAVE file');
  let at = 12;
  let format: { sampleRate: number; channels: number } | null = null;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > wav.length) throw new WavError('truncated fmt chunk');
      const codec = wav.readUInt16LE(body);
      const bits = wav.readUInt16LE(body + 14);
      if (codec !== 1 || bits !== 16) throw new WavError('only 16-bit PCM WAV is accepted');
      format = { channels: wav.readUInt16LE(body + 2), sampleRate: wav.readUInt32LE(body + 4) };
    } else if (id === 'data') {
      if (!format) throw new WavError('data chunk before fmt chunk');
      const end = size === 0 || body + size > wav.length ? wav.length : body + size;
      return { ...format, data: wav.subarray(body, end) };
    }
    at = body + size + (size % 2);
  }
  throw new WavError('no data chunk');
}

function downmix(samples: Int16Array, channels: number): Int16Array {
  if (channels === 1) return samples;
  const out = new Int16Array(Math.floor(samples.length / channels));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[i * channels + c];
    out[i] = Math.round(sum / channels);
  }
  return out;
}

/** A 16-bit PCM WAV of any rate and channel count → 16 kHz mono samples. */
export function wavTo16kMono(wav: Buffer): Int16Array {
  const { sampleRate, channels, data } = readChunks(wav);
  if (channels < 1 || channels > 8) throw new WavError('unsupported channel count');
  if (sampleRate < 8000 || sampleRate > 192_000) throw new WavError('unsupported sample rate');
  const mono = downmix(bufferToSamples(data), channels);
  return sampleRate === TARGET_RATE ? mono : new Resampler(sampleRate, TARGET_RATE).process(mono);
}
