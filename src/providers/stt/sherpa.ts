import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type SttCallbacks, SttFailure, type SttOpenOptions, type SttProvider, type SttSession } from './port.js';

/**
 * sherpa-onnx streaming recognition (DESIGN §6) with an operator-supplied streaming transducer
 * (zipformer) in STT_MODEL_DIR: encoder, decoder and joiner .onnx files plus tokens.txt. One
 * recognizer (the model) is shared by every stream; each stream has its own decoder state.
 */

const NAME = 'sherpa';
const RATE = 16_000;
const PROBE_TIMEOUT_MS = 120_000;

export interface SherpaModelFiles {
  encoder: string;
  decoder: string;
  joiner: string;
  tokens: string;
}

/** Finds the model files in `dir` (int8 variants first: faster on CPU); a reason when incomplete. */
export function detectSherpaModel(dir: string): { ok: true; files: SherpaModelFiles } | { ok: false; reason: string } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { ok: false, reason: `STT_MODEL_DIR ${dir} cannot be read` };
  }
  const pick = (part: string) => {
    const matches = names.filter((n) => n.includes(part) && n.endsWith('.onnx')).sort();
    return matches.find((n) => n.endsWith('.int8.onnx')) ?? matches[0];
  };
  const encoder = pick('encoder');
  const decoder = pick('decoder');
  const joiner = pick('joiner');
  const missing = [
    encoder ? null : 'encoder*.onnx',
    decoder ? null : 'decoder*.onnx',
    joiner ? null : 'joiner*.onnx',
    names.includes('tokens.txt') ? null : 'tokens.txt',
  ].filter((m): m is string => m !== null);
  if (missing.length > 0 || !encoder || !decoder || !joiner)
    return { ok: false, reason: `STT_MODEL_DIR ${dir} has no ${missing.join(', ')} (a streaming transducer model)` };
  return {
    ok: true,
    files: {
      encoder: join(dir, encoder),
      decoder: join(dir, decoder),
      joiner: join(dir, joiner),
      tokens: join(dir, 'tokens.txt'),
    },
  };
}

interface OnlineStream {
  acceptWaveform(input: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}

interface OnlineRecognizer {
  createStream(): OnlineStream;
  isReady(stream: OnlineStream): boolean;
  decode(stream: OnlineStream): void;
  isEndpoint(stream: OnlineStream): boolean;
  reset(stream: OnlineStream): void;
  getResult(stream: OnlineStream): { text?: string; timestamps?: number[]; start_time?: number };
}

function recognizerConfig(files: SherpaModelFiles) {
  return {
    featConfig: { sampleRate: RATE, featureDim: 80 },
    modelConfig: { transducer: files, tokens: files.tokens, numThreads: 1, provider: 'cpu', debug: 0 },
    decodingMethod: 'greedy_search',
    enableEndpoint: 1,
    // An utterance ends after 1.2 s of silence following speech (2.4 s before any), or at 20 s.
    rule1MinTrailingSilence: 2.4,
    rule2MinTrailingSilence: 1.2,
    rule3MinUtteranceLength: 20,
  };
}

const require = createRequire(import.meta.url);

const PROBE =
  'const s = require(process.argv[1]);' +
  'const r = new s.OnlineRecognizer(JSON.parse(process.argv[2]));' +
  'const st = r.createStream();' +
  'st.acceptWaveform({ samples: new Float32Array(16000), sampleRate: 16000 });' +
  'while (r.isReady(st)) r.decode(st);' +
  'process.stdout.write("ok");';

/**
 * Loads the model once in a child process first: the addon aborts the whole process on a file it
 * cannot parse (and only throws "Please check your config!" on a missing one).
 */
function probe(config: ReturnType<typeof recognizerConfig>): Promise<string | null> {
  let addon: string;
  try {
    addon = require.resolve('sherpa-onnx-node');
  } catch {
    return Promise.resolve('sherpa-onnx-node is not installed');
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', PROBE, addon, JSON.stringify(config)],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (!err && stdout === 'ok') return resolve(null);
        const line = String(stderr)
          .split('\n')
          .find((l) => /failed|error|check your config|does not exist/i.test(l));
        resolve(`the model in STT_MODEL_DIR could not be loaded: ${(line ?? String(err)).trim().slice(0, 300)}`);
      },
    );
  });
}

export class SherpaProvider implements SttProvider {
  readonly name = NAME;
  private recognizer: Promise<OnlineRecognizer> | null = null;

  constructor(private readonly modelDir: string) {}

  async open(_options: SttOpenOptions, callbacks: SttCallbacks): Promise<SttSession> {
    this.recognizer ??= this.load();
    const recognizer = await this.recognizer;
    return new SherpaSession(recognizer, callbacks);
  }

  /** A failed load is remembered: every stream is refused with the same reason until a restart. */
  private async load(): Promise<OnlineRecognizer> {
    const fail = (message: string) => new SttFailure(NAME, 'initialization_failed', 'config_error', false, message);
    const model = detectSherpaModel(this.modelDir);
    if (!model.ok) throw fail(model.reason);
    const config = recognizerConfig(model.files);
    const problem = await probe(config);
    if (problem) throw fail(problem);
    const sherpa = require('sherpa-onnx-node') as { OnlineRecognizer: new (c: unknown) => OnlineRecognizer };
    return new sherpa.OnlineRecognizer(config);
  }
}

/** One stream: decodes as audio arrives and emits a segment at every endpoint. */
class SherpaSession implements SttSession {
  readonly provider = NAME;
  private stream: OnlineStream | null;
  private samples = 0;
  private segmentStart = 0;

  constructor(
    private readonly recognizer: OnlineRecognizer,
    private readonly callbacks: SttCallbacks,
  ) {
    this.stream = recognizer.createStream();
  }

  sendAudio(pcm16: Buffer): void {
    const stream = this.stream;
    if (!stream) return;
    const samples = new Float32Array(pcm16.length >> 1);
    for (let i = 0; i < samples.length; i++) samples[i] = pcm16.readInt16LE(i * 2) / 32768;
    this.samples += samples.length;
    try {
      stream.acceptWaveform({ samples, sampleRate: RATE });
      this.decode(stream, false);
    } catch (err) {
      this.stream = null;
      this.callbacks.onError(new SttFailure(NAME, 'send_failed', 'upstream_error', false, String(err)));
    }
  }

  async finish(): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    stream.inputFinished();
    this.decode(stream, true);
    this.stream = null;
  }

  close(): void {
    this.stream = null;
  }

  private decode(stream: OnlineStream, final: boolean): void {
    while (this.recognizer.isReady(stream)) this.recognizer.decode(stream);
    if (!final && !this.recognizer.isEndpoint(stream)) return;
    const result = this.recognizer.getResult(stream);
    const text = (result.text ?? '').trim();
    const now = this.samples / RATE;
    if (text !== '') {
      const stamps = result.timestamps ?? [];
      const base = typeof result.start_time === 'number' ? result.start_time : this.segmentStart;
      const start = stamps.length > 0 ? base + stamps[0] : base;
      const end = stamps.length > 0 ? Math.min(now, base + stamps[stamps.length - 1] + 0.3) : now;
      // Zipformer English models emit all capitals; such text is lower-cased like the other providers'.
      const shouting = /[A-Z]/.test(text) && text === text.toUpperCase();
      this.callbacks.onSegments([{ text: shouting ? text.toLowerCase() : text, start, end: Math.max(start, end) }]);
    }
    this.recognizer.reset(stream);
    this.segmentStart = now;
  }
}
