import type { Logger } from 'pino';
import type { SegmentFrame } from '../listen/events.js';
import type { SessionPlugin, SessionPluginHost, TranscriptPlacement } from '../listen/module.js';
import type { SpeakerAssigned } from '../listen/receiver.js';
import type { KnownVoice } from '../store/repositories/voice.js';
import { MIN_MATCH_SPEECH_SECONDS, matchVoice } from './matcher.js';
import { SAMPLE_RATE, type VoiceEmbedder } from './port.js';
import { AudioRing } from './ring.js';

/** research/omi-listen.md §1.7/§4: a 60 s ring, probes of at most 10 s. */
const RING_SECONDS = 60;
const MAX_PROBE_SECONDS = 10;
const MAX_TRACKED_SEGMENTS = 2000;

export interface LiveVoiceDeps {
  /** false: only keep audio for speaker samples (research/omi-listen.md §1.3: no matching on client transcripts) */
  matching: boolean;
  embedder: VoiceEmbedder;
  log: Logger;
  /** The user's profile and people's vectors of this engine (loaded once per session). */
  knownVoices(userId: string): Promise<KnownVoice[]>;
  /** Persists is_user on segments (SPEC §6.1: a match with the user's voice). */
  markUser(userId: string, conversationId: string, segmentIds: string[]): Promise<void>;
  /** SPEC §4.11 speaker_assigned: queues a sample per labelled segment (clip when still held). */
  assigned(userId: string, message: SpeakerAssigned, clips: Map<string, Int16Array>): Promise<void>;
  /** Called once the session is closed. */
  detach(): void;
}

interface Cluster {
  frames: Array<{ frame: SegmentFrame; conversationId: string }>;
  clips: Int16Array[];
  samples: number;
  nextTry: number;
  decided: boolean;
}

/**
 * Live speaker identification for one session (SPEC §6.1): each speaker cluster's audio is
 * gathered from the ring until it holds 2 s of speech, embedded, and compared with the user's
 * profile and known people. The user's voice sets is_user; a known person gets a
 * speaker_label_suggestion; no match tries again once the cluster's audio has doubled.
 */
