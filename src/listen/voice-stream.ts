import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { type AudioDecoder, createDecoder } from '../providers/audio/codecs.js';
import type { SttFailure, SttSegment, SttSession } from '../providers/stt/port.js';
import type { ListenModule } from './module.js';
import { LANGUAGE_CODE, QueryTypeError, queryInt } from './query.js';
import { SessionSocket } from './session-socket.js';
import { logSttFailure, PhasedTimers, withTimeout } from './session-support.js';

/**
 * `/v2/voice-message/transcribe-stream`: the desktop clients' push-to-talk stream. PCM16 (`linear16`)
 * in, transcript segments out as JSON arrays; no conversation, no lifecycle events, no `ping`. The
 * text frame `finalize` flushes the audio and waits for the provider's last segments; the client
 * closes once it has them. Codes and reasons are the reference's (backend/routers/chat.py).
 */

export interface VoiceStreamParams {
  language: string;
  sampleRate: number;
}

const STT_UNAVAILABLE = 'Transcription service unavailable';
const IDLE_MS = 60_000;

type Query = Record<string, string | undefined>;

/** The reference's checks, in its order; every refusal is a close before any audio is taken. */
export function parseVoiceStreamParams(
  query: Query,
): { ok: true; params: VoiceStreamParams } | { ok: false; code: number; reason: string } {
  let sampleRate: number;
  let channels: number;
  try {
    sampleRate = queryInt(query.sample_rate, 'sample_rate', 16000);
    channels = queryInt(query.channels, 'channels', 1);
  } catch (err) {
    if (err instanceof QueryTypeError) return { ok: false, code: 1008, reason: err.message };
    throw err;
  }
  const refuse = (reason: string, code = 1008) => ({ ok: false as const, code, reason });
  if ((query.codec ?? 'linear16') !== 'linear16') return refuse('Unsupported codec; only linear16 is supported');
  if (sampleRate < 8000 || sampleRate > 48000) return refuse('sample_rate must be between 8000 and 48000');
  if (channels < 1 || channels > 2) return refuse('channels must be 1 or 2');
  if (channels !== 1) return refuse('Only mono (channels=1) is supported by this transcription provider');
  const language = (query.language ?? 'en').trim() || 'en';
  // The reference closes 1011 when no provider takes the language.
  if (!LANGUAGE_CODE.test(language)) return refuse(STT_UNAVAILABLE, 1011);
  return { ok: true, params: { language: language === 'auto' ? 'multi' : language, sampleRate } };
}

export class VoiceStreamSession {
  private stt: SttSession | null = null;
  private readonly decoder: AudioDecoder;
  private readonly io: SessionSocket;
  private readonly timers = new PhasedTimers();
  private lastAudioAt: number;
  private finalized = false;
  private failed = false;
  private ended: Promise<void> | null = null;

  constructor(
    socket: WebSocket,
    private readonly userId: string,
    private readonly params: VoiceStreamParams,
    private readonly m: ListenModule,
  ) {
    this.io = new SessionSocket(socket, m.log, userId);
    this.decoder = createDecoder({ codec: 'pcm16', sampleRate: params.sampleRate });
    this.lastAudioAt = m.clock.now();
    socket.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    socket.on('close', () => void this.end());
    m.active.add(this);
  }

  /** Opens the provider; a stream without one is closed 1011 as the reference does. */
  async start(early: Array<[Buffer, boolean]>): Promise<void> {
    const { provider } = this.m.chooseStt();
    if (!provider) {
      this.io.close(1011, STT_UNAVAILABLE);
      return;
    }
    try {
      this.stt = await provider.open(
        { language: this.params.language, sampleRate: 16_000 },
        { onSegments: (segments) => this.send(segments), onError: (failure) => this.fail(failure) },
      );
    } catch (err) {
      this.m.log.warn({ err, userId: this.userId }, 'push-to-talk stream: the provider did not open');
      this.io.close(1011, STT_UNAVAILABLE);
      return;
    }
    if (this.ended) {
      this.stt.close();
      return;
    }
    this.timers.every(this.m.timings.lifecycleCheckMs, () => {
      if (this.m.clock.now() - this.lastAudioAt > IDLE_MS) this.io.close(1008, 'Idle timeout: no audio for 60s');
    });
    for (const [data, isBinary] of early) this.receive(data, isBinary);
  }

  shutdown(code: number, reason: string): Promise<void> {
    this.io.close(code, reason);
    return this.end();
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (!this.stt || this.failed) return;
    if (!isBinary) {
      if (data.toString('utf8').trim() === 'finalize' && !this.finalized) {
        this.finalized = true;
        void this.io.serial(() => this.stt?.finish() ?? Promise.resolve());
      }
      return;
    }
    if (this.finalized) {
      this.io.close(1008, 'Transcription already finalized');
      return;
    }
    this.lastAudioAt = this.m.clock.now();
    const pcm = this.decoder.decode(data);
    if (pcm.length > 0) this.stt.sendAudio(pcm);
  }

  /** Segments as the reference sends them: times in seconds from the first audio. */
  private send(segments: SttSegment[]): void {
    if (segments.length === 0) return;
    this.io.send(
      segments.map((s) => {
        const speaker = s.speaker ?? 'SPEAKER_00';
        return {
          id: randomUUID(),
          text: s.text,
          speaker,
          speaker_id: Number(/(\d+)$/.exec(speaker)?.[1] ?? 0),
          is_user: s.isUser ?? false,
          person_id: null,
          start: s.start,
          end: s.end,
        };
      }),
    );
  }

  private fail(failure: SttFailure): void {
    if (this.failed) return;
    this.failed = true;
    logSttFailure(this.m, this.userId, failure);
    this.io.close(1011, STT_UNAVAILABLE);
  }

  /** The client left: the provider's tail is awaited (drain limit), then everything is released. */
  private end(): Promise<void> {
    this.ended ??= (async () => {
      this.timers.clear();
      const stt = this.stt;
      if (stt && !this.finalized && !this.failed)
        await withTimeout(
          stt.finish().catch(() => undefined),
          this.m.timings.drainMs,
        );
      stt?.close();
      this.m.active.delete(this);
    })();
    return this.ended;
  }
}
