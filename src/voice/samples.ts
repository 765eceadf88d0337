import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { bufferToSamples, samplesToBuffer } from '../audio/pcm.js';
import type { Clock } from '../context-types.js';
import { type VoiceRepository, vectorToBuffer } from '../store/repositories/voice.js';
import type { VoiceEmbedder } from './port.js';

/** SPEC §8: a sample is processed once it is at least 120 s old; the queue is polled every 15 s. */
export const SAMPLE_MIN_AGE_MS = 120_000;
export const SAMPLE_POLL_MS = 15_000;
/** A sample with less voiced audio than this teaches nothing reliable. */
const MIN_SAMPLE_SPEECH_SECONDS = 1;
/** A claim older than this belonged to a worker that died. */
const CLAIM_TIMEOUT_MS = 10 * 60_000;
const BATCH = 20;

export interface NewSample {
  /** null: a sample of the user's own voice */
  personId: string | null;
  conversationId: string;
  segmentId: string;
  /** the segment's span, ms of conversation time */
  startMs: number;
  endMs: number;
  /** audio cut from the live stream, when the session still held it */
  clip: Int16Array | null;
}

export interface SampleQueueDeps {
  voice: VoiceRepository;
  embedder: VoiceEmbedder;
  clock: Clock;
  log: Logger;
  /** The conversation's stored audio for a span of conversation time (audio capture on), or null. */
  readSpan(userId: string, conversationId: string, startMs: number, endMs: number): Promise<Int16Array | null>;
}

/**
 * The speaker-sample queue (SPEC §6.1 "Embeddings need two sessions"): assigning a speaker stores a
 * durable sample row; the poller embeds samples that are old enough (so the audio parts of the
 * moment have been written) and adds the vector to that person's voice, for the next session.
 */
export class SpeakerSampleQueue {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(private readonly deps: SampleQueueDeps) {}

  async queue(userId: string, sample: NewSample): Promise<string> {
    const id = randomUUID();
    await this.deps.voice.insertSample({
      id,
      user_id: userId,
      person_id: sample.personId,
      conversation_id: sample.conversationId,
      segment_id: sample.segmentId,
      start_ms: Math.max(0, Math.round(sample.startMs)),
      end_ms: Math.max(0, Math.round(sample.endMs)),
      audio: sample.clip ? samplesToBuffer(sample.clip) : null,
      status: 'pending',
      reason: null,
      created_at: this.deps.clock.now(),
      processed_at: null,
    });
    return id;
  }

  /** Processes every due sample once; returns how many were taken. Runs one pass at a time. */
  processDue(): Promise<number> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.processDue().catch((err) => this.deps.log.warn({ err }, 'speaker sample pass failed'));
    };
    this.timer = setInterval(tick, SAMPLE_POLL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async pass(): Promise<number> {
    const now = this.deps.clock.now();
    await this.deps.voice.releaseStaleClaims(now - CLAIM_TIMEOUT_MS);
    const due = await this.deps.voice.dueSamples(now - SAMPLE_MIN_AGE_MS, BATCH);
    let taken = 0;
    for (const { id, user_id: userId } of due) {
      const row = await this.deps.voice.claimSample(userId, id, now);
      if (!row) continue;
      taken++;
      const outcome = await this.embed(userId, row.person_id, row).catch((err: unknown) => {
        this.deps.log.warn({ err, userId, sampleId: id }, 'speaker sample could not be processed');
        return 'error';
      });
      await this.deps.voice.finishSample(
        userId,
        id,
        outcome === 'done' ? 'done' : 'skipped',
        outcome === 'done' ? null : outcome,
        this.deps.clock.now(),
      );
    }
    return taken;
  }

  /** 'done', or why the sample was skipped. */
  private async embed(
    userId: string,
    personId: string | null,
    row: { id: string; audio: Buffer | null; conversation_id: string; start_ms: number; end_ms: number },
  ): Promise<string> {
    const audio = row.audio
      ? bufferToSamples(row.audio)
      : await this.deps.readSpan(userId, row.conversation_id, Number(row.start_ms), Number(row.end_ms));
    if (!audio) return 'no_audio';
    const speech = this.deps.embedder.speechSeconds(audio);
    if (speech < MIN_SAMPLE_SPEECH_SECONDS) return 'too_little_speech';
    const vector = this.deps.embedder.embed(audio);
    if (!vector) return 'too_little_speech';
    await this.deps.voice.addEmbedding({
      id: randomUUID(),
      user_id: userId,
      person_id: personId,
      engine: this.deps.embedder.engine,
      vector: vectorToBuffer(vector),
      speech_ms: Math.round(speech * 1000),
      source: 'sample',
      created_at: this.deps.clock.now(),
    });
    return 'done';
  }
}
