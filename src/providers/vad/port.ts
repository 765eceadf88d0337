/**
 * The voice-activity-detection port: cuts a 16 kHz mono PCM16 stream into utterances. Adapters:
 * Silero (sherpa-onnx, DESIGN §2) and the energy detector, its fallback.
 */

export interface Utterance {
  pcm: Buffer;
  /** seconds from the start of the stream's audio */
  start: number;
  end: number;
}

export type VadEngine = 'silero' | 'energy';

export interface VoiceActivityDetector {
  readonly engine: VadEngine;
  push(pcm: Buffer): void;
  /** Ends the stream: an utterance in progress is emitted. */
  flush(): void;
  /** Releases the detector's native state; it accepts nothing afterwards. */
  close(): void;
}

/** Makes one detector per stream; `onUtterance` is called synchronously from push() and flush(). */
export type VadFactory = (onUtterance: (utterance: Utterance) => void) => VoiceActivityDetector;
