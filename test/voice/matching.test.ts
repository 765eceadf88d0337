import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { samplesToBuffer } from '../../src/audio/pcm.js';
import { MATCH_THRESHOLD, MIN_MATCH_SPEECH_SECONDS, matchVoice } from '../../src/voice/matcher.js';
import { voicedSeconds } from '../../src/voice/voicing.js';
import { createUser, dialects } from '../helpers/app.js';
import { ListenClient, listenUrl, segment, suggest } from '../listen/support.js';
import { SENTENCES, SKIP_NO_ESPEAK, speak, VOICES, type Voice } from './espeak.js';
import { createPerson, streamSpeech, teach, type VoiceServer, voiceServer, wavOf } from './support.js';

/**
 * SPEC §6.1 speaker matching with real speech: espeak-ng voices stand for the user (a low male
 * voice), Alice (a female voice) and a stranger (a high child-like voice). Each test prints the
 * distances it relied on.
 */
for (const dialect of dialects()) {
  describe(`live speaker matching (${dialect})`, { skip: SKIP_NO_ESPEAK }, () => {
    let server: VoiceServer;
    beforeEach(async () => {
      server = await voiceServer(dialect);
    });
    afterEach(() => server.close());

    const uploadProfile = async () => {
      const response = await server.t.app.inject({
        method: 'POST',
        url: '/v1/users/me/voice-profile',
        headers: { ...server.user.session, 'content-type': 'audio/wav' },
        payload: wavOf(VOICES.user),
      });
      assert.equal(response.statusCode, 200, response.body);
    };

    /** The distances the live matcher sees for this speech (the same embedder and stored voices). */
    const distances = async (voice: Voice, text: string) => {
      const { embedder, service } = server.t.ctx.voice;
      const vector = embedder.embed(speak(voice, text));
      assert.ok(vector, 'vector');
      return matchVoice(embedder, vector, await service.knownVoices(server.user.uid)).distances.map(
        (d) => `${d.personName ?? 'user'}=${d.distance.toFixed(3)}`,
      );
    };

    test('a person taught in one session is suggested in the next, with the distance', async (t) => {
      const alice = await createPerson(server, 'Alice');
      await teach(server, alice, VOICES.alice, SENTENCES.slice(0, 3));
      const streamed = await streamSpeech(server, [{ voice: VOICES.alice, text: SENTENCES[4], speaker: 1 }]);
      const [suggestion] = await streamed.client.waitForEvent('speaker_label_suggestion', 1, 10_000);
      t.diagnostic(`alice probe: ${(await distances(VOICES.alice, SENTENCES[4])).join(' ')}`);
      assert.equal(suggestion.person_id, alice);
      assert.equal(suggestion.person_name, 'Alice');
      assert.equal(suggestion.speaker_id, 1);
      assert.deepEqual(suggestion.segments, streamed.segmentIds);
      assert.ok(
        typeof suggestion.distance === 'number' && suggestion.distance < MATCH_THRESHOLD,
        "typeof suggestion.distance === 'number' && suggestion.distance < MATCH_THRESHOLD",
      );
      await streamed.client.close();
    });

    test("the user's own voice sets is_user on the segment, stored and re-sent, with no suggestion", async (t) => {
      await uploadProfile();
      const streamed = await streamSpeech(server, [{ voice: VOICES.user, text: SENTENCES[3], speaker: 0 }]);
      const [id] = streamed.segmentIds;
      const resent = await streamed.client.waitFor(
        () => streamed.client.transcripts().find((s) => s.id === id && s.is_user === true),
        10_000,
        'is_user re-sent',
      );
      t.diagnostic(`user probe: ${(await distances(VOICES.user, SENTENCES[3])).join(' ')}`);
      assert.equal(resent.person_id, null);
      const stored = await server.t.ctx.store.db
        .selectFrom('transcript_segments')
        .select('is_user')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(stored.is_user), 1);
      assert.equal(streamed.client.events('speaker_label_suggestion').length, 0);
      await streamed.client.close();
    });

    test('a stranger gets no suggestion while known voices are stored', async (t) => {
      await uploadProfile();
      const alice = await createPerson(server, 'Alice');
      await teach(server, alice, VOICES.alice, SENTENCES.slice(0, 3));
      // The user's line after the stranger's: once it is matched, the stranger's attempt is done too.
      const streamed = await streamSpeech(server, [
        { voice: VOICES.stranger, text: SENTENCES[3], speaker: 2 },
        { voice: VOICES.user, text: SENTENCES[4], speaker: 0 },
      ]);
      await streamed.client.waitFor(
        () => streamed.client.transcripts().find((s) => s.id === streamed.segmentIds[1] && s.is_user === true),
        10_000,
        'the user line matched',
      );
      t.diagnostic(`stranger probe: ${(await distances(VOICES.stranger, SENTENCES[3])).join(' ')}`);
      assert.equal(streamed.client.events('speaker_label_suggestion').length, 0);
      const stranger = streamed.client.transcripts().filter((s) => s.id === streamed.segmentIds[0]);
      assert.ok(
        stranger.every((s) => s.is_user === false && s.person_id === null),
        'stranger.every((s) => s.is_user === false && s.person_id === null)',
      );
      await streamed.client.close();
    });

    test('a known voice with under 2 s of speech is not suggested, however close it is', async (t) => {
      await uploadProfile();
      const alice = await createPerson(server, 'Alice');
      await teach(server, alice, VOICES.alice, SENTENCES.slice(0, 3));
      const short = 'Yes, let us do that.';
      const seconds = voicedSeconds(speak(VOICES.alice, short));
      const close = await distances(VOICES.alice, short);
      t.diagnostic(`short alice probe (${seconds.toFixed(2)} s of speech): ${close.join(' ')}`);
      assert.ok(seconds < MIN_MATCH_SPEECH_SECONDS, `${seconds} s of speech`);
      assert.ok(
        close.some((d) => d.startsWith('Alice=') && Number(d.split('=')[1]) < MATCH_THRESHOLD),
        "close.some((d) => d.startsWith('Alice=') && Number(d.split('=')[1]) < MATCH_THRESHOLD)",
      );
      const streamed = await streamSpeech(server, [
        { voice: VOICES.alice, text: short, speaker: 1 },
        { voice: VOICES.user, text: SENTENCES[4], speaker: 0 },
      ]);
      await streamed.client.waitFor(
        () => streamed.client.transcripts().find((s) => s.id === streamed.segmentIds[1] && s.is_user === true),
        10_000,
        'the user line matched',
      );
      assert.equal(streamed.client.events('speaker_label_suggestion').length, 0);
      await streamed.client.close();
    });

    test('a session with client transcripts (custom_stt) is not matched', async () => {
      await uploadProfile();
      const client = await ListenClient.connect(
        listenUrl(server.base, { custom_stt: 'enabled', codec: 'pcm16', sample_rate: 16000 }),
        server.user.session,
      );
      await client.waitFor(() => client.events('service_status').find((e) => e.status === 'ready'));
      const audio = samplesToBuffer(speak(VOICES.user, SENTENCES[3]));
      for (let at = 0; at < audio.length; at += 3200) client.send(audio.subarray(at, at + 3200));
      client.send(suggest(segment(SENTENCES[3], 0, audio.length / 32000)));
      await client.waitFor(() => client.transcripts().length > 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.ok(
        client.transcripts().every((s) => s.is_user === false),
        'client.transcripts().every((s) => s.is_user === false)',
      );
      await client.close();
    });

    test("another user's people are never suggested", async () => {
      const other = await createUser(server.t.ctx, { name: 'Other' });
      const alice = await createPerson({ ...server, user: other }, 'Alice');
      await teach({ ...server, user: other }, alice, VOICES.alice, SENTENCES.slice(0, 3));
      const streamed = await streamSpeech(server, [
        { voice: VOICES.alice, text: SENTENCES[4], speaker: 1 },
        { voice: VOICES.alice, text: SENTENCES[3], speaker: 1 },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(streamed.client.events('speaker_label_suggestion').length, 0);
      await streamed.client.close();
    });
  });
}
