import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTranscriber, startFakeTranscriber } from '../helpers/fake-transcriber.js';
import { conversation, hasSpeechTools } from '../providers/speech.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from './support.js';

describe('Silero VAD cuts the stream for OpenAI-compatible transcription', {
  skip: hasSpeechTools ? false : 'espeak-ng is not installed',
}, () => {
  let server: ListenServer;
  let transcriber: FakeTranscriber;
  // Seconds of audio in each posted WAV file.
  const posted = () => transcriber.requests.map((r) => r.pcm.length / 32_000);
  before(async () => {
    transcriber = await startFakeTranscriber((n) => `utterance ${n}`);
    server = await listenServer('sqlite', {
      config: {
        stt: {
          provider: 'openai',
          baseUrl: transcriber.url,
          apiKey: null,
          deepgramApiKey: null,
          deepgramUrl: 'wss://api.deepgram.com',
          modelDir: null,
          vad: 'auto',
        },
      },
    });
  });
  after(async () => {
    await server.close();
    await transcriber.close();
  });

  test('two sentences between silences become two utterances with their speech times', async () => {
    const { pcm, spans } = conversation([
      0.8,
      'Remind me to call the dentist tomorrow morning.',
      1.4,
      'Also buy some bread on the way home.',
      1.5,
    ]);
    const client = await ListenClient.connect(listenUrl(server.base), server.user.session);
    await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
    for (let at = 0; at < pcm.length; at += 3200) client.send(pcm.subarray(at, at + 3200));
    const segments = await client.waitFor(
      () => (client.transcripts().length >= 2 ? client.transcripts() : null),
      10_000,
    );
    assert.deepEqual(
      segments.map((s) => s.text),
      ['utterance 1', 'utterance 2'],
    );
    assert.equal(posted().length, 2);
    // The conversation starts at its first segment (SPEC §2.5), so times count from the first speech.
    const zero = spans[0].start;
    assert.equal(segments[0].start, 0);
    segments.forEach((s, i) => {
      const [start, end] = [spans[i].start - zero, spans[i].end - zero];
      assert.ok(Math.abs(Number(s.start) - start) <= 0.15, `start ${s.start} vs ${start}`);
      assert.ok(Math.abs(Number(s.end) - end) <= 0.35, `end ${s.end} vs ${end}`);
      // Only the speech is posted, not the silence around it.
      assert.ok(posted()[i] < spans[i].end - spans[i].start + 0.4, `posted ${posted()[i]} s`);
    });
    await client.close();
  });
});
