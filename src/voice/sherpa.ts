import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { ConfigError } from '../config.js';
import { cosineDistance, EMBEDDING_DIM, SAMPLE_RATE, type VoiceEmbedder } from './port.js';
import { voicedSeconds } from './voicing.js';

/**
 * sherpa-onnx speaker embeddings (DESIGN §6 Voices) with the operator's model (`SPEAKER_MODEL`,
 * e.g. a WeSpeaker ResNet34 or 3D-Speaker ERes2Net .onnx file). `sherpa-onnx-node` is an optional
 * dependency, so it is loaded at run time; nothing here downloads a model.
 */

interface SherpaStream {
  acceptWaveform(input: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}

interface SherpaExtractor {
  dim: number;
  createStream(): SherpaStream;
  isReady(stream: SherpaStream): boolean;
  compute(stream: SherpaStream, enableExternalBuffer?: boolean): Float32Array;
}

interface SherpaModule {
  SpeakerEmbeddingExtractor: new (config: { model: string; numThreads: number; debug: boolean }) => SherpaExtractor;
}

const require = createRequire(import.meta.url);

function loadSherpa(): SherpaModule {
  try {
    return require('sherpa-onnx-node') as SherpaModule;
  } catch (err) {
    throw new ConfigError(`SPEAKER_MODEL is set but sherpa-onnx-node cannot be loaded (${String(err)})`);
  }
}

/**
 * Loads the model once in a child process and returns its dimension. The native addon aborts the
 * whole process on a file it cannot parse, so a bad SPEAKER_MODEL must fail there, not here.
 */
function probeDimension(modelPath: string): number {
  let addon: string;
  try {
    addon = require.resolve('sherpa-onnx-node');
  } catch (err) {
    throw new ConfigError(`SPEAKER_MODEL is set but sherpa-onnx-node is not installed (${String(err)})`);
  }
  const script =
    'const s = require(process.argv[1]);' +
    'const e = new s.SpeakerEmbeddingExtractor({ model: process.argv[2], numThreads: 1, debug: false });' +
    'process.stdout.write(JSON.stringify({ dim: e.dim }));';
  try {
    const out = execFileSync(process.execPath, ['-e', script, addon, modelPath], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    return Number((JSON.parse(out) as { dim: unknown }).dim);
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    const reason =
      stderr
        .split('\n')
        .find((line) => /failed|error/i.test(line))
        ?.trim() ?? String(err);
    throw new ConfigError(`SPEAKER_MODEL could not be loaded as a speaker-embedding model: ${reason.slice(0, 300)}`);
  }
}

export class SherpaEmbedder implements VoiceEmbedder {
  readonly engine: string;

  private constructor(
    private readonly extractor: SherpaExtractor,
    modelPath: string,
  ) {
    this.engine = `sherpa:${basename(modelPath)}`;
  }

  /** Loads the model and runs it once; a missing file or a dimension other than 256 stops the start. */
  static open(modelPath: string): SherpaEmbedder {
    if (!existsSync(modelPath)) throw new ConfigError(`SPEAKER_MODEL file not found: ${modelPath}`);
    const dim = probeDimension(modelPath);
    if (dim !== EMBEDDING_DIM) {
      throw new ConfigError(
        `SPEAKER_MODEL produces ${dim}-dimensional embeddings; Keepsake needs ${EMBEDDING_DIM} (SPEC §6.1), e.g. a WeSpeaker ResNet34 model`,
      );
    }
    const extractor = new (loadSherpa().SpeakerEmbeddingExtractor)({ model: modelPath, numThreads: 1, debug: false });
    const embedder = new SherpaEmbedder(extractor, modelPath);
    const probe = embedder.compute(testTone());
    if (!probe || probe.length !== EMBEDDING_DIM)
      throw new ConfigError(`SPEAKER_MODEL did not return a ${EMBEDDING_DIM}-value embedding for a test clip`);
    return embedder;
  }

  speechSeconds(samples: Int16Array): number {
    return voicedSeconds(samples);
  }

  embed(samples: Int16Array): Float32Array | null {
    if (voicedSeconds(samples) < 0.5) return null;
    return this.compute(samples);
  }

  distance(a: Float32Array, b: Float32Array): number {
    return cosineDistance(a, b);
  }

  private compute(samples: Int16Array): Float32Array | null {
    const stream = this.extractor.createStream();
    const floats = new Float32Array(samples.length);
    for (let i = 0; i < samples.length; i++) floats[i] = samples[i] / 32768;
    stream.acceptWaveform({ samples: floats, sampleRate: SAMPLE_RATE });
    stream.inputFinished();
    if (!this.extractor.isReady(stream)) return null;
    // Copy out of the addon's buffer: the vector outlives the stream.
    return Float32Array.from(this.extractor.compute(stream, false));
  }
}

/** One second of a harmonic tone: enough input for any extractor to produce a vector. */
function testTone(): Int16Array {
  return Int16Array.from({ length: SAMPLE_RATE }, (_, i) => {
    const t = i / SAMPLE_RATE;
    return Math.round(6000 * (Math.sin(2 * Math.PI * 140 * t) + 0.5 * Math.sin(2 * Math.PI * 280 * t)));
  });
}
