import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Clock } from '../context-types.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobTable } from '../jobs/table-queue.js';
import type { SessionPluginFactory } from '../listen/module.js';
import { AudioRepository } from '../store/repositories/audio.js';
import type { Database } from '../store/schema.js';
import { ArtifactBuilder } from './builder.js';
import { AudioCapture } from './capture.js';
import { EncoderPool } from './encoder-pool.js';
import { AudioFiles } from './files.js';
import { S3AudioStore } from './s3-store.js';
import { AudioService, BUILD_ARTIFACT_JOB, ENCODE_PART_JOB } from './service.js';
import { UrlSigner } from './signing.js';
import { type AudioObjectStore, LocalAudioStore, MemoryAudioStore } from './store.js';

export interface AudioModuleDeps {
  config: Config;
  db: Kysely<Database>;
  jobs: JobTable;
  runner: JobRunner;
  secret: string;
  clock: Clock;
  log: Logger;
}

/** Captured audio (SPEC §4.11, §8), wired once in the context as `ctx.audio`. */
export interface AudioModule {
  store: AudioObjectStore;
  repo: AudioRepository;
  service: AudioService;
  files: AudioFiles;
  builder: ArtifactBuilder;
  /** The listen-session plugin that stores a stream's audio when the user's capture setting is on. */
  capture: SessionPluginFactory;
  /** Starts the orphan sweep (job processes only). */
  start(): void;
  /** Stops the sweep and the MP3 encoder threads. */
  stop(): Promise<void>;
}

/** How often audio of vanished conversations is looked for. */
const SWEEP_MS = 60_000;

function openAudioStore(config: Config, clock: Clock): AudioObjectStore {
  if (config.audioS3) return new S3AudioStore(config.audioS3, () => clock.now());
  if (config.audioDir) return new LocalAudioStore(config.audioDir);
  return config.dataDir === ':memory:' ? new MemoryAudioStore() : new LocalAudioStore(join(config.dataDir, 'audio'));
}

export function createAudioModule(deps: AudioModuleDeps): AudioModule {
  const { clock, log } = deps;
  const store = openAudioStore(deps.config, clock);
  const repo = new AudioRepository(deps.db);
  const signer = new UrlSigner(deps.secret);
  const service = new AudioService({
    repo,
    store,
    jobs: deps.jobs,
    signer,
    clock,
    log,
    wake: () => deps.runner.wake(),
  });
  const encoders = new EncoderPool();
  const builder = new ArtifactBuilder({ repo, store, clock, log, encode: encoders.encode });
  deps.runner.register(BUILD_ARTIFACT_JOB, async (job) => {
    const { conversationId, fingerprint } = JSON.parse(job.payload) as { conversationId: string; fingerprint: string };
    try {
      await builder.build(job.user_id, conversationId, fingerprint);
    } catch (err) {
      if (job.attempts < job.max_attempts) throw err;
      await builder.markFailed(job.user_id, conversationId, fingerprint, err);
    }
  });
  deps.runner.register(ENCODE_PART_JOB, async (job) => {
    const { conversationId, partId } = JSON.parse(job.payload) as { conversationId: string; partId: string };
    await builder.encodePart(job.user_id, conversationId, partId);
  });
  const enabled = (userId: string) => service.settings(userId).then((s) => s.audio_capture);
  let sweeper: NodeJS.Timeout | null = null;
  const partClosed = (userId: string, conversationId: string, partId: string, bytes: number) =>
    service.queuePartEncoding(userId, conversationId, partId, bytes);
  return {
    store,
    repo,
    service,
    files: new AudioFiles(repo, store, signer, clock),
    builder,
    // Multi-channel streams are not captured yet (docs/voices-and-audio.md).
    start() {
      sweeper ??= setInterval(() => {
        service.sweepOrphans().catch((err) => log.warn({ err }, 'audio orphan sweep failed'));
      }, SWEEP_MS);
      sweeper.unref();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      await encoders.close();
    },
    capture: (host) =>
      host.params.channels === 1 ? new AudioCapture(host, { repo, store, clock, log, enabled, partClosed }) : null,
  };
}
