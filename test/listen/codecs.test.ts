import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { type AudioFormat, codecUnavailable, openDecoder } from '../../src/providers/audio/codecs.js';
import { pcm16ToWav } from '../../src/providers/audio/wav.js';
import { type FakeTranscriber, startFakeTranscriber } from '../helpers/fake-transcriber.js';
import { stats, tone } from './signal.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, sttConfig } from './support.js';

/**
 * AAC and LC3 as Omi's newer devices send them: frames made here by real encoders (Debian's ffmpeg
 * and liblc3's elc3), one frame per binary message, decoded by the same Debian tools.
 */

const pcmOf = (samples: Int16Array) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);

/** LC3 frames of 10 ms at 24 kb/s (30 bytes, `lc3_fs1030`) from elc3's file format: header, then length-prefixed frames. */
function encodeLc3(samples: Int16Array, rate: number): Buffer[] {
  const file = spawnSync('elc3', ['-b', '24000'], { input: pcm16ToWav(pcmOf(samples), rate) }).stdout;
  const frames: Buffer[] = [];
  for (let at = file.readUInt16LE(2); at + 2 <= file.length; ) {
    const length = file.readUInt16LE(at);
    frames.push(file.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return frames;
}

/** ADTS frames from ffmpeg's AAC encoder, split at each header's 13-bit frame length. */
function encodeAac(samples: Int16Array, rate: number): Buffer[] {
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 's16le', '-ar', String(rate), '-ac', '1', '-i', 'pipe:0'];
  const adts = spawnSync('ffmpeg', [...args, '-c:a', 'aac', '-b:a', '32k', '-f', 'adts', 'pipe:1'], {
    input: pcmOf(samples),
    maxBuffer: 1 << 26,
  }).stdout;
  const frames: Buffer[] = [];
  for (let at = 0; at + 7 <= adts.length; ) {
    const length = ((adts[at + 3] & 3) << 11) | (adts[at + 4] << 3) | (adts[at + 5] >> 5);
    frames.push(adts.subarray(at, at + length));
    at += length;
  }
  return frames;
}

async function decodeAll(format: AudioFormat, frames: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const decoder = await openDecoder(format, (pcm) => out.push(pcm));
  for (const frame of frames) out.push(decoder.decode(frame));
  await decoder.finish?.();
  decoder.free?.();
  return Buffer.concat(out);
}

const lc3Missing = codecUnavailable('lc3')
  ? 'liblc3-tools (elc3, dlc3) not installed: apt-get install liblc3-tools'
  : false;
const aacMissing = codecUnavailable('aac') ? 'ffmpeg not installed: apt-get install ffmpeg' : false;

describe('LC3 frames', { skip: lc3Missing }, () => {
  test('elc3 makes 30-byte frames of 10 ms, as lc3_fs1030 names them', () => {
    const frames = encodeLc3(tone(200, 16000), 16000);
    // 20 frames of audio, and one more for the codec's 2.5 ms delay
    assert.equal(frames.length, 21);
    assert.ok(
      frames.every((f) => f.length === 30),
      'frames.every((f) => f.length === 30)',
    );
  });

  for (const rate of [16000, 48000]) {
    test(`a ${rate} Hz LC3 stream decodes to 16 kHz PCM16 with the tone intact`, async () => {
      const pcm = await decodeAll({ codec: 'lc3', sampleRate: rate }, encodeLc3(tone(1000, rate), rate));
      const { seconds, rms, hz } = stats(pcm);
      assert.ok(Math.abs(seconds - 1) < 0.01, `decoded ${seconds} s`);
      assert.ok(rms > 3000, `rms ${rms}`);
      assert.ok(Math.abs(hz - 440) < 20, `tone at ${hz} Hz`);
    });
  }

  test('frames outside 20–400 bytes and the zero keepalive are dropped; the stream decodes on', async () => {
    const frames = encodeLc3(tone(500, 16000), 16000);
    const noisy = frames.flatMap((f, i) =>
      i % 10 === 3 ? [f, Buffer.alloc(5, 7), Buffer.alloc(320), Buffer.alloc(600, 1)] : [f],
    );
    const { seconds, hz } = stats(await decodeAll({ codec: 'lc3', sampleRate: 16000 }, noisy));
    assert.ok(Math.abs(seconds - 0.5) < 0.01, `decoded ${seconds} s`);
    assert.ok(Math.abs(hz - 440) < 20, `tone at ${hz} Hz`);
  });
});

describe('AAC frames', { skip: aacMissing }, () => {
  test('a 16 kHz ADTS stream decodes to 16 kHz PCM16 with the tone intact; the zero keepalive is skipped', async () => {
    const frames = encodeAac(tone(2000, 16000), 16000);
    assert.ok(
      frames.every((f) => f[0] === 0xff && (f[1] & 0xf0) === 0xf0),
      'ADTS sync words',
    );
    const withKeepalives = frames.flatMap((f, i) => (i % 8 === 0 ? [Buffer.alloc(320), f] : [f]));
    const { seconds, rms, hz } = stats(await decodeAll({ codec: 'aac', sampleRate: 16000 }, withKeepalives));
    assert.ok(Math.abs(seconds - 2) < 0.15, `decoded ${seconds} s`);
    assert.ok(rms > 3000, `rms ${rms}`);
    assert.ok(Math.abs(hz - 440) < 20, `tone at ${hz} Hz`);
  });

  test('a 44.1 kHz ADTS stream is resampled to 16 kHz', async () => {
    const { seconds, hz } = stats(
      await decodeAll({ codec: 'aac', sampleRate: 44100 }, encodeAac(tone(1000, 44100), 44100)),
    );
    assert.ok(Math.abs(seconds - 1) < 0.15, `decoded ${seconds} s`);
    assert.ok(Math.abs(hz - 440) < 20, `tone at ${hz} Hz`);
  });
});

describe('aac and lc3_fs1030 on the listen stream, as the app connects', () => {
  let server: ListenServer;
  let transcriber: FakeTranscriber;
  before(async () => {
    transcriber = await startFakeTranscriber(() => 'device audio arrived');
    server = await listenServer('sqlite', {
      config: { stt: sttConfig({ provider: 'openai', baseUrl: transcriber.url, vad: 'energy' }) },
    });
  });
  after(async () => {
    await server.close();
    await transcriber.close();
  });

  // The app's connection: codec and rate from the device, its platform and device hash headers,
  // and a uid query value that is not the server's id for the user (ignored, never trusted).
  const appHeaders = () => ({ ...server.user.session, 'X-App-Platform': 'android', 'X-Device-Id-Hash': 'abc123' });
  const appQuery = (codec: string) => ({ language: 'en', sample_rate: 16000, codec, uid: 'firebase-uid-of-the-app' });

  const cases = [
    { codec: 'lc3_fs1030', skip: lc3Missing, encode: encodeLc3 },
    { codec: 'aac', skip: aacMissing, encode: encodeAac },
  ];
  for (const { codec, skip, encode } of cases) {
    test(`${codec} frames reach the transcriber as the tone they carry`, { skip }, async () => {
      const before = transcriber.requests.length;
      const frames = encode(Int16Array.from([...tone(900, 16000), ...new Int16Array(16000 * 1.5)]), 16000);
      const client = await ListenClient.connect(listenUrl(server.base, appQuery(codec)), appHeaders());
      const ready = await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      assert.equal(ready.provider, 'openai');
      frames.forEach((frame, i) => {
        client.send(frame);
        if (i % 25 === 0) client.send(Buffer.alloc(320));
      });
      const [seg] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null), 10_000);
      assert.equal(seg.text, 'device audio arrived');
      assert.equal(client.closed, null);
      const { rms, hz, seconds } = stats(transcriber.requests[before].pcm);
      assert.ok(rms > 1500, `utterance rms ${rms}`);
      assert.ok(Math.abs(hz - 440) < 30, `utterance tone at ${hz} Hz`);
      assert.ok(seconds >= 0.8 && seconds < 2.2, `utterance of ${seconds} s`);
      await client.close();
    });
  }

  test('a codec whose decoder is not installed is closed with 1001 and the reason, before the stream starts', async () => {
    const real = server.t.ctx.listen.codecUnavailable;
    server.t.ctx.listen.codecUnavailable = (codec) => (codec === 'lc3' ? 'LC3 codec is not available' : null);
    try {
      const client = await ListenClient.connect(listenUrl(server.base, appQuery('lc3_fs1030')), appHeaders());
      assert.deepEqual(await client.waitForClose(), { code: 1001, reason: 'LC3 codec is not available' });
      assert.equal(client.frames.length, 0, 'no frame before the close');
    } finally {
      server.t.ctx.listen.codecUnavailable = real;
    }
  });
});
