import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/context-types.js';
import { dialects } from '../helpers/app.js';
import { type FakeTranscriber, startFakeTranscriber } from '../helpers/fake-transcriber.js';
import { stats, tone } from './signal.js';
import { ListenClient, type ListenServer, listenServer, sttConfig } from './support.js';

const PATH = '/v2/voice-message/transcribe-stream';

/** The query the macOS and Electron desktop clients build for push-to-talk. */
function pttUrl(base: string, overrides: Record<string, string | number> = {}): string {
  const query = { language: 'en', sample_rate: 16000, codec: 'linear16', channels: 1, ...overrides };
  return `${base}${PATH}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
}

/** PCM16 in the 100 ms (3200-byte) chunks the desktop clients buffer before sending. */
function chunks(samples: Int16Array, bytes = 3200): Buffer[] {
  const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const out: Buffer[] = [];
  for (let at = 0; at < pcm.length; at += bytes) out.push(pcm.subarray(at, at + bytes));
  return out;
}

for (const dialect of dialects()) {
  describe(`push-to-talk transcribe-stream (${dialect})`, () => {
    let server: ListenServer;
    let transcriber: FakeTranscriber;
    let clock: ManualClock;
    before(async () => {
      clock = new ManualClock();
      transcriber = await startFakeTranscriber((n) => `push to talk ${n}`);
      server = await listenServer(dialect, {
        clock,
        config: { stt: sttConfig({ provider: 'openai', baseUrl: transcriber.url, vad: 'energy' }) },
      });
    });
    after(async () => {
      await server.close();
      await transcriber.close();
    });

    const desktopHeaders = () => ({ ...server.user.session, 'X-App-Platform': 'macos', 'X-Device-Id-Hash': 'd1' });

    test('audio then `finalize` brings the segments back as a JSON array; no conversation is made', async () => {
      const seen = transcriber.requests.length;
      const url = pttUrl(server.base, { keywords: 'Omi,Keepsake' });
      const client = await ListenClient.connect(url, desktopHeaders());
      for (const chunk of chunks(tone(700, 16000))) client.send(chunk);
      client.send('finalize');
      const segments = await client.waitFor(() => (client.transcripts().length > 0 ? client.transcripts() : null));
      const [segment] = segments;
      assert.equal(segment.text, `push to talk ${seen + 1}`);
      assert.equal(segment.speaker, 'SPEAKER_00');
      assert.equal(segment.speaker_id, 0);
      assert.equal(segment.is_user, false);
      assert.equal(segment.person_id, null);
      assert.ok(
        typeof segment.start === 'number' && typeof segment.end === 'number',
        "typeof segment.start === 'number' && typeof segment.end === 'number'",
      );
      assert.ok(
        Math.abs(stats(transcriber.requests[seen].pcm).hz - 440) < 30,
        'Math.abs(stats(transcriber.requests[seen].pcm).hz - 440) < 30',
      );
      // Transcription only: no events, no ping, and the socket stays open for the client to close.
      assert.ok(
        client.frames.every((f) => Array.isArray(f)),
        JSON.stringify(client.frames),
      );
      assert.equal(client.closed, null);
      const rows = await server.t.ctx.store.db
        .selectFrom('conversations')
        .select('id')
        .where('user_id', '=', server.user.uid)
        .execute();
      assert.deepEqual(rows, []);
      client.send(Buffer.alloc(3200, 1));
      assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'Transcription already finalized' });
    });

    test('48 kHz audio is resampled to what the provider takes', async () => {
      const seen = transcriber.requests.length;
      const client = await ListenClient.connect(pttUrl(server.base, { sample_rate: 48000 }), desktopHeaders());
      for (const chunk of chunks(tone(700, 48000), 9600)) client.send(chunk);
      client.send('finalize');
      await client.waitFor(() => client.transcripts().length > 0);
      const { seconds, hz } = stats(transcriber.requests[seen].pcm);
      assert.ok(Math.abs(hz - 440) < 30, `tone at ${hz} Hz`);
      assert.ok(seconds > 0.5 && seconds < 1.5, `utterance of ${seconds} s`);
      await client.close();
    });

    test('bad parameters close with 1008 and the reference reasons, before any audio is taken', async () => {
      const cases: Array<[Record<string, string | number>, string]> = [
        [{ codec: 'pcm16' }, 'Unsupported codec; only linear16 is supported'],
        [{ sample_rate: 96000 }, 'sample_rate must be between 8000 and 48000'],
        [{ channels: 3 }, 'channels must be 1 or 2'],
        [{ channels: 2 }, 'Only mono (channels=1) is supported by this transcription provider'],
        [{ sample_rate: 'fast' }, 'sample_rate: Input should be a valid integer, unable to parse string as an integer'],
      ];
      for (const [query, reason] of cases) {
        const client = await ListenClient.connect(pttUrl(server.base, query), desktopHeaders());
        assert.deepEqual(await client.waitForClose(), { code: 1008, reason }, JSON.stringify(query));
      }
      const anonymous = await ListenClient.connect(pttUrl(server.base), {});
      assert.deepEqual(await anonymous.waitForClose(), { code: 1008, reason: 'Authorization header not found' });
    });

    test('60 s without audio closes with 1008; text frames do not count as audio', async () => {
      const client = await ListenClient.connect(pttUrl(server.base), desktopHeaders());
      client.send(Buffer.alloc(3200));
      await new Promise((resolve) => setTimeout(resolve, 50));
      client.send('hello');
      clock.advance(60_001);
      assert.deepEqual(await client.waitForClose(), { code: 1008, reason: 'Idle timeout: no audio for 60s' });
    });
  });
}

describe('push-to-talk without a transcription provider', () => {
  let server: ListenServer;
  before(async () => {
    server = await listenServer('sqlite');
  });
  after(() => server.close());

  test('is closed with 1011 as the reference does', async () => {
    const client = await ListenClient.connect(pttUrl(server.base), server.user.session);
    assert.deepEqual(await client.waitForClose(), { code: 1011, reason: 'Transcription service unavailable' });
  });
});
