import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Utterance, VoiceActivityDetector } from './port.js';

/**
 * Silero VAD v5 (DESIGN §2): the model file shipped in `@ricky0123/vad-web`, run by the
 * `sherpa-onnx-node` addon (an optional dependency). Each detector holds its own ONNX session
 * (about 12 MB resident) and LSTM state, so there is one per stream, released on close.
 */

const RATE = 16_000;
const WINDOW = 512;
const WINDOW_BYTES = WINDOW * 2;

interface SherpaSegment {
  samples: Float32Array;
  /** sample index of the first sample, counted from the detector's first input */
  start: number;
}

interface SherpaVad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(enableExternalBuffer?: boolean): SherpaSegment;
  pop(): void;
  flush(): void;
  reset(): void;
}

interface SherpaVadModule {
  Vad: new (config: Record<string, unknown>, bufferSeconds: number) => SherpaVad;
}

export interface SileroOptions {
  /** speech probability above which a window counts as speech */
  threshold?: number;
  /** trailing silence that ends an utterance, seconds */
  minSilence?: number;
  /** utterances shorter than this are dropped, seconds */
  minSpeech?: number;
  /** an utterance longer than this is cut, seconds */
  maxSpeech?: number;
}

export type SileroLoad =
  | { ok: true; create: (onUtterance: (u: Utterance) => void) => SileroVad }
  | { ok: false; reason: string };

const require = createRequire(import.meta.url);

/** Loads the addon and locates the model once; the reason says why Silero is not usable. */
export function loadSilero(options: SileroOptions = {}): SileroLoad {
  let sherpa: SherpaVadModule;
  let model: string;
  try {
    sherpa = require('sherpa-onnx-node') as SherpaVadModule;
  } catch (err) {
    return { ok: false, reason: `sherpa-onnx-node cannot be loaded (${firstLine(err)})` };
  }
  try {
    model = require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx');
    // A truncated file would make the addon abort the process; the shipped model is about 2.3 MB.
    if (statSync(model).size < 1_000_000) return { ok: false, reason: `${model} is truncated` };
  } catch (err) {
    return { ok: false, reason: `the Silero model of @ricky0123/vad-web is missing (${firstLine(err)})` };
  }
  const config = {
    sileroVad: {
      model,
      threshold: options.threshold ?? 0.5,
      minSilenceDuration: options.minSilence ?? 0.5,
      minSpeechDuration: options.minSpeech ?? 0.25,
      maxSpeechDuration: options.maxSpeech ?? 15,
      windowSize: WINDOW,
    },
    sampleRate: RATE,
    numThreads: 1,
    provider: 'cpu',
    debug: 0,
  };
  try {
    // Build one detector now so a broken addon or model shows at load, not inside a stream.
    new sherpa.Vad(config, 30);
  } catch (err) {
    return { ok: false, reason: `Silero VAD failed to start (${firstLine(err)})` };
  }
  return { ok: true, create: (onUtterance) => new SileroVad(new sherpa.Vad(config, 30), onUtterance) };
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
}

export class SileroVad implements VoiceActivityDetector {
  readonly engine = 'silero';
  private vad: SherpaVad | null;
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    vad: SherpaVad,
    private readonly onUtterance: (utterance: Utterance) => void,
  ) {
    this.vad = vad;
  }

  push(pcm: Buffer): void {
    if (!this.vad) return;
    const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, pcm]) : pcm;
    // The detector is fed whole 512-sample windows: one large buffer at once loses segments.
    const whole = bytes.length - (bytes.length % WINDOW_BYTES);
    for (let at = 0; at < whole; at += WINDOW_BYTES) {
      const samples = new Float32Array(WINDOW);
      for (let i = 0; i < WINDOW; i++) samples[i] = bytes.readInt16LE(at + i * 2) / 32768;
      this.vad.acceptWaveform(samples);
      this.drain();
    }
    this.carry = Buffer.from(bytes.subarray(whole));
  }

  flush(): void {
    if (!this.vad) return;
    if (this.carry.length > 0) {
      const samples = new Float32Array(WINDOW);
      for (let i = 0; i < this.carry.length >> 1; i++) samples[i] = this.carry.readInt16LE(i * 2) / 32768;
      this.vad.acceptWaveform(samples);
      this.carry = Buffer.alloc(0);
    }
    this.vad.flush();
    this.drain();
  }

  close(): void {
    this.vad?.reset();
    this.vad = null;
  }

  private drain(): void {
    const vad = this.vad;
    while (vad && !vad.isEmpty()) {
      const segment = vad.front(false);
      vad.pop();
      const pcm = Buffer.allocUnsafe(segment.samples.length * 2);
      for (let i = 0; i < segment.samples.length; i++) {
        const s = Math.max(-1, Math.min(1, segment.samples[i]));
        pcm.writeInt16LE(Math.round(s * 32767), i * 2);
      }
      const start = segment.start / RATE;
      this.onUtterance({ pcm, start, end: start + segment.samples.length / RATE });
    }
  }
}
