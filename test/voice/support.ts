import { samplesToBuffer } from '../../src/audio/pcm.js';
import { ManualClock } from '../../src/context-types.js';
import { pcm16ToWav } from '../../src/providers/audio/wav.js';
import type { DialectUnderTest } from '../helpers/app.js';
import { type DeepgramWord, type FakeDeepgram, startFakeDeepgram } from '../helpers/fake-deepgram.js';
import { ListenClient, type ListenServer, listenServer, listenUrl } from '../listen/support.js';
import { SENTENCES, speak, type Voice } from './espeak.js';

/**
 * Helpers for voice tests: a listen server on a manual clock whose transcription provider is a
 * local server speaking Deepgram's protocol (speaker identification does not run on client
 * transcripts, research/omi-listen.md §1.3), and speech streamed like a device.
 */

export interface VoiceServer extends ListenServer {
  clock: ManualClock;
  deepgram: FakeDeepgram;
}

export async function voiceServer(dialect: DialectUnderTest): Promise<VoiceServer> {
  const clock = new ManualClock();
  const deepgram = await startFakeDeepgram('dg-key');
  const server = await listenServer(dialect, {
    clock,
    config: {
      stt: {
        provider: 'deepgram',
        deepgramApiKey: 'dg-key',
        deepgramUrl: deepgram.url,
        baseUrl: null,
        apiKey: null,
        modelDir: null,
      },
    },
  });
  return {
    ...server,
    clock,
    deepgram,
    async close() {
      await server.close();
      await deepgram.close();
    },
  };
}

export interface Utterance {
  voice: Voice;
  text: string;
  /** SPEAKER_nn of the segment */
  speaker: number;
}

export interface Streamed {
  client: ListenClient;
  /** segment ids in utterance order */
  segmentIds: string[];
  conversationId: string;
}

const FRAME_BYTES = 3200; // 100 ms of 16 kHz PCM16

/**
 * Scripts the provider to return each utterance as one diarized segment once its audio has
 * arrived, connects, sends the audio in 100 ms frames and waits until every segment came back.
 */
export async function streamSpeech(server: VoiceServer, utterances: Utterance[]): Promise<Streamed> {
  const audio = utterances.map((u) => samplesToBuffer(speak(u.voice, u.text)));
  server.deepgram.clearScripts();
  let bytes = 0;
  for (const [i, utterance] of utterances.entries()) {
    const start = bytes / 32000;
    bytes += audio[i].length;
    server.deepgram.respondAfterBytes(bytes, words(utterance, start, bytes / 32000));
  }
  const client = await ListenClient.connect(
    listenUrl(server.base, { codec: 'pcm16', sample_rate: 16000 }),
    server.user.session,
  );
  const [session] = await client.waitForEvent('conversation_session');
  await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
  for (const [i, pcm] of audio.entries()) {
    for (let at = 0; at < pcm.length; at += FRAME_BYTES) client.send(pcm.subarray(at, at + FRAME_BYTES));
    await client.waitFor(
      () => unique(client.transcripts().map((s) => String(s.id))).length > i,
      10_000,
      `segment ${i}`,
    );
  }
  const ids = unique(client.transcripts().map((s) => String(s.id)));
  return { client, segmentIds: ids.slice(0, utterances.length), conversationId: String(session.conversation_id) };
}

/** The utterance's words spread evenly over its span, all with its speaker. */
function words(utterance: Utterance, start: number, end: number): DeepgramWord[] {
  const list = utterance.text.split(/\s+/);
  const step = (end - start) / list.length;
  return list.map((word, i) => ({
    word,
    punctuated_word: word,
    start: start + i * step,
    end: start + (i + 1) * step,
    speaker: utterance.speaker,
  }));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** A WAV file of a voice reading sentences (the voice-profile upload). */
export function wavOf(voice: Voice, sentences: string[] = SENTENCES.slice(0, 3)): Buffer {
  const joined = sentences.map((s) => speak(voice, s));
  const total = joined.reduce((n, s) => n + s.length, 0);
  const all = new Int16Array(total);
  let at = 0;
  for (const s of joined) {
    all.set(s, at);
    at += s.length;
  }
  return pcm16ToWav(samplesToBuffer(all), 16000);
}

/** Creates a person through the REST API and returns its id. */
export async function createPerson(server: Pick<ListenServer, 't' | 'user'>, name: string): Promise<string> {
  const response = await server.t.app.inject({
    method: 'POST',
    url: '/v1/people',
    headers: server.user.session,
    payload: { name },
  });
  if (response.statusCode !== 200) throw new Error(`create person: ${response.statusCode} ${response.body}`);
  return response.json<{ id: string }>().id;
}

/**
 * Teaches a person's voice the way a client does (SPEC §6.1): a session in which the client
 * assigns the speaker, then the sample queue after 120 s.
 */
export async function teach(server: VoiceServer, personId: string, voice: Voice, sentences: string[]): Promise<void> {
  const streamed = await streamSpeech(
    server,
    sentences.map((text) => ({ voice, text, speaker: 1 })),
  );
  streamed.client.send({
    type: 'speaker_assigned',
    speaker_id: 1,
    person_id: personId,
    segment_ids: streamed.segmentIds,
  });
  await waitUntil(async () => (await pendingSamples(server)) >= sentences.length, 'speaker samples queued');
  await streamed.client.close();
  server.clock.advance(121_000);
  await server.t.ctx.voice.samples.processDue();
}

export async function pendingSamples(server: ListenServer): Promise<number> {
  const rows = await server.t.ctx.store.db
    .selectFrom('speaker_samples')
    .select('id')
    .where('user_id', '=', server.user.uid)
    .where('status', '=', 'pending')
    .execute();
  return rows.length;
}

export async function waitUntil(probe: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
