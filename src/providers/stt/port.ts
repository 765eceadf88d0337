/**
 * The speech-to-text port (DESIGN §6): one streaming interface, several adapters. Audio is always
 * 16 kHz mono PCM16 LE; segment times are seconds from the first audio sent to the session.
 */

export interface SttSegment {
  text: string;
  start: number;
  end: number;
  /** SPEAKER_<nn> when the provider diarizes */
  speaker?: string;
  isUser?: boolean;
}

/** research/omi-listen.md §1.8: the reason codes of a terminal transcription failure. */
export type SttFailureReason = 'initialization_failed' | 'connection_lost' | 'send_failed' | 'socket_unavailable';

export class SttFailure extends Error {
  constructor(
    readonly provider: string,
    readonly reason: SttFailureReason,
    readonly outcome: 'upstream_error' | 'config_error',
    readonly retryable: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'SttFailure';
  }
}

export interface SttCallbacks {
  onSegments(segments: SttSegment[]): void;
  /** Terminal for the connection (SPEC §7.4); called at most once. */
  onError(failure: SttFailure): void;
}

export interface SttOpenOptions {
  language: string;
  /** always 16000: the listen session decodes and resamples before the port */
  sampleRate: number;
}

export interface SttSession {
  readonly provider: string;
  sendAudio(pcm16: Buffer): void;
  /** Flushes buffered audio; resolves when the provider has delivered its last segments. */
  finish(): Promise<void>;
  /** Drops the session without waiting (teardown after a failure or the drain timeout). */
  close(): void;
}

export interface SttProvider {
  readonly name: string;
  /** Opens a streaming session; rejects with an SttFailure (initialization_failed) when it cannot. */
  open(options: SttOpenOptions, callbacks: SttCallbacks): Promise<SttSession>;
}

/** Groups consecutive words of one speaker into segments (Deepgram-style word lists). */
export function wordsToSegments(
  words: ReadonlyArray<{ word: string; start: number; end: number; speaker?: number; punctuated_word?: string }>,
): SttSegment[] {
  const segments: SttSegment[] = [];
  let current: { words: string[]; start: number; end: number; speaker: number } | null = null;
  for (const w of words) {
    const speaker = typeof w.speaker === 'number' ? w.speaker : 0;
    const text = w.punctuated_word ?? w.word;
    if (current && current.speaker === speaker) {
      current.words.push(text);
      current.end = w.end;
      continue;
    }
    if (current) segments.push(toSegment(current));
    current = { words: [text], start: w.start, end: w.end, speaker };
  }
  if (current) segments.push(toSegment(current));
  return segments;
}

function toSegment(group: { words: string[]; start: number; end: number; speaker: number }): SttSegment {
  return {
    text: group.words.join(' '),
    start: group.start,
    end: group.end,
    speaker: `SPEAKER_${String(group.speaker).padStart(2, '0')}`,
  };
}
