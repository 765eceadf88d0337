import type { Logger } from 'pino';
import type { ListenTimings, RecordingSessionMode } from '../config.js';
import type { Clock } from '../context-types.js';
import type { ConversationsService } from '../domain/conversations/service.js';
import type { JobRunner } from '../jobs/runner.js';
import type { CodecName } from '../providers/audio/codecs.js';
import type { EventBus } from '../providers/bus/index.js';
import type { SttFailure } from '../providers/stt/port.js';
import type { SttChoice } from '../providers/stt/select.js';
import type { FinalizationRepository } from '../store/repositories/finalization.js';
import type { LiveConversationsRepository } from '../store/repositories/live-conversations.js';
import type { FinalizationDispatcher } from './dispatch.js';
import type { SegmentFrame } from './events.js';
import type { Finalizer } from './finalization.js';
import type { LifecycleService } from './lifecycle.js';
import type { ListenParams } from './params.js';
import type { SpeakerAssigned } from './receiver.js';
import type { LinkLimits } from './worker-link.js';

/** Called for every persisted transcript batch (proactive-notification webhooks register here). */
export type TranscriptBatchHook = (
  userId: string,
  recordingSessionId: string,
  segments: SegmentFrame[],
) => Promise<void>;

/** What a session plugin sees of its session (voices and audio register plugins, docs/voices-and-audio.md). */
export interface SessionPluginHost {
  userId: string;
  params: ListenParams;
  /** The conversation being written, or null between a handoff and the next binding. */
  currentConversationId(): string | null;
  send(payload: unknown): void;
  /** Later segments of this speaker are written with this person (`user` sets is_user). */
  labelSpeaker(speakerId: number, personId: string): void;
}

/** Where a transcript batch sits: stream time t is conversation time t - (startedAt - origin) / 1000. */
export interface TranscriptPlacement {
  conversationId: string;
  /** epoch ms of the conversation's time 0 */
  startedAt: number;
  /** epoch ms of stream time 0 (the first audio byte) */
  origin: number;
}

/** Per-session extensions; every hook is optional and must not throw. */
export interface SessionPlugin {
  /** Decoded 16 kHz PCM16 of one channel (0 on a single-channel stream), in arrival order. */
  onAudio?(pcm: Buffer, channel: number): void;
  /** A transcript batch after it was persisted and sent. */
  onTranscript?(frames: SegmentFrame[], placement: TranscriptPlacement): void;
  onSpeakerAssigned?(message: SpeakerAssigned, conversationId: string | null): void;
  /** Teardown: flush and release; awaited within the drain. */
  close?(): Promise<void>;
}

export type SessionPluginFactory = (host: SessionPluginHost) => SessionPlugin | null;

/** A live socket, as the module sees it (for draining on shutdown). */
export interface ActiveSession {
  shutdown(code: number, reason: string): Promise<void>;
}

/** Everything the live stream needs, wired once in the context (`ctx.listen`). */
export interface ListenModule {
  timings: ListenTimings;
  mode: RecordingSessionMode;
  clock: Clock;
  log: Logger;
  bus: EventBus;
  lifecycle: LifecycleService;
  live: LiveConversationsRepository;
  finalization: FinalizationRepository;
  finalizer: Finalizer;
  finalizationRunner: JobRunner;
  dispatcher: FinalizationDispatcher;
  conversations: ConversationsService;
  linkLimits: LinkLimits;
  /** Chooses the STT provider for a new stream (DESIGN §6). */
  chooseStt(): SttChoice;
  /** Why a codec's decoder is missing on this machine (close 1001 with it), or null. */
  codecUnavailable(codec: CodecName): string | null;
  onTranscriptBatch: TranscriptBatchHook[];
  /** Called when a stream's STT provider fails terminally (the ops metrics count these). */
  onSttFailure: (failure: SttFailure) => void;
  /** Per-session plugins (speaker identification, audio capture). */
  sessionPlugins: SessionPluginFactory[];
  active: Set<ActiveSession>;
  /** Starts the recovery sweep and the finalization runner: polling, or consuming its queue (job processes only). */
  start(): void;
  /** Closes every live socket (1001) and waits for their drain. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}
