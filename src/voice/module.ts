import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../context-types.js';
import type { SessionPluginFactory } from '../listen/module.js';
import type { PeopleRepository } from '../store/repositories/people.js';
import { VoiceRepository } from '../store/repositories/voice.js';
import type { Database } from '../store/schema.js';
import { LiveSpeakerId } from './live.js';
import type { VoiceEmbedder } from './port.js';
import { type SampleQueueDeps, SpeakerSampleQueue } from './samples.js';
import { VoiceService } from './service.js';
import { SherpaEmbedder } from './sherpa.js';
import { SpectralSignature } from './spectral.js';

export interface VoiceModuleDeps {
  config: Config;
  db: Kysely<Database>;
  people: PeopleRepository;
  clock: Clock;
  log: Logger;
  /** Stored conversation audio for a span (the audio module), for samples without a live clip. */
  readSpan: SampleQueueDeps['readSpan'];
}

/** Speaker identification (SPEC §6.1), wired once in the context as `ctx.voice`. */
export interface VoiceModule {
  embedder: VoiceEmbedder;
  repo: VoiceRepository;
  service: VoiceService;
  samples: SpeakerSampleQueue;
  /** The listen-session plugin that matches speakers live. */
  speakerId: SessionPluginFactory;
  /** Starts the sample poller (job processes only). */
  start(): void;
  stop(): Promise<void>;
}

/** DESIGN §6: sherpa-onnx with SPEAKER_MODEL, else the spectral signature. */
export function chooseEmbedder(config: Config, log: Logger): VoiceEmbedder {
  if (!config.speakerModel) return new SpectralSignature();
  const embedder = SherpaEmbedder.open(config.speakerModel);
  log.info({ engine: embedder.engine }, 'speaker embeddings: sherpa-onnx');
  return embedder;
}

export function createVoiceModule(deps: VoiceModuleDeps): VoiceModule {
  const { clock, log } = deps;
  const embedder = chooseEmbedder(deps.config, log);
  const repo = new VoiceRepository(deps.db);
  const samples = new SpeakerSampleQueue({ voice: repo, embedder, clock, log, readSpan: deps.readSpan });
  const service = new VoiceService({ voice: repo, people: deps.people, samples, embedder, clock });
  const speakerId: SessionPluginFactory = (host) => {
    // Two-channel streams already know the user's channel (research/omi-listen.md §1.5).
    if (host.params.channels !== 1) return null;
    const live = new LiveSpeakerId(host, {
      // Client-transcript sessions run without speaker identification (research/omi-listen.md §1.3);
      // their speaker_assigned messages still teach voices.
      matching: !host.params.customStt,
      embedder,
      log,
      knownVoices: (userId) => service.knownVoices(userId),
      markUser: (userId, _conversationId, ids) => service.markUser(userId, ids),
      assigned: (userId, message, clips) => service.assignedOnSocket(userId, message, clips),
      detach: () => detach(),
    });
    const detach = service.attach(live, host.userId);
    return live;
  };
  return {
    embedder,
    repo,
    service,
    samples,
    speakerId,
    start: () => samples.start(),
    stop: () => samples.stop(),
  };
}
