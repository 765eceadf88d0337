import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import OpusScript from 'opusscript';
import { openDecoder } from '../../src/providers/audio/codecs.js';
import { OpusFrameDecoder, opusPacketProblem } from '../../src/providers/audio/opus.js';
import { type FakeTranscriber, startFakeTranscriber } from '../helpers/fake-transcriber.js';
import { speak } from '../providers/speech.js';
import { stats, tone } from './signal.js';
import { ListenClient, type ListenServer, listenServer, listenUrl, sttConfig as stt } from './support.js';

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

/** Encodes PCM16 into raw 20 ms Opus packets, as an Omi device sends them (one per frame). */
function encodeOpus(samples: Int16Array, rate: OpusRate): Buffer[] {
  const encoder = new OpusScript(rate, 1, OpusScript.Application.VOIP);
  const frame = rate / 50;
  const packets: Buffer[] = [];
  try {
    for (let at = 0; at + frame <= samples.length; at += frame) {
      const chunk = samples.slice(at, at + frame);
      packets.push(Buffer.from(encoder.encode(Buffer.from(chunk.buffer), frame)));
    }
  } finally {
    encoder.delete();
  }
  return packets;
}

describe('Opus packets', () => {
  test('encoder packets are well formed; packets breaking RFC 6716 framing are named', () => {
    for (const packet of encodeOpus(tone(200, 16000), 16000)) assert.equal(opusPacketProblem(packet), null);
    assert.equal(opusPacketProblem(new Uint8Array(0)), 'empty packet');
    assert.match(String(opusPacketProblem(new Uint8Array(5000).fill(9))), /too long/);
    assert.match(String(opusPacketProblem(Uint8Array.from([0x01, 1, 2, 3]))), /unequal/); // code 1, odd payload
    assert.match(String(opusPacketProblem(Uint8Array.from([0x02, 200, 1, 2]))), /overruns/); // code 2
    assert.match(String(opusPacketProblem(Uint8Array.from([0x03, 0x00]))), /frame count/); // code 3, M = 0
    assert.match(String(opusPacketProblem(Uint8Array.from([0x1b, 0x03, 1, 2]))), /frame count/); // 3 × 60 ms
    assert.match(String(opusPacketProblem(Uint8Array.from([0x03, 0x42, 50, 1]))), /overrun/); // padding
    assert.equal(opusPacketProblem(Uint8Array.from([0x03, 0x02, 1, 2])), null); // two 1-byte CBR frames
  });

  for (const rate of [16000, 48000, 8000] as const) {
    test(`a ${rate} Hz stream decodes to 16 kHz PCM16 with the tone intact`, async () => {
      const decoder = await openDecoder({ codec: 'opus', sampleRate: rate });
      const pcm = Buffer.concat(encodeOpus(tone(1000, rate), rate).map((p) => decoder.decode(p)));
      decoder.free?.();
      const { seconds, rms, hz } = stats(pcm);
      assert.ok(Math.abs(seconds - 1) < 0.01, `decoded ${seconds} s`);
      assert.ok(rms > 3000, `rms ${rms}`);
      assert.ok(Math.abs(hz - 440) < 20, `tone at ${hz} Hz`);
    });
  }

  test('malformed packets and the zero keepalive are dropped without disturbing the stream', async () => {
    const decoder = await OpusFrameDecoder.open();
    const [first, second] = encodeOpus(tone(40, 16000), 16000);
    assert.equal(decoder.decode(first).length, 640);
    assert.equal(decoder.decode(Buffer.alloc(320)).length, 0);
    assert.equal(decoder.decode(Buffer.alloc(5000, 7)).length, 0);
    assert.equal(decoder.decode(Buffer.from([0x03, 0x00])).length, 0);
    assert.equal(decoder.dropped, 2);
    assert.equal(decoder.decode(second).length, 640);
    decoder.free();
    decoder.free();
    assert.equal(decoder.decode(second).length, 0, 'a freed decoder decodes nothing');
  });
});

