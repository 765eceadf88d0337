import { EnergyVad } from '../vad/energy.js';
import type { Utterance, VadFactory, VoiceActivityDetector } from '../vad/port.js';
import { type SttCallbacks, SttFailure, type SttSession } from './port.js';

/** Transcribes one VAD-cut utterance of 16 kHz PCM16; rejects when the engine fails. */
export type UtteranceTranscriber = (pcm: Buffer) => Promise<string>;

/**
 * A streaming session for engines that transcribe whole utterances (pocketsphinx, OpenAI-compatible
 * servers): the VAD (Silero, or the energy fallback) cuts the stream and utterances are
 * transcribed one at a time, in order.
 */
export class UtteranceSession implements SttSession {
  private readonly vad: VoiceActivityDetector;
  private queue: Promise<void> = Promise.resolve();
  private failed = false;
  private closed = false;

  constructor(
    readonly provider: string,
    private readonly transcribe: UtteranceTranscriber,
    private readonly callbacks: SttCallbacks,
    vad: VadFactory = (on) => new EnergyVad(on),
  ) {
    this.vad = vad((utterance) => this.enqueue(utterance));
  }

  sendAudio(pcm16: Buffer): void {
    if (this.failed || this.closed) return;
    this.vad.push(pcm16);
  }

  async finish(): Promise<void> {
    if (!this.closed) this.vad.flush();
    this.close();
    await this.queue;
  }

  close(): void {
    this.closed = true;
    this.vad.close();
  }

  private enqueue(utterance: Utterance): void {
    this.queue = this.queue.then(async () => {
      if (this.failed) return;
      try {
        const text = (await this.transcribe(utterance.pcm)).trim();
        if (text !== '') this.callbacks.onSegments([{ text, start: utterance.start, end: utterance.end }]);
      } catch (err) {
        this.failed = true;
        const message = err instanceof Error ? err.message : String(err);
        this.callbacks.onError(new SttFailure(this.provider, 'send_failed', 'upstream_error', true, message));
      }
    });
  }
}
