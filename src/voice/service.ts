import { randomUUID } from 'node:crypto';
import type { Clock } from '../context-types.js';
import { AppError, Detail, invalidInput } from '../errors.js';
import type { SpeakerAssigned } from '../listen/receiver.js';
import type { PeopleRepository } from '../store/repositories/people.js';
import { type KnownVoice, type VoiceRepository, vectorToBuffer } from '../store/repositories/voice.js';
import type { LiveSpeakerId } from './live.js';
import { MIN_MATCH_SPEECH_SECONDS } from './matcher.js';
import type { VoiceEmbedder } from './port.js';
import type { SpeakerSampleQueue } from './samples.js';

/** SPEC §4.11 speaker_assigned and POST /assign_speaker: `user` names the user's own voice. */
export const USER_PERSON_ID = 'user';
const MAX_SAMPLES_PER_ASSIGNMENT = 20;

export interface VoiceProfileView {
  has_profile: boolean;
  engine: string;
  vectors: number;
  speech_seconds: number;
  updated_at: string | null;
}

export interface AssignResult {
  segment_id: string;
  person_id: string;
  sample_id: string;
}

export interface VoiceServiceDeps {
  voice: VoiceRepository;
  people: PeopleRepository;
  samples: SpeakerSampleQueue;
  embedder: VoiceEmbedder;
  clock: Clock;
}

/** People's voices and the user's own profile (SPEC §6.1); the live matcher reads them. */
export class VoiceService {
  /** Live sessions on this node, so an assignment can take its clip from a session's ring. */
  private readonly live = new Map<LiveSpeakerId, string>();

  constructor(private readonly deps: VoiceServiceDeps) {}

  attach(session: LiveSpeakerId, userId: string): () => void {
    this.live.set(session, userId);
    return () => this.live.delete(session);
  }

  knownVoices(userId: string): Promise<KnownVoice[]> {
    return this.deps.voice.knownVoices(userId, this.deps.embedder.engine);
  }

  async profile(userId: string): Promise<VoiceProfileView> {
    const summary = await this.deps.voice.profileSummary(userId);
    return {
      has_profile: summary.vectors > 0,
      engine: this.deps.embedder.engine,
      vectors: summary.vectors,
      speech_seconds: Math.round(summary.speechMs / 100) / 10,
      updated_at: summary.updatedAt === null ? null : new Date(summary.updatedAt).toISOString(),
    };
  }

  /** Replaces the profile with the embedding of a recording of the user speaking. */
  async setProfile(userId: string, audio: Int16Array): Promise<VoiceProfileView> {
    const speech = this.deps.embedder.speechSeconds(audio);
    const vector = speech >= MIN_MATCH_SPEECH_SECONDS ? this.deps.embedder.embed(audio) : null;
    if (!vector) throw invalidInput(['body'], Detail.voiceTooLittleSpeech(speech, MIN_MATCH_SPEECH_SECONDS));
    await this.deps.voice.replaceProfile({
      id: randomUUID(),
      user_id: userId,
      person_id: null,
      engine: this.deps.embedder.engine,
      vector: vectorToBuffer(vector),
      speech_ms: Math.round(speech * 1000),
      source: 'upload',
      created_at: this.deps.clock.now(),
    });
    return this.profile(userId);
  }

  async deleteProfile(userId: string): Promise<void> {
    if ((await this.deps.voice.deleteProfile(userId)) === 0) throw new AppError(404, Detail.voiceProfileNotFound);
  }

  /** `POST /assign_speaker`: labels the segment and queues a speaker sample of it. */
  async assign(userId: string, segmentId: string, personId: string): Promise<AssignResult> {
    const segment = await this.deps.voice.segment(userId, segmentId);
    if (!segment) throw new AppError(404, Detail.segmentNotFound);
    const person = await this.personOrUser(userId, personId);
    if (person === undefined) throw new AppError(404, Detail.personNotFound);
    await this.deps.voice.labelSegments(userId, [segmentId], person);
    const sampleId = await this.deps.samples.queue(userId, {
      personId: person,
      conversationId: segment.conversation_id,
      segmentId,
      startMs: Number(segment.start_sec) * 1000,
      endMs: Number(segment.end_sec) * 1000,
      clip: this.liveClip(userId, segmentId),
    });
    return { segment_id: segmentId, person_id: personId, sample_id: sampleId };
  }

  /** The `speaker_assigned` control message: one sample per named segment of the user. */
  async assignedOnSocket(userId: string, message: SpeakerAssigned, clips: Map<string, Int16Array>): Promise<void> {
    const person = await this.personOrUser(userId, message.personId);
    if (person === undefined) return; // not one of the user's people: nothing to learn
    for (const segmentId of message.segmentIds.slice(0, MAX_SAMPLES_PER_ASSIGNMENT)) {
      const segment = await this.deps.voice.segment(userId, segmentId);
      if (!segment) continue;
      await this.deps.samples.queue(userId, {
        personId: person,
        conversationId: segment.conversation_id,
        segmentId,
        startMs: Number(segment.start_sec) * 1000,
        endMs: Number(segment.end_sec) * 1000,
        clip: clips.get(segmentId) ?? null,
      });
    }
  }

  markUser(userId: string, segmentIds: string[]): Promise<void> {
    return this.deps.voice.labelSegments(userId, segmentIds, null);
  }

  /** null for the user's own voice, the person's id, or undefined when it is not the user's. */
  private async personOrUser(userId: string, personId: string): Promise<string | null | undefined> {
    if (personId === USER_PERSON_ID) return null;
    return (await this.deps.people.find(userId, personId))?.id;
  }

  private liveClip(userId: string, segmentId: string): Int16Array | null {
    for (const [session, owner] of this.live) {
      if (owner !== userId) continue;
      const clip = session.clipFor(segmentId);
      if (clip) return clip;
    }
    return null;
  }
}