describe('codec=opus on the listen stream', () => {
  let server: ListenServer;
  let transcriber: FakeTranscriber;
  before(async () => {
    // An OpenAI-compatible transcription server that keeps the WAV files it is sent.
    transcriber = await startFakeTranscriber(() => 'opus audio arrived');
    server = await listenServer('sqlite', {
      // The tone is cut by the energy detector (Silero rightly hears no speech in it).
      config: { stt: stt({ provider: 'openai', baseUrl: transcriber.url, vad: 'energy' }) },
    });
  });
  after(async () => {
    await server.close();
    await transcriber.close();
  });

  test('24 kHz Opus packets reach the transcriber as the tone they carry; bad packets do not close the socket', async () => {
    const packets = encodeOpus(Int16Array.from([...tone(900, 24000), ...new Int16Array(24000 * 1.2)]), 24000);
    const client = await ListenClient.connect(listenUrl(server.base, { codec: 'opus', sample_rate: 24000 }), {
      ...server.user.session,
    });
    const ready = await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
    assert.equal(ready.provider, 'openai');
    const garbage = [Buffer.alloc(5000, 3), Buffer.from([0x03, 0x00, 0x00]), Buffer.from([0x01, 9, 9, 9])];
    packets.forEach((packet, i) => {
      client.send(packet);
      if (i % 10 === 5) client.send(garbage[i % garbage.length]);
      if (i % 25 === 0) client.send(Buffer.alloc(320));
    });
    const [seg] = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null), 10_000);
    assert.equal(seg.text, 'opus audio arrived');
    assert.equal(client.closed, null);
    const { rms, hz, seconds } = stats(transcriber.requests[0].pcm);
    assert.ok(rms > 1500, `utterance rms ${rms}`);
    assert.ok(Math.abs(hz - 440) < 30, `utterance tone at ${hz} Hz`);
    assert.ok(seconds >= 0.9 && seconds < 2.2, `utterance of ${seconds} s`);
    await client.close();
  });

  test('/v4/web/listen accepts codec=opus after the auth message', async () => {
    const client = await ListenClient.connect(
      listenUrl(server.base, { codec: 'opus', sample_rate: 16000 }, '/v4/web/listen'),
    );
    client.send({ type: 'auth', token: server.user.token });
    const ready = await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
    assert.equal(ready.provider, 'openai');
    await client.close();
  });
});

const hasTools = ['pocketsphinx_continuous', 'espeak-ng'].every(
  (bin) => spawnSync(bin, bin === 'pocketsphinx_continuous' ? ['-help', 'yes'] : ['--version']).error === undefined,
);

describe('Opus speech end to end', { skip: hasTools ? false : 'pocketsphinx or espeak-ng not installed' }, () => {
  let server: ListenServer;
  before(async () => {
    server = await listenServer('sqlite', { config: { stt: stt({ provider: 'pocketsphinx' }) } });
  });
  after(() => server.close());

  test('espeak-ng speech sent as 16 kHz Opus packets comes back as words of the sentence', async () => {
    const raw = speak('I want to go home now', 140);
    const speech = new Int16Array(raw.buffer, raw.byteOffset, raw.length >> 1);
    const packets = encodeOpus(Int16Array.from([...speech, ...new Int16Array(16000)]), 16000);
    const client = await ListenClient.connect(listenUrl(server.base, { codec: 'opus_fs320' }), server.user.session);
    await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
    for (const packet of packets) client.send(packet);
    const segments = await client.waitFor(
      () => (client.transcripts().length > 0 ? client.transcripts() : null),
      30_000,
    );
    const words = segments.map((s) => String(s.text).toLowerCase()).join(' ');
    const matched = ['want', 'go', 'home', 'now'].filter((w) => words.split(/\s+/).includes(w));
    assert.ok(matched.length >= 1, `recognized: ${words}`);
    await client.close();
  });
});