export class LiveSpeakerId implements SessionPlugin {
  private readonly ring = new AudioRing(RING_SECONDS * SAMPLE_RATE);
  private readonly spans = new Map<string, { start: number; end: number }>();
  private readonly clusters = new Map<number, Cluster>();
  private known: Promise<KnownVoice[]> | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: SessionPluginHost,
    private readonly deps: LiveVoiceDeps,
  ) {}

  onAudio(pcm: Buffer, channel: number): void {
    if (channel === 0) this.ring.push(pcm);
  }

  onTranscript(frames: SegmentFrame[], placement: TranscriptPlacement): void {
    this.enqueue(() => this.identify(frames, placement));
  }

  onSpeakerAssigned(message: SpeakerAssigned): void {
    const cluster = this.clusters.get(message.speakerId);
    if (cluster) cluster.decided = true; // the user said who it is: no suggestion for it any more
    const clips = new Map<string, Int16Array>();
    for (const id of message.segmentIds) {
      const clip = this.clipFor(id);
      if (clip) clips.set(id, clip);
    }
    this.enqueue(() => this.deps.assigned(this.host.userId, message, clips));
  }

  /** The audio of a segment of this session while the ring still holds it (POST /assign_speaker). */
  clipFor(segmentId: string): Int16Array | null {
    const span = this.spans.get(segmentId);
    return span ? this.ring.cut(span.start, span.end) : null;
  }

  async close(): Promise<void> {
    await this.chain;
    this.deps.detach();
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((err) => {
      this.deps.log.warn({ err, userId: this.host.userId }, 'speaker identification failed');
    });
  }

  private async identify(frames: SegmentFrame[], placement: TranscriptPlacement): Promise<void> {
    const shift = placement.startedAt - placement.origin; // ms of stream time before conversation time 0
    for (const frame of frames) {
      const start = ((frame.start * 1000 + shift) / 1000) * SAMPLE_RATE;
      const end = ((frame.end * 1000 + shift) / 1000) * SAMPLE_RATE;
      this.track(frame.id, start, end);
      if (!this.deps.matching || frame.is_user || frame.person_id) continue;
      const clip = this.ring.cut(start, end);
      if (!clip) continue;
      const cluster = this.cluster(frame.speaker_id);
      if (cluster.decided) continue;
      cluster.frames.push({ frame, conversationId: placement.conversationId });
      cluster.clips.push(clip);
      cluster.samples += clip.length;
      keepTail(cluster.clips, MAX_PROBE_SECONDS * SAMPLE_RATE);
      if (cluster.samples >= cluster.nextTry) await this.attempt(frame.speaker_id, cluster);
    }
  }

  private async attempt(speakerId: number, cluster: Cluster): Promise<void> {
    if (!this.known) this.known = this.deps.knownVoices(this.host.userId);
    const known = await this.known;
    if (known.length === 0) {
      cluster.decided = true;
      return;
    }
    const probe = joinTail(cluster.clips, MAX_PROBE_SECONDS * SAMPLE_RATE);
    const speech = this.deps.embedder.speechSeconds(probe);
    if (speech < MIN_MATCH_SPEECH_SECONDS) {
      cluster.decided = probe.length >= MAX_PROBE_SECONDS * SAMPLE_RATE;
      cluster.nextTry = cluster.samples + SAMPLE_RATE / 2;
      return;
    }
    const vector = this.deps.embedder.embed(probe);
    const outcome = vector ? matchVoice(this.deps.embedder, vector, known) : { match: null, distances: [] };
    this.deps.log.debug({ userId: this.host.userId, speakerId, speech, distances: outcome.distances }, 'speaker match');
    if (outcome.match?.personId === null) return this.confirmUser(speakerId, cluster);
    if (outcome.match) {
      cluster.decided = true;
      this.host.send({
        type: 'speaker_label_suggestion',
        speaker_id: speakerId,
        person_id: outcome.match.personId,
        person_name: outcome.match.personName,
        distance: Math.round(outcome.match.distance * 1000) / 1000,
        segments: cluster.frames.map((f) => f.frame.id),
        segment_id: cluster.frames[cluster.frames.length - 1].frame.id,
      });
      return;
    }
    // No match yet: try again with twice the audio, up to the longest probe.
    cluster.decided = probe.length >= MAX_PROBE_SECONDS * SAMPLE_RATE;
    cluster.nextTry = cluster.samples * 2;
  }

  /** SPEC §6.1: the user's own voice sets is_user on those segments (persisted, then sent); no suggestion. */
  private async confirmUser(speakerId: number, cluster: Cluster): Promise<void> {
    cluster.decided = true;
    this.host.labelSpeaker(speakerId, 'user');
    const byConversation = new Map<string, string[]>();
    for (const { frame, conversationId } of cluster.frames) {
      byConversation.set(conversationId, [...(byConversation.get(conversationId) ?? []), frame.id]);
    }
    for (const [conversationId, ids] of byConversation) await this.deps.markUser(this.host.userId, conversationId, ids);
    this.host.send(cluster.frames.map(({ frame }) => ({ ...frame, is_user: true, person_id: null })));
  }

  private cluster(speakerId: number): Cluster {
    let cluster = this.clusters.get(speakerId);
    if (!cluster) {
      cluster = { frames: [], clips: [], samples: 0, nextTry: MIN_MATCH_SPEECH_SECONDS * SAMPLE_RATE, decided: false };
      this.clusters.set(speakerId, cluster);
    }
    return cluster;
  }

  private track(segmentId: string, start: number, end: number): void {
    this.spans.set(segmentId, { start, end });
    if (this.spans.size > MAX_TRACKED_SEGMENTS) {
      const oldest = this.spans.keys().next().value;
      if (oldest !== undefined) this.spans.delete(oldest);
    }
  }
}

/** Drops the oldest clips the probe can no longer use. */
function keepTail(clips: Int16Array[], limit: number): void {
  let total = clips.reduce((n, c) => n + c.length, 0);
  while (clips.length > 1 && total - clips[0].length >= limit) total -= clips.shift()?.length ?? 0;
}

/** The last `limit` samples of the clips, joined. */
function joinTail(clips: readonly Int16Array[], limit: number): Int16Array {
  const total = Math.min(
    limit,
    clips.reduce((n, c) => n + c.length, 0),
  );
  const out = new Int16Array(total);
  let at = total;
  for (let i = clips.length - 1; i >= 0 && at > 0; i--) {
    const clip = clips[i];
    const take = Math.min(clip.length, at);
    out.set(clip.subarray(clip.length - take), at - take);
    at -= take;
  }
  return out;
}
