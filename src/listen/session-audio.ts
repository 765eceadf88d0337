import type { Clock } from '../context-types.js';
import { type AudioDecoder, openDecoder } from '../providers/audio/codecs.js';
import { type SttCallbacks, SttFailure, type SttSegment, type SttSession } from '../providers/stt/port.js';
import type { SttChoice } from '../providers/stt/select.js';
import type { ListenParams } from './params.js';
import type { RawSegment } from './transcripts.js';

/** research/omi-listen.md §1.5: channel 1 is the wearer's microphone, channel 2 the remote party. */
const CHANNELS: Record<number, { speaker: string; isUser: boolean }> = {
  1: { speaker: 'SPEAKER_00', isUser: true },
  2: { speaker: 'SPEAKER_01', isUser: false },
};
const STT_RATE = 16_000;

export interface AudioCallbacks {
  onSegments(segments: RawSegment[]): void;
  /** Decoded 16 kHz PCM16 per channel, when something beyond the provider wants it (session plugins). */
  onAudio?: (pcm: Buffer, channel: number) => void;
  onError(failure: SttFailure): void;
}

/**
 * The audio side of a session: decodes frames to 16 kHz PCM16 and feeds one STT session per
 * channel. A provider failure is terminal for the connection (SPEC §7.4): no provider swap.
 */
export class SessionAudio {
  /** epoch ms of the first audio byte: stream time 0 for provider and client segment times */
  origin: number | null = null;
  failed = false;
  private readonly stt = new Map<number, SttSession>();
  private readonly decoders = new Map<number, AudioDecoder>();

  constructor(
    private readonly params: ListenParams,
    private readonly clock: Clock,
    private readonly callbacks: AudioCallbacks,
  ) {}

  /** Opens the provider for every channel; returns what service_status should report. */
  async open(choice: SttChoice, customStt: boolean): Promise<{ provider: string | null; unavailable: string | null }> {
    const channels = this.params.channels >= 2 ? [1, 2] : [0];
    // One decoder per channel, ready before the first frame (Opus starts a WASM instance; AAC and
    // LC3 decode in another process and hand their PCM back when it comes).
    for (const channel of channels)
      this.decoders.set(channel, await openDecoder(this.params.format, (pcm) => this.deliver(pcm, channel)));
    if (customStt) return { provider: 'client', unavailable: null };
    if (!choice.provider) return { provider: null, unavailable: choice.reason };
    try {
      for (const channel of channels) {
        const session = await choice.provider.open(
          { language: this.params.language, sampleRate: STT_RATE },
          this.callbacksFor(channel),
        );
        this.stt.set(channel, session);
      }
    } catch (err) {
      const failure =
        err instanceof SttFailure
          ? err
          : new SttFailure(choice.provider.name, 'initialization_failed', 'upstream_error', true, String(err));
      this.fail(failure);
    }
    return { provider: choice.provider.name, unavailable: null };
  }

  receive(frame: Buffer): void {
    if (frame.length <= 2) return;
    if (this.origin === null) this.origin = this.clock.now();
    let channel = 0;
    let audio = frame;
    if (this.params.channels >= 2) {
      channel = frame[0];
      audio = frame.subarray(1);
      if (!CHANNELS[channel]) return; // unknown channel ids are ignored (research/omi-listen.md §1.5)
    }
    if (this.failed || (!this.stt.has(channel) && !this.callbacks.onAudio)) return;
    const pcm = this.decoders.get(channel)?.decode(audio);
    if (pcm && pcm.length > 0) this.deliver(pcm, channel);
  }

  private deliver(pcm: Buffer, channel: number): void {
    if (this.failed) return;
    this.stt.get(channel)?.sendAudio(pcm);
    this.callbacks.onAudio?.(pcm, channel);
  }

  async finish(): Promise<void> {
    // Decoders in another process give back their last PCM before the providers flush.
    await Promise.all([...this.decoders.values()].map((decoder) => decoder.finish?.()));
    await Promise.all([...this.stt.values()].map((session) => session.finish().catch(() => undefined)));
  }

  close(): void {
    for (const session of this.stt.values()) session.close();
    this.stt.clear();
    for (const decoder of this.decoders.values()) decoder.free?.();
    this.decoders.clear();
  }

  private callbacksFor(channel: number): SttCallbacks {
    const label = CHANNELS[channel];
    return {
      onSegments: (segments: SttSegment[]) => {
        const provider = this.stt.get(channel)?.provider ?? null;
        this.callbacks.onSegments(
          segments.map((s) => ({
            ...s,
            ...(label ? { speaker: label.speaker, isUser: label.isUser } : {}),
            sttProvider: provider,
          })),
        );
      },
      onError: (failure) => this.fail(failure),
    };
  }

  private fail(failure: SttFailure): void {
    if (this.failed) return;
    this.failed = true;
    this.callbacks.onError(failure);
  }
}
