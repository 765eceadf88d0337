import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pino from 'pino';
import { ConfigError, testConfig } from '../../src/config.js';
import { MATCH_THRESHOLD } from '../../src/voice/matcher.js';
import { chooseEmbedder } from '../../src/voice/module.js';
import { cosineDistance, EMBEDDING_DIM } from '../../src/voice/port.js';
import { SherpaEmbedder } from '../../src/voice/sherpa.js';
import { SpectralSignature } from '../../src/voice/spectral.js';
import { createTestApp, createUser } from '../helpers/app.js';
import { SENTENCES, SKIP_NO_ESPEAK, speak, type Voice } from './espeak.js';
import { speakerModel } from './onnx-fixture.js';

/** The voice-embedding port: the spectral fallback measured on espeak voices, and the sherpa adapter's checks. */

const join16k = (parts: Int16Array[]) => {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

describe('cosine distance', () => {
  test('is 0 for the same direction, 1 for orthogonal, 2 for opposite or mismatched vectors', () => {
    assert.equal(cosineDistance([1, 2], [2, 4]), 0);
    assert.equal(cosineDistance([1, 0], [0, 3]), 1);
    assert.equal(cosineDistance([1, 0], [-1, 0]), 2);
    assert.equal(cosineDistance([1, 0], [1, 0, 0]), 2);
    assert.equal(cosineDistance([0, 0], [1, 0]), 2);
  });
});

describe('spectral signature', () => {
  const signature = new SpectralSignature();

  test('is 256 values, and silence has none', () => {
    const tone = Int16Array.from({ length: 32000 }, (_, i) =>
      Math.round(5000 * Math.sin((2 * Math.PI * 180 * i) / 16000)),
    );
    assert.equal(signature.embed(tone)?.length, EMBEDDING_DIM);
    assert.equal(signature.embed(new Int16Array(32000)), null);
    assert.equal(signature.speechSeconds(new Int16Array(32000)), 0);
  });

  test('does not depend on loudness', { skip: SKIP_NO_ESPEAK }, () => {
    const speech = speak({ voice: 'en-us+m3', pitch: 35 }, SENTENCES[0]);
    const quiet = speech.map((v) => Math.round(v / 4));
    const a = signature.embed(speech);
    const b = signature.embed(quiet);
    assert.ok(a && b, 'a && b');
    assert.ok(signature.distance(a, b) < 0.01, 'signature.distance(a, b) < 0.01');
  });

  // docs/voices-and-audio.md quotes this table: enrolment on three sentences, 2.5 s probes of two others.
  test('separates male from female espeak voices; the same voice stays under 0.45', { skip: SKIP_NO_ESPEAK }, (t) => {
    const voices: Record<string, Voice & { sex: 'm' | 'f' }> = {
      'm3 p35': { voice: 'en-us+m3', pitch: 35, sex: 'm' },
      'm1 p50': { voice: 'en-us+m1', pitch: 50, sex: 'm' },
      'gb-m7 p10': { voice: 'en-gb+m7', pitch: 10, sex: 'm' },
      'f2 p75': { voice: 'en-us+f2', pitch: 75, sex: 'f' },
      'f4 p60': { voice: 'en-us+f4', pitch: 60, sex: 'f' },
      'f5 p99': { voice: 'en-us+f5', pitch: 99, sex: 'f' },
    };
    const names = Object.keys(voices);
    const enrolled = new Map<string, Float32Array>();
    const probes = new Map<string, Float32Array[]>();
    for (const name of names) {
      const vector = signature.embed(join16k(SENTENCES.slice(0, 3).map((s) => speak(voices[name], s))));
      assert.ok(vector, 'vector');
      enrolled.set(name, vector);
      const windows: Float32Array[] = [];
      for (const sentence of SENTENCES.slice(3)) {
        const audio = speak(voices[name], sentence);
        for (let at = 0; at + 40_000 <= audio.length; at += 16_000) {
          const probe = signature.embed(audio.subarray(at, at + 40_000));
          if (probe) windows.push(probe);
        }
      }
      probes.set(name, windows);
    }
    t.diagnostic(`probe \\ enrolled (worst case: max for the same voice, min otherwise): ${names.join(' | ')}`);
    for (const probe of names) {
      const row = names.map((name) => {
        const distances = (probes.get(probe) ?? []).map((p) =>
          signature.distance(p, enrolled.get(name) as Float32Array),
        );
        const worst = probe === name ? Math.max(...distances) : Math.min(...distances);
        if (probe === name) assert.ok(worst < MATCH_THRESHOLD, `${probe} vs itself: ${worst}`);
        else if (voices[probe].sex !== voices[name].sex)
          assert.ok(worst > MATCH_THRESHOLD, `${probe} vs ${name}: ${worst}`);
        return worst.toFixed(2);
      });
      t.diagnostic(`${probe.padEnd(10)} ${row.join('  ')}`);
    }
  });
});

describe('sherpa-onnx adapter', () => {
  test('a missing SPEAKER_MODEL file stops the start with one clear line', () => {
    assert.throws(
      () => SherpaEmbedder.open('/nonexistent/speaker.onnx'),
      (err: unknown) =>
        err instanceof ConfigError && err.message === 'SPEAKER_MODEL file not found: /nonexistent/speaker.onnx',
    );
  });

  test('a file that is not a speaker model is refused at start', () => {
    const path = join(tmpdir(), `not-a-model-${process.pid}.onnx`);
    writeFileSync(path, 'this is not an onnx model');
    assert.throws(
      () => chooseEmbedder(testConfig({ speakerModel: path }), pino({ level: 'silent' })),
      (err: unknown) => err instanceof ConfigError && err.message.startsWith('SPEAKER_MODEL'),
    );
  });

  const model = (name: string, bytes: Buffer) => {
    const path = join(tmpdir(), `${name}-${process.pid}.onnx`);
    writeFileSync(path, bytes);
    return path;
  };
  const tone = Int16Array.from({ length: 32000 }, (_, i) =>
    Math.round(5000 * Math.sin((2 * Math.PI * 180 * i) / 16000)),
  );

  test('a 256-dimensional model is run once at start and embeds audio through the native addon', () => {
    const path = model('speaker-256', speakerModel(256));
    const embedder = chooseEmbedder(testConfig({ speakerModel: path }), pino({ level: 'silent' }));
    assert.equal(embedder.engine, `sherpa:speaker-256-${process.pid}.onnx`);
    const vector = embedder.embed(tone);
    assert.equal(vector?.length, EMBEDDING_DIM);
    assert.ok(vector && embedder.distance(vector, vector) < 1e-6, 'vector && embedder.distance(vector, vector) < 1e-6');
    assert.equal(embedder.embed(new Int16Array(32000)), null);
  });

  test('a model of another dimension is refused at start, naming both dimensions', () => {
    const path = model('speaker-192', speakerModel(192));
    assert.throws(
      () => SherpaEmbedder.open(path),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.message ===
          'SPEAKER_MODEL produces 192-dimensional embeddings; Keepsake needs 256 (SPEC §6.1), e.g. a WeSpeaker ResNet34 model',
    );
  });

  test('a server started with SPEAKER_MODEL stores voice profiles as that model’s vectors', async () => {
    const t = await createTestApp('sqlite', { config: { speakerModel: model('speaker-app', speakerModel(256)) } });
    try {
      const user = await createUser(t.ctx);
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/users/me/voice-profile',
        headers: { ...user.session, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(Int16Array.from({ length: 48000 }, (_, i) => tone[i % tone.length]).buffer),
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json<{ engine: string }>().engine, `sherpa:speaker-app-${process.pid}.onnx`);
    } finally {
      await t.close();
    }
  });

  test('without SPEAKER_MODEL the spectral signature is used', () => {
    assert.equal(chooseEmbedder(testConfig(), pino({ level: 'silent' })).engine, 'spectral-v1');
  });
});
