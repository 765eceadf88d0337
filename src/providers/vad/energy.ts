import type { Utterance, VoiceActivityDetector } from './port.js';

export type { Utterance } from './port.js';

/**
 * Energy-based voice activity detection: cuts a 16 kHz PCM16 stream into utterances. It is the
 * fallback when Silero (src/providers/vad/silero.ts) cannot load, and `VAD_ENGINE=energy`.
 */

export interface VadOptions {
  sampleRate?: number;
  /** absolute RMS floor below which a frame is never speech (PCM16 units) */
  minRms?: number;
  /** speech frames need this multiple of the running noise level */
  noiseRatio?: number;
  /** trailing silence that ends an utterance */
  hangoverMs?: number;
  /** audio kept before the first speech frame */
  prerollMs?: number;
  /** an utterance longer than this is cut */
  maxUtteranceMs?: number;
  /** utterances shorter than this are dropped as clicks */
  minSpeechMs?: number;
}

const FRAME_MS = 30;

export class EnergyVad implements VoiceActivityDetector {
  readonly engine = 'energy';
  private readonly rate: number;
  private readonly frameBytes: number;
  private readonly options: Required<VadOptions>;
  private pending: Buffer = Buffer.alloc(0);
  private noise = 200;
  private framesSeen = 0;
  private speech: Buffer[] = [];
  private speechFrames = 0;
  private silentFrames = 0;
  private utteranceStartFrame = 0;
  private preroll: Buffer[] = [];

  constructor(
    private readonly onUtterance: (utterance: Utterance) => void,
    options: VadOptions = {},
  ) {
    this.options = {
      sampleRate: 16_000,
      minRms: 300,
      noiseRatio: 3,
      hangoverMs: 600,
      prerollMs: 210,
      maxUtteranceMs: 15_000,
      minSpeechMs: 150,
      ...options,
    };
    this.rate = this.options.sampleRate;
    this.frameBytes = Math.round((this.rate * FRAME_MS) / 1000) * 2;
  }

  push(pcm: Buffer): void {
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, pcm]) : pcm;
    let offset = 0;
    while (this.pending.length - offset >= this.frameBytes) {
      this.frame(this.pending.subarray(offset, offset + this.frameBytes));
      offset += this.frameBytes;
    }
    this.pending = Buffer.from(this.pending.subarray(offset));
  }

  /** Ends the stream: an utterance in progress is emitted. */
  flush(): void {
    if (this.speech.length > 0) this.emit();
  }

  close(): void {
    this.speech = [];
    this.preroll = [];
    this.pending = Buffer.alloc(0);
  }

  private frame(frame: Buffer): void {
    const rms = frameRms(frame);
    const isSpeech = rms >= this.options.minRms && rms >= this.noise * this.options.noiseRatio;
    if (!isSpeech) this.noise = this.noise * 0.95 + rms * 0.05;
    this.framesSeen++;
    if (this.speech.length === 0) {
      this.preroll.push(Buffer.from(frame));
      const keep = Math.ceil(this.options.prerollMs / FRAME_MS);
      if (this.preroll.length > keep) this.preroll.shift();
      if (isSpeech) this.begin();
      return;
    }
    this.speech.push(Buffer.from(frame));
    if (isSpeech) {
      this.speechFrames++;
      this.silentFrames = 0;
    } else {
      this.silentFrames++;
    }
    const length = this.speech.length * FRAME_MS;
    if (this.silentFrames * FRAME_MS >= this.options.hangoverMs || length >= this.options.maxUtteranceMs) this.emit();
  }

  private begin(): void {
    this.speech = this.preroll;
    this.preroll = [];
    this.speechFrames = 1;
    this.silentFrames = 0;
    this.utteranceStartFrame = this.framesSeen - this.speech.length;
  }

  private emit(): void {
    const frames = this.speech;
    this.speech = [];
    if (this.speechFrames * FRAME_MS < this.options.minSpeechMs) return;
    const start = (this.utteranceStartFrame * FRAME_MS) / 1000;
    this.onUtterance({ pcm: Buffer.concat(frames), start, end: start + (frames.length * FRAME_MS) / 1000 });
  }
}

export function frameRms(frame: Buffer): number {
  const samples = frame.length >> 1;
  if (samples === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples; i++) {
    const s = frame.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / samples);
}
