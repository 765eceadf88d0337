import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Config } from '../../../src/config.js';
import { SttFailure } from '../../../src/providers/stt/port.js';
import { chooseSttProvider } from '../../../src/providers/stt/select.js';
import { detectSherpaModel, SherpaProvider } from '../../../src/providers/stt/sherpa.js';

const stt = (overrides: Partial<Config['stt']>): Config['stt'] => ({
  provider: 'auto',
  deepgramApiKey: null,
  deepgramUrl: 'wss://api.deepgram.com',
  baseUrl: null,
  apiKey: null,
  modelDir: null,
  vad: 'energy',
  ...overrides,
});

/** A directory laid out like a sherpa streaming zipformer release, with the given file contents. */
function modelDir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'keepsake-sherpa-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const garbage = () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
const release = () =>
  modelDir({
    'encoder-epoch-99-avg-1.onnx': garbage(),
    'encoder-epoch-99-avg-1.int8.onnx': garbage(),
    'decoder-epoch-99-avg-1.onnx': garbage(),
    'joiner-epoch-99-avg-1.int8.onnx': garbage(),
    'joiner-epoch-99-avg-1.onnx': garbage(),
    'tokens.txt': '<blk> 0\n<sos/eos> 1\n▁THE 2\n',
  });

const callbacks = { onSegments: () => undefined, onError: () => undefined };

async function openFailure(provider: SherpaProvider): Promise<SttFailure> {
  try {
    await provider.open({ language: 'en', sampleRate: 16_000 }, callbacks);
  } catch (err) {
    assert.ok(err instanceof SttFailure, 'err instanceof SttFailure');
    return err;
  }
  assert.fail('open should have been refused');
}

describe('sherpa-onnx model directory', () => {
  test('the transducer files are found, int8 variants first', () => {
    const dir = release();
    const found = detectSherpaModel(dir);
    assert.ok(found.ok, 'found.ok');
    assert.deepEqual(found.files, {
      encoder: join(dir, 'encoder-epoch-99-avg-1.int8.onnx'),
      decoder: join(dir, 'decoder-epoch-99-avg-1.onnx'),
      joiner: join(dir, 'joiner-epoch-99-avg-1.int8.onnx'),
      tokens: join(dir, 'tokens.txt'),
    });
  });

  test('a missing directory or missing files are named', () => {
    const absent = detectSherpaModel('/nonexistent/keepsake-model');
    assert.ok(!absent.ok && /cannot be read/.test(absent.reason), '!absent.ok && /cannot be read/.test(absent.reason)');
    const partial = detectSherpaModel(modelDir({ 'encoder.onnx': 'x', 'notes.txt': 'y' }));
    assert.ok(!partial.ok, '!partial.ok');
    assert.match(partial.reason, /decoder\*\.onnx, joiner\*\.onnx, tokens\.txt/);
  });
});

describe('STT_PROVIDER selection with sherpa', () => {
  const pocketsphinx = () => true;

  test('auto: Deepgram, then OpenAI-compatible, then sherpa when the dir holds a model, then pocketsphinx', () => {
    const dir = release();
    const pick = (o: Partial<Config['stt']>, ps = pocketsphinx) => chooseSttProvider(stt(o), ps).provider?.name ?? null;
    assert.equal(pick({ deepgramApiKey: 'k', baseUrl: 'http://x', modelDir: dir }), 'deepgram');
    assert.equal(pick({ baseUrl: 'http://x', modelDir: dir }), 'openai');
    assert.equal(pick({ modelDir: dir }), 'sherpa');
    assert.equal(pick({ modelDir: mkdirTemp() }), 'pocketsphinx', 'an empty dir is skipped');
    assert.equal(pick({ modelDir: '/nonexistent/dir' }), 'pocketsphinx');
    const none = chooseSttProvider(stt({ modelDir: mkdirTemp() }), () => false);
    assert.deepEqual([none.provider, none.reason], [null, 'no_stt_provider_available']);
  });

  test('explicit sherpa: no dir is a reason; a dir, even a wrong one, is tried (and fails with why)', () => {
    assert.deepEqual(chooseSttProvider(stt({ provider: 'sherpa' }), pocketsphinx), {
      provider: null,
      reason: 'stt_model_dir_not_configured',
    });
    assert.equal(
      chooseSttProvider(stt({ provider: 'sherpa', modelDir: '/nonexistent' }), pocketsphinx).provider?.name,
      'sherpa',
    );
    const a = chooseSttProvider(stt({ provider: 'sherpa', modelDir: '/srv/m' }), pocketsphinx).provider;
    const b = chooseSttProvider(stt({ provider: 'sherpa', modelDir: '/srv/m' }), pocketsphinx).provider;
    assert.equal(a, b, 'streams share one provider (one loaded model) per directory');
  });
});

function mkdirTemp(): string {
  const dir = join(tmpdir(), `keepsake-empty-${process.pid}-${Math.random().toString(16).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

describe('sherpa provider start-up failures', () => {
  test('a directory without a model refuses the stream with a config_error naming the missing files', async () => {
    const failure = await openFailure(new SherpaProvider(modelDir({ 'tokens.txt': 'a 0\n' })));
    assert.deepEqual(
      [failure.provider, failure.reason, failure.outcome, failure.retryable],
      ['sherpa', 'initialization_failed', 'config_error', false],
    );
    assert.match(failure.message, /has no encoder\*\.onnx, decoder\*\.onnx, joiner\*\.onnx/);
  });

  test('files that are not ONNX models fail in the probe process; this process survives and remembers', async () => {
    const provider = new SherpaProvider(release());
    const failure = await openFailure(provider);
    assert.equal(failure.outcome, 'config_error');
    assert.match(failure.message, /could not be loaded: .*(Protobuf parsing failed|failed)/);
    const again = await openFailure(provider);
    assert.equal(again, failure, 'the second stream gets the same refusal without a second probe');
  });
});
